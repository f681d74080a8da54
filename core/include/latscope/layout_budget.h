// How many bins of bin layouts latscope holds at once (docs/input-robustness.md,
// "Layouts"). A layout is dense: 24 bytes a bin for its edges, and about as
// much again in a query that re-bins it. An HdrHistogram configuration of 5
// significant digits reaches 6.2 million bins (hdr_histogram.h), so a 3 KB
// .hlog of 40 configurations, or a TSV of 40 layout ids, once asked for
// 5 GB. fio's 14 layouts are shared and small (at most 1856 bins), and are
// not counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

// The bins of the distinct layouts (by id) of one file, and of every file one
// engine or one streaming query holds: 2^24, about 400 MB of bin edges,
// room for two of the widest HdrHistogram layouts beside any number of fio
// and 3-digit ones.
constexpr size_t kMaxLayoutBins = size_t{1} << 24;

// Whether a layout is counted against kMaxLayoutBins (every layout but fio's).
bool counts_against_budget(const BinLayout& l);

// The distinct counted layouts held, by id.
class LayoutTally {
 public:
  void add(const Source& src);
  size_t bins() const { return bins_; }
  // The bins src's counted layouts add to those held (ids held cost nothing).
  size_t added_by(const Source& src) const;
  // "" when src fits within kMaxLayoutBins beside the layouts held; else the
  // sentence that refuses it (file, its layouts, the limit, what to do).
  std::string refusal(const Source& src) const;

 private:
  std::map<std::string, size_t> held_;
  size_t bins_ = 0;
};

// The tally of every source's layouts.
LayoutTally tally_layouts(const std::vector<Source>& sources);

// Refuses src when its layouts do not fit beside tally: its series are
// dropped, its status says why (ErrorCode::kUnusableFile). False when refused.
bool admit_layouts(const LayoutTally& tally, Source* src);
// The same beside every layout of held.
bool admit_layouts(const std::vector<Source>& held, Source* src);

// "16,777,216": a count with thousands separators, for messages.
std::string with_commas(uint64_t n);

}  // namespace latscope
