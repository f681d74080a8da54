// Result files (docs/result-format.md): reduce and merge keep the numbers.
//   pctiles(merge(reduce(A), reduce(B))) == pctiles(A u B) exactly, any order;
//   reduce at Q, query at k*Q == query the logs at k*Q exactly; merge associative and
//   commutative (byte-identical encodings); encode -> decode -> encode stable;
//   truncated or corrupt files give a specific message, never a crash; the
//   committed version 1 file keeps decoding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;

const std::vector<std::string> kLabels{"p0", "p50", "p90", "p99", "p99.9", "p100"};

// The default extremes rule (docs/extremes.md): a result's cells record the
// bins their midpoint windows' extremes may come from, so min, max, p0 and
// p100 agree with the logs too.
QueryOptions query_at(double q, GroupBy g = {}) {
  QueryOptions o;
  o.quantum_ms = q;
  o.group_by = std::move(g);
  o.percentiles = {0, 50, 90, 99, 99.9, 100};
  return o;
}

std::string pctiles_of_files(const std::vector<std::string>& files, const QueryOptions& o) {
  Engine e;
  for (const std::string& f : files) {
    std::string text;
    EXPECT_TRUE(fixtures::read_file(f, &text)) << f;
    testing::feed(&e, f, text);
  }
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  return pctiles_csv(r, kLabels, Unit::kNs);
}

Result reduce(const std::vector<std::string>& files, double q, GroupBy keep = {"*"}) {
  return fixtures::reduce_files(files, q, std::move(keep));
}

std::vector<uint8_t> encode(const Result& r, uint32_t qpb = 600) {
  std::vector<uint8_t> b;
  EXPECT_TRUE(encode_result(r, &deflate_zlib, &b, qpb).ok());
  return b;
}

