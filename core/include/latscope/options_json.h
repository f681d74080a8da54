// Engine options from JSON objects: the browser sends its settings this way
// to the WebAssembly build. Defaults equal the CLI's (QueryOptions and
// HeatmapOptions defaults in engine.h, unit us, percentiles 50,90,99,99.9,100),
// so an empty object "{}" means "what `latscope pctiles` does by default".
//
// Query fields (all optional; null means the default):
//   {"quantum_ms": 1000, "percentiles": ["50", 99.9, "100"],
//    "group_by": "all" | "host,job,dir" (label names: host, job, dir, file, tag, run, kind, ...),
//    "directions": "r,w,t" (r/read, w/write, t/trim), "method": "interp" | "fio",
//    "unit": "ns" | "us" | "ms", "offsets": {"127.0.0.2": -3.5},
//    "exclude_sources": [...], "exclude_hosts": [...], "from_ms": 0, "to_ms": 5000, "complete_tail": true,
//    "place_jobs": true (docs/placement.md),
//    "adaptive_accuracy": 0.5 (adaptive quanta, `pctiles --adaptive 0.5`; 0: fixed),
//    "bands": false (rows may leave out err, lo, hi: QueryOptions::bands),
//    "compat": "fio-histo-log-pctiles",
//    "sla": "p99<2ms;max<1s" (the page's SLA field, sla_field.h: not a query option; the
//    page's columns and matrix carry which rows break it, docs/page-views.md "SLA")}
// Heat map fields: quantum_ms, rows, min_ns, max_ns, unit, the density's
// density_by ("host"), density_percentile (99) and density_method ("interp"),
// and the selection fields (directions, offsets, exclude_sources, exclude_hosts, from_ms, to_ms, complete_tail, place_jobs).
// File fields: format ("auto", "fio-hist", "fio-json"), fio_version (0, 2, 3),
// coarseness (-1 detect, 0..6), repair ("auto" | "off" | "force"), host, job,
// query_quantum_ms (a result of several resolutions reads the coarsest level
// that divides it; docs/result-format.md, "Several resolutions").
//
// Percentile labels keep the text as given (a number keeps its JSON token:
// 99.90 -> "p99.90"), as `--percentiles` does on the command line.
// Errors (kInvalidArgument) name the field and its line:column, and an
// unknown field is an error naming it.
#pragma once

#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/percentile_list.h"  // parse_percentile_list, the CLI's and the page's
#include "latscope/report.h"
#include "latscope/status.h"

namespace latscope {

// sla: the "sla" field's text ("" when absent); nullptr: read and not kept.
Status parse_query_options_json(const std::string& json, QueryOptions* out,
                                std::vector<std::string>* pct_labels, Unit* unit, std::string* sla = nullptr);

Status parse_heatmap_options_json(const std::string& json, HeatmapOptions* out, Unit* unit);

Status parse_file_options_json(const std::string& json, FileOptions* out);

// How the page puts files into runs (Engine::assign_runs):
// {"by": "auto"|"folder"|"prefix"|"json"|"none", "patterns": [{"name", "glob"}]}.
Status parse_run_options_json(const std::string& json, RunOptions* out);

// The defaults every face starts from: the unit rows are shown in (`pctiles`,
// `heatmap`, the page; `summary` keeps fio's ns) and the labels of
// QueryOptions' default percentiles (p50, p90, p99, p99.9, p100).
constexpr Unit kDefaultUnit = Unit::kUs;
std::vector<std::string> default_percentile_labels();

// The page's starting options as a JavaScript module: the defaults above and
// QueryOptions', named as this file's JSON fields. The page imports it
// (web/src/model/option-defaults.js) instead of copying the numbers;
// tests/options_schema_test.cc fails when that file is not this text.
std::string page_defaults_module();

}  // namespace latscope
