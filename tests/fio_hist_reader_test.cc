#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "latscope/engine.h"
#include "latscope/report.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(FioHistReader, ParsesWindowsAsEndTimes) {
  Engine e;
  const Source& s = feed(&e, "x_clat_hist.3.log",
                         hist_line(1002, 0, {{200, 5}}) + hist_line(1002, 1, {{300, 2}}) +
                             hist_line(2001, 1, {{300, 1}}) + hist_line(2003, 0, {{201, 7}}));
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(s.layout->id, "fio3");
  EXPECT_EQ(s.id.job, "3");
  EXPECT_EQ(s.records, 4u);
  ASSERT_EQ(s.series.size(), 2u);
  const Series& r = s.series[0];
  EXPECT_EQ(r.dir, Dir::kRead);
  ASSERT_EQ(r.windows.size(), 2u);
  EXPECT_EQ(r.windows[0].start_ms, 0);  // first window starts at the job's time 0
  EXPECT_EQ(r.windows[0].end_ms, 1002);
  EXPECT_EQ(r.windows[1].start_ms, 1002);
  EXPECT_EQ(r.windows[1].end_ms, 2003);
  EXPECT_EQ(r.total(), 12u);
  EXPECT_FALSE(r.repaired);  // a local-mode name is never repaired
}

TEST(FioHistReader, FileNamesGiveIdentity) {
  FileIdentity a = parse_fio_file_name("/x/s1_clat_hist.2.log.127.0.0.1");
  EXPECT_EQ(a.prefix, "s1");
  EXPECT_EQ(a.kind, "clat");
  EXPECT_EQ(a.job, "2");
  EXPECT_EQ(a.host, "127.0.0.1");
  FileIdentity b = parse_fio_file_name("run_a_lat_hist.log.gz");
  EXPECT_EQ(b.prefix, "run_a");
  EXPECT_EQ(b.kind, "lat");
  EXPECT_EQ(b.job, "");
  EXPECT_EQ(b.host, "");
  EXPECT_TRUE(b.gz);
  FileIdentity c = parse_fio_file_name("my_slat_hist.12.log.node-7.example.com.gz");
  EXPECT_EQ(c.job, "12");
  EXPECT_EQ(c.host, "node-7.example.com");
  // fio's log_store_compressed=1 names: .fz is no host (docs/folders.md).
  for (const char* name : {"fz_clat_hist.1.log.fz", "fz_clat.1.log.fz"}) {
    const FileIdentity d = parse_fio_file_name(name);
    EXPECT_EQ(d.prefix, "fz") << name;
    EXPECT_EQ(d.job, "1") << name;
    EXPECT_EQ(d.host, "") << name;
  }
}

// Same bytes, any chunking: identical model.
TEST(FioHistReader, ChunkingDoesNotChangeResults) {
  const std::string path = std::string(LATSCOPE_FIXTURES) + "/fio-s1/s1_clat_hist.1.log.127.0.0.2";
  const std::string text = slurp(path);
  ASSERT_GT(text.size(), 100000u);
  Engine whole, hundred, one;
  const Source& a = feed(&whole, "s1_clat_hist.1.log.127.0.0.2", text, 0);
  const Source& b = feed(&hundred, "s1_clat_hist.1.log.127.0.0.2", text, 100);
  const Source& c = feed(&one, "s1_clat_hist.1.log.127.0.0.2", text, 1);
  EXPECT_EQ(source_json(a), source_json(b));
  EXPECT_EQ(source_json(a), source_json(c));
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    EXPECT_EQ(a.series[i].data, c.series[i].data);
  }
  QueryResult qa, qc;
  ASSERT_TRUE(whole.query({}, &qa).ok());
  ASSERT_TRUE(one.query({}, &qc).ok());
  const std::vector<std::string> labels{"p50", "p90", "p99", "p99.9", "p100"};
  EXPECT_EQ(pctiles_csv(qa, labels, Unit::kUs), pctiles_csv(qc, labels, Unit::kUs));
}

TEST(FioHistReader, CoarseLogsAreDetectedFromTheColumnCount) {
  Engine e;
  const Source& s = feed(&e, "c_clat_hist.1.log", hist_line(1000, 0, {{3, 9}}, 2) + hist_line(2000, 0, {{4, 1}}, 2));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.layout->id, "fio3/c2");
  EXPECT_EQ(s.layout->size(), 464u);
  // A coarse bin j covers fine bins [4j, 4j+4).
  EXPECT_EQ(s.layout->lo[3], 12);
  EXPECT_EQ(s.layout->hi[3], 16);
}

TEST(FioHistReader, PerJobLogsZeroSplitsWhereTimestampsRestart) {
  std::string text;
  for (int job = 0; job < 3; ++job)
    for (int k = 1; k <= 4; ++k) {
      text += hist_line(k * 1000 + job, 0, {{150, 10}});
      text += hist_line(k * 1000 + job + 1, 1, {{150, 20}});
    }
  Engine e;
  const Source& s = feed(&e, "p_clat_hist.log", text);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.diag.count(Issue::kTimeRestart), 2u);
  ASSERT_EQ(s.series.size(), 6u);
  EXPECT_EQ(s.series[0].job, "1");
  EXPECT_EQ(s.series[5].job, "3");
  for (const Series& x : s.series) EXPECT_EQ(x.windows.size(), 4u);
}

