// Which bin layout a merge of several layouts adds up on (docs/model.md,
// "Merging layouts"). One rule for the stored query and the streaming fold.
#pragma once

#include <map>
#include <string>

#include "latscope/layout.h"

namespace latscope {

// layouts: every layout of the selected series, by id (non-empty).
//  * one layout: itself;
//  * HdrHistogram layouts present: the finest of them (most significant
//    digits, then the widest range). The same configuration read from files
//    of different lengths differs only in how many buckets it lists, and the
//    longest holds the others bucket for bucket, so hosts' .hlog files merge
//    exactly; other layouts (fio bins, other configurations) are re-binned
//    onto it in proportion to the overlap;
//  * only fio layouts: the coarsest fio 3 layout present (a coarsening is
//    exact), fio 2 bins re-binned onto it.
LayoutPtr merge_layout(const std::map<std::string, LayoutPtr>& layouts);

// The diagnostic text of a merge: which layouts moved exactly (each bin into
// one target bin, e.g. a coarsening) and which were re-binned in proportion;
// "" when every layout is the target's own buckets, only fewer (nothing was
// re-binned at all).
std::string describe_layout_merge(const std::map<std::string, LayoutPtr>& layouts, const BinLayout& target);

}  // namespace latscope
