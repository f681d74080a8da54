// The fast path of the fio histogram reader: one line in the exact shape fio
// writes ("1002, 0, 4096, 0, 0, 17, ...": ", " between unsigned fields, no
// blanks elsewhere). Most of a line is "0, " runs (a fio 3 line has 1856 bin
// columns and a few hundred non-empty bins at most): they are skipped eight
// columns per three 8-byte compares. It gives the fields, or refuses the
// line (the general parser then reads it and names what is wrong); it never
// reads a byte at or past the line's end (docs/formats.md, "Reading fio
// histogram lines fast", which also says why there is no SIMD kernel).
#pragma once

#include <cstddef>
#include <cstdint>

namespace latscope::fio_hist {

// The fields of one line. bins/counts have room for kFio3Bins entries.
struct LineFields {
  uint64_t meta[3] = {0, 0, 0};  // time_ms, ddir, bs
  uint32_t* bins = nullptr;      // bin index (0-based) of each non-empty bin
  uint64_t* counts = nullptr;    // its count
  uint32_t nnz = 0;              // non-empty bins written
  size_t cols = 0;               // bin columns of the line
};

// True with `out` filled when [b, e) (no '\n', no '\r') is in fio's exact
// shape with at least one bin column; false otherwise (out then undefined).
bool scan_line(const char* b, const char* e, LineFields* out);

// Whether readers opened from now on try scan_line first (default true).
// Tests turn it off to read every line with the general parser alone: the
// reference the fast path must equal, messages included.
bool fast_path();
void set_fast_path(bool on);

}  // namespace latscope::fio_hist
