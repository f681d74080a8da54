// Coordinated-omission correction for any input (docs/coordinated-omission.md).
//
// A load generator that waits for each response before sending the next
// request records one slow sample where a fixed-rate schedule would have
// produced several: the requests that should have been sent during the
// stall are missing. HdrHistogram's correction with a known expected
// interval i adds them back: for every recorded value v with count c it also
// records c at v - i, v - 2i, ... while >= i. Here a bin stands for its
// lowest value (HdrHistogram's valueFromIndex, so `latscope hdr` and this
// agree), and the added samples land in the bins that hold those values —
// computed per target bin, not per k, so a 17 s bin at a 1 us interval costs
// one pass over the bins below it, not 17 million steps.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "latscope/layout.h"

namespace latscope {

class CoCorrector {
 public:
  // interval_ns > 0: the expected interval between samples, in ns.
  CoCorrector(LayoutPtr layout, double interval_ns);

  // (bins, counts): one window's non-empty bins, ascending. Writes the
  // corrected histogram (the recorded samples plus the added ones) to
  // (out_bins, out_counts), ascending, counts saturating at 2^64 - 1.
  void correct(const std::vector<uint32_t>& bins, const std::vector<uint64_t>& counts,
               std::vector<uint32_t>* out_bins, std::vector<uint64_t>* out_counts);

  // For one bin: the bins that receive added samples and how many per
  // recorded sample (k values landing in each). Computed once per bin.
  const std::vector<std::pair<uint32_t, uint64_t>>& targets(uint32_t bin);

 private:
  LayoutPtr layout_;
  double interval_;
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>> cache_;
  std::vector<uint64_t> dense_;  // scratch, layout-sized
};

}  // namespace latscope
