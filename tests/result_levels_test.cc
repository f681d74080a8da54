// Results of several resolutions (docs/result-format.md, "Several
// resolutions"): a version 3 file embeds, per quantum, exactly the version 2
// file `reduce --quantum Q` writes; its directory is read from the tail alone;
// one level decodes without touching the others; merging the finest levels
// gives the levels of the merge; a query reads the coarsest level that its
// quantum divides and prints what the finest level prints.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;

const std::vector<std::string> kLabels{"p0", "p50", "p90", "p99", "p99.9", "p100"};

std::vector<uint8_t> encode(const Result& r) {
  std::vector<uint8_t> b;
  EXPECT_TRUE(encode_result(r, &deflate_zlib, &b).ok());
  return b;
}

std::vector<uint8_t> encode_levels(const Result& r, const std::vector<double>& q) {
  std::vector<uint8_t> b;
  const Status st = encode_result_levels(r, q, &deflate_zlib, &b);
  EXPECT_TRUE(st.ok()) << st.message;
  return b;
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& b, const ResultLevel& l) {
  // size_t and iterator steps are 32 bits in the WebAssembly suite; the format's offsets are u64.
  const auto at = static_cast<std::ptrdiff_t>(l.offset), n = static_cast<std::ptrdiff_t>(l.length);
  return std::vector<uint8_t>(b.begin() + at, b.begin() + at + n);
}

struct Set {
  const char* name;
  std::vector<std::string> files;
  double finest;
  std::vector<double> levels;
};

std::vector<Set> sets() {
  return {
      {"fio-s1", files_of("fio-s1", "_clat_hist."), 100, {100, 1000, 6000}},
      {"cs", files_of("cs", "_clat_hist."), 250, {250, 1000, 2000, 5000}},
      {"local", files_of("local", "_clat_hist."), 1000, {1000, 3000}},
      {"epoch", files_of("epoch", "_clat_hist."), 500, {500, 2000, 10000}},  // epoch clock
  };
}

TEST(ResultLevels, EachLevelIsByteForByteTheReduceAtItsQuantum) {
  for (const Set& s : sets()) {
    SCOPED_TRACE(s.name);
    ASSERT_FALSE(s.files.empty());
    const std::vector<uint8_t> multi = encode_levels(fixtures::reduce_files(s.files, s.finest), s.levels);
    ASSERT_EQ(std::memcmp(multi.data(), "LSRESULT", 8), 0);
    EXPECT_EQ(multi[8], 3);
    std::vector<ResultLevel> dir;
    ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &dir).ok());
    ASSERT_EQ(dir.size(), s.levels.size());
    for (size_t i = 0; i < dir.size(); ++i) {
      SCOPED_TRACE(s.levels[i]);
      EXPECT_EQ(dir[i].quantum_ms, s.levels[i]);
      // The reduce at this quantum, straight from the logs.
      const std::vector<uint8_t> alone = encode(fixtures::reduce_files(s.files, s.levels[i]));
      EXPECT_EQ(slice(multi, dir[i]), alone);
      EXPECT_EQ(dir[i].offset, i == 0 ? 12u : dir[i - 1].offset + dir[i - 1].length);
    }
  }
}

TEST(ResultLevels, DecodeReadsOneLevelChosenByQuantum) {
  const Set s = sets()[0];
  const std::vector<uint8_t> multi = encode_levels(fixtures::reduce_files(s.files, s.finest), s.levels);
  Result d;
  ASSERT_TRUE(decode_result(multi.data(), multi.size(), &d).ok());
  EXPECT_EQ(d.quantum_ms, 100);
  EXPECT_EQ(encode(d), encode(fixtures::reduce_files(s.files, 100)));
  for (double q : s.levels) {
    const Status st = decode_result(multi.data(), multi.size(), &d, size_t{1} << 30, q);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(d.quantum_ms, q);
    EXPECT_EQ(encode(d), encode(fixtures::reduce_files(s.files, q)));
  }
  const Status none = decode_result(multi.data(), multi.size(), &d, size_t{1} << 30, 2000);
  EXPECT_EQ(none.message, "result: no level of 2000 ms (the file has 100, 1000, 6000 ms)");
  EXPECT_TRUE(d.series.empty());
  // A single-level file is its one level.
  const std::vector<uint8_t> one = encode(fixtures::reduce_files(s.files, 100));
  EXPECT_TRUE(decode_result(one.data(), one.size(), &d, size_t{1} << 30, 100).ok());
  EXPECT_FALSE(decode_result(one.data(), one.size(), &d, size_t{1} << 30, 1000).ok());
}

