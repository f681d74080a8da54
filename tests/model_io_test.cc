// encode_source / decode_source: round trips keep every field (and layout
// sharing), a real parsed log survives the trip with identical query results,
// and corrupt bytes give an error instead of a crash.
#include "latscope/model_io.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "latscope/engine.h"
#include "latscope/report.h"

namespace latscope {
namespace {

LayoutPtr custom_layout() {
  auto l = std::make_shared<BinLayout>();
  l->kind = LayoutKind::kHdr;
  l->id = "hdr:test";
  l->last_saturates = true;
  for (int i = 0; i < 5; ++i) {
    l->lo.push_back(100.0 * i);
    l->hi.push_back(100.0 * (i + 1));
    l->rep.push_back(100.0 * i + 50);
  }
  return l;
}

Source sample_source(LayoutPtr layout) {
  Source s;
  s.name = "dir/s1_clat_hist.2.log.127.0.0.1";
  s.id = {"s1", "clat", "2", "127.0.0.1", false};
  s.format = FileFormat::kFioHist;
  s.layout = layout;
  s.absolute_time = true;
  s.lines = 42;
  s.records = 40;
  s.bytes = 123456789012ull;
  s.status = Status::Error(ErrorCode::kUnusableFile, "f:1:1: \"quoted\" \xc3\xa9");
  s.diag.add(Issue::kNotANumber, 3, 7, "field 4 is \"x\"");
  s.diag.add(Issue::kNotANumber, 9, 1, "field 1 is \"y\"");
  s.diag.add_count(Issue::kNotANumber, 5);
  s.diag.add_count(Issue::kEmptyLine, 2);
  s.diag.add(Issue::kRepaired, 0, 0, "series read repaired");
  for (int d = 0; d < 2; ++d) {
    Series ser;
    ser.dir = d == 0 ? Dir::kRead : Dir::kTrim;
    ser.job = d == 0 ? "2" : "";
    ser.segment = d;
    ser.layout = layout;
    ser.repaired = d == 0;
    ser.saturated = 17;
    const uint32_t bins[] = {0, 3, 4};
    const uint64_t counts[] = {1, ~0ull - 1, 7};
    ser.add_window(-0.0, 1000.5, bins, counts, 2);  // -0.0 must survive bitwise
    ser.add_window(1000.5, 2001, nullptr, nullptr, 0);
    ser.add_window(2001, 2001.25, bins + 2, counts + 2, 1);
    s.series.push_back(ser);
  }
  return s;
}

void expect_same(const Source& a, const Source& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.id.prefix, b.id.prefix);
  EXPECT_EQ(a.id.kind, b.id.kind);
  EXPECT_EQ(a.id.job, b.id.job);
  EXPECT_EQ(a.id.host, b.id.host);
  EXPECT_EQ(a.id.gz, b.id.gz);
  EXPECT_EQ(a.format, b.format);
  ASSERT_EQ(a.layout == nullptr, b.layout == nullptr);
  if (a.layout) {
    EXPECT_EQ(a.layout->kind, b.layout->kind);
    EXPECT_EQ(a.layout->id, b.layout->id);
    EXPECT_EQ(a.layout->coarseness, b.layout->coarseness);
    EXPECT_EQ(a.layout->last_saturates, b.layout->last_saturates);
    EXPECT_EQ(a.layout->lo, b.layout->lo);
    EXPECT_EQ(a.layout->hi, b.layout->hi);
    EXPECT_EQ(a.layout->rep, b.layout->rep);
  }
  EXPECT_EQ(a.absolute_time, b.absolute_time);
  EXPECT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.status.code, b.status.code);
  EXPECT_EQ(a.status.message, b.status.message);
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i) {
    EXPECT_EQ(a.diag.count(static_cast<Issue>(i)), b.diag.count(static_cast<Issue>(i))) << i;
  }
  ASSERT_EQ(a.diag.examples().size(), b.diag.examples().size());
  for (size_t i = 0; i < a.diag.examples().size(); ++i) {
    const IssueExample& x = a.diag.examples()[i];
    const IssueExample& y = b.diag.examples()[i];
    EXPECT_EQ(x.issue, y.issue);
    EXPECT_EQ(x.line, y.line);
    EXPECT_EQ(x.column, y.column);
    EXPECT_EQ(x.text, y.text);
  }
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    const Series& x = a.series[i];
    const Series& y = b.series[i];
    EXPECT_EQ(x.dir, y.dir);
    EXPECT_EQ(x.job, y.job);
    EXPECT_EQ(x.segment, y.segment);
    ASSERT_TRUE(y.layout);
    EXPECT_EQ(x.layout->id, y.layout->id);
    EXPECT_EQ(x.repaired, y.repaired);
    EXPECT_EQ(x.saturated, y.saturated);
    ASSERT_EQ(x.windows.size(), y.windows.size());
    for (size_t w = 0; w < x.windows.size(); ++w) {
      // Bitwise: -0.0 and fractional ms must survive unchanged.
      EXPECT_EQ(std::memcmp(&x.windows[w].start_ms, &y.windows[w].start_ms, 8), 0);
      EXPECT_EQ(std::memcmp(&x.windows[w].end_ms, &y.windows[w].end_ms, 8), 0);
      EXPECT_EQ(x.windows[w].total, y.windows[w].total);
      EXPECT_EQ(x.windows[w].offset, y.windows[w].offset);
      EXPECT_EQ(x.windows[w].n, y.windows[w].n);
    }
    EXPECT_EQ(x.data, y.data);
    EXPECT_EQ(x.total(), y.total());
  }
}

