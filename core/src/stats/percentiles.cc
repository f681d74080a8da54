#include "latscope/percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "latscope/uncertainty.h"

namespace latscope {

bool parse_method(const std::string& name, Method* out) {
  if (name == "interp") *out = Method::kInterp;
  else if (name == "fio") *out = Method::kFio;
  else if (name == "hdr") *out = Method::kHdr;
  else if (name == "exact") *out = Method::kExact;
  else return false;
  return true;
}

const char* method_name(Method m) {
  switch (m) {
    case Method::kInterp: return "interp";
    case Method::kFio: return "fio";
    case Method::kHdr: return "hdr";
    case Method::kExact: return "exact";
  }
  return "interp";
}

namespace {

__extension__ typedef unsigned __int128 u128;  // exact x87 emulation needs 128-bit products

int bit_length(u128 v) {
  int n = 0;
  while (v) {
    v >>= 1;
    ++n;
  }
  return n;
}

// Rounds the exact value (v + rem/den) * 2^exp, v having >= 64 bits, to a
// 64-bit significand with round-to-nearest-even, as the x87 FPU does in
// extended precision. rem/den is the fraction below v's last bit (0 <= rem < den).
void round_to_64(u128 v, u128 rem, u128 den, int exp, uint64_t* mant, int* out_exp) {
  const int bl = bit_length(v);
  const int shift = bl > 64 ? bl - 64 : 0;
  u128 q = v >> shift;
  // Fraction of the dropped part relative to one unit of q: compare
  // dropped + rem/den against half a unit.
  const u128 dropped = shift ? (v & ((u128{1} << shift) - 1)) : 0;
  const u128 half_units = shift ? (u128{1} << (shift - 1)) : 0;
  // Compare (dropped * den + rem) with half of (2^shift * den).
  const u128 lhs = dropped * den + rem;
  const u128 rhs = shift ? half_units * den : 0;
  bool up;
  if (shift == 0) {
    up = 2 * rem > den || (2 * rem == den && (q & 1));
  } else {
    up = lhs > rhs || (lhs == rhs && (q & 1));
  }
  if (up) ++q;
  int e = exp + shift;
  if (q >> 64) {  // carried into bit 64
    q >>= 1;
    ++e;
  }
  *mant = static_cast<uint64_t>(q);
  *out_exp = e;
}

// Fewer than one sample above the percentile: it cannot be told from the
// max. The tolerance keeps 1000 samples enough for p99.9 despite 99.9 not
// being exact in binary.
bool few_samples(double n, double p) { return p > 0 && p < 100 && n * (100 - p) < 100 * (1 - 1e-9); }

// HdrHistogram's getValueAtPercentile rank: max(1, ceil(nextDown(p)/100 * N))
// (nextDown keeps p = 100 * k / N from rounding up past the k-th value).
double hdr_count_at(double p, double n) {
  const double q = std::clamp(std::nextafter(p, -HUGE_VAL), 0.0, 100.0);
  return std::max(1.0, std::ceil(q / 100.0 * n));
}

}  // namespace

// fio stat.c: `while (sum >= ((long double) plist[j].u.f / 100.0 * nr))`.
// fio is built with -ffast-math, and the compiled code (Debian's fio 3.33,
// calc_clat_percentiles) does not divide: it loads the 80-bit constant 0.01L
// (bytes 0a d7 a3 70 3d 0a d7 a3 f8 3f), computes K = nr * 0.01L once, then
// compares sum against K * p for each percentile, each product rounded to a
// 64-bit significand (x87 extended precision). True division picks a
// different bin when the cumulative count lands on the threshold (seen on a
// real run: 0.6 * 3200 = 1920).
bool fio_threshold_reached(uint64_t sum, double p, uint64_t n) {
  if (!(p > 0) || n == 0) return true;  // threshold is 0
  constexpr uint64_t kHundredthMant = 0xA3D70A3D70A3D70Aull;  // 0.01L = m * 2^-70
  constexpr int kHundredthExp = -70;
  uint64_t mk;
  int ek;
  round_to_64(u128{n} * kHundredthMant, 0, 1, kHundredthExp, &mk, &ek);
  int pe;
  const double frac = std::frexp(p, &pe);  // p = frac * 2^pe, frac in [0.5, 1)
  const uint64_t pm = static_cast<uint64_t>(std::ldexp(frac, 53));  // 53-bit integer
  pe -= 53;
  uint64_t m2;
  int e2;
  round_to_64(u128{mk} * pm, 0, 1, ek + pe, &m2, &e2);
  // sum >= m2 * 2^e2 ?
  if (e2 >= 0) {
    if (e2 >= 64) return false;  // threshold >= 2^127 > sum
    return u128{sum} >= (u128{m2} << e2);
  }
  const int s = -e2;
  if (s >= 64) return sum >= 1;  // threshold < 1 (m2 < 2^64)
  return (u128{sum} << s) >= u128{m2};
}

double value_step_ns(const BinLayout& layout) {
  switch (layout.kind) {
    case LayoutKind::kFio3: return 1;
    case LayoutKind::kFio2: return 1000;
    case LayoutKind::kHdr: {
      // "hdr:d3:l1:u1e0:n2048" or "hdr:d2:l1:r0.0009765625:u1e0:n512"
      double unit = 1, ratio = 1;
      size_t pos = 0;
      const std::string& id = layout.id;
      while (pos < id.size()) {
        size_t end = id.find(':', pos);
        if (end == std::string::npos) end = id.size();
        const std::string tok = id.substr(pos, end - pos);
        if (tok.size() > 1 && (tok[0] == 'u' || tok[0] == 'r')) {
          char* e = nullptr;
          const double v = std::strtod(tok.c_str() + 1, &e);
          if (e == tok.c_str() + tok.size() && v > 0 && std::isfinite(v)) (tok[0] == 'u' ? unit : ratio) = v;
        }
        pos = end + 1;
      }
      return unit * ratio;
    }
    case LayoutKind::kCustom: break;
  }
  return 0;
}

void hdr_stats(const BinLayout& layout, const double* counts, Stats* stats, BinSpan span) {
  double n = 0, weighted = 0;
  size_t last = layout.size();
  const size_t end = std::min(span.end, layout.size());
  for (size_t i = span.begin; i < end; ++i) {
    if (counts[i] <= 0) continue;
    n += counts[i];
    weighted += counts[i] * layout.rep[i];
    last = i;
  }
  if (!(n > 0)) return;
  stats->mean_ns = weighted / n;
  if (!stats->saturated) stats->max_ns = layout.hi[last] - value_step_ns(layout);
}

bool compute_stats(const BinLayout& layout, const double* counts, Stats* out, BinSpan span, double* sum) {
  const size_t k = layout.size();
  double n = 0, weighted = 0, all = 0;
  size_t first = k, last = 0;
  const size_t end = std::min(span.end, k);
  // The saturating last bin weighs by its lower edge; it is taken apart
  // from the loop so that the loop tests no bin index (a per-host query at
  // 1 s runs this on 720,000 histograms; docs/page-speed.md "The query's
  // inner loop"). The sums are the same, in the same order.
  const size_t plain_end = layout.last_saturates && k > 0 && end == k ? k - 1 : end;
  const double* lo = layout.lo.data();
  const double* hi = layout.hi.data();
  for (size_t i = span.begin; i < plain_end; ++i) {
    const double c = counts[i];
    all += c;
    if (c <= 0) continue;
    if (first == k) first = i;
    last = i;
    n += c;
    weighted += c * ((lo[i] + hi[i]) / 2);
  }
  if (plain_end < end && span.begin < end) {
    const double c = counts[k - 1];
    all += c;
    if (!(c <= 0)) {
      if (first == k) first = k - 1;
      last = k - 1;
      n += c;
      weighted += c * lo[k - 1];
    }
  }
  if (sum) *sum = all;
  if (first == k) return false;
  out->samples = n;
  out->min_ns = layout.lo[first];
  out->saturated = layout.last_saturates && last + 1 == k;
  out->max_ns = out->saturated ? layout.lo[last] : layout.hi[last];
  out->mean_ns = weighted / n;
  return true;
}

bool compute_percentiles(const BinLayout& layout, const double* counts, const double* ps,
                         size_t np, Method method, PercentileValue* out, BinSpan span, double total) {
  const size_t k = layout.size();
  const size_t end = std::min(span.end, k);
  double n = 0;
  bool integral = true;
  if (method == Method::kFio) {
    for (size_t i = span.begin; i < end; ++i) {
      n += counts[i];
      if (integral && counts[i] != std::floor(counts[i])) integral = false;
    }
  } else if (total >= 0) {
    n = total;  // the caller's sum over the same span (percentiles.h)
  } else {
    // Only fio's comparison asks whether the counts are whole.
    for (size_t i = span.begin; i < end; ++i) n += counts[i];
  }
  if (!(n > 0)) return false;
  // fio's exact comparison needs integer counts (whole-run or raw windows);
  // overlap-weighted quanta are fractional and use plain double arithmetic.
  const bool exact = integral && n < 18446744073709551616.0;
  const uint64_t n_int = exact ? static_cast<uint64_t>(n) : 0;
  const double step = method == Method::kHdr ? value_step_ns(layout) : 0;

  // Visit percentiles in ascending order so one pass over the bins answers all.
  constexpr size_t kMaxStack = 256;
  size_t order_buf[kMaxStack];
  for (size_t start = 0; start < np; start += kMaxStack) {
    const size_t m = std::min(kMaxStack, np - start);
    bool ascending = true;
    for (size_t j = 0; j < m; ++j) {
      order_buf[j] = start + j;
      if (j > 0 && !(ps[start + j - 1] <= ps[start + j])) ascending = false;
    }
    // Callers mostly ask in ascending order (every query of the page and
    // the CLI's default): then there is nothing to sort, per histogram.
    if (!ascending) std::sort(order_buf, order_buf + m, [&](size_t a, size_t b) { return ps[a] < ps[b]; });
    // Each percentile's rank, computed once per histogram instead of once
    // per bin it is compared at (the same expressions: the same bits). A
    // query per host computes 72,000 histograms (docs/page-speed.md).
    double rank_buf[kMaxStack];
    double p_buf[kMaxStack];  // each percentile clamped, in visiting order
    for (size_t j = 0; j < m; ++j) {
      const double p = std::clamp(ps[order_buf[j]], 0.0, 100.0);
      p_buf[j] = p;
      rank_buf[j] = method == Method::kHdr ? hdr_count_at(p, n) : p / 100.0 * n;
    }
    const bool fio_exact = method == Method::kFio && exact;

    // Percentile j falls in bin i; cum is the count up to and with bin i.
    const auto set = [&](size_t j, size_t i, double before, double c) {
      const double p = p_buf[j];
      PercentileValue& v = out[order_buf[j]];
      const bool sat = layout.last_saturates && i + 1 == k;
      v.err_ns = layout.hi[i] - layout.lo[i];
      v.saturated = sat;
      v.few_samples = few_samples(n, p);
      if (method == Method::kFio) {
        v.value_ns = layout.rep[i];
      } else if (method == Method::kHdr && !sat) {
        v.value_ns = p == 0 ? layout.lo[i] : layout.hi[i] - step;
      } else if (sat) {
        v.value_ns = layout.lo[i];  // no upper edge: report the lower bound
      } else {
        const double frac = std::clamp((p / 100.0 * n - before) / c, 0.0, 1.0);
        v.value_ns = layout.lo[i] + frac * (layout.hi[i] - layout.lo[i]);
      }
    };
    size_t j = 0;
    double cum = 0;
    size_t last_nonempty = k;
    if (method == Method::kFio) {
      // fio's rank may land on an empty bin; its comparison is exact on
      // whole counts, the plain one on fractions.
      for (size_t i = span.begin; i < end && j < m; ++i) {
        const double c = counts[i];
        const double before = cum;
        cum += c;
        if (c > 0) last_nonempty = i;
        while (j < m && (fio_exact ? fio_threshold_reached(static_cast<uint64_t>(cum), p_buf[j], n_int)
                                   : cum >= rank_buf[j])) {
          set(j, i, before, c);
          ++j;
        }
      }
    } else if (m > 0) {
      // kInterp, kExact, kHdr: the first non-empty bin reaching the rank.
      // The next rank is held apart so that a bin below it costs one
      // comparison (docs/page-speed.md "The query's inner loop").
      double next = rank_buf[0];
      for (size_t i = span.begin; i < end; ++i) {
        const double c = counts[i];
        const double before = cum;
        cum += c;
        if (!(c > 0)) continue;
        last_nonempty = i;
        if (cum < next) continue;
        do {
          set(j, i, before, c);
          ++j;
        } while (j < m && cum >= rank_buf[j]);
        if (j == m) break;
        next = rank_buf[j];
      }
    }
    // Rounding can leave the top rank a hair above the final sum: those
    // percentiles are the top of the last non-empty bin.
    for (; j < m && last_nonempty < k; ++j) {
      PercentileValue& v = out[order_buf[j]];
      const size_t i = last_nonempty;
      const bool sat = layout.last_saturates && i + 1 == k;
      v.err_ns = layout.hi[i] - layout.lo[i];
      v.saturated = sat;
      const double p = ps[order_buf[j]];
      v.few_samples = few_samples(n, p);
      v.value_ns = method == Method::kFio ? layout.rep[i] : (sat ? layout.lo[i] : layout.hi[i]);
      if (method == Method::kHdr && !sat) v.value_ns = layout.hi[i] - step;
    }
  }
  return true;
}

// Nearest rank with p as a decimal of at most 6 fractional digits: k is the
// smallest integer with k * 1e8 >= round(p * 1e6) * n, in integers.
uint64_t exact_rank(double p, uint64_t n) {
  if (n == 0) return 0;
  const double pc = std::clamp(p, 0.0, 100.0);
  const auto pm = static_cast<uint64_t>(std::llround(pc * 1e6));  // <= 1e8
  uint64_t k;
  if (n < (uint64_t{1} << 36)) {
    const uint64_t num = pm * n;  // < 2^63
    k = num / 100000000u + (num % 100000000u ? 1 : 0);
  } else {
    const u128 num = static_cast<u128>(pm) * n;
    k = static_cast<uint64_t>(num / 100000000u + (num % 100000000u ? 1 : 0));
  }
  return std::clamp<uint64_t>(k, 1, n);
}

bool exact_percentiles(std::vector<uint64_t>* values, const double* ps, size_t np, Stats* stats,
                       PercentileValue* out) {
  std::vector<uint64_t>& v = *values;
  if (v.empty()) return false;
  std::sort(v.begin(), v.end());
  const uint64_t n = v.size();
  // An integer sum: the same mean whatever the order the values came in.
  u128 sum = 0;
  for (uint64_t x : v) sum += x;
  stats->samples = static_cast<double>(n);
  stats->min_ns = static_cast<double>(v.front());
  stats->max_ns = static_cast<double>(v.back());
  // One correctly rounded division: the same bits natively and in WASM.
  stats->mean_ns = static_cast<double>(sum) / static_cast<double>(n);
  stats->saturated = false;
  for (size_t j = 0; j < np; ++j) {
    PercentileValue& o = out[j];
    o.value_ns = static_cast<double>(v[static_cast<size_t>(exact_rank(ps[j], n) - 1)]);
    o.err_ns = 0;
    o.saturated = false;
    o.few_samples = few_samples(static_cast<double>(n), std::clamp(ps[j], 0.0, 100.0));
  }
  exact_bands(v.data(), v.size(), ps, np, out);  // the sorted values at the band's ranks
  return true;
}

}  // namespace latscope
