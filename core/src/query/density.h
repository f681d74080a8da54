// The density of groups over the heat map's latency rows (docs/page-views.md,
// "Host density"): per quantum, how many groups' percentile lies in each row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "latscope/engine.h"
#include "query/aligner.h"

namespace latscope {

// The heat map's latency rows (heatmap.cc): `rows` log-spaced ranges over
// [min_ns, max_ns], each 0 meaning the plan's lowest or highest bin edge.
void latency_row_edges(const Plan& plan, double min_ns, double max_ns, uint32_t rows, std::vector<double>* edges);

// The options a heat map or a density is refused for (rows, bounds; a
// density's y and percentile), checked before any work.
Status check_heatmap_options(const HeatmapOptions& opts);

// Refuses a grid (`what`: "heat map", "density") of more than
// kMaxHeatmapCells cells, saying its size, before anything is allocated.
Status check_heatmap_cells(const char* what, size_t quanta, uint32_t rows);

// The row of a value on those edges: -1 below the first, -2 above the last;
// the top edge belongs to the last row (the highest value sits on it).
int32_t density_row(const std::vector<double>& edges, double v);

// The per-group query whose rows a density counts: `latscope pctiles
// --group-by density_by -p density_percentile --method density_method` on
// recorded data, without bands.
QueryOptions density_query(const HeatmapOptions& opts);

// The density's rows (docs/page-views.md, "Host density"): `rows` log-spaced
// ranges like the heat map's, but a bound left 0 is the lowest or highest
// group value over the whole run (from/to aside, as the heat map's bins),
// not the bins' (the band the groups sit in fills the rows). One pass of
// the density's query more.
Status density_row_edges(const Engine& engine, const Plan& plan, const HeatmapOptions& opts,
                         std::vector<double>* edges);

// Fills out->edges_ns (density_row_edges) and out->counts (quanta x rows, as
// the heat map's) with group counts, on the grid heatmap() put in `plan`.
Status fill_density(const Engine& engine, const Plan& plan, const HeatmapOptions& opts, HeatmapResult* out);

}  // namespace latscope