TEST(ModelIo, RoundTripsEveryFieldOfACustomLayoutSource) {
  Source s = sample_source(custom_layout());
  std::vector<uint8_t> bytes = encode_source(s);
  Source back;
  Status st = decode_source(bytes.data(), bytes.size(), &back);
  ASSERT_TRUE(st.ok()) << st.message;
  expect_same(s, back);
  // The series still share the source's layout object after decoding.
  EXPECT_EQ(back.series[0].layout.get(), back.layout.get());
  EXPECT_EQ(back.series[1].layout.get(), back.layout.get());
  EXPECT_EQ(encode_source(back), bytes);
}

TEST(ModelIo, FioLayoutsAreRebuiltAsTheSharedObjects) {
  for (int version : {2, 3}) {
    for (int c : {0, 3, 6}) {
      LayoutPtr l = fio_layout(version, c);
      ASSERT_TRUE(l);
      Source s = sample_source(l);
      std::vector<uint8_t> bytes = encode_source(s);
      Source back;
      ASSERT_TRUE(decode_source(bytes.data(), bytes.size(), &back).ok());
      expect_same(s, back);
      EXPECT_EQ(back.layout.get(), l.get());
    }
  }
}

TEST(ModelIo, EmptySourceWithoutLayout) {
  Source s;
  s.name = "empty";
  std::vector<uint8_t> bytes = encode_source(s);
  Source back;
  back.name = "stale";
  ASSERT_TRUE(decode_source(bytes.data(), bytes.size(), &back).ok());
  expect_same(s, back);
  EXPECT_FALSE(back.layout);
}

// Every truncation and every single-byte change must be handled without a
// crash (run under ASan/UBSan with -DLATSCOPE_SANITIZE=ON); truncations must
// always be rejected.
TEST(ModelIo, CorruptBytesNeverCrash) {
  std::vector<uint8_t> good = encode_source(sample_source(custom_layout()));
  for (size_t len = 0; len < good.size(); ++len) {
    Source out;
    Status st = decode_source(good.data(), len, &out);
    EXPECT_FALSE(st.ok()) << "truncated to " << len;
    EXPECT_TRUE(out.series.empty());
  }
  size_t accepted = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    for (int x : {0x01, 0x80, 0xFF}) {
      std::vector<uint8_t> bad = good;
      bad[i] = static_cast<uint8_t>(bad[i] ^ x);
      Source out;
      if (decode_source(bad.data(), bad.size(), &out).ok()) {
        ++accepted;  // e.g. a changed count or character: still a valid Source
        EXPECT_EQ(encode_source(out), bad);
      }
    }
  }
  // Sanity: the checks reject a good share of the flips.
  EXPECT_LT(accepted, good.size() * 3);
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::vector<uint8_t> junk(good.begin(), good.begin() + 8);  // valid header
    junk.resize(8 + rng() % 200);
    for (size_t i = 8; i < junk.size(); ++i) junk[i] = static_cast<uint8_t>(rng());
    Source out;
    (void)decode_source(junk.data(), junk.size(), &out);
  }
}

