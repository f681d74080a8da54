// The quanta a view offers and the one a load opens at (docs/page-views.md,
// "Default quantum"): one rule for the page's selector and `latscope report`,
// so both fold the same logs onto the same quanta and show the same heat-map
// colour scale (docs/page-views.md, "One colour scale").
#pragma once

#include <array>
#include <vector>

#include "latscope/model.h"

namespace latscope {

// The quantum selector's presets, ms, ascending (100 ms ... 10 min). The
// page's list is generated from this one (options_json.h page_defaults_module).
inline constexpr std::array<double, 13> kQuantumPresetsMs = {100,   200,   500,   1000,   2000,   5000,  10000,
                                                             15000, 30000, 60000, 120000, 300000, 600000};

// The longest logging interval (query/interval.h: the median window length)
// among a source's time series, ms; 0 when it has none: per-I/O logs (no
// interval), whole-run histograms (fio json+), an ignored or unusable file.
double longest_interval_ms(const Source& src);

// The preset nearest an interval on a log scale (the smaller one on a tie);
// 0 when interval_ms is not positive.
double preset_for_interval_ms(double interval_ms);

// The quantum a view of these sources opens at when none was chosen: the
// longest logging interval among them, so that no log is cut finer than it
// was written, rounded to the nearest preset. 0 when no series has an
// interval (then the CLI's 1000 ms stays).
double default_quantum_ms(const std::vector<Source>& sources);

// The quantum a chart follows the zoom at when none was pinned
// (docs/page-views.md, "Quantum follows the zoom"): the finest preset that
// gives each of `width_px` pixel columns at most kZoomQuantaPerColumn quanta
// of the visible `range_ms`, never finer than `base_ms` (default_quantum_ms: the logs'
// interval; 0, none: the CLI's 1 s). Past the coarsest preset, the coarsest
// (the chart then draws the worst quantum per column, QueryOptions::columns).
// base_ms, or 1 s, when the range or the width is not positive and finite.
double zoom_quantum_ms(double base_ms, double range_ms, double width_px);
// Quanta a pixel column shows: the page's chart draws two points of a line
// per column, its lowest and highest (docs/page-views.md, "Worst quantum per column").
inline constexpr double kZoomQuantaPerColumn = 2;

}  // namespace latscope
