// Whole-run summaries of loaded sources: what `latscope summary` prints and
// the page's A/B table shows (docs/runs.md), computed here once; the CLI
// (core/cli/cmd_summary.cc) and the WebAssembly binding (wasm/bindings.cc)
// only read inputs, pass options and print.
//
//  * summarize_source: one row per fio json job entry x direction (fio's
//    exact N, min, mean, max: model.h FioFigures; percentiles from its json+
//    bins, or fio's printed list for plain json) or per log series (every
//    window summed; min/mean/max from the bins), by fio's method (Method::kFio).
//
//      file,host,job,dir,samples,min,mean,max,p1,p5,...,p99.99
//      s1.json,127.0.0.2,1,read,8000,601,138175.380375,88530312,30848,...
//
//  * RunCompare: two runs side by side (`summary --compare`, "A/B"). Each
//    run's whole-run histogram per direction (its json+ output when it has
//    one, else its logs summed), then per statistic both values, the change
//    in % and a note when the change is within one bin or within the 95%
//    sampling bands (docs/uncertainty.md).
//
//      dir,stat,a,b,change_pct,a_lo,a_hi,b_lo,b_hi,note
//      read,p50,135168,238592,76.52,132096,138240,236544,240640,
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "latscope/model.h"
#include "latscope/report.h"
#include "latscope/status.h"

namespace latscope {

// The numbers the summary prints: fio's exact json values in full (the
// shortest decimal that reads back as the same double), bin values as
// report.h's format_number. "" for NaN (not available).
std::string summary_number(double v, bool exact);
// A CSV text cell, formula-safe (docs/input-robustness.md, "CSV cells").
std::string summary_csv_text(const std::string& s);

// The percentiles asked (ps) and their column names ("p" + the text as
// given: percentile_list.h parse_percentile_list), and the unit printed.
struct SummaryColumns {
  std::vector<double> ps;
  std::vector<std::string> labels;
  Unit unit = Unit::kNs;
};

struct SummaryRow {
  std::string file, host, job, dir;
  uint64_t samples = 0;
  bool exact = false;  // min/mean/max are fio's own values: print every digit
  double min_ns = std::numeric_limits<double>::quiet_NaN();
  double mean_ns = std::numeric_limits<double>::quiet_NaN();
  double max_ns = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> p;  // ns, parallel to SummaryColumns::ps; NaN: not available
};

// What the json output says of each input file.
struct SummaryFile {
  std::string name;
  std::string format;
  Status status;
  uint64_t skipped = 0;  // lines skipped
};

// Whether a source is fio json output (json+, or plain json, which the
// engine names kIgnored but whose figures it keeps).
bool is_fio_json_source(const Source& src);

// Appends the rows of one source (none for an ignored or unusable one).
void summarize_source(const Source& src, const SummaryColumns& cols, std::vector<SummaryRow>* rows);

std::string summary_csv(const std::vector<SummaryRow>& rows, const SummaryColumns& cols);
std::string summary_json(const std::vector<SummaryRow>& rows, const std::vector<SummaryFile>& files,
                         const SummaryColumns& cols);

// One direction of one run, summed.
struct RunDir {
  LayoutPtr layout;
  std::vector<double> counts;  // over layout
  uint64_t n = 0;              // json+: fio's N
  double min_ns = 0, max_ns = 0, mean_sum = 0;  // json+: exact; mean_sum = sum of N * mean
  double mean_ns = 0;          // json+ with one job: fio's mean as written
  int jobs = 0;                // json+ job entries added
  bool layout_clash = false;   // a log of another layout was left out
};

struct RunSide {
  std::string name, how;
  std::vector<std::string> files;
  RunDir json[kDirCount], logs[kDirCount];
  bool json_without_bins = false;  // plain json: no bins to compare
};

class RunCompare {
 public:
  explicit RunCompare(SummaryColumns cols) : cols_(std::move(cols)) {}
  // The runs, in the order they are compared (a, then b).
  std::vector<RunSide>& sides() { return sides_; }
  // A source of run `side`: fio json output adds its jobs' figures and bins
  // (the aggregate left out: its jobs again), a log its time series summed.
  void add_source(size_t side, const Source& src);
  std::string csv() const;
  std::string json() const;
  // Remarks for stderr (a direction only one run has, layouts left out).
  std::vector<std::string> notes() const;

 private:
  struct Cell {
    double v[2];
    bool exact[2];
    double lo[2], hi[2];          // 95% sampling bands (percentiles; NaN otherwise)
    double bin_lo[2], bin_hi[2];  // the bins of the values (percentiles; NaN otherwise)
    std::string stat, note;
  };
  struct Table {
    std::string dir;
    std::string from[2];  // "json+" or "logs"
    std::vector<Cell> cells;
  };
  void add_json(RunSide* s, const Source& src);
  std::vector<Table> tables() const;
  SummaryColumns cols_;
  std::vector<RunSide> sides_;
};

// The dense counts of a fio json entry's bins over the source's layout
// (empty when it has none).
std::vector<double> fio_figures_counts(const Source& src, const FioFigures& f);

}  // namespace latscope
