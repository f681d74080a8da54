// The default quantum (latscope/quanta.h; docs/page-views.md, "Default quantum").
#include <algorithm>
#include <cmath>

#include "latscope/quanta.h"
#include "query/interval.h"

namespace latscope {

double longest_interval_ms(const Source& src) {
  if (!src.status.ok() || src.format == FileFormat::kIgnored) return 0;
  double longest = 0;
  for (const Series& s : src.series) {
    if (s.role == Role::kWholeRun) continue;
    // Sources in an Engine keep it (model.h Series::interval_ms); others are measured.
    const double iv = std::isnan(s.interval_ms) ? logging_interval_ms(s) : s.interval_ms;
    if (iv > longest) longest = iv;
  }
  return longest;
}

double preset_for_interval_ms(double interval_ms) {
  if (!(interval_ms > 0) || !std::isfinite(interval_ms)) return 0;
  double best = kQuantumPresetsMs[0];
  for (double q : kQuantumPresetsMs)
    if (std::abs(std::log(q / interval_ms)) < std::abs(std::log(best / interval_ms))) best = q;
  return best;
}

double default_quantum_ms(const std::vector<Source>& sources) {
  double longest = 0;
  for (const Source& s : sources) longest = std::max(longest, longest_interval_ms(s));
  return preset_for_interval_ms(longest);
}

double zoom_quantum_ms(double base_ms, double range_ms, double width_px) {
  // No interval: the CLI's 1 s, as a load without a chosen quantum opens at.
  const double floor_ms = base_ms > 0 && std::isfinite(base_ms) ? base_ms : 1000;
  if (!(range_ms > 0) || !std::isfinite(range_ms) || !(width_px >= 1) || !std::isfinite(width_px)) return floor_ms;
  const double want = std::max(floor_ms, range_ms / (kZoomQuantaPerColumn * std::floor(width_px)));
  for (double q : kQuantumPresetsMs)
    if (q >= want) return q;
  return std::max(floor_ms, kQuantumPresetsMs.back());
}

}  // namespace latscope
