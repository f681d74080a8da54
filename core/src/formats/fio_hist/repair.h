// The client/server accumulation defect (FORMATS.md §1). In --client mode
// the fio server turns cumulative snapshots C[k] into deltas in place, so the
// client writes r[k] = C[k] - r[k-1] instead of d[k] = C[k] - C[k-1].
// Repair per bin: d[k] = r[k] - r[k-2] (r[-1] = r[-2] = 0), i.e. C[k] = r[k] + r[k-1].
#pragma once

#include <cstdint>
#include <string>

#include "formats/fio_hist/fio_hist_reader.h"

namespace latscope {

struct RepairVerdict {
  bool defect = false;       // the signature is present
  bool consistent = true;    // no repaired count would be negative
  uint64_t raw_first = 0, raw_last = 0;       // samples in the first/last raw window
  double repaired_mean = 0, repaired_spread = 0;  // mean |D[k] - median| of repaired totals
  std::string explain;       // one sentence for the diagnostics
};

// Looks for the signature: repaired counts never negative and their per-window
// totals far flatter than the raw ones (which grow through the run).
RepairVerdict detect_accumulation_defect(const FioHistReader::Raw& raw, size_t bins);

// Rewrites raw's counts in place as d[k] = r[k] - r[k-2]; negative results
// (only possible when forced) are clamped to 0 and counted in *clamped.
void repair_accumulation_defect(FioHistReader::Raw* raw, size_t bins, uint64_t* clamped);

}  // namespace latscope