TEST(ModelIo, HugeCountsAreRejectedBeforeAllocating) {
  std::vector<uint8_t> bytes = {'L', 'S', 'R', 'C', 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  Source out;
  Status st = decode_source(bytes.data(), bytes.size(), &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("byte"), std::string::npos) << st.message;
}

TEST(ModelIo, RejectsOtherMagicAndVersions) {
  std::vector<uint8_t> good = encode_source(sample_source(custom_layout()));
  std::vector<uint8_t> bad = good;
  bad[0] = 'X';
  Source out;
  Status st = decode_source(bad.data(), bad.size(), &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("magic"), std::string::npos) << st.message;
  bad = good;
  bad[4] = static_cast<uint8_t>(kSourceEncodingVersion + 1);
  st = decode_source(bad.data(), bad.size(), &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("version"), std::string::npos) << st.message;
  good.push_back(0);
  st = decode_source(good.data(), good.size(), &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("trailing"), std::string::npos) << st.message;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What workers do: parse in one engine, move the Source into another, query
// there. The answers must equal those of the engine that parsed the files.
TEST(ModelIo, ParsedLogsGiveTheSameAnswersAfterTheTrip) {
  Engine parsed;
  Engine moved;
  for (const char* host : {"127.0.0.1", "127.0.0.2"}) {
    for (int job : {1, 2}) {
      std::string name = "s1_clat_hist." + std::to_string(job) + ".log." + host;
      std::string text = read_file(std::string(LATSCOPE_FIXTURES) + "/fio-s1/" + name);
      if (text.empty()) GTEST_SKIP() << "sample data not found: " << name;
      int h = parsed.open_file(name);
      parsed.append(h, text.data(), text.size());
      const Source& src = parsed.finish(h);
      ASSERT_TRUE(src.status.ok()) << src.status.message;
      std::vector<uint8_t> bytes = encode_source(src);
      Source back;
      Status st = decode_source(bytes.data(), bytes.size(), &back);
      ASSERT_TRUE(st.ok()) << st.message;
      EXPECT_EQ(source_json(back), source_json(src));
      moved.add_source(std::move(back));
    }
  }
  QueryOptions q;
  q.group_by = GroupBy{"host", "dir"};
  QueryResult a, b;
  ASSERT_TRUE(parsed.query(q, &a).ok());
  ASSERT_TRUE(moved.query(q, &b).ok());
  ASSERT_GT(a.rows.size(), 40u);  // 2 hosts x 2 directions x ~20 s
  std::vector<std::string> labels = {"50", "90", "99", "99.9", "100"};
  EXPECT_EQ(pctiles_csv(a, labels, Unit::kUs), pctiles_csv(b, labels, Unit::kUs));
  HeatmapOptions hm;
  HeatmapResult ha, hb;
  ASSERT_TRUE(parsed.heatmap(hm, &ha).ok());
  ASSERT_TRUE(moved.heatmap(hm, &hb).ok());
  EXPECT_EQ(heatmap_json(ha), heatmap_json(hb));
}

// A log_window_value=both log's maxima make the trip (the page's workers
// move sources this way): the decoded source is the parsed one, byte for byte.
TEST(ModelIo, WindowMaximaMakeTheTrip) {
  const std::string name = std::string(LATSCOPE_FIXTURES) + "/window-value/wbo_clat.2.log";
  const std::string text = read_file(name);
  ASSERT_FALSE(text.empty()) << name;
  Engine e;
  const int h = e.open_file(name);
  e.append(h, text.data(), text.size());
  const Source& src = e.finish(h);
  ASSERT_TRUE(src.status.ok()) << src.status.message;
  ASSERT_FALSE(src.series.empty());
  ASSERT_FALSE(src.series[0].window_max_ns.empty());
  const std::vector<uint8_t> bytes = encode_source(src);
  Source back;
  ASSERT_TRUE(decode_source(bytes.data(), bytes.size(), &back).ok());
  ASSERT_EQ(back.series.size(), src.series.size());
  for (size_t i = 0; i < src.series.size(); ++i) EXPECT_EQ(back.series[i].window_max_ns, src.series[i].window_max_ns);
  EXPECT_EQ(encode_source(back), bytes);
}

}  // namespace
}  // namespace latscope