TEST(ResultLevels, DecodingOneLevelNeverInflatesTheOthers) {
  const Set s = sets()[0];
  std::vector<uint8_t> multi = encode_levels(fixtures::reduce_files(s.files, s.finest), s.levels);
  std::vector<ResultLevel> dir;
  ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &dir).ok());
  // Garbage over all but the magic and version of levels 1 and 2: level 0 still decodes.
  for (size_t i = 1; i < dir.size(); ++i)
    for (uint64_t k = 12; k < dir[i].length; ++k) multi[static_cast<size_t>(dir[i].offset + k)] = 0xa5;
  Result d;
  const Status st = decode_result(multi.data(), multi.size(), &d);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(encode(d), encode(fixtures::reduce_files(s.files, 100)));
  const Status bad = decode_result(multi.data(), multi.size(), &d, size_t{1} << 30, 6000);
  EXPECT_EQ(bad.message.rfind("result: level 2 (6000 ms): header: ", 0), 0u) << bad.message;
}

TEST(ResultLevels, DirectoryFromTheTailAloneSaysHowManyBytesItNeeds) {
  const Set s = sets()[1];
  const std::vector<uint8_t> multi = encode_levels(fixtures::reduce_files(s.files, s.finest), s.levels);
  std::vector<ResultLevel> whole, sums;
  ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &whole, &sums).ok());
  // The set's two hosts: its coarser levels summed over hosts too, under
  // "LSLEVEL2" u32 n, 28 bytes a level (docs/result-format.md, "Levels summed over hosts").
  ASSERT_EQ(sums.size(), whole.size() - 1);
  const uint64_t dir_bytes = 12 + 28 * (whole.size() + sums.size());
  size_t tail = 0;  // grows as the page's range requests do: 0, 16, then the directory
  std::vector<uint64_t> asked;
  for (int round = 0; round < 4; ++round) {
    std::vector<ResultLevel> dir;
    uint64_t need = 0;
    const Status st =
        read_result_levels_tail(multi.data() + multi.size() - tail, tail, multi.size(), &dir, &need);
    ASSERT_TRUE(st.ok()) << st.message;
    if (need == 0) {
      ASSERT_EQ(dir.size(), whole.size());
      for (size_t i = 0; i < dir.size(); ++i) {
        EXPECT_EQ(dir[i].quantum_ms, whole[i].quantum_ms);
        EXPECT_EQ(dir[i].offset, whole[i].offset);
        EXPECT_EQ(dir[i].length, whole[i].length);
      }
      break;
    }
    EXPECT_TRUE(dir.empty());
    EXPECT_GT(need, tail);
    asked.push_back(need);
    tail = static_cast<size_t>(need);
  }
  EXPECT_EQ(asked, (std::vector<uint64_t>{16, dir_bytes + 16}));
  // Every tail length: need more, or the same directory; never an error.
  for (size_t k = 0; k <= multi.size(); k += (k < 200 ? 1 : 997)) {
    std::vector<ResultLevel> dir;
    uint64_t need = 0;
    ASSERT_TRUE(read_result_levels_tail(multi.data() + multi.size() - k, k, multi.size(), &dir, &need).ok()) << k;
    EXPECT_EQ(need == 0, k >= dir_bytes + 16) << k;
    EXPECT_EQ(dir.size(), need == 0 ? whole.size() : 0u) << k;
  }
  // Each level's bytes alone are an ordinary result of one level: version 5,
  // the set's series holding several hosts (blocks by host).
  for (const ResultLevel& l : whole) {
    Result d;
    const std::vector<uint8_t> bytes = slice(multi, l);
    EXPECT_EQ(bytes[8], 5);
    ASSERT_TRUE(decode_result(bytes.data(), bytes.size(), &d).ok());
    EXPECT_EQ(d.quantum_ms, l.quantum_ms);
  }
}

// `latscope merge` merges the finest levels and writes the levels again.
TEST(ResultLevels, MergeOfLevelsEqualsTheLevelsOfTheMerge) {
  const std::vector<double> q{100, 1000, 6000};
  const Result ra = fixtures::reduce_files(files_of("fio-s1", "_clat_hist.1."), 100);
  const Result rb = fixtures::reduce_files(files_of("fio-s1", "_clat_hist.2."), 100);
  const std::vector<uint8_t> la = encode_levels(ra, q), lb = encode_levels(rb, q);
  Result fa, fb;
  ASSERT_TRUE(decode_result(la.data(), la.size(), &fa).ok());
  ASSERT_TRUE(decode_result(lb.data(), lb.size(), &fb).ok());
  ASSERT_TRUE(merge(&fa, fb).ok());
  const std::vector<uint8_t> merged = encode_levels(fa, q);
  std::vector<ResultLevel> dir;
  ASSERT_TRUE(read_result_levels(merged.data(), merged.size(), &dir).ok());
  ASSERT_EQ(dir.size(), 3u);
  for (size_t i = 0; i < dir.size(); ++i) {
    SCOPED_TRACE(q[i]);
    // The same level of each input, merged: cells nest, so the same integers.
    Result a, b;
    ASSERT_TRUE(decode_result(la.data(), la.size(), &a, size_t{1} << 30, q[i]).ok());
    ASSERT_TRUE(decode_result(lb.data(), lb.size(), &b, size_t{1} << 30, q[i]).ok());
    ASSERT_TRUE(merge(&a, b).ok());
    EXPECT_EQ(slice(merged, dir[i]), encode(a));
  }
}

