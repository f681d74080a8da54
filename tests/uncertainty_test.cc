// The 95% sampling bands of percentiles (latscope/uncertainty.h,
// docs/uncertainty.md):
//  * the ranks equal a brute-force binomial computation (exact regime) and
//    stay within one rank of it with >= 94.9% coverage (normal regime);
//  * coverage by simulation: samples of a known distribution recorded into
//    fio's histogram layout, the true quantile inside the band in >= 93% of
//    trials (deterministic seeds: the test cannot flake);
//  * on real fio runs the band holds the exact per-I/O percentile.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/uncertainty.h"

namespace latscope {
namespace {

namespace fx = fixtures;

// Brute force: P(B <= k) for B ~ Binomial(n, p), every term from its own
// lgamma, summed from k = 0 (no recurrence, no tail cut). Double: long
// double is software binary128 in WebAssembly, far too slow for 10^6 terms,
// and the summation error (~1e-10) is far below what a 2.5% comparison needs.
std::vector<double> binomial_cdf(uint64_t n, double p) {
  std::vector<double> cdf(static_cast<size_t>(n) + 1);
  double cum = 0;
  const double lp = std::log(p), lq = std::log1p(-p), nk = static_cast<double>(n);
  const double lgn = std::lgamma(nk + 1);
  for (uint64_t k = 0; k <= n; ++k) {
    const double kk = static_cast<double>(k);
    cum += std::exp(lgn - std::lgamma(kk + 1) - std::lgamma(nk - kk + 1) + kk * lp + (nk - kk) * lq);
    cdf[static_cast<size_t>(k)] = cum;
  }
  return cdf;
}

// The definition in uncertainty.h, evaluated on the brute-force CDF.
RankBand brute_band(const std::vector<double>& cdf, uint64_t n) {
  RankBand b;
  b.lo = 0;  // the largest l with P(B <= l - 1) <= 2.5%
  for (uint64_t l = 1; l <= n; ++l)
    if (cdf[static_cast<size_t>(l - 1)] <= kBandTail) b.lo = l;
  b.hi = n + 1;  // the smallest u with P(B >= u) = 1 - P(B <= u - 1) <= 2.5%
  for (uint64_t u = n; u >= 1; --u) {
    if (1 - cdf[static_cast<size_t>(u - 1)] <= kBandTail) b.hi = u;
    else break;
  }
  return b;
}

double coverage(const std::vector<double>& cdf, const RankBand& b) {
  // P(lo <= B <= hi - 1)
  const double below = b.lo >= 1 ? cdf[static_cast<size_t>(b.lo - 1)] : 0;
  return cdf[static_cast<size_t>(b.hi - 1)] - below;
}

TEST(RankBand, ExactEqualsBruteForce) {
  for (uint64_t n : {1, 2, 3, 5, 10, 37, 100, 400, 1000, 1200, 3200}) {
    for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " p=" + std::to_string(p));
      const std::vector<double> cdf = binomial_cdf(n, p / 100);
      const RankBand want = brute_band(cdf, n);
      const RankBand got = rank_band(n, p);
      EXPECT_FALSE(got.normal);
      EXPECT_EQ(got.lo, want.lo);
      EXPECT_EQ(got.hi, want.hi);
      EXPECT_GE(coverage(cdf, got), 0.95);
    }
  }
  // p0 and p100: all mass at 0 or n.
  EXPECT_EQ(rank_band(50, 0).lo, 0u);
  EXPECT_EQ(rank_band(50, 0).hi, 1u);
  EXPECT_EQ(rank_band(50, 100).lo, 50u);
  EXPECT_EQ(rank_band(50, 100).hi, 51u);
}

// rank_band_exact remembers recent (n, p) answers (uncertainty.cc): many more
// pairs than the memo holds, asked twice in different orders, must give the
// same bands, and a sample of them the brute-force ones.
TEST(RankBand, RememberedBandsAreTheBandsOfTheirOwnQuestion) {
  const double ps[] = {50, 90, 99, 99.9, 99.99, 100.0 / 3};
  std::vector<RankBand> first;
  for (uint64_t n = 1; n <= 1500; ++n)
    for (double p : ps) first.push_back(rank_band_exact(n, p));
  size_t i = first.size();
  for (uint64_t n = 1500; n >= 1; --n)
    for (size_t k = std::size(ps); k-- > 0;) {
      const RankBand again = rank_band_exact(n, ps[k]);
      --i;
      ASSERT_EQ(again.lo, first[i].lo) << "n=" << n << " p=" << ps[k];
      ASSERT_EQ(again.hi, first[i].hi) << "n=" << n << " p=" << ps[k];
    }
  for (uint64_t n : {7, 400, 401, 1499}) {
    for (double p : ps) {
      const std::vector<double> cdf = binomial_cdf(n, p / 100);
      const RankBand want = brute_band(cdf, n);
      EXPECT_EQ(rank_band_exact(n, p).lo, want.lo) << "n=" << n << " p=" << p;
      EXPECT_EQ(rank_band_exact(n, p).hi, want.hi) << "n=" << n << " p=" << p;
    }
  }
}

