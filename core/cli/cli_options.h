// Command-line options of the commands that read logs (pctiles, heatmap,
// summary, reduce, export, report): one parser, which refuses an option a
// command would ignore.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "cli_common.h"
#include "latscope/options_json.h"
#include "latscope/report.h"

namespace latscope::cli {

// --adaptive without a value: the band's rank half-width at most half the
// I/Os expected above the percentile (docs/uncertainty.md).
constexpr double kDefaultAccuracy = 0.5;

struct Options {
  QueryOptions query;
  bool quantum_given = false;  // --quantum on the line (else a result input's own, reduce.h results_quantum)
  bool quantum_from_levels = false;  // set before parsing: reduce --levels, whose finest level is the quantum
  std::vector<std::string> pct_labels = default_percentile_labels();
  // reduce --matrix: the per-host matrix's levels (empty with none); not
  // given: the default ladder (docs/result-format.md, "Per-host percentile matrix (version 4)").
  bool matrix_given = false;
  std::vector<double> matrix_levels;
  FileOptions file;
  Unit unit = kDefaultUnit;
  std::string format = "csv";
  bool bounds = false;         // pctiles --bounds: the 95% sampling band columns
  bool header_units = false;   // --header-units: p99_us, not p99 (header_units.h)
  uint32_t rows = 64;          // heatmap
  HeatmapOptions::Y y = HeatmapOptions::Y::kLatency;  // heatmap --y
  double min_lat = 0, max_lat = 0;  // heatmap bounds, in `unit`
  // heatmap --density LABELS:P: groups counted by their percentile P
  // (HeatmapOptions::density_by; docs/cli.md, "heatmap --density").
  GroupBy density_by;
  double density_p = 99;
  int jobs = 0;  // -j N: files parsed at once; 0 = default_jobs()
  std::vector<std::string> files;
  RunOptions runs;  // --run NAME=GLOB, --run-by (docs/runs.md)
  InputPlan run_labels;  // path -> run label, the folder's accounts and units (runs_cli.h)
};

// A quantum as --quantum takes it: a positive number of milliseconds.
bool parse_quantum(const std::string& text, double* ms);
// --levels: quanta as --quantum takes them, comma-separated ("1000,10000,60000").
bool parse_quanta(const std::string& text, std::vector<double>* ms);

// Parses argv[first..] for `command`. On error prints a message and returns
// false: an option the command does not read (takes_option) is an error.
bool parse_options(int argc, char** argv, int first, const char* command, Options* o);
// Whether `command` reads the option `arg` (-jN and --adaptive=ACC included);
// true for arguments parse_options does not know.
bool takes_option(const std::string& command, const std::string& arg);

}  // namespace latscope::cli
