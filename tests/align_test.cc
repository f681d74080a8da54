// Alignment onto quanta with overlap weighting, merging and grouping.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "latscope/engine.h"
#include "query/aligner.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

double samples_at(const QueryResult& r, double t, const std::string& group = "all") {
  for (const Row& row : r.rows)
    if (row.t_ms == t && r.groups[row.group] == group) return (row.flags & kFlagEmpty) ? 0 : row.stats.samples;
  return -1;
}

TEST(Align, WindowInsideOneQuantum) {
  Engine e;
  // (1000, 1600] then (1600, 1900]: both inside [1000, 2000)
  feed(&e, "a_clat_hist.1.log",
       hist_line(1000, 0, {{150, 100}}) + hist_line(1600, 0, {{150, 60}}) + hist_line(1900, 0, {{150, 30}}));
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 100);
  EXPECT_DOUBLE_EQ(samples_at(r, 1000), 90);
}

TEST(Align, WindowSpanningTwoQuanta) {
  Engine e;
  // (1000, 2500]: 2/3 in [1000,2000), 1/3 in [2000,3000)
  feed(&e, "a_clat_hist.1.log", hist_line(1000, 0, {{150, 10}}) + hist_line(2500, 0, {{150, 300}}));
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 1000), 200);
  EXPECT_DOUBLE_EQ(samples_at(r, 2000), 100);
  EXPECT_TRUE(r.rows.back().flags & kFlagPartial);  // data ends at 2500
}

TEST(Align, WindowSpanningThreeQuanta) {
  Engine e;
  // (500, 3000] = 2500 ms: 500 / 1000 / 1000 ms in quanta 0, 1, 2
  feed(&e, "a_clat_hist.1.log", hist_line(500, 0, {{150, 5}}) + hist_line(3000, 0, {{150, 250}}));
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 5 + 50);
  EXPECT_DOUBLE_EQ(samples_at(r, 1000), 100);
  EXPECT_DOUBLE_EQ(samples_at(r, 2000), 100);
}

TEST(Align, AnyPositiveQuantum) {
  Engine e;
  feed(&e, "a_clat_hist.1.log", hist_line(1000, 0, {{150, 100}}) + hist_line(2000, 0, {{150, 100}}));
  QueryOptions o;
  o.quantum_ms = 250;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  ASSERT_EQ(r.rows.size(), 8u);
  for (const Row& row : r.rows) EXPECT_DOUBLE_EQ(row.stats.samples, 25);
  o.quantum_ms = 0;
  EXPECT_FALSE(e.query(o, &r).ok());
}

TEST(Align, MergeAddsHistogramsAndGroupsSplitThem) {
  Engine e;
  feed(&e, "m_clat_hist.1.log.hostA", hist_line(1000, 0, {{150, 10}}) + hist_line(1000, 1, {{300, 5}}));
  feed(&e, "m_clat_hist.2.log.hostA", hist_line(1000, 0, {{160, 20}}));
  feed(&e, "m_clat_hist.1.log.hostB", hist_line(1000, 0, {{170, 40}}));
  QueryOptions o;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 75);
  o.group_by = GroupBy{"host"};
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0, "host=hostA"), 35);
  EXPECT_DOUBLE_EQ(samples_at(r, 0, "host=hostB"), 40);
  o.group_by = GroupBy{"job", "dir"};
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0, "job=1;dir=read"), 50);
  EXPECT_DOUBLE_EQ(samples_at(r, 0, "job=1;dir=write"), 5);
  EXPECT_DOUBLE_EQ(samples_at(r, 0, "job=2;dir=read"), 20);
  o.group_by = GroupBy{};
  o.sel.dirs = kDirWrite;
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 5);
  o.sel.dirs = kDirAll;
  o.sel.exclude_hosts = {"hostB"};
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 35);
}

// Merging then taking percentiles equals recording everything in one file.
TEST(Align, MergeEqualsRecordingTogether) {
  Engine split, together;
  feed(&split, "a_clat_hist.1.log", hist_line(1000, 0, {{150, 10}, {400, 3}}));
  feed(&split, "b_clat_hist.1.log", hist_line(1000, 0, {{150, 5}, {900, 1}}));
  feed(&together, "c_clat_hist.1.log", hist_line(1000, 0, {{150, 15}, {400, 3}, {900, 1}}));
  QueryResult a, b;
  ASSERT_TRUE(split.query({}, &a).ok());
  ASSERT_TRUE(together.query({}, &b).ok());
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i)
    for (size_t j = 0; j < a.rows[i].p.size(); ++j) EXPECT_EQ(a.rows[i].p[j].value_ns, b.rows[i].p[j].value_ns);
}

TEST(Align, HostOffsetShiftsItsWindows) {
  Engine e;
  feed(&e, "o_clat_hist.1.log.late", hist_line(1000, 0, {{150, 100}}));
  QueryOptions o;
  o.sel.offsets_ms["late"] = 1000;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 0);
  EXPECT_DOUBLE_EQ(samples_at(r, 1000), 100);
  o.sel.offsets_ms.clear();
  o.sel.offsets_ms["o_clat_hist.1.log.late"] = 500;  // by file name
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_DOUBLE_EQ(samples_at(r, 0), 50);
  EXPECT_DOUBLE_EQ(samples_at(r, 1000), 50);
}

