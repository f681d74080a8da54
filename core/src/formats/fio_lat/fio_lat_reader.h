// Streaming reader for fio per-I/O latency logs (write_lat_log), see
// docs/formats-fio-lat.md. One line per I/O, as fio writes it:
//
//   time_ms, value, ddir, bs[, offset], prio[, issue_time]      fio 3 (ns)
//   time_ms, value, ddir, bs[, offset]                          fio 2 (us)
//
// Each I/O goes into fio's fine bins (fio 3 layout, ns) of an instant window
// (t, t] at its stamp t: the I/Os of one direction stamped in the same ms make
// one window, so memory is per occupied ms, not per I/O. The exact values (and
// bs/offset) are kept per series up to a budget (FileOptions::
// max_per_io_samples) for Method::kExact and the bs/offset heat maps.
// A log_avg_msec log (bs 0 on its first line: each line a window's average,
// or max, latency) becomes series of Role::kWindowValues instead (model.h).
// Lines may be split anywhere across append() calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/fio_hist/window_blocks.h"
#include "formats/line_carry.h"
#include "formats/one_clock.h"
#include "latscope/engine.h"
#include "latscope/model.h"

namespace latscope {

class FioLatReader {
 public:
  FioLatReader(Source* src, const FileOptions& opts);
  void append(const char* data, size_t n);
  void finish();

 private:
  // A series being built: one (job segment, direction). Its windows and
  // per-I/O values grow in blocks and become s's vectors, of their exact
  // size, once the segment is over (settle): with about one window per I/O,
  // vectors grown by doubling were copied again at every doubling and
  // touched twice their size in fresh pages, most of the parse time in this
  // VM (docs/benchmarks.md, "fio per-I/O logs"; fio_hist/window_blocks.h).
  struct Open {
    int segment = 0;
    int base = 0;  // 1: epoch ms (log_unix_epoch), 0: ms since the job's start
    Dir dir = Dir::kRead;
    Series s;
    bool have_t = false;
    bool settled = false;         // blocks moved into s
    uint64_t t = 0;               // the ms of the pending window
    std::vector<uint32_t> bins;   // bins of its I/Os (unsorted)
    fio_hist::Blocks<Window> windows;
    fio_hist::Blocks<uint8_t> bytes;  // the windows' bins, coded as Series::data
    fio_hist::Blocks<uint64_t> io_ns;
    fio_hist::Blocks<uint32_t> io_bs;
    fio_hist::Blocks<uint64_t> io_offset;
  };

  void parse_line(const char* b, const char* e, bool last_without_newline);
  const char* fast_line(const char* p);
  void take(size_t n, const uint64_t* f, const bool* hex);
  void decide_columns(size_t ncols, const uint64_t* f, const bool* hex);
  void flush(Open& o);
  void put_window(Open& o, uint64_t t, const uint32_t* bins, const uint64_t* counts, uint32_t n, uint64_t total);
  void settle(Open& o);
  Open& open_for(Dir d, int base);
  void keep_one_time_base();
  void drop_values(const char* why);
  void skip(Issue issue, uint32_t column, const std::string& what);

  Source* src_;
  FileOptions opts_;
  LineCarry carry_;  // an incomplete line carried to the next append
  uint64_t line_no_ = 0;
  size_t ncols_ = 0;       // 0 until the first good line
  int version_ = 3;        // 2: values in us, 3: ns (or as written, when unit_pending_)
  bool unit_pending_ = false;  // no priority column and no --fio-version: unit decided later
  int offset_col_ = -1;    // index of the offset column, -1: none
  bool averaged_ = false;  // log_avg_msec log: window values (Role::kWindowValues), not I/Os
  bool both_ = false;      // ... written with log_window_value=both: each line's maximum too (Series::window_max_ns)
  bool keep_values_ = true;
  uint64_t kept_ = 0;
  std::vector<Open> open_;  // every (segment, direction) so far
  size_t cur_[kDirCount] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};  // open_ index of each direction's current series
  std::vector<uint32_t> win_bins_;  // scratch of flush()
  std::vector<uint64_t> win_counts_;
  int segment_ = 0;
  // Per clock (Open::base) and direction.
  uint64_t last_t_[2][kDirCount] = {};
  bool have_last_[2][kDirCount] = {};
  OneClock clock_;  // one file, one clock (keep_one_time_base, formats/one_clock.h)
};

// fio's plat_val_to_idx: the fine (fio 3) bin of a value.
uint32_t fio_value_to_bin(uint64_t v);

}  // namespace latscope
