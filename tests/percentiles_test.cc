#include "latscope/percentiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace latscope {
namespace {

std::vector<double> dense(const BinLayout& l, const std::vector<std::pair<size_t, double>>& bins) {
  std::vector<double> c(l.size(), 0);
  for (auto& b : bins) c[b.first] += b.second;
  return c;
}

TEST(Percentiles, InterpolatesInsideTheBin) {
  LayoutPtr l = fio_layout(3, 0);
  // 100 samples in bin 128 ([128, 130)) and 100 in bin 192 ([256, 260)).
  auto c = dense(*l, {{128, 100}, {192, 100}});
  const double ps[] = {0, 25, 50, 75, 100};
  PercentileValue v[5];
  ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 5, Method::kInterp, v));
  EXPECT_DOUBLE_EQ(v[0].value_ns, 128);  // min edge
  EXPECT_DOUBLE_EQ(v[1].value_ns, 129);  // halfway through bin 128
  EXPECT_DOUBLE_EQ(v[2].value_ns, 130);  // top of bin 128
  EXPECT_DOUBLE_EQ(v[3].value_ns, 258);
  EXPECT_DOUBLE_EQ(v[4].value_ns, 260);  // max edge
  EXPECT_DOUBLE_EQ(v[1].err_ns, 2);
  EXPECT_DOUBLE_EQ(v[3].err_ns, 4);
}

TEST(Percentiles, FioMethodReturnsTheBinValue) {
  LayoutPtr l = fio_layout(3, 0);
  auto c = dense(*l, {{128, 100}, {192, 100}});
  const double ps[] = {50, 50.5};
  PercentileValue v[2];
  ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 2, Method::kFio, v));
  EXPECT_EQ(v[0].value_ns, 129);  // cumulative 100 >= 100
  EXPECT_EQ(v[1].value_ns, 258);
}

TEST(Percentiles, UnsortedRequestsAnswerInPlace) {
  LayoutPtr l = fio_layout(3, 0);
  auto c = dense(*l, {{10, 1}, {20, 1}, {30, 1}, {40, 1}});
  const double ps[] = {100, 0, 50};
  PercentileValue v[3];
  ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 3, Method::kInterp, v));
  EXPECT_EQ(v[0].value_ns, 41);
  EXPECT_EQ(v[1].value_ns, 10);
  EXPECT_EQ(v[2].value_ns, 21);
}

TEST(Percentiles, FlagsTooFewSamplesAndSaturation) {
  LayoutPtr l = fio_layout(3, 0);
  auto c = dense(*l, {{500, 999}, {1855, 1}});
  const double ps[] = {99, 99.9, 99.99, 100};
  PercentileValue v[4];
  ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 4, Method::kInterp, v));
  EXPECT_FALSE(v[0].few_samples);
  EXPECT_FALSE(v[1].few_samples);  // 1000 * 0.001 = 1 sample above
  EXPECT_TRUE(v[2].few_samples);
  EXPECT_FALSE(v[3].few_samples);  // the max needs no tail
  EXPECT_TRUE(v[3].saturated);
  EXPECT_EQ(v[3].value_ns, l->lo[1855]);
  Stats s;
  ASSERT_TRUE(compute_stats(*l, c.data(), &s));
  EXPECT_TRUE(s.saturated);
  EXPECT_EQ(s.max_ns, l->lo[1855]);
  EXPECT_EQ(s.samples, 1000);
  // The saturating bin has no upper edge: its I/Os weigh by its lower one.
  EXPECT_DOUBLE_EQ(s.mean_ns, (999 * (l->lo[500] + l->hi[500]) / 2 + l->lo[1855]) / 1000);
  // The same with the span ending before the last bin, or holding only it.
  ASSERT_TRUE(compute_stats(*l, c.data(), &s, BinSpan{1855, 1856}));
  EXPECT_EQ(s.samples, 1);
  EXPECT_EQ(s.mean_ns, l->lo[1855]);
  EXPECT_EQ(s.min_ns, l->lo[1855]);
  ASSERT_TRUE(compute_stats(*l, c.data(), &s, BinSpan{0, 1855}));
  EXPECT_EQ(s.samples, 999);
  EXPECT_FALSE(s.saturated);
}

// The query hands compute_percentiles the sum compute_stats made (fill_row):
// the answers are those of summing again, bit for bit, in every method,
// ascending or not, on fractional counts as overlap weighting makes them.
TEST(Percentiles, AGivenTotalAnswersAsSummingAgain) {
  LayoutPtr l = fio_layout(3, 2);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  const double asc[] = {0, 50, 90, 99, 99.9, 100};
  const double mixed[] = {99.9, 0, 100, 50, 99, 90};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> c(l->size(), 0);
    const size_t lo = 100 + trial % 50, hi = lo + 1 + trial % 40;
    for (size_t i = lo; i < hi; ++i)
      if (u(rng) < 0.7) c[i] = std::floor(u(rng) * 300) + (trial % 2 ? u(rng) : 0);
    if (trial % 7 == 0) c[l->size() - 1] = 3;  // the saturating bin
    const BinSpan span{lo, trial % 7 == 0 ? l->size() : hi};
    Stats s;
    double sum = -1;
    if (!compute_stats(*l, c.data(), &s, span, &sum)) continue;
    for (Method m : {Method::kInterp, Method::kHdr, Method::kExact}) {
      for (const double* ps : {asc, mixed}) {
        PercentileValue a[6], b[6];
        ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 6, m, a, span));
        ASSERT_TRUE(compute_percentiles(*l, c.data(), ps, 6, m, b, span, sum));
        for (int j = 0; j < 6; ++j) {
          EXPECT_EQ(a[j].value_ns, b[j].value_ns) << trial << " p" << ps[j];
          EXPECT_EQ(a[j].err_ns, b[j].err_ns);
          EXPECT_EQ(a[j].few_samples, b[j].few_samples);
          EXPECT_EQ(a[j].saturated, b[j].saturated);
        }
      }
    }
    // Asked in any order, each percentile gets the answer it gets in order.
    PercentileValue a[6], b[6];
    ASSERT_TRUE(compute_percentiles(*l, c.data(), asc, 6, Method::kInterp, a, span, sum));
    ASSERT_TRUE(compute_percentiles(*l, c.data(), mixed, 6, Method::kInterp, b, span, sum));
    for (int j = 0; j < 6; ++j) {
      for (int i = 0; i < 6; ++i) {
        if (mixed[j] == asc[i]) {
          EXPECT_EQ(b[j].value_ns, a[i].value_ns);
        }
      }
    }
  }
}

