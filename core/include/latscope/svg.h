// Static SVG charts for CI artifact viewers that forbid scripts
// (docs/ci-reports.md): no script, no external reference, every text
// escaped. They draw the engine's own results (QueryResult, HeatmapResult);
// nothing is re-derived here.
#pragma once

#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/sla.h"

namespace latscope {

struct SvgContext {
  std::vector<std::string> inputs;  // input names as shown in the title
};

// Percentiles over time: one polyline per percentile x group (class
// "series"), broken where a quantum is empty; log latency axis with ticks in
// a readable unit; a legend. With rules and their report: each threshold as
// a dashed line (class "threshold") and each quantum where some rule is
// violated shaded (class "violation"). pct_labels parallel to rows' p.
std::string pctiles_svg(const QueryResult& r, const std::vector<std::string>& pct_labels, const SvgContext& ctx,
                        const std::vector<SlaRule>& rules = {}, const SlaReport* sla = nullptr);

// Latency heat map: one rect (class "cell") per non-empty (quantum, row),
// time across, log latency up, colour = I/O count on a log scale, with a
// colour legend. Rows by latency only (HeatmapResult::y == "latency").
std::string heatmap_svg(const HeatmapResult& h, const SvgContext& ctx);

}  // namespace latscope
