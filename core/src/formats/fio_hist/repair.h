// The client/server accumulation defect (README.md, "What the numbers mean": Repair). In --client mode
// the fio server turns cumulative snapshots C[k] into deltas in place, so the
// client writes r[k] = C[k] - r[k-1] instead of d[k] = C[k] - C[k-1].
// Repair per bin: d[k] = r[k] - r[k-2] (r[-1] = r[-2] = 0), i.e. C[k] = r[k] + r[k-1].
// Both work on the sparse windows: only bins non-empty in k or k-2 matter.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace latscope
