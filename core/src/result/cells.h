// Internal to result/: the canonical series order and cell sums shared by
// merge() (result.cc) and the merge in time order (merge_stream.cc), so both
// add alike (docs/result-format.md, "Merging").
#pragma once

#include <vector>

#include "latscope/result.h"

namespace latscope {

// The canonical order of series: by labels, then layout id.
bool series_less(const ResultSeries& a, const ResultSeries& b);
// Equal labels and layout: one series once merged.
bool same_key(const ResultSeries& a, const ResultSeries& b);
// Adds the ascending cells s into the ascending cells *d (integer sums;
// extremes: union); false when a count would pass 2^64 - 1 (the sum wraps).
bool add_cells(std::vector<ResultCell>* d, const std::vector<ResultCell>& s);

}  // namespace latscope
