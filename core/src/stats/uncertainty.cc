// Order-statistic confidence bands for percentiles (latscope/uncertainty.h).
// The derivation, the choice of the exact binomial below n p (1 - p) = 10^4
// and of the normal approximation above it, and the measured coverage are in
// docs/uncertainty.md.
#include "latscope/uncertainty.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace latscope {
namespace {

// Two-sided 95%: the standard normal's 97.5% quantile.
constexpr double kZ = 1.959963984540054;
constexpr double kInf = std::numeric_limits<double>::infinity();

// B ~ Binomial(n, p) puts all its mass on 0 or n when p is 0 or 1.
bool degenerate(uint64_t n, double p, RankBand* out) {
  if (n == 0 || p <= 0) {
    *out = {0, 1, false};  // every sample is >= q_0: only X_(1) bounds it (above)
    return true;
  }
  if (p >= 1) {
    *out = {n, n + 1, false};  // nothing bounds the distribution's top from above
    return true;
  }
  return false;
}

double log_pmf(double n, double k, double p) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) + k * std::log(p) +
         (n - k) * std::log1p(-p);
}


RankBand rank_band_walk(uint64_t n, double pct) {
  const double p = std::clamp(pct, 0.0, 100.0) / 100.0;
  RankBand b;
  if (degenerate(n, p, &b)) return b;
  const double nd = static_cast<double>(n), q = 1 - p;
  const double mean = nd * p, sd = std::sqrt(nd * p * q);
  // Mass beyond mean -+ t, t = 7 sd + 30, is below exp(-t^2 / (2 (sd^2 + t/3)))
  // < 1e-10 (Bernstein's inequality), far under the 2.5% it is compared
  // with: the sums start there.
  const double reach = 7 * sd + 30;
  const double ratio = p / q, lratio = std::log(ratio);
  // Terms below e^-690 (~1e-300) add nothing a double can hold: skipped in
  // log space until the terms are representable, then multiplied along.
  constexpr double kTiny = -690;

  // lo: the smallest k with P(B <= k) > 2.5% (then P(B <= lo - 1) <= 2.5%).
  double k = std::max(0.0, std::floor(mean - reach));
  double lp = log_pmf(nd, k, p);
  for (; lp < kTiny && k < nd; k += 1) lp += std::log((nd - k) / (k + 1)) + lratio;
  double pm = std::exp(lp), cum = 0;
  for (;; k += 1) {
    cum += pm;
    if (cum > kBandTail || k >= nd) break;
    pm *= (nd - k) / (k + 1) * ratio;
  }
  b.lo = static_cast<uint64_t>(k);

  // hi: the smallest u with P(B >= u) <= 2.5%, walking down from the top
  // until the upper tail P(B >= k) passes 2.5%: then u = k + 1.
  k = std::min(nd, std::ceil(mean + reach));
  lp = log_pmf(nd, k, p);
  for (; lp < kTiny && k > 0; k -= 1) lp += std::log(k / (nd - k + 1)) - lratio;
  pm = std::exp(lp);
  double tail = 0;
  for (;; k -= 1) {
    tail += pm;
    if (tail > kBandTail || k <= 0) break;
    pm *= k / (nd - k + 1) / ratio;
  }
  b.hi = static_cast<uint64_t>(k) + 1;
  return b;
}

// The exact walk costs a few hundred terms with logarithms; a query asks it
// once per percentile and row, and rows mostly share a few totals (a host's
// I/O rate is steady) and always the same percentiles. A small direct-mapped
// memo per thread answers those repeats with the identical band.
struct BandMemo {
  uint64_t n = 0;
  uint64_t pct_bits = 0;
  RankBand band;
  bool used = false;
};
constexpr size_t kMemoSize = 1024;  // a power of two

RankBand* memo_slot(uint64_t n, double pct, bool* hit) {
  thread_local std::array<BandMemo, kMemoSize> memo;
  uint64_t bits = 0;
  std::memcpy(&bits, &pct, sizeof bits);
  const uint64_t h = (n * 0x9E3779B97F4A7C15ULL) ^ (bits * 0xC2B2AE3D27D4EB4FULL);
  BandMemo& m = memo[(h >> 40) & (kMemoSize - 1)];
  *hit = m.used && m.n == n && m.pct_bits == bits;
  if (!*hit) {
    m.used = true;
    m.n = n;
    m.pct_bits = bits;
  }
  return &m.band;
}

}  // namespace

