// Quanta finer than the logs, and longer than the run (docs/quanta.md), in
// both query paths, on the real place/ run (log_hist_msec=500).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "query/interval.h"

namespace latscope {
namespace {

namespace fx = fixtures;

void both(const std::vector<std::string>& files, const QueryOptions& o, QueryResult* stored, QueryResult* streamed) {
  Engine e;
  ASSERT_TRUE(fx::load(&e, files, FileOptions()));
  ASSERT_TRUE(e.query(o, stored).ok());
  StreamingQuery sq(o);
  for (const Source& s : e.sources()) ASSERT_TRUE(sq.add(s).ok());
  ASSERT_TRUE(sq.finish(streamed).ok());
}

const std::vector<std::string> kRun = {fx::path("place/place_clat_hist.1.log"), fx::path("place/place_clat_hist.2.log")};

TEST(Quanta, LoggingIntervalIsTheMedianWindow) {
  Engine e;
  ASSERT_TRUE(fx::load(&e, {kRun[0]}, FileOptions()));
  const double iv = logging_interval_ms(e.sources()[0].series[0]);
  // The engine keeps it with the series so that queries do not sort the
  // windows again; a Series made elsewhere has none (NaN) and is measured.
  EXPECT_EQ(e.sources()[0].series[0].interval_ms, iv);
  EXPECT_TRUE(std::isnan(Series().interval_ms));
  // A source imported (the page's primary engine, another worker's parse)
  // gets it too.
  Source imported = e.sources()[0];
  imported.series[0].interval_ms = std::numeric_limits<double>::quiet_NaN();
  Engine other;
  const int at = other.add_source(std::move(imported));
  EXPECT_EQ(other.sources()[static_cast<size_t>(at)].series[0].interval_ms, iv);
  EXPECT_GE(iv, 500);  // fio stamps at the first completion after 500 ms
  EXPECT_LT(iv, 510);
  EXPECT_FALSE(finer_than_interval(iv, 500));
  EXPECT_FALSE(finer_than_interval(iv, 480));  // within fio's stamping slack
  EXPECT_TRUE(finer_than_interval(iv, 250));
  // The page reads it from the file list (its default quantum, docs/page-views.md).
  const std::string json = source_json(e.sources()[0]);
  EXPECT_NE(json.find("\"interval_ms\":" + format_number(iv)), std::string::npos) << json;
}

TEST(Quanta, FinerThanTheLogsIsFlaggedAndSaid) {
  QueryOptions o;
  o.quantum_ms = 100;
  QueryResult a, b;
  both(kRun, o, &a, &b);
  ASSERT_FALSE(a.rows.empty());
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].flags, b.rows[i].flags);
    if (!(a.rows[i].flags & kFlagEmpty)) {
      EXPECT_TRUE(a.rows[i].flags & kFlagFiner) << a.rows[i].t_ms;
    }
  }
  EXPECT_EQ(a.notes, b.notes);
  bool said = false;
  for (const std::string& n : a.notes)
    said = said || (n.find("the quantum (100 ms) is finer than the logging interval of 50") != std::string::npos &&
                    n.find("place_clat_hist.1.log, place_clat_hist.2.log") != std::string::npos);
  EXPECT_TRUE(said) << (a.notes.empty() ? "" : a.notes[0]);

  o.quantum_ms = 500;  // the logs' own interval: no flag, no note
  both(kRun, o, &a, &b);
  for (const Row& r : a.rows) EXPECT_FALSE(r.flags & kFlagFiner);
  for (const std::string& n : a.notes) EXPECT_EQ(n.find("finer"), std::string::npos);
}

// One group, two finer series far apart in time (the second shifted by
// 20 s): quanta in either span are flagged, the quanta between them are not,
// on both paths (the streaming fold walks each group's merged spans once).
TEST(Quanta, FinerFlagFollowsEachSeriesSpanInAGroup) {
  QueryOptions o;
  o.quantum_ms = 100;
  o.sel.offsets_ms["place_clat_hist.2.log"] = 20000;
  QueryResult a, b;
  both(kRun, o, &a, &b);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  int in_first = 0, between = 0, in_second = 0;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    ASSERT_EQ(a.rows[i].t_ms, b.rows[i].t_ms);
    EXPECT_EQ(a.rows[i].flags, b.rows[i].flags) << a.rows[i].t_ms;
    const double t = a.rows[i].t_ms;
    const bool finer = (a.rows[i].flags & kFlagFiner) != 0;
    if (t >= 1000 && t < 4000) in_first += finer;
    if (t >= 8000 && t < 19000) between += finer;
    if (t >= 20000 && t < 21500) in_second += finer;
  }
  EXPECT_EQ(in_first, 30);
  EXPECT_EQ(between, 0);
  EXPECT_EQ(in_second, 15);
}

// A quantum longer than the run is one partial quantum holding every I/O.
TEST(Quanta, LongerThanTheRunIsOnePartialQuantum) {
  QueryOptions o;
  o.quantum_ms = 60000;
  o.percentiles = {50, 100};
  QueryResult a, b;
  both(kRun, o, &a, &b);
  for (const QueryResult* r : {&a, &b}) {
    ASSERT_EQ(r->rows.size(), 1u);
    const Row& row = r->rows[0];
    EXPECT_EQ(row.t_ms, 0);
    EXPECT_TRUE(row.flags & kFlagPartial);
    EXPECT_FALSE(row.flags & kFlagEmpty);
    Engine e;
    ASSERT_TRUE(fx::load(&e, kRun, FileOptions()));
    uint64_t total = 0;
    for (const Source& s : e.sources())
      for (const Series& x : s.series) total += x.total();
    EXPECT_NEAR(row.stats.samples, static_cast<double>(total), 1e-6);
  }
}

}  // namespace
}  // namespace latscope

namespace latscope {
namespace {

// A log whose windows all differ in length (hostile, or per_job_logs=0
// restarting on every other line) gets a note of bounded length: five
// intervals and how many more, not one entry per window.
TEST(Quanta, FinerNoteNamesAFewIntervalsAndCountsTheRest) {
  FinerTally t;
  for (int i = 0; i < 1000; ++i) t.count(1500 + 10 * i, 1000, "dir/x_clat_hist.log");
  std::vector<std::string> notes;
  t.notes(1000, &notes);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1500 ms: x_clat_hist.log; 1510 ms"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("and 995 other intervals"), std::string::npos) << notes[0];
  EXPECT_LT(notes[0].size(), 500u);
}

}  // namespace
}  // namespace latscope
