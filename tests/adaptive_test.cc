// Adaptive quanta (QueryOptions::adaptive_accuracy, docs/uncertainty.md):
// whole windows, enough I/Os for the target percentile, every I/O counted
// once, and on a real run narrower bands than fixed quanta that hold too few
// I/Os, at the same 95% confidence.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/uncertainty.h"
#include "query/adaptive.h"

namespace latscope {
namespace {

namespace fx = fixtures;

TEST(Adaptive, EnoughMeansATailOfAboutZOverAccSquared) {
  // Half-width ~ z sqrt(n p (1 - p)) <= acc n (1 - p)  <=>  n (1 - p) >= z^2 p / acc^2:
  // ~15 I/Os above the percentile for acc 0.5, ~96 for acc 0.2.
  for (double acc : {0.5, 0.2}) {
    for (double p : {90.0, 99.0, 99.9}) {
      uint64_t n = 1;
      while (!adaptive_enough(n, p, acc)) ++n;
      const double tail = n * (1 - p / 100);
      const double approx = 1.959963984540054 * 1.959963984540054 * (p / 100) / (acc * acc);
      std::printf("acc %.2f p%g: first n %llu, tail %.1f (normal estimate %.1f)\n", acc, p,
                  static_cast<unsigned long long>(n), tail, approx);
      EXPECT_GT(tail, 0.6 * approx);
      EXPECT_LT(tail, 1.6 * approx);
    }
  }
  EXPECT_FALSE(adaptive_enough(0, 50, 1));
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Widths {
  std::vector<double> rel;  // (hi - lo) / value, infinite when unbounded
  size_t unbounded = 0, rows = 0;
};

Widths band_widths(const QueryResult& r, size_t j) {
  Widths w;
  for (const Row& row : r.rows) {
    if (row.flags & (kFlagEmpty | kFlagPartial)) continue;
    const PercentileValue& v = row.p[j];
    ++w.rows;
    if (!std::isfinite(v.hi_ns)) ++w.unbounded;
    w.rel.push_back((v.hi_ns - v.lo_ns) / v.value_ns);
  }
  return w;
}

TEST(Adaptive, RealRunWholeWindowsAndNarrowerBands) {
  // fio-s1: 2 hosts x 2 jobs, ~400 I/Os per second per job and direction.
  Engine e;
  ASSERT_TRUE(fx::load(&e, fx::list(fx::path("fio-s1"), "s1_clat_hist."), {}));
  QueryOptions q;
  q.percentiles = {50, 99};
  q.group_by = {"host", "job", "dir"};
  QueryResult fixed, adaptive;
  ASSERT_TRUE(e.query(q, &fixed).ok());
  q.adaptive_accuracy = 0.5;
  const Status st = e.query(q, &adaptive);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_TRUE(adaptive.adaptive);
  ASSERT_EQ(adaptive.groups, fixed.groups);

  // Window ends per group: every quantum ends at one (no window is split).
  std::map<uint32_t, std::set<double>> ends;
  std::map<uint32_t, double> total_fixed, total_adaptive;
  for (const Row& r : fixed.rows)
    if (!(r.flags & kFlagEmpty)) total_fixed[r.group] += r.stats.samples;
  for (const Source& s : e.sources())
    for (const Series& x : s.series) {
      const std::string key = "host=" + label_of(s, x, "host") + ";job=" + label_of(s, x, "job") +
                              ";dir=" + label_of(s, x, "dir");
      const auto g = std::find(fixed.groups.begin(), fixed.groups.end(), key);
      ASSERT_NE(g, fixed.groups.end()) << key;
      for (const Window& w : x.windows) ends[static_cast<uint32_t>(g - fixed.groups.begin())].insert(w.end_ms);
    }
  std::map<uint32_t, double> last_end;
  for (const Row& r : adaptive.rows) {
    ASSERT_FALSE(r.flags & kFlagEmpty);
    EXPECT_FALSE(r.flags & kFlagShort);
    total_adaptive[r.group] += r.stats.samples;
    const double end = r.t_ms + r.width_ms;
    EXPECT_TRUE(ends[r.group].count(end)) << "quantum ends at " << end << " inside a window";
    if (last_end.count(r.group)) {
      EXPECT_EQ(r.t_ms, last_end[r.group]);  // quanta tile the run
    }
    last_end[r.group] = end;
    EXPECT_EQ(r.stats.samples, std::floor(r.stats.samples));  // whole windows: whole I/Os
    EXPECT_TRUE(adaptive_enough(static_cast<uint64_t>(r.stats.samples), 99, 0.5)) << "t=" << r.t_ms;
  }
  for (const auto& kv : total_fixed) EXPECT_NEAR(total_adaptive[kv.first], kv.second, 1e-6 * kv.second);

  // Same confidence (95%), p99: fixed 1 s quanta hold ~400 I/Os, ~4 above p99.
  const Widths wf = band_widths(fixed, 1), wa = band_widths(adaptive, 1);
  const double mf = median(wf.rel), ma = median(wa.rel);
  double mean_width = 0;
  for (const Row& r : adaptive.rows) mean_width += r.width_ms;
  mean_width /= static_cast<double>(adaptive.rows.size());
  std::printf("p99 band width / value, median: fixed 1 s %.3f (%zu of %zu rows unbounded above), "
              "adaptive %.3f (%zu of %zu unbounded; mean quantum %.0f ms)\n",
              mf, wf.unbounded, wf.rows, ma, wa.unbounded, wa.rows, mean_width);
  EXPECT_EQ(wa.unbounded, 0u);
  EXPECT_LT(ma, mf);
  // Fixed quanta as wide as the adaptive ones on average, for comparison.
  QueryOptions q5 = q;
  q5.adaptive_accuracy = 0;
  q5.quantum_ms = 5000;
  QueryResult fixed5;
  ASSERT_TRUE(e.query(q5, &fixed5).ok());
  const Widths w5 = band_widths(fixed5, 1);
  std::printf("fixed 5 s: median %.3f (%zu rows)\n", median(w5.rel), w5.rows);
}

TEST(Adaptive, NeedsAPercentileBelow100) {
  Engine e;
  ASSERT_TRUE(fx::load(&e, fx::list(fx::path("local"), "local_clat_hist."), {}));
  QueryOptions q;
  q.percentiles = {100};
  q.adaptive_accuracy = 0.5;
  QueryResult r;
  const Status st = e.query(q, &r);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("below 100"), std::string::npos);
}

TEST(Adaptive, TooFewIosGiveOneShortQuantum) {
  Engine e;
  ASSERT_TRUE(fx::load(&e, fx::list(fx::path("local"), "local_clat_hist."), {}));
  QueryOptions q;
  q.percentiles = {99.99};
  q.adaptive_accuracy = 0.1;  // ~38,000 I/Os above p99.99: far more than the run did
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_TRUE(r.rows[0].flags & kFlagShort);
}

}  // namespace
}  // namespace latscope