TEST(RankBand, NormalApproximationAgainstBruteForce) {
  // n p (1 - p) >= 10^4: the normal approximation with continuity correction.
  struct Case {
    uint64_t n;
    double p;
  };
  for (const Case c : {Case{40000, 50}, Case{1020000, 99}, Case{120000, 10}}) {
    SCOPED_TRACE("n=" + std::to_string(c.n) + " p=" + std::to_string(c.p));
    const RankBand got = rank_band(c.n, c.p);
    ASSERT_TRUE(got.normal);
    const RankBand exact = rank_band_exact(c.n, c.p);
    const std::vector<double> cdf = binomial_cdf(c.n, c.p / 100);
    const RankBand want = brute_band(cdf, c.n);
    EXPECT_EQ(exact.lo, want.lo);
    EXPECT_EQ(exact.hi, want.hi);
    EXPECT_LE(std::llabs(static_cast<long long>(got.lo) - static_cast<long long>(want.lo)), 1);
    EXPECT_LE(std::llabs(static_cast<long long>(got.hi) - static_cast<long long>(want.hi)), 1);
    const double cov = coverage(cdf, got);
    std::printf("normal n=%llu p=%g: ranks [%llu, %llu] vs exact [%llu, %llu], coverage %.5f\n",
                static_cast<unsigned long long>(c.n), c.p, static_cast<unsigned long long>(got.lo),
                static_cast<unsigned long long>(got.hi), static_cast<unsigned long long>(want.lo),
                static_cast<unsigned long long>(want.hi), cov);
    EXPECT_GE(cov, 0.949);
  }
}

// The bin holding value v (lo inclusive, hi exclusive).
size_t bin_of(const BinLayout& l, double v) {
  const auto it = std::upper_bound(l.lo.begin(), l.lo.end(), v);
  return it == l.lo.begin() ? 0 : static_cast<size_t>(it - l.lo.begin()) - 1;
}

TEST(Bands, CoverageBySimulation) {
  // Log-normal latencies: median 100 us, sigma 0.8 (a long tail). Its true
  // p-quantile is exp(mu + sigma z_p).
  const double mu = std::log(100e3), sigma = 0.8;
  const double ps[] = {50, 90, 99, 99.9};
  const double zs[] = {0, 1.2815515655446004, 2.3263478740408408, 3.090232306167813};
  const BinLayout& layout = *fio_layout(3, 0);
  const int trials = 600;
  std::mt19937_64 rng(20260101);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (uint64_t n : {120, 1200, 12000}) {
    int covered[4] = {0, 0, 0, 0}, bounded[4] = {0, 0, 0, 0};
    double rel_width[4] = {0, 0, 0, 0};
    std::vector<double> counts(layout.size());
    for (int t = 0; t < trials; ++t) {
      std::fill(counts.begin(), counts.end(), 0.0);
      for (uint64_t i = 0; i < n; ++i) {
        // fio records whole ns
        const double v = std::floor(std::exp(mu + sigma * normal(rng)));
        counts[bin_of(layout, v)] += 1;
      }
      PercentileValue out[4];
      ASSERT_TRUE(compute_percentiles(layout, counts.data(), ps, 4, Method::kInterp, out));
      ASSERT_TRUE(compute_bands(layout, counts.data(), ps, 4, out));
      for (int j = 0; j < 4; ++j) {
        const double truth = std::exp(mu + sigma * zs[j]);
        EXPECT_LE(out[j].lo_ns, out[j].value_ns);
        if (out[j].lo_ns <= truth && truth <= out[j].hi_ns) ++covered[j];
        if (std::isfinite(out[j].hi_ns)) {
          ++bounded[j];
          rel_width[j] += (out[j].hi_ns - out[j].lo_ns) / truth;
        }
      }
    }
    for (int j = 0; j < 4; ++j) {
      const double cov = static_cast<double>(covered[j]) / trials;
      std::printf("n=%llu p%g: coverage %.3f, bounded above in %d of %d, mean width %.3f x truth\n",
                  static_cast<unsigned long long>(n), ps[j], cov, bounded[j], trials,
                  bounded[j] ? rel_width[j] / bounded[j] : 0.0);
      EXPECT_GE(cov, 0.93) << "n=" << n << " p" << ps[j];
    }
  }
}

TEST(Bands, ExactValuesCoverage) {
  // Method::kExact's bands: the sorted values at ranks lo and hi.
  const int trials = 1000;
  const uint64_t n = 1200;
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> expo(1.0 / 50e3);
  const double ps[] = {50, 99};
  int covered[2] = {0, 0};
  for (int t = 0; t < trials; ++t) {
    std::vector<uint64_t> v(n);
    for (uint64_t& x : v) x = static_cast<uint64_t>(expo(rng));
    Stats st;
    PercentileValue out[2];
    ASSERT_TRUE(exact_percentiles(&v, ps, 2, &st, out));
    for (int j = 0; j < 2; ++j) {
      const double truth = -50e3 * std::log1p(-ps[j] / 100);
      EXPECT_LE(out[j].lo_ns, out[j].value_ns);
      EXPECT_GE(out[j].hi_ns, out[j].value_ns);
      if (out[j].lo_ns <= truth && truth <= out[j].hi_ns) ++covered[j];
    }
  }
  for (int j = 0; j < 2; ++j) {
    EXPECT_GE(static_cast<double>(covered[j]) / trials, 0.93) << "p" << ps[j];
  }
}