std::string pctiles_of_result(const std::vector<uint8_t>& bytes, const QueryOptions& o) {
  Engine e;
  const int h = e.open_file("x.lsr");
  e.append(h, reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const Source& s = e.finish(h);
  EXPECT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(s.format, FileFormat::kResult);
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  return pctiles_csv(r, kLabels, Unit::kNs);
}

// Field by field: text equal, or numbers close: samples within
// 1e-8 relative, values (min, mean, percentiles, max) within 1e-5. The counts are
// fixed point at 2^-28 I/O (result.h): a percentile whose rank falls where
// the CDF is flat (a bin holding a fraction of an I/O) moves with that
// rounding (docs/result-format.md, "Counts: fixed point").
void expect_close(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  int line = 0;
  while (std::getline(sa, la)) {
    ASSERT_TRUE(std::getline(sb, lb)) << "line " << line;
    std::istringstream fa(la), fb(lb);
    std::string x, y;
    int col = 0;
    while (std::getline(fa, x, ',')) {
      const double tol = col == 2 ? 1e-8 : 1e-5;  // samples; values and mean
      ++col;
      ASSERT_TRUE(std::getline(fb, y, ',')) << la << "\n" << lb;
      if (x == y) continue;
      char* ex = nullptr;
      char* ey = nullptr;
      const double dx = std::strtod(x.c_str(), &ex), dy = std::strtod(y.c_str(), &ey);
      ASSERT_TRUE(*ex == 0 && *ey == 0 && !x.empty()) << la << "\n" << lb;
      EXPECT_NEAR(dx, dy, tol * std::max(1.0, std::fabs(dx))) << la << "\n" << lb;
    }
    ++line;
  }
  EXPECT_FALSE(std::getline(sb, lb));
  EXPECT_GT(line, 2);
}

// Exact, not close: every count is a sum of whole result units (aligner.h,
// Share), so both sides add the same integers and print the same text.
TEST(Result, MergeOfReducesEqualsTheUnionInAnyOrder) {
  struct Set {
    std::vector<std::string> a, b;
  };
  const std::vector<Set> sets = {
      {files_of("fio-s1", "_clat_hist.1."), files_of("fio-s1", "_clat_hist.2.")},
      {files_of("cs", "127.0.0.1"), files_of("cs", "127.0.0.2")},
      {files_of("local", "_clat_hist.1"), files_of("local", "_clat_hist.2")},
  };
  for (const Set& set : sets) {
    std::vector<std::string> all = set.a;
    all.insert(all.end(), set.b.begin(), set.b.end());
    const Result ra = reduce(set.a, 1000), rb = reduce(set.b, 1000);
    Result ab = ra, ba = rb;
    ASSERT_TRUE(merge(&ab, rb).ok());
    ASSERT_TRUE(merge(&ba, ra).ok());
    EXPECT_EQ(encode(ab), encode(ba));
    for (const GroupBy& g : {GroupBy{}, GroupBy{"host"}, GroupBy{"job", "dir"}}) {
      for (double q : {1000.0, 5000.0}) {
        const std::string want = pctiles_of_files(all, query_at(q, g));
        EXPECT_EQ(want, pctiles_of_result(encode(ab), query_at(q, g)));
        EXPECT_EQ(want, pctiles_of_result(encode(ba), query_at(q, g)));
      }
    }
  }
}

// A window's shares of the quanta Q inside a quantum kQ add up to its share
// of kQ exactly (telescoping, aligner.h): equal text again.
// A result holds no record of its logs' interval: 500 ms quanta over fio-s1's
// 1 s windows are flagged finer on the logs (docs/quanta.md; `reduce` says so
// when it writes the result), not on the result read back.
std::string without_finer(std::string csv) {
  for (size_t at; (at = csv.find(";finer")) != std::string::npos;) csv.erase(at, 6);
  for (size_t at; (at = csv.find(",finer")) != std::string::npos;) csv.erase(at + 1, 5);
  return csv;
}

TEST(Result, ReduceAtQThenQueryAtAMultipleEqualsTheLogs) {
  const std::vector<std::string> files = files_of("fio-s1", "_clat_hist.");
  const Result r = reduce(files, 500, {"host", "dir"});
  for (double q : {500.0, 1000.0, 2500.0, 10000.0})
    for (const GroupBy& g : {GroupBy{}, GroupBy{"dir"}, GroupBy{"host", "dir"}})
      EXPECT_EQ(without_finer(pctiles_of_files(files, query_at(q, g))), pctiles_of_result(encode(r), query_at(q, g)));
}

TEST(Result, MergeIsAssociativeAndCommutative) {
  const Result a = reduce(files_of("fio-s1", "_clat_hist.1.log.127.0.0.1"), 1000);
  const Result b = reduce(files_of("fio-s1", "_clat_hist.2.log.127.0.0.1"), 1000, {"host"});
  const Result c = reduce(files_of("cs", "_clat_hist.1.log.127.0.0.2"), 2000, {"host"});
  Result ab_c = a, a_bc = a, bc = b, cb_a = c;
  ASSERT_TRUE(merge(&ab_c, b).ok());
  ASSERT_TRUE(merge(&ab_c, c).ok());
  ASSERT_TRUE(merge(&bc, c).ok());
  ASSERT_TRUE(merge(&a_bc, bc).ok());
  ASSERT_TRUE(merge(&cb_a, b).ok());
  ASSERT_TRUE(merge(&cb_a, a).ok());
  EXPECT_EQ(ab_c.quantum_ms, 2000);  // re-quantized onto the coarser, with a note
  EXPECT_FALSE(ab_c.notes.empty());
  EXPECT_EQ(encode(ab_c), encode(a_bc));
  EXPECT_EQ(encode(ab_c), encode(cb_a));
}

TEST(Result, MergeRefusesWhatItCannotAddExactly) {
  Result a = reduce(files_of("fio-s1", "_clat_hist.1.log.127.0.0.1"), 1000);
  const Result b = reduce(files_of("fio-s1", "_clat_hist.2.log.127.0.0.1"), 1500);
  const std::vector<uint8_t> before = encode(a);
  const Status st = merge(&a, b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("neither is a multiple"), std::string::npos) << st.message;
  EXPECT_EQ(encode(a), before);
  Result epoch = reduce(files_of("epoch", "_clat_hist."), 1000);
  ASSERT_TRUE(epoch.absolute_time);
  EXPECT_NE(merge(&a, epoch).message.find("epoch clock"), std::string::npos);
}

TEST(Result, EncodeDecodeEncodeIsStable) {
  const Result r = reduce(files_of("cs", "_clat_hist."), 100);
  for (uint32_t qpb : {1u, 7u, 600u}) {
    const std::vector<uint8_t> e1 = encode(r, qpb);
    Result d;
    ASSERT_TRUE(decode_result(e1.data(), e1.size(), &d).ok());
    EXPECT_EQ(encode(d, qpb), e1);
  }
}

TEST(Result, TruncatedAndCorruptFilesSaySoAndNeverCrash) {
  const std::vector<uint8_t> good = encode(reduce(files_of("local", "_clat_hist.1"), 1000), 4);
  Result d;
  for (size_t n = 0; n < good.size(); ++n) {
    const Status st = decode_result(good.data(), n, &d);
    ASSERT_FALSE(st.ok()) << n;
    EXPECT_EQ(st.message.rfind("result: ", 0), 0u) << st.message;
  }
  EXPECT_EQ(decode_result(good.data(), 20, &d).message.substr(0, 16), "result: header: ");
  for (size_t i = 8; i < good.size(); i += 3) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x5a;
    (void)decode_result(bad.data(), bad.size(), &d);  // any verdict, no crash (ASan, fuzz_result)
  }
  std::vector<uint8_t> v9 = good;
  v9[8] = 9;
  EXPECT_NE(decode_result(v9.data(), v9.size(), &d).message.find("version 9"), std::string::npos);
  // Through the engine: the file is unusable with the decoder's words.
  Engine e;
  const int h = e.open_file("cut.lsr");
  e.append(h, reinterpret_cast<const char*>(good.data()), good.size() / 2);
  const Source& s = e.finish(h);
  EXPECT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message.find("cut.lsr: result: "), std::string::npos) << s.status.message;
}