TEST(FioHistReader, RepeatedTimestampsKeepTheirCounts) {
  Engine e;
  const Source& s = feed(&e, "d_clat_hist.1.log",
                         hist_line(1000, 0, {{150, 10}}) + hist_line(5000, 0, {{150, 3}, {900, 1}}) +
                             hist_line(5000, 0, {{150, 4}}) + hist_line(6000, 0, {{150, 10}}));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.diag.count(Issue::kDuplicateTimestamp), 1u);
  ASSERT_EQ(s.series[0].windows.size(), 3u);
  EXPECT_EQ(s.series[0].total(), 28u);
  const Window& w = s.series[0].windows[1];
  EXPECT_EQ(w.start_ms, 1000);
  EXPECT_EQ(w.end_ms, 5000);
  EXPECT_EQ(w.n, 2u);
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
  s.series[0].decode(w, &bins, &counts);
  EXPECT_EQ(bins, (std::vector<uint32_t>{150, 900}));
  EXPECT_EQ(counts, (std::vector<uint64_t>{7, 1}));
}

TEST(FioHistReader, EpochTimestampsAreAbsolute) {
  Engine e;
  const uint64_t t0 = 1795237979000;
  const Source& s = feed(&e, "e_clat_hist.1.log",
                         hist_line(t0, 0, {{150, 1}}) + hist_line(t0 + 1000, 0, {{150, 1}}) +
                             hist_line(t0 + 2000, 0, {{150, 1}}));
  ASSERT_TRUE(s.status.ok());
  EXPECT_TRUE(s.absolute_time);
  // No job start in the log: the first window is one spacing long.
  EXPECT_EQ(s.series[0].windows[0].start_ms, static_cast<double>(t0 - 1000));
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_TRUE(r.absolute_time);
  EXPECT_EQ(r.rows.front().t_ms, static_cast<double>(t0 - 1000));
}

TEST(FioHistReader, SaturatedSamplesAreFlagged) {
  Engine e;
  const Source& s = feed(&e, "s_clat_hist.1.log", hist_line(1000, 1, {{1855, 2}, {100, 5}}));
  EXPECT_EQ(s.series[0].saturated, 2u);
  EXPECT_EQ(s.diag.count(Issue::kSaturated), 1u);
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_TRUE(r.rows[0].flags & kFlagSaturated);
}

TEST(FioHistReader, Fio2LayoutAndForcedVersion) {
  std::vector<uint64_t> v(1216, 0);
  v[100] = 3;
  std::string line = "1000, 0, 4096";
  for (uint64_t x : v) line += ", " + std::to_string(x);
  Engine e;
  const Source& s = feed(&e, "v2_clat_hist.1.log", line + "\n");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.layout->id, "fio2");
  EXPECT_EQ(s.layout->lo[100], 100000);  // us -> ns
}

}  // namespace
}  // namespace latscope

namespace latscope {
namespace {

// The compact window encoding round-trips and rejects bytes it did not write.
TEST(SeriesEncoding, RoundTripsAndValidates) {
  Series s;
  const uint32_t b1[] = {0, 1, 127, 128, 1855};
  const uint64_t c1[] = {1, 300, 1ull << 40, ~0ull >> 1, 5};
  s.add_window(0, 1000, b1, c1, 5);
  s.add_window(1000, 2000, nullptr, nullptr, 0);
  ASSERT_EQ(s.windows.size(), 2u);
  EXPECT_EQ(s.windows[0].total, 1 + 300 + (1ull << 40) + (~0ull >> 1) + 5);
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
  s.decode(s.windows[0], &bins, &counts);
  EXPECT_EQ(bins, std::vector<uint32_t>(b1, b1 + 5));
  EXPECT_EQ(counts, std::vector<uint64_t>(c1, c1 + 5));
  EXPECT_TRUE(s.valid(1856));
  EXPECT_FALSE(s.valid(1855));  // bin 1855 beyond a smaller layout
  Series bad = s;
  bad.data.pop_back();
  EXPECT_FALSE(bad.valid(1856));
  bad = s;
  bad.windows[0].total += 1;
  EXPECT_FALSE(bad.valid(1856));
  bad = s;
  bad = s;
  // A gap of 2^64 - 1 after bin 0 would wrap around to bin 0 again.
  bad.data.clear();
  varint::put(&bad.data, 5);
  varint::put(&bad.data, 1);
  varint::put(&bad.data, ~0ull);
  varint::put(&bad.data, 1);
  bad.windows = {Window{0, 1000, 2, 0, 2}};
  EXPECT_FALSE(bad.valid(1856));
  bad = s;
  bad.data[0] = 0xff;  // a varint running into the next field
  EXPECT_FALSE(bad.valid(1856) && bad.windows[0].total == s.windows[0].total);
}

}  // namespace
}  // namespace latscope
