// The client/server accumulation defect (docs/numbers.md, "Repair"). In --client mode
// the fio server turns cumulative snapshots C[k] into deltas in place, so the
// client writes r[k] = C[k] - r[k-1] instead of d[k] = C[k] - C[k-1].
// Repair per bin: d[k] = r[k] - r[k-2] (r[-1] = r[-2] = 0), i.e. C[k] = r[k] + r[k-1].
// Both work on the sparse windows: only bins non-empty in k or k-2 matter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

struct RepairVerdict {
  bool defect = false;       // the signature is present
  bool consistent = true;    // no repaired count would be negative
  uint64_t raw_first = 0, raw_last = 0;           // samples in the first/last raw window
  double repaired_mean = 0, repaired_spread = 0;  // of the repaired per-window totals
  std::string explain;       // one sentence for the diagnostics
};

// Looks for the signature: repaired counts never negative and their per-window
// totals far flatter than the raw ones (which grow through the run).
RepairVerdict detect_accumulation_defect(const Series& raw);

// Returns the windows rewritten as d[k] = r[k] - r[k-2]; negative results
// (only possible when forced) are clamped to 0 and counted in *clamped.
Series repair_accumulation_defect(const Series& raw, uint64_t* clamped);

// The same, one window at a time, for the reader, which repairs while it
// reads so that a log is never decoded again (fio_hist_reader.h). The two
// whole-series functions above do the same on a series as written; the
// tests hold both to the same output.

// One window's non-empty bins: b[0..n) ascending, counts c[0..n) > 0. The
// vectors only grow (room), so reusing one per line fills no memory twice.
struct SparseWindow {
  std::vector<uint32_t> b;
  std::vector<uint64_t> c;
  size_t n = 0;
  size_t size() const { return n; }
  void room(size_t k) {
    if (b.size() < k) {
      b.resize(k);
      c.resize(k);
    }
  }
};

// *out = cur - old, bin by bin (old: window k-2); bins where that is 0 are
// left out, and so are negative ones, which are counted in the result.
uint64_t subtract_window(const uint32_t* cur_b, const uint64_t* cur_c, size_t cur_n, const SparseWindow& old,
                         SparseWindow* out);
// *out = d + old: undoes subtract_window when it counted no negative bin.
void add_window(const SparseWindow& d, const SparseWindow& old, SparseWindow* out);

// detect_accumulation_defect's verdict from what reading a log gave:
// `consistent` (no window k lacks a bin of window k-2 or holds less there),
// each raw window's total and the windows' end_ms (windows.size() ==
// raw_totals.size()).
RepairVerdict judge_accumulation_defect(bool consistent, const std::vector<uint64_t>& raw_totals,
                                        const std::vector<Window>& windows);

}  // namespace latscope
