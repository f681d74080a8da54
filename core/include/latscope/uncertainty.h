// Sampling uncertainty of percentiles: distribution-free 95% confidence
// bands from order statistics (docs/uncertainty.md).
//
// Of n I/Os drawn from any latency distribution, the number at or below its
// true p-quantile q_p is Binomial(n, p). So the l-th smallest and the u-th
// smallest I/O bracket q_p,  X_(l) <= q_p <= X_(u),  with probability at
// least P(l <= B <= u - 1), B ~ Binomial(n, p). rank_band picks the ranks
// with at most 2.5% on each side; band bounds come from a histogram (lower
// edge of rank l's bin, upper edge of rank u's bin) or from sorted values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "latscope/layout.h"
#include "latscope/percentiles.h"

namespace latscope {

// The bands' confidence: at least 95%, 2.5% at most in each tail.
constexpr double kBandTail = 0.025;

struct RankBand {
  uint64_t lo = 0;  // 1-based rank of the lower bound; 0: no sample below (bound 0 ns)
  uint64_t hi = 0;  // 1-based rank of the upper bound; n + 1: no sample above (unbounded)
  bool normal = false;  // from the normal approximation (else the exact binomial)
};

// The exact binomial is used while n p (1 - p) < kNormalVariance, the normal
// approximation with continuity correction beyond (docs/uncertainty.md).
constexpr double kNormalVariance = 1e4;

// Ranks for the p-th percentile (p in [0, 100]) of n samples:
//   lo = the largest l with P(B <= l - 1) <= 2.5%,
//   hi = the smallest u with P(B >= u) <= 2.5%,   B ~ Binomial(n, p/100).
RankBand rank_band(uint64_t n, double p);
// The same from the exact binomial only (any n; O(sqrt(n p (1 - p))) steps).
RankBand rank_band_exact(uint64_t n, double p);

// Fills lo_ns / hi_ns of out[0..np) from a histogram: n is the histogram's
// total count rounded to an integer (fractional after overlap weighting),
// rank r is taken where the cumulative count reaches r * total / n; lo_ns is
// the lower edge of that bin for rank lo (0 when lo = 0), hi_ns the upper
// edge for rank hi (infinity when hi = n + 1 or the bin saturates).
// Returns false (outputs untouched) when the histogram is empty.
// span: as compute_stats (percentiles.h).
bool compute_bands(const BinLayout& layout, const double* counts, const double* ps, size_t np,
                   PercentileValue* out, BinSpan span = {});

// The same from sorted exact values (ns): the values at ranks lo and hi.
void exact_bands(const uint64_t* sorted, size_t n, const double* ps, size_t np, PercentileValue* out);

}  // namespace latscope