// tests/fixtures/result/v1-local.lsr: written by version 1 (`latscope reduce
// --quantum 1000 tests/fixtures/local/local_clat_hist.*.log -o ...`) and
// committed; every later reader must decode it to the same numbers.
// Its counts were rounded per cell by the writer of the time (before shares
// were rounded per window), so numbers agree closely rather than exactly.
TEST(Result, CommittedVersion1FileKeepsLoading) {
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v1-local.lsr", &text));
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  ASSERT_EQ(bytes[8], 1);  // version 1
  Result r;
  ASSERT_TRUE(decode_result(bytes.data(), bytes.size(), &r).ok());
  EXPECT_EQ(r.quantum_ms, 1000);
  const std::vector<std::string> logs = files_of("local", "_clat_hist.");
  // Version 1 records no extremes: its cells read as "every bin may hold
  // one", the rule before docs/extremes.md's (window_extremes off).
  for (double q : {1000.0, 3000.0}) {
    QueryOptions every_bin = query_at(q, {"job"});
    every_bin.window_extremes = false;
    expect_close(pctiles_of_files(logs, every_bin), pctiles_of_result(bytes, query_at(q, {"job"})));
  }
}

// tests/fixtures/result/v2-local.lsr: `latscope reduce
// tests/fixtures/local/*_clat_hist.* -o v2-local.lsr` (version 2, with each
// cell's extremes). It keeps answering exactly as the logs do.
TEST(Result, CommittedVersion2FileMatchesItsLogs) {
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v2-local.lsr", &text));
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  ASSERT_EQ(bytes[8], 2);  // version 2
  const std::vector<std::string> logs = files_of("local", "_clat_hist.");
  for (double q : {1000.0, 3000.0})
    for (const GroupBy& g : {GroupBy{}, GroupBy{"job"}})
      EXPECT_EQ(pctiles_of_files(logs, query_at(q, g)), pctiles_of_result(bytes, query_at(q, g)));
}

// tests/fixtures/result-v5/v5-cs.lsr: `latscope reduce --keep host,dir
// --matrix none tests/fixtures/cs/cs_clat_hist.* -o v5-cs.lsr` (version 5:
// two hosts, blocks cut by host; docs/result-format.md, "Blocks by host
// (version 5)"). It keeps answering exactly as the logs do.
TEST(Result, CommittedVersion5FileMatchesItsLogs) {
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result-v5/v5-cs.lsr", &text));
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  ASSERT_EQ(bytes[8], 5);  // version 5
  const std::vector<std::string> logs = files_of("cs", "_clat_hist.");
  for (double q : {1000.0, 3000.0})
    for (const GroupBy& g : {GroupBy{}, GroupBy{"host"}, GroupBy{"host", "dir"}})
      EXPECT_EQ(pctiles_of_files(logs, query_at(q, g)), pctiles_of_result(bytes, query_at(q, g)));
}

}  // namespace
}  // namespace latscope