TEST(Align, HeatmapConservesCounts) {
  Engine e;
  feed(&e, "h_clat_hist.1.log",
       hist_line(1000, 0, {{600, 10}, {900, 3}}) + hist_line(2000, 0, {{700, 7}, {1200, 1}}));
  HeatmapOptions o;
  o.rows = 20;
  HeatmapResult h;
  ASSERT_TRUE(e.heatmap(o, &h).ok());
  ASSERT_EQ(h.quanta, 2u);
  ASSERT_EQ(h.edges_ns.size(), 21u);
  double total = h.below + h.above;
  for (double c : h.counts) total += c;
  EXPECT_NEAR(total, 21, 1e-9);
  EXPECT_NEAR(h.below + h.above, 0, 1e-9);  // default bounds hold all data
  double q0 = 0;
  for (uint32_t r = 0; r < h.rows; ++r) q0 += h.counts[r];
  EXPECT_NEAR(q0, 13, 1e-9);
}

TEST(Align, RangeSelectionLimitsQuanta) {
  Engine e;
  std::string t;
  for (int k = 1; k <= 10; ++k) t += hist_line(k * 1000, 0, {{150, 10}});
  feed(&e, "r_clat_hist.1.log", t);
  QueryOptions o;
  o.sel.from_ms = 3000;
  o.sel.to_ms = 5500;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows.front().t_ms, 3000);
  EXPECT_EQ(r.rows.back().t_ms, 5000);
}

// The aligner's inline rounding gives std::round's bits: halves away from
// zero, both zeros, the largest doubles below 2^52 and beyond, NaN and
// infinities, and a million random shares as the aligner makes them.
TEST(Align, RoundHalfAwayIsStdRoundBitForBit) {
  const auto same_bits = [](double x) {
    const double a = round_half_away(x), b = std::round(x);
    uint64_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, sizeof a);
    std::memcpy(&ub, &b, sizeof b);
    return ua == ub;
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (double x : {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994, 0.3, -0.3,
                   4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 9007199254740993.0, 1e300, -1e300,
                   std::numeric_limits<double>::denorm_min(), inf, -inf})
    EXPECT_TRUE(same_bits(x)) << x;
  EXPECT_TRUE(std::isnan(round_half_away(std::numeric_limits<double>::quiet_NaN())));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> frac(0, 1);
  std::uniform_int_distribution<uint64_t> count(0, uint64_t{1} << 23);  // x below 2^52 mostly
  for (int i = 0; i < 1000000; ++i) {
    const double x = static_cast<double>(count(rng)) * frac(rng) * kResultOne;
    ASSERT_TRUE(same_bits(x)) << x;
    ASSERT_TRUE(same_bits(-x)) << -x;
    ASSERT_TRUE(same_bits(std::floor(x) + 0.5)) << x;
  }
}

// The unsigned rounding gives on_result_grid's bits for every count times a
// share: halves, the edges of 2^52, zero, NaN and infinity.
TEST(Align, UnsignedRoundingIsOnResultGridBitForBit) {
  const auto same_bits = [](double a, double b) {
    uint64_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, sizeof a);
    std::memcpy(&ub, &b, sizeof b);
    return ua == ub;
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (double io : {0.0, 0.5 / kResultOne, 1.5 / kResultOne, 0.49999999999999994 / kResultOne, 0.3, 1e300, inf,
                    4503599627370495.5 / kResultOne, 4503599627370496.0 / kResultOne, 9007199254740993.0 / kResultOne,
                    std::numeric_limits<double>::denorm_min()})
    EXPECT_TRUE(same_bits(on_result_grid_unsigned(io), on_result_grid(io))) << io;
  EXPECT_TRUE(std::isnan(on_result_grid_unsigned(std::numeric_limits<double>::quiet_NaN())));
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> frac(0, 1);
  std::uniform_int_distribution<uint64_t> count(0, uint64_t{1} << 40);
  for (int i = 0; i < 1000000; ++i) {
    const double io = static_cast<double>(count(rng) >> (i % 41)) * frac(rng);
    ASSERT_TRUE(same_bits(on_result_grid_unsigned(io), on_result_grid(io))) << io;
  }
}

// add_window's lean path (one case of Share::of chosen per window) adds to
// each bin exactly Share::of of its count: windows straddling a quantum's
// start, its end, both or neither, counts in whole I/Os or in fixed point
// finer and coarser than a result unit.
TEST(Align, AddWindowAddsShareOfEachCountBitForBit) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<uint64_t> count(1, uint64_t{1} << 36);
  for (int trial = 0; trial < 4000; ++trial) {
    Series series;
    std::vector<uint32_t> bins;
    std::vector<uint64_t> counts;
    for (uint32_t b = 0; b < 200; ++b)
      if (u(rng) < 0.2) {
        bins.push_back(b);
        counts.push_back(count(rng) >> (trial % 37));
      }
    if (bins.empty()) continue;
    const double s = 1000 * u(rng), e = s + 1 + 1000 * u(rng);
    series.add_window(s, e, bins.data(), counts.data(), static_cast<uint32_t>(bins.size()));
    Selected x;
    x.series = &series;
    const int frac_bits = std::array<int, 4>{0, 20, 28, 40}[trial % 4];
    x.unit = std::ldexp(1.0, -frac_bits);
    // The quantum [a, b) cuts the window at its start, its end, both or neither.
    const double a = trial % 3 == 0 ? s - 10 : s + (e - s) * u(rng);
    const double b = trial % 5 == 0 ? e + 10 : std::max(a, s) + (e - std::max(a, s)) * u(rng) + 1e-3;
    Share share;
    if (!share.set(s, e, a, b)) continue;
    std::vector<double> g(200, 0);
    WindowScratch scratch;
    const double added = add_window(x, series.windows[0], share, g.data(), &scratch, nullptr, nullptr);
    double want_added = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
      const double want = share.of(static_cast<double>(counts[i]) * x.unit);
      want_added += want;
      ASSERT_EQ(g[bins[i]], want) << "trial " << trial << " bin " << bins[i];
    }
    ASSERT_EQ(added, want_added);
  }
}

}  // namespace
}  // namespace latscope
