// A quantum's max against the truth (docs/extremes.md). The same local fio
// runs wrote histogram logs and per-I/O completion-latency logs; with the
// quantum equal to the logging interval, each window closes a few ms after a
// quantum edge, so its sliver (weight ~0.002) overlaps the next quantum. The
// exact max of a quantum is the largest latency of the I/Os completing in it.
// Asserted: the engine's max lies within the width of the exact max's bin in
// at least 95% of fully logged quanta (per job and direction); printed: that
// share, and the share the old rule (any overlapping window) would reach.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/stream.h"
#include "query/extremes.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fx = fixtures;

struct LoggedRun {
  const char* name;
  std::vector<std::string> hist, lat;  // per job, same order
  double interval_ms;
};

size_t bin_of(const BinLayout& l, double ns) {
  const size_t i = std::upper_bound(l.lo.begin(), l.lo.end(), ns) - l.lo.begin();
  return i ? i - 1 : 0;
}

TEST(Extremes, MaxOfAQuantumIsItsOwnNotItsNeighboursSliver) {
  const std::vector<LoggedRun> runs = {
      {"local", {"local/local_clat_hist.1.log", "local/local_clat_hist.2.log"}, {"local/local_clat.1.log", "local/local_clat.2.log"}, 1000},
      {"fio_lat", {"fio_lat/fl_clat_hist.1.log"}, {"fio_lat/fl_clat.1.log"}, 1000},
      {"place", {"place/place_clat_hist.1.log", "place/place_clat_hist.2.log"}, {"place/place_clat.1.log", "place/place_clat.2.log"}, 500},
  };
  size_t within = 0, within_old = 0, total = 0, moved = 0;
  for (const LoggedRun& run : runs) {
    for (size_t job = 0; job < run.hist.size(); ++job) {
      SCOPED_TRACE(run.hist[job]);
      Engine e;
      ASSERT_TRUE(fx::load(&e, {fx::path(run.hist[job])}, FileOptions()));
      const Source& src = e.sources()[0];
      const BinLayout& L = *src.layout;
      std::vector<fx::IoSample> ios;
      ASSERT_TRUE(fx::read_lat_log(fx::path(run.lat[job]), &ios));
      QueryOptions o;
      o.quantum_ms = run.interval_ms;
      o.group_by = {"dir"};
      o.sel.complete_tail = false;
      QueryResult r;
      ASSERT_TRUE(e.query(o, &r).ok());
      // The streaming fold gives the same maxima (its rule is the same code).
      StreamingQuery sq(o);
      ASSERT_TRUE(sq.add(src).ok());
      QueryResult rs;
      ASSERT_TRUE(sq.finish(&rs).ok());
      ASSERT_EQ(rs.rows.size(), r.rows.size());
      for (size_t i = 0; i < r.rows.size(); ++i) EXPECT_EQ(rs.rows[i].stats.max_ns, r.rows[i].stats.max_ns);

      for (const Row& row : r.rows) {
        if (row.flags & (kFlagPartial | kFlagEmpty)) continue;
        const int dir = r.groups[row.group] == "dir=read" ? 0 : 1;
        const double a = row.t_ms, b = a + o.quantum_ms;
        uint64_t exact = 0;
        size_t n = 0;
        for (const fx::IoSample& s : ios)
          if (s.dir == dir && s.t_ms >= a && s.t_ms < b) {
            exact = std::max(exact, s.ns);
            ++n;
          }
        if (n == 0) continue;
        const size_t eb = bin_of(L, static_cast<double>(exact));
        const double width = L.hi[eb] - L.lo[eb];
        ++total;
        if (std::fabs(row.stats.max_ns - static_cast<double>(exact)) <= width) ++within;
        // The old rule: the top bin of any window overlapping the quantum.
        double old_max = 0;
        for (const Series& s : src.series) {
          if (static_cast<int>(s.dir) != dir) continue;
          for (const Window& w : s.windows)
            if (w.end_ms > a && w.start_ms < b)
              s.for_each_bin(w, [&](uint32_t bin, uint64_t) { old_max = std::max(old_max, L.hi[bin]); });
        }
        if (std::fabs(old_max - static_cast<double>(exact)) <= width) ++within_old;
        if (old_max != row.stats.max_ns) ++moved;
      }
    }
  }
  ASSERT_GT(total, 40u);
  const double share = static_cast<double>(within) / total, old_share = static_cast<double>(within_old) / total;
  std::printf("[ extremes ] max within the exact max's bin width: %zu of %zu full quanta (%.1f%%); "
              "old rule (any overlapping window): %zu (%.1f%%); maxima that changed: %zu\n",
              within, total, 100 * share, within_old, 100 * old_share, moved);
  EXPECT_GE(share, 0.95);
  EXPECT_GT(moved, 0u);  // the rule is not a no-op on real logs
}

