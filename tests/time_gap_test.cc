// Time gaps and clock jumps (docs/time-gaps.md): a window over 10 logging
// intervals long is placed in one interval, long runs of quanta with no I/O
// are a note instead of rows, a heat map too large is an error before any
// allocation; the stored and the streaming query agree on all of it.
#include <gtest/gtest.h>

#include <algorithm>

#include "latscope/report.h"
#include "latscope/stream.h"
#include "query/aligner.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

// Read and write windows every second, then one write line 1e10 ms later
// and the reads going on there (a clock jump).
std::string gap_log() {
  std::string s;
  for (uint64_t t = 1000; t <= 5000; t += 1000) {
    s += hist_line(t + 2, 0, {{700, 40}, {760, 2}});
    s += hist_line(t + 3, 1, {{710, 30}});
  }
  s += hist_line(10000000000ull, 1, {{800, 7}});
  for (uint64_t t = 10000000000ull; t <= 10000003000ull; t += 1000) s += hist_line(t + 2, 0, {{690, 3}});
  return s;
}

QueryOptions opts() {
  QueryOptions o;
  o.percentiles = {50, 99};
  return o;
}

TEST(TimeGap, WindowOverTenIntervalsIsPlacedInOneInterval) {
  Engine e;
  const Source& src = feed(&e, "gap_clat_hist.1.log", gap_log());
  ASSERT_TRUE(src.status.ok()) << src.status.message;
  EXPECT_EQ(src.diag.count(Issue::kTimeGap), 2u);  // per series: the write line and the reads after the jump
  EXPECT_EQ(src.diag.skipped_lines(), 0u);  // a placement, not a skipped line
  const Series* write = nullptr;
  for (const Series& s : src.series)
    if (s.dir == Dir::kWrite) write = &s;
  ASSERT_NE(write, nullptr);
  const Window& last = write->windows.back();
  // fio flushed it at the first completion a log interval after the
  // previous flush: its I/Os sit in the interval after the window's start.
  EXPECT_EQ(last.start_ms, 5003);
  EXPECT_EQ(last.end_ms, 5003 + 1000);
  EXPECT_EQ(last.total, 7u);
}

TEST(TimeGap, EmptyQuantaAreANoteNotRowsAndBothQueriesAgree) {
  Engine e;
  feed(&e, "gap_clat_hist.1.log", gap_log());
  QueryResult stored, streamed;
  ASSERT_TRUE(e.query(opts(), &stored).ok());
  StreamingQuery s(opts());
  ASSERT_TRUE(s.add(e.sources()[0]).ok());
  ASSERT_TRUE(s.finish(&streamed).ok());
  const std::vector<std::string> labels{"p50", "p99"};
  EXPECT_EQ(pctiles_csv(stored, labels, Unit::kNs), pctiles_csv(streamed, labels, Unit::kNs));
  EXPECT_EQ(stored.notes, streamed.notes);
  EXPECT_LT(stored.rows.size(), 20u);  // not 1e7 empty rows
  ASSERT_FALSE(stored.notes.empty());
  EXPECT_NE(stored.notes.back().find("no I/O in any group"), std::string::npos) << stored.notes.back();
  double n = 0;
  for (const Row& r : stored.rows) n += r.stats.samples;
  EXPECT_DOUBLE_EQ(n, 5 * 42 + 5 * 30 + 7 + 4 * 3);  // every I/O counted
  EXPECT_EQ(stored.rows.back().t_ms, 10000003000.0);
}

// A sink is told how many rows may come before the first (it makes its
// columns once at that size): never fewer than come, and a clock jump of
// 1e7 quanta does not make it 1e7.
class CountingSink : public RowSink {
 public:
  void expect(size_t rows) override {
    ++expect_calls;
    expected = rows;
    before_rows = handed == 0;
  }
  void add(const Row& row) override {
    (void)row;
    ++handed;
  }
  size_t expect_calls = 0, expected = 0, handed = 0;
  bool before_rows = false;
};

// Rows handed to a sink, and the bound it was told first.
void expect_bounded(const Engine& e, const QueryOptions& o, size_t most) {
  QueryResult kept, sunk;
  ASSERT_TRUE(e.query(o, &kept).ok());
  CountingSink sink;
  ASSERT_TRUE(e.query(o, &sunk, &sink).ok());
  EXPECT_EQ(sink.expect_calls, 1u);
  EXPECT_TRUE(sink.before_rows);
  EXPECT_EQ(sink.handed, kept.rows.size());
  EXPECT_GE(sink.expected, sink.handed);
  EXPECT_LE(sink.expected, most * kept.groups.size());
}

TEST(TimeGap, RowSinkIsToldABoundNotTheClockJump) {
  Engine e;
  feed(&e, "gap_clat_hist.1.log", gap_log());
  for (const char* by : {"", "dir"}) {
    SCOPED_TRACE(by);
    QueryOptions o = opts();
    if (*by) o.group_by = GroupBy{by};
    // Two runs per series, each with the gap that may precede it: not the
    // 1e7 quanta of the grid.
    expect_bounded(e, o, 5 * kSkipEmptyQuanta + 20);
  }
}

TEST(TimeGap, RowSinkBoundCountsGapsBetweenSeries) {
  // Reads at 1 s and 2001 s, writes at 1501 s: each series alone has a gap
  // of 1500-2000 quanta, but together the 499 empty quanta between 1501 s
  // and 2001 s are rows (under kSkipEmptyQuanta), and the bound holds them.
  std::string s = hist_line(1002, 0, {{700, 4}}) + hist_line(1501002, 1, {{710, 3}}) + hist_line(2001002, 0, {{720, 5}});
  Engine e;
  feed(&e, "runs_clat_hist.1.log", s);
  QueryResult r;
  ASSERT_TRUE(e.query(opts(), &r).ok());
  EXPECT_GT(r.rows.size(), 499u);
  expect_bounded(e, opts(), 4 * kSkipEmptyQuanta);
}

TEST(TimeGap, ShortIdleStretchesKeepTheirEmptyRows) {
  // 20 s without I/O between two bursts: under kSkipEmptyQuanta, so listed.
  std::string s;
  uint64_t prev = 0;
  for (uint64_t t : {1000, 2000, 3000, 23000, 24000}) {
    s += hist_line(t, 0, t - prev > 1000 ? std::vector<std::pair<size_t, uint64_t>>{} : std::vector<std::pair<size_t, uint64_t>>{{700, 5}});
    prev = t;
  }
  Engine e;
  feed(&e, "idle_clat_hist.1.log", s);
  QueryResult r;
  ASSERT_TRUE(e.query(opts(), &r).ok());
  EXPECT_EQ(r.rows.size(), 24u);
  for (const std::string& note : r.notes) EXPECT_EQ(note.find("no I/O"), std::string::npos) << note;
}

TEST(TimeGap, HeatmapTooLargeIsAnErrorWithItsSize) {
  Engine e;
  std::string s = hist_line(1000, 0, {{700, 1}}) + hist_line(2000, 0, {{700, 1}});
  feed(&e, "big_clat_hist.1.log", s);
  HeatmapOptions h;
  h.quantum_ms = 0.0001;  // 20 million quanta
  h.rows = 100;
  HeatmapResult out;
  const Status st = e.heatmap(h, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("cells"), std::string::npos) << st.message;
  EXPECT_TRUE(out.counts.empty());
}

}  // namespace
}  // namespace latscope