TEST(Bands, FractionalCountsUseTheRoundedTotal) {
  // Three bins holding 0.5, 1.25 and 1.25: n = 3 I/Os, rank r at r * 3/3.
  BinLayout l;
  l.lo = {0, 10, 20};
  l.hi = {10, 20, 30};
  l.rep = {5, 15, 25};
  const double counts[] = {0.5, 1.25, 1.25};
  const double ps[] = {50};
  PercentileValue out[1];
  ASSERT_TRUE(compute_bands(l, counts, ps, 1, out));
  // n = 3, p = 0.5: P(B <= 0) = 1/8 > 2.5% so lo = 0 (bound 0); P(B >= 3) = 1/8: hi = 4 (unbounded).
  EXPECT_EQ(out[0].lo_ns, 0);
  EXPECT_TRUE(std::isinf(out[0].hi_ns));
  const double none[] = {0, 0, 0};
  EXPECT_FALSE(compute_bands(l, none, ps, 1, out));
}

// Rows of one query by time (cluster-wide group "all").
std::vector<Row> query_rows(const Engine& e, Method m, const std::vector<double>& ps) {
  QueryOptions q;
  q.quantum_ms = 1000;
  q.percentiles = ps;
  q.method = m;
  QueryResult r;
  const Status st = e.query(q, &r);
  EXPECT_TRUE(st.ok()) << st.message;
  return r.rows;
}

TEST(Bands, PerIoLogsBinBandHoldsTheExactValue) {
  // The same I/Os (fio per-I/O logs of the fio-s1 run): the band from their
  // bins must hold the nearest-rank value of the I/Os, since rank
  // ceil(p n) lies between the band's ranks and the bins bracket them.
  Engine e;
  ASSERT_TRUE(fx::load(&e, fx::list(fx::path("fio-s1"), "s1_clat."), {}));
  const std::vector<double> ps{50, 90, 99, 99.9};
  const std::vector<Row> bins = query_rows(e, Method::kInterp, ps);
  const std::vector<Row> exact = query_rows(e, Method::kExact, ps);
  ASSERT_EQ(bins.size(), exact.size());
  size_t checked = 0;
  for (size_t i = 0; i < bins.size(); ++i) {
    if (bins[i].flags & kFlagEmpty) continue;
    for (size_t j = 0; j < ps.size(); ++j) {
      const PercentileValue& b = bins[i].p[j];
      const PercentileValue& x = exact[i].p[j];
      EXPECT_LE(b.lo_ns, x.value_ns) << "t=" << bins[i].t_ms << " p" << ps[j];
      EXPECT_GE(b.hi_ns, x.value_ns) << "t=" << bins[i].t_ms << " p" << ps[j];
      // The exact band is inside the bin band (same ranks, bins around values).
      EXPECT_LE(b.lo_ns, x.lo_ns);
      EXPECT_GE(b.hi_ns, x.hi_ns);
      ++checked;
    }
  }
  EXPECT_GT(checked, 60u);
}

TEST(Bands, HistogramLogBandHoldsTheExactPerIoPercentile) {
  // Histogram logs (windows spread over 1 s quanta by overlap) against the
  // per-I/O logs of the same run (the exact percentile of the I/Os that
  // completed in the quantum). local: windows ~2 ms off the quanta.
  Engine hist, per_io;
  ASSERT_TRUE(fx::load(&hist, fx::list(fx::path("local"), "local_clat_hist."), {}));
  ASSERT_TRUE(fx::load(&per_io, fx::list(fx::path("local"), "local_clat."), {}));
  const std::vector<double> ps{50, 90, 99, 99.9};
  const std::vector<Row> h = query_rows(hist, Method::kInterp, ps);
  const std::vector<Row> x = query_rows(per_io, Method::kExact, ps);
  size_t checked = 0;
  for (const Row& hr : h) {
    if (hr.flags & (kFlagEmpty | kFlagPartial)) continue;  // the unlogged tail is not in the histograms
    const auto it = std::find_if(x.begin(), x.end(), [&](const Row& r) { return r.t_ms == hr.t_ms; });
    ASSERT_NE(it, x.end());
    for (size_t j = 0; j < ps.size(); ++j) {
      EXPECT_LE(hr.p[j].lo_ns, it->p[j].value_ns) << "t=" << hr.t_ms << " p" << ps[j];
      EXPECT_GE(hr.p[j].hi_ns, it->p[j].value_ns) << "t=" << hr.t_ms << " p" << ps[j];
      ++checked;
    }
  }
  EXPECT_GE(checked, 30u);
}

}  // namespace
}  // namespace latscope
