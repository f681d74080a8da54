#include "query/co.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace latscope {

CoCorrector::CoCorrector(LayoutPtr layout, double interval_ns) : layout_(std::move(layout)), interval_(interval_ns) {}

const std::vector<std::pair<uint32_t, uint64_t>>& CoCorrector::targets(uint32_t bin) {
  auto it = cache_.find(bin);
  if (it != cache_.end()) return it->second;
  std::vector<std::pair<uint32_t, uint64_t>>& out = cache_[bin];
  const BinLayout& l = *layout_;
  const double v = l.lo[bin];
  const double i = interval_;
  // Added values are v - k*i for k = 1 .. kmax, with v - k*i >= i.
  const double kmax = std::floor(v / i) - 1;
  if (!(kmax >= 1)) return out;
  for (uint32_t t = 0; t <= bin; ++t) {
    const double lo = l.lo[t];
    // The last bin of a saturating layout has no upper edge.
    const double hi = (l.last_saturates && t + 1 == l.size()) ? std::numeric_limits<double>::infinity() : l.hi[t];
    if (hi <= i) continue;  // every value here is below the interval
    // k with lo <= v - k*i < hi:  (v - hi)/i < k <= (v - lo)/i
    double k_hi = std::floor((v - lo) / i);
    double k_lo = std::isinf(hi) ? 1 : std::floor((v - hi) / i) + 1;
    k_hi = std::min(k_hi, kmax);
    k_lo = std::max(k_lo, 1.0);
    if (k_hi >= k_lo) out.emplace_back(t, static_cast<uint64_t>(k_hi - k_lo + 1));
  }
  return out;
}

void CoCorrector::correct(const std::vector<uint32_t>& bins, const std::vector<uint64_t>& counts,
                          std::vector<uint32_t>* out_bins, std::vector<uint64_t>* out_counts) {
  const size_t k = layout_->size();
  dense_.assign(k, 0);
  auto add = [](uint64_t* a, uint64_t b) { *a = *a > UINT64_MAX - b ? UINT64_MAX : *a + b; };
  uint32_t top = 0;
  for (size_t j = 0; j < bins.size(); ++j) {
    add(&dense_[bins[j]], counts[j]);
    top = std::max(top, bins[j]);
    for (const auto& [t, m] : targets(bins[j])) {
      const uint64_t c = counts[j];
      add(&dense_[t], m != 0 && c > UINT64_MAX / m ? UINT64_MAX : c * m);
    }
  }
  out_bins->clear();
  out_counts->clear();
  for (uint32_t b = 0; b <= top && b < k; ++b)
    if (dense_[b]) {
      out_bins->push_back(b);
      out_counts->push_back(dense_[b]);
    }
}

}  // namespace latscope