TEST(Percentiles, EmptyHistogramIsReported) {
  LayoutPtr l = fio_layout(3, 0);
  std::vector<double> c(l->size(), 0);
  const double p = 50;
  PercentileValue v;
  Stats s;
  EXPECT_FALSE(compute_percentiles(*l, c.data(), &p, 1, Method::kInterp, &v));
  EXPECT_FALSE(compute_stats(*l, c.data(), &s));
}

// A layout of no bins reads no count, whatever it says of its last bin.
TEST(Percentiles, NoBinsNoCounts) {
  BinLayout l;
  l.last_saturates = true;
  Stats s;
  double sum = -1;
  const double p = 50;
  PercentileValue v;
  EXPECT_FALSE(compute_stats(l, nullptr, &s, {}, &sum));
  EXPECT_EQ(sum, 0);
  EXPECT_FALSE(compute_percentiles(l, nullptr, &p, 1, Method::kInterp, &v));
}

TEST(Percentiles, StatsUseEdgesAndMidpoints) {
  LayoutPtr l = fio_layout(3, 0);
  auto c = dense(*l, {{128, 1}, {192, 3}});
  Stats s;
  ASSERT_TRUE(compute_stats(*l, c.data(), &s));
  EXPECT_EQ(s.min_ns, 128);
  EXPECT_EQ(s.max_ns, 260);
  EXPECT_DOUBLE_EQ(s.mean_ns, (129 + 3 * 258) / 4.0);
}

// Property: against a sorted array of values drawn inside the bins, the
// interpolated percentile is within the width of the bin holding the exact one.
TEST(Percentiles, InterpWithinBinWidthOfExact) {
  LayoutPtr l = fio_layout(3, 0);
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(11, 1.2);  // ~60 us median
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> vals(2000);
    std::vector<double> c(l->size(), 0);
    for (double& x : vals) {
      x = std::floor(dist(rng));
      const size_t b = std::upper_bound(l->lo.begin(), l->lo.end(), x) - l->lo.begin() - 1;
      c[b] += 1;
    }
    std::sort(vals.begin(), vals.end());
    for (double p : {50.0, 90.0, 99.0}) {
      PercentileValue v;
      compute_percentiles(*l, c.data(), &p, 1, Method::kInterp, &v);
      const double exact = vals[static_cast<size_t>(std::ceil(p / 100 * vals.size())) - 1];
      EXPECT_LE(std::fabs(v.value_ns - exact), v.err_ns) << "p" << p;
    }
  }
}

// fio compares in x87 extended precision with K = n * 0.01L computed first
// (its -ffast-math build turns "/ 100.0" into that multiply). These cases sit
// exactly on the threshold, where the rounding decides.
TEST(FioThreshold, MatchesFiosCompiledArithmetic) {
  EXPECT_TRUE(fio_threshold_reached(50, 50.0, 100));
  EXPECT_FALSE(fio_threshold_reached(49, 50.0, 100));
  EXPECT_TRUE(fio_threshold_reached(0, 0.0, 100));
  EXPECT_TRUE(fio_threshold_reached(100, 100.0, 100));
  EXPECT_FALSE(fio_threshold_reached(99, 100.0, 100));
  // The case from a real run (fio-s1, host 127.0.0.2, job 1, write): fio put
  // p60 of 3200 samples in the bin where the cumulative count is exactly
  // 1920. With a true division the threshold is 1920 + 1.1e-16 and the next
  // bin would be chosen.
  EXPECT_TRUE(fio_threshold_reached(1920, 60.0, 3200));
#if defined(__x86_64__) || defined(__i386__)
  {
    const long double by_division = (long double)60.0 / 100.0 * 3200;
    EXPECT_FALSE(1920.0L >= by_division);  // what a division would have said
  }
  // Cross-check against this platform's x87 long double, evaluated in fio's order.
  std::mt19937_64 rng(3);
  const double ps[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  for (int i = 0; i < 200000; ++i) {
    const uint64_t n = 1 + rng() % 5000000;
    const double p = ps[rng() % 17];
    volatile long double k = (long double)n * 0.01L;  // volatile: keep fio's two roundings
    const long double t = k * p;
    const uint64_t around = static_cast<uint64_t>(t);
    for (uint64_t s = around > 1 ? around - 1 : 0; s <= around + 1; ++s)
      ASSERT_EQ(fio_threshold_reached(s, p, n), (long double)s >= t) << s << " " << p << " " << n;
  }
#endif
}

}  // namespace
}  // namespace latscope
