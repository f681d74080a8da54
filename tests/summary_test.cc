// latscope/summary.h over the model: a fio json source keeps fio's own
// figures (model.h FioFigures), so the summary prints fio's exact N, min,
// mean and max and its printed percentiles without the json text, and they
// survive the workers' transport (model_io.h).
#include "latscope/summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/model_io.h"
#include "latscope/options_json.h"

namespace latscope {
namespace {

Source load(const std::string& rel) {
  std::string text;
  EXPECT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/" + rel, &text)) << rel;
  Engine e;
  const int h = e.open_file(rel);
  e.append(h, text.data(), text.size());
  return e.finish(h);
}

SummaryColumns columns(const std::string& ps) {
  SummaryColumns c;
  EXPECT_TRUE(parse_percentile_list(ps, &c.ps, &c.labels).ok());
  return c;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  for (size_t b; (b = s.find('\n', a)) != std::string::npos; a = b + 1) out.push_back(s.substr(a, b - a));
  return out;
}

TEST(Summary, JsonPlusRowsCarryFiosExactFiguresAndTheAggregate) {
  const Source src = load("fio-s1/s1.json");
  ASSERT_TRUE(src.status.ok()) << src.status.message;
  // 2 hosts x 2 jobs x read/write, and "All clients" read/write.
  ASSERT_EQ(src.fio.size(), 10u);
  std::vector<SummaryRow> rows;
  summarize_source(src, columns("50,99.99"), &rows);
  const std::vector<std::string> got = lines(summary_csv(rows, columns("50,99.99")));
  ASSERT_EQ(got.size(), 11u);
  // fio's own mean (138175.380375), not the bins' midpoints; fio's p50 and
  // p99.99 bins (tests/fixtures/fio-s1/s1.json).
  EXPECT_EQ(got[1], "fio-s1/s1.json,127.0.0.2,1,read,8000,601,138175.380375,88530312,63744,88604672");
  // The aggregate's bins are its jobs' summed: its percentiles are filled.
  EXPECT_EQ(got[9], "fio-s1/s1.json,,all,read,32000,591,118749.253219,88530312,61696,31326208");
}

// A log_avg_msec log's lines are window averages, not I/Os: a row per
// direction with the windows' count and the min, mean and max of their
// values as written, and no percentile (as `pctiles` shows them). It printed
// percentiles of the averages as if they were I/O latencies.
TEST(Summary, WindowAveragesGiveNoPercentiles) {
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/fio_lat/avg_clat.1.log", &text));
  // The file's own values per direction: "time, value, ddir, bs, offset".
  struct Want {
    uint64_t n = 0, lo = UINT64_MAX, hi = 0;
    double sum = 0;
  } want[2];
  for (const std::string& l : lines(text)) {
    unsigned long long t, v, d;
    ASSERT_EQ(std::sscanf(l.c_str(), "%llu, %llu, %llu", &t, &v, &d), 3) << l;
    ASSERT_LT(d, 2u);
    Want& w = want[d];
    ++w.n;
    w.lo = std::min<uint64_t>(w.lo, v);
    w.hi = std::max<uint64_t>(w.hi, v);
    w.sum += static_cast<double>(v);
  }
  const Source src = load("fio_lat/avg_clat.1.log");
  ASSERT_TRUE(src.status.ok()) << src.status.message;
  std::vector<SummaryRow> rows;
  summarize_source(src, columns("50,99"), &rows);
  ASSERT_EQ(rows.size(), 2u);
  for (const SummaryRow& r : rows) {
    const Want& w = want[r.dir == "read" ? 0 : 1];
    EXPECT_EQ(r.samples, w.n) << r.dir;
    EXPECT_EQ(r.min_ns, static_cast<double>(w.lo)) << r.dir;
    EXPECT_EQ(r.max_ns, static_cast<double>(w.hi)) << r.dir;
    EXPECT_DOUBLE_EQ(r.mean_ns, w.sum / static_cast<double>(w.n)) << r.dir;
    ASSERT_EQ(r.p.size(), 2u);
    for (double p : r.p) EXPECT_TRUE(std::isnan(p)) << r.dir << ": " << p;
  }
  const std::vector<std::string> csv = lines(summary_csv(rows, columns("50,99")));
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(csv[1].substr(csv[1].size() - 2), ",,") << csv[1];
}

TEST(Summary, PlainJsonKeepsFiosPrintedPercentiles) {
  const std::string rel = "layouts/bench-fio/benchmark/fixture.dat/4k/randread-1-1.json";
  const Source src = load(rel);
  ASSERT_TRUE(src.status.ok());
  EXPECT_EQ(src.format, FileFormat::kIgnored);  // no bins: nothing for the queries
  ASSERT_EQ(src.fio.size(), 1u);
  EXPECT_FALSE(src.fio[0].has_bins);
  std::vector<SummaryRow> rows;
  summarize_source(src, columns("50,99,42"), &rows);
  const std::vector<std::string> got = lines(summary_csv(rows, columns("50,99,42")));
  ASSERT_EQ(got.size(), 2u);
  // p42 is not in fio's list: blank.
  EXPECT_EQ(got[1], rel + ",,1,read,301,29664,548721.744186,5609540,88576,5603328,");
}

TEST(Summary, FiguresSurviveTheTransport) {
  for (const char* rel : {"fio-s1/s1.json", "layouts/bench-fio/benchmark/fixture.dat/4k/randread-1-1.json"}) {
    const Source src = load(rel);
    const std::vector<uint8_t> bytes = encode_source(src);
    Source back;
    ASSERT_TRUE(decode_source(bytes.data(), bytes.size(), &back).ok()) << rel;
    const SummaryColumns c = columns("1,50,99.9,100");
    std::vector<SummaryRow> a, b;
    summarize_source(src, c, &a);
    summarize_source(back, c, &b);
    EXPECT_EQ(summary_csv(a, c), summary_csv(b, c)) << rel;
    EXPECT_EQ(encode_source(back), bytes) << rel;
  }
}

TEST(Summary, TransportRefusesFiguresNamingAMissingSeries) {
  Source src = load("fio-s1/s1.json");
  src.fio[0].series = {static_cast<uint32_t>(src.series.size())};
  const std::vector<uint8_t> bytes = encode_source(src);
  Source back;
  const Status st = decode_source(bytes.data(), bytes.size(), &back);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("fio figures name a series the source lacks"), std::string::npos) << st.message;
  src = load("fio-s1/s1.json");
  src.fio.back().bin_index = {static_cast<uint32_t>(src.layout->size())};
  src.fio.back().bin_count = {1};
  const std::vector<uint8_t> beyond = encode_source(src);
  EXPECT_FALSE(decode_source(beyond.data(), beyond.size(), &back).ok());
}

TEST(Summary, CompareTakesFiosFiguresFromTheSources) {
  RunCompare cmp(columns("50"));
  for (const char* run : {"a", "b"}) {
    RunSide side;
    side.name = run;
    side.how = "test";
    cmp.sides().push_back(side);
  }
  cmp.add_source(0, load("ab/a/a.json"));
  cmp.add_source(1, load("ab/b/b.json"));
  const std::vector<std::string> got = lines(cmp.csv());
  ASSERT_GE(got.size(), 6u);
  EXPECT_EQ(got[0], "dir,stat,a,b,change_pct,a_lo,a_hi,b_lo,b_hi,note");
  // fio's exact mean of each run (ab/a/a.json, ab/b/b.json: clat_ns.mean).
  EXPECT_EQ(got[3].substr(0, got[3].find(',', 10)), "read,mean,373756.480641");
}

}  // namespace
}  // namespace latscope
