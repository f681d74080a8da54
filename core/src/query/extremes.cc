#include "query/extremes.h"

#include <algorithm>

#include "latscope/percentiles.h"

namespace latscope {

bool counts_for_extremes(double s, double e, double a, double b) {
  if (!(e > s)) return true;
  const double mid = s + 0.5 * (e - s);
  return mid >= a && mid < b;
}

void limit_extremes(const BinLayout& layout, const ExtremeBins& x, Method method, Row* row) {
  if (!x.any() || x.hi >= layout.size()) return;
  const uint32_t lo = x.lo, hi = x.hi;
  const bool sat = layout.last_saturates && hi + 1 == layout.size();
  const double step = method == Method::kHdr ? value_step_ns(layout) : 0;
  // The values compute_percentiles gives for the top of bin hi and the bottom of bin lo.
  double top = sat ? layout.lo[hi] : layout.hi[hi];
  if (method == Method::kFio) top = layout.rep[hi];
  else if (method == Method::kHdr && !sat) top = layout.hi[hi] - step;
  const double bottom = method == Method::kFio ? layout.rep[lo] : layout.lo[lo];

  Stats& st = row->stats;
  if (st.min_ns < layout.lo[lo]) st.min_ns = layout.lo[lo];
  double max = sat ? layout.lo[hi] : layout.hi[hi];
  if (method == Method::kHdr && !sat) max = layout.hi[hi] - value_step_ns(layout);  // as hdr_stats
  if (st.max_ns > max) {
    st.max_ns = max;
    st.saturated = sat;
  }
  for (PercentileValue& v : row->p) {
    if (v.value_ns > top) {
      v.value_ns = top;
      v.err_ns = layout.hi[hi] - layout.lo[hi];
      v.saturated = sat;
    } else if (v.value_ns < bottom) {
      v.value_ns = bottom;
      v.err_ns = layout.hi[lo] - layout.lo[lo];
      v.saturated = false;
    }
    // The sampling band (docs/uncertainty.md) keeps holding a clamped value.
    v.lo_ns = std::min(v.lo_ns, v.value_ns);
    v.hi_ns = std::max(v.hi_ns, v.value_ns);
  }
}

}  // namespace latscope