RankBand rank_band_exact(uint64_t n, double pct) {
  bool hit = false;
  RankBand* slot = memo_slot(n, pct, &hit);
  if (!hit) *slot = rank_band_walk(n, pct);
  return *slot;
}

RankBand rank_band(uint64_t n, double pct) {
  const double p = std::clamp(pct, 0.0, 100.0) / 100.0;
  RankBand b;
  if (degenerate(n, p, &b)) return b;
  const double nd = static_cast<double>(n);
  const double var = nd * p * (1 - p);
  if (var < kNormalVariance) return rank_band_exact(n, pct);
  // P(B <= l - 1) ~ Phi((l - 1 + 0.5 - np) / sd) <= 2.5%  <=>  l <= np + 0.5 - z sd
  // P(B >= u)     ~ 1 - Phi((u - 0.5 - np) / sd) <= 2.5%  <=>  u >= np + 0.5 + z sd
  const double sd = std::sqrt(var), mean = nd * p;
  b.lo = static_cast<uint64_t>(std::clamp(std::floor(mean + 0.5 - kZ * sd), 0.0, nd));
  b.hi = static_cast<uint64_t>(std::clamp(std::ceil(mean + 0.5 + kZ * sd), 1.0, nd + 1));
  b.normal = true;
  return b;
}

bool compute_bands(const BinLayout& layout, const double* counts, const double* ps, size_t np,
                   PercentileValue* out, BinSpan span) {
  const size_t k = layout.size();
  const size_t end = std::min(span.end, k);
  double total = 0;
  for (size_t i = span.begin; i < end; ++i) total += counts[i];
  if (!(total > 0)) return false;
  // n: the quantum's total count as a whole number of I/Os (overlap-weighted
  // quanta add fractions of windows; docs/uncertainty.md).
  const double nr = std::round(total);
  const uint64_t n = nr < 1.8e19 ? static_cast<uint64_t>(nr) : UINT64_MAX / 2;
  const double scale = n ? total / static_cast<double>(n) : 0;
  const double tol = 1e-9 * total;  // summation rounding at the top rank

  // Targets: (cumulative count to reach, percentile index, upper?), visited
  // in ascending order so one pass over the bins answers them all.
  struct Target {
    double at;
    size_t j;
    bool upper;
  };
  constexpr size_t kChunk = 128;
  Target t[2 * kChunk];
  for (size_t start = 0; start < np; start += kChunk) {
    const size_t m = std::min(kChunk, np - start);
    size_t nt = 0;
    for (size_t j = start; j < start + m; ++j) {
      const RankBand b = rank_band(n, ps[j]);
      PercentileValue& v = out[j];
      v.lo_ns = 0;
      v.hi_ns = kInf;
      if (b.lo >= 1) t[nt++] = {static_cast<double>(b.lo) * scale, j, false};
      if (b.hi <= n) t[nt++] = {static_cast<double>(b.hi) * scale, j, true};
    }
    std::sort(t, t + nt, [](const Target& a, const Target& b) { return a.at < b.at; });
    size_t x = 0, last = k;
    double cum = 0;
    for (size_t i = span.begin; i < end && x < nt; ++i) {
      if (counts[i] <= 0) continue;
      cum += counts[i];
      last = i;
      const bool sat = layout.last_saturates && i + 1 == k;
      for (; x < nt && cum >= t[x].at - tol; ++x) {
        if (t[x].upper) out[t[x].j].hi_ns = sat ? kInf : layout.hi[i];
        else out[t[x].j].lo_ns = layout.lo[i];
      }
    }
    for (; x < nt && last < k; ++x) {  // never reached by rounding: the top bin
      const bool sat = layout.last_saturates && last + 1 == k;
      if (t[x].upper) out[t[x].j].hi_ns = sat ? kInf : layout.hi[last];
      else out[t[x].j].lo_ns = layout.lo[last];
    }
  }
  return true;
}

void exact_bands(const uint64_t* sorted, size_t n, const double* ps, size_t np, PercentileValue* out) {
  for (size_t j = 0; j < np; ++j) {
    const RankBand b = rank_band(n, ps[j]);
    out[j].lo_ns = b.lo >= 1 ? static_cast<double>(sorted[static_cast<size_t>(b.lo - 1)]) : 0;
    out[j].hi_ns = b.hi <= n ? static_cast<double>(sorted[static_cast<size_t>(b.hi - 1)]) : kInf;
  }
}

}  // namespace latscope