std::string pctiles(Engine* e, double q) {
  QueryOptions o;
  o.quantum_ms = q;
  o.group_by = {"job"};
  o.percentiles = {0, 50, 90, 99, 99.9, 100};
  QueryResult r;
  EXPECT_TRUE(e->query(o, &r).ok());
  return pctiles_csv(r, kLabels, Unit::kNs);
}

// What a query at q prints on `bytes`, and how many windows it read.
std::string pctiles_of(const std::vector<uint8_t>& bytes, double q, double read_at, size_t* windows) {
  Engine e;
  FileOptions fo;
  fo.query_quantum_ms = read_at;
  const int h = e.open_file("x.lsr", fo);
  e.append(h, reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const Source& s = e.finish(h);
  EXPECT_TRUE(s.status.ok()) << s.status.message;
  *windows = static_cast<size_t>(s.records);
  return pctiles(&e, q);
}

TEST(ResultLevels, AQueryReadsTheCoarsestLevelItsQuantumDividesAndPrintsTheSame) {
  const std::vector<ResultLevel> dir{{100, 0, 0}, {1000, 0, 0}, {6000, 0, 0}};
  EXPECT_EQ(choose_result_level(dir, 6000), 2u);
  EXPECT_EQ(choose_result_level(dir, 12000), 2u);
  EXPECT_EQ(choose_result_level(dir, 7000), 1u);
  EXPECT_EQ(choose_result_level(dir, 1000), 1u);
  EXPECT_EQ(choose_result_level(dir, 150), 0u);
  EXPECT_EQ(choose_result_level(dir, 50), 0u);
  EXPECT_EQ(choose_result_level(dir, 0), 0u);

  const Set s = sets()[0];
  const Result finest = fixtures::reduce_files(s.files, s.finest);
  const std::vector<uint8_t> multi = encode_levels(finest, s.levels);
  const std::vector<uint8_t> single = encode(finest);
  for (double q : {1000.0, 2000.0, 6000.0, 12000.0}) {
    SCOPED_TRACE(q);
    size_t w_multi = 0, w_single = 0, w_finest = 0;
    const std::string from_multi = pctiles_of(multi, q, q, &w_multi);
    const std::string from_single = pctiles_of(single, q, q, &w_single);
    const std::string from_finest = pctiles_of(multi, q, 0, &w_finest);
    EXPECT_EQ(from_multi, from_single);
    EXPECT_EQ(from_multi, from_finest);
    EXPECT_GT(std::count(from_multi.begin(), from_multi.end(), '\n'), 2);
    // A coarser level was read: fewer windows than the finest.
    EXPECT_EQ(w_single, w_finest);
    EXPECT_LT(w_multi, w_finest);
  }
}

// tests/fixtures/result/v3-local.lsr: `latscope reduce --levels 1000,3000,6000
// tests/fixtures/local/*_clat_hist.* -o v3-local.lsr`. Every level answers
// as the logs do.
TEST(ResultLevels, CommittedVersion3FileMatchesItsLogs) {
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v3-local.lsr", &text));
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  ASSERT_EQ(bytes[8], 3);
  std::vector<ResultLevel> dir;
  ASSERT_TRUE(read_result_levels(bytes.data(), bytes.size(), &dir).ok());
  ASSERT_EQ(dir.size(), 3u);
  const std::vector<std::string> logs = files_of("local", "_clat_hist.");
  for (double q : {1000.0, 3000.0, 6000.0}) {
    Engine e;
    for (const std::string& f : logs) {
      std::string t;
      ASSERT_TRUE(fixtures::read_file(f, &t));
      testing::feed(&e, f, t);
    }
    size_t windows = 0;
    EXPECT_EQ(pctiles(&e, q), pctiles_of(bytes, q, q, &windows)) << q;
  }
}

}  // namespace
}  // namespace latscope
