// The long table (docs/export-formats.md, "Reading a table back"): TSV with
// a header row naming t_ms, quantum_ms, layout, bin, count, optionally
// extreme, and any label columns, parsed line by line into a Result. The
// compact table (docs/export-formats.md, "The compact table") names
// binsMap.bin and binsMap.units (arrays of bins and integer 2^-28 units),
// optionally extremesMap.bin (and extremesMap.n, not read), in place of bin
// and count: one row per cell. Rows of the same time, labels,
// layout and bin add up, in any order, so a SQL engine's GROUP BY output and
// concatenated tables load alike.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/one_clock.h"
#include "latscope/model.h"
#include "latscope/result.h"

namespace latscope::tsv {

// Is this line the header of a long or compact table? (tab-separated names
// including t_ms, quantum_ms, layout, and bin and count or binsMap.bin and
// binsMap.units)
bool is_header(std::string_view line);

class TableParser {
 public:
  // One tab-separated field of a row and where it starts.
  struct Field {
    std::string_view text;
    uint32_t column;  // 1-based byte column
  };
  // Any chunking gives the same result.
  void append(const char* data, size_t n);
  // Ends the input. An error (no header, mixed quanta, an unknown layout)
  // fails the whole table: "line N:column: what".
  Status finish(Result* out);
  const Diagnostics& diagnostics() const { return diag_; }
  uint64_t lines() const { return line_no_; }
  uint64_t rows() const { return rows_; }

 private:
  struct Acc {
    Labels labels;
    LayoutPtr layout;
    std::map<int64_t, std::map<uint32_t, uint64_t>> cells;  // quantum -> bin -> units
    std::map<int64_t, ExtremeBins> extremes;                 // quantum -> rows with extreme = 1
    // Coverage from the rows' coverage columns: span the union, full the
    // intersection of every row's (merge()'s rule); none: the quanta with rows.
    bool covered = false;
    double span_start = 0, span_end = 0, full_start = 0, full_end = 0;
  };
  void line(std::string_view l);
  void header(std::string_view l);
  void row(std::string_view l);
  Acc& acc_for(const std::vector<Field>& f, const std::string& layout_id, const LayoutPtr& layout);
  bool coverage(const std::vector<Field>& f, double cov[4]);
  void long_row(const std::vector<Field>& f, int64_t j, double t, Acc* acc);
  void compact_row(const std::vector<Field>& f, int64_t j, double t, Acc* acc);
  void bad(uint32_t column, const std::string& what);
  void fail(uint32_t column, const std::string& what);

  std::string partial_;
  bool overlong_ = false;
  uint64_t line_no_ = 0, rows_ = 0;
  Diagnostics diag_;
  Status status_;
  bool have_header_ = false;
  std::string header_text_;
  int t_col_ = -1, q_col_ = -1, layout_col_ = -1, bin_col_ = -1, count_col_ = -1;
  int extreme_col_ = -1;  // optional (docs/export-formats.md): -1 for tables without it
  // The compact table's columns (-1: a long table); extremesMap.bin optional.
  int bins_col_ = -1, units_col_ = -1, xbins_col_ = -1;
  // span_start_ms, span_end_ms, full_start_ms, full_end_ms: all four or none.
  int cov_cols_[4] = {-1, -1, -1, -1};
  std::vector<std::pair<int, std::string>> label_cols_;  // column, label name
  size_t ncols_ = 0;
  double quantum_ms_ = 0;
  uint64_t quantum_line_ = 0;
  double min_t_ms_ = 0;
  OneClock clock_;  // one table, one clock (keep_one_time_base, formats/one_clock.h)
  void keep_one_time_base();
  void count_row(double t);  // a row taken at t_ms
  std::map<std::string, LayoutPtr> layouts_;
  size_t layout_bins_ = 0;  // of layouts_ counted against kMaxLayoutBins
  std::map<std::string, size_t> index_;  // labels text + '\n' + layout id -> acc_
  std::vector<Acc> acc_;
};

}  // namespace latscope::tsv