// A window's extremes belong to the quantum holding its midpoint: of two
// windows of the quantum's length straddling its edges, the one mostly
// inside; of a window longer than the quantum, only the quantum holding its
// middle (the quanta around it see every bin they hold, docs/extremes.md);
// a window split exactly in half goes to the later quantum ([a, b) holds a).
TEST(Extremes, RuleOnWindowsAndQuanta) {
  EXPECT_TRUE(counts_for_extremes(998, 1998, 1000, 2000));
  EXPECT_FALSE(counts_for_extremes(1998, 2998, 1000, 2000));
  EXPECT_FALSE(counts_for_extremes(0, 1000, 200, 300));  // quantum finer than the window
  EXPECT_TRUE(counts_for_extremes(0, 1000, 500, 600));
  EXPECT_TRUE(counts_for_extremes(500, 500, 0, 1000));  // an instant the caller placed here
  EXPECT_TRUE(counts_for_extremes(500, 1500, 1000, 2000));  // half and half: the later
  EXPECT_FALSE(counts_for_extremes(500, 1500, 0, 1000));
  // Nesting: the quantum of 1000 holding a midpoint holds it in one of its
  // quanta of 250, and no other quantum of 1000 does.
  for (double s : {0.0, 130.0, 740.0, 998.0, 1249.5})
    for (double len : {1.0, 999.0, 1003.0, 2500.0}) {
      int fine = 0, coarse = 0;
      for (double a = -1000; a < 5000; a += 250) fine += counts_for_extremes(s, s + len, a, a + 250);
      for (double a = -1000; a < 5000; a += 1000) coarse += counts_for_extremes(s, s + len, a, a + 1000);
      EXPECT_EQ(fine, 1);
      EXPECT_EQ(coarse, 1);
    }
}

// One spike in the window (1002, 2003]: it is the max of quantum 1000-2000
// only, not of 2000-3000 that holds 3 ms of that window; p100 follows max,
// p50 keeps the overlap weights. Both query paths.
TEST(Extremes, SpikeStaysInItsQuantum) {
  std::string log = testing::hist_line(1002, 0, {{700, 100}}) + testing::hist_line(2003, 0, {{700, 99}, {1500, 1}}) +
                    testing::hist_line(3001, 0, {{700, 100}}) + testing::hist_line(4002, 0, {{700, 100}});
  Engine e;
  const Source& src = testing::feed(&e, "s_clat_hist.1.log", log);
  QueryOptions o;
  o.percentiles = {0, 50, 100};
  QueryResult r, rs;
  ASSERT_TRUE(e.query(o, &r).ok());
  StreamingQuery sq(o);
  ASSERT_TRUE(sq.add(src).ok());
  ASSERT_TRUE(sq.finish(&rs).ok());
  const BinLayout& L = *src.layout;
  for (const QueryResult* q : {&r, &rs}) {
    ASSERT_GE(q->rows.size(), 3u);
    EXPECT_EQ(q->rows[1].stats.max_ns, L.hi[1500]);
    EXPECT_EQ(q->rows[1].p[2].value_ns, L.hi[1500]);
    EXPECT_EQ(q->rows[2].stats.max_ns, L.hi[700]);  // was L.hi[1500] from the 3 ms sliver
    EXPECT_EQ(q->rows[2].p[2].value_ns, L.hi[700]);
    EXPECT_EQ(q->rows[2].stats.min_ns, L.lo[700]);
    EXPECT_GT(q->rows[2].stats.samples, 100);  // the sliver's counts stay in the counts
  }
}

}  // namespace
}  // namespace latscope
