// Streaming reader for fio histogram logs (write_hist_log). A line, as fio 3
// writes it (1856 bin columns; 928, 464, ... with log_hist_coarseness):
//
//   1002, 0, 4096, 0, 0, 0, 5, 17, ...
//   time_ms (END of the window), ddir (0 r, 1 w, 2 trim), bs, bins...
//
// Lines may be split anywhere across append() calls; results are identical
// for any chunking. Windows are buffered per (segment, direction) until
// finish(), which settles the client/server defect (repair.h), merges repeated
// timestamps and fixes window starts.
//
// Logs that may have the defect (named as fio's client writes them, or with
// --repair force) are repaired while they are read: each line is kept as
// d[k] = r[k] - r[k-2] for as long as no such count goes negative, which is
// also the defect's first test. A clean client log fails it within a few
// lines and goes back to its counts as written; a log that passes it is
// judged at finish() from its window totals alone. Either way no log is
// decoded again to be judged or repaired, and the layout's last bin
// (saturation) is counted as windows are stored (docs/formats.md, "After
// the line"; the repair's semantics: docs/placement.md and docs/numbers.md,
// "Repair").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "formats/fio_hist/line_scan.h"
#include "formats/fio_hist/repair.h"
#include "formats/fio_hist/window_blocks.h"
#include "formats/line_carry.h"
#include "formats/one_clock.h"
#include "latscope/engine.h"
#include "latscope/model.h"

namespace latscope {

class FioHistReader {
 public:
  FioHistReader(Source* src, const FileOptions& opts);
  void append(const char* data, size_t n);
  void finish();

  // The raw, unrepaired windows of one (segment, direction): window end_ms
  // is fio's time_ms as written; start_ms is filled in by finish().
  struct Raw {
    Dir dir = Dir::kRead;
    int segment = 0;
    int base = 0;  // time base of its lines: 0 relative, 1 epoch (kEpochThresholdMs)
    Series s;      // windows and bins: in the two below until finish()
    fio_hist::Blocks<Window> windows;
    fio_hist::Blocks<uint8_t> bytes;
    uint64_t total = 0;  // its accepted counts, kept <= kMaxCount
    double spacing = 0;  // median time_ms step (0: unknown), set by finish()
    uint64_t last_bin = 0;  // counts in the layout's last bin, of the windows as kept
    // Repair while reading (see the top of this file):
    bool repairing = false;  // s holds d[k] = r[k] - r[k-2], not the r[k] written
    bool consistent = true;  // no d[k] bin went negative
    uint64_t negative = 0;   // d[k] bins that did (forced repair: clamped to 0)
    std::vector<uint64_t> raw_totals;  // while repairing: each r[k]'s total
    std::string verdict;               // repaired: why (RepairVerdict::explain)
    std::array<SparseWindow, 2> older;  // while repairing: r[k-1], r[k-2]
  };

 private:
  void parse_line(const char* b, const char* e, bool last_without_newline);
  // Fills meta_/nnz_/cols_ from a line; false (issue recorded) when skipped.
  bool parse_fields(const char* b, const char* e, bool last_without_newline);
  void skip(Issue issue, uint32_t column, const std::string& what);
  Raw& raw_for(int base, int segment, Dir dir);
  // Appends the current line's bins (their counts sum to `sum`) to r as a
  // window ending at t, repaired while r is repairing.
  void store_window(Raw& r, double t, uint64_t sum);
  // Encodes one window into r.
  void put_window(Raw& r, double t, const uint32_t* bins, const uint64_t* counts, uint32_t n, uint64_t total);
  // Stores in r (emptied) the counts as written of its repaired windows d,
  // r[k] = d[k] + r[k-2] (exact: none went negative), and stops repairing.
  void unrepair(Raw& r, const Series& d);
  // At finish: judges a repairing r (kept repaired, or unrepair) and moves
  // its windows and bins into r.s.
  void settle(Raw& r);
  // Keeps the lines of the time base most lines have (docs/input-robustness.md).
  void keep_one_time_base();

  Source* src_;
  FileOptions opts_;
  bool fast_;                // fio's exact line shape tried first (line_scan.h)
  LineCarry carry_;          // an incomplete line carried to the next append
  uint64_t line_no_ = 0;
  size_t bin_columns_ = 0;   // 0 until the layout is known
  uint64_t meta_[3] = {0, 0, 0};  // time_ms, ddir, bs of the current line
  uint32_t nnz_ = 0;              // its non-empty bins in line_bins_/line_counts_
  size_t cols_ = 0;               // its bin columns
  std::vector<uint32_t> line_bins_;
  std::vector<uint64_t> line_counts_;
  bool repair_candidate_ = false;  // the file's series start out repairing
  SparseWindow repaired_;          // the current line's d[k]
  std::vector<Raw> raws_;
  // (base, segment, dir) -> index in raws_: a per_job_logs=0 log whose time
  // goes back on every other line has a segment per line pair, and a scan
  // of raws_ per line made reading it quadratic.
  std::map<std::tuple<int, int, int>, size_t> raw_index_;
  // Per time base (0 relative, 1 epoch): segment and last time_ms per
  // direction, records, and the first record's line. A file's time base is
  // the one most of its lines have; lines on the other clock are skipped.
  int segment_[2] = {0, 0};
  double last_t_[2][kDirCount] = {};
  bool have_t_[2][kDirCount] = {};
  OneClock clock_;  // formats/one_clock.h
};

}  // namespace latscope
