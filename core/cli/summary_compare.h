// `latscope summary --compare`: two runs side by side (docs/runs.md, "A/B").
// Each run's whole-run histogram per direction (its json+ output when it has
// one, else its logs summed), then per statistic both values, the change in
// % and a note when the change is within one bin or within the 95% sampling
// bands (docs/uncertainty.md).
//
//   dir,stat,a,b,change_pct,a_lo,a_hi,b_lo,b_hi,note
//   read,p50,135168,238592,76.52,132096,138240,236544,240640,
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "latscope/fio_json.h"
#include "latscope/model.h"
#include "latscope/report.h"

namespace latscope::cli {

// The numbers the summary prints: fio's exact json values in full, bin
// values as report.h's format_number (cmd_summary.cc).
std::string summary_number(double v, bool exact);
// A CSV text cell, formula-safe (cmd_summary.cc, docs/input-robustness.md).
std::string summary_csv_text(const std::string& s);

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
  RunCompare(std::vector<double> ps, std::vector<std::string> labels, Unit unit)
      : ps_(std::move(ps)), labels_(std::move(labels)), unit_(unit) {}
  // The runs, in the order they are compared (a, then b).
  std::vector<RunSide>& sides() { return sides_; }
  void add_json(size_t side, const FioJsonReport& r);
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
  std::vector<Table> tables() const;
  std::vector<double> ps_;
  std::vector<std::string> labels_;
  Unit unit_;
  std::vector<RunSide> sides_;
};

}  // namespace latscope::cli
