// The counts of one quantum and group over a wide layout (HdrHistogram:
// tens of thousands of bins, aligner.h kWideLayoutBins), held as the bins
// that have counts, ascending. A dense range from a cell's lowest to its
// highest bin cost 8 bytes per bin in between: a 3-hour .hlog grouped by
// tag held 2.7 GB for 12 MB of log (docs/benchmarks.md). Increments are
// added in the order a dense array would get them, so every bin's sum is the
// same sequence of additions: the same bits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace latscope {

// (bin, part) in the order they would be added to a dense array.
using Increments = std::vector<std::pair<uint32_t, double>>;

struct SparseCounts {
  std::vector<uint32_t> bins;  // ascending, each once
  std::vector<double> v;       // their counts

  // Sorts inc by bin, keeping each bin's increments in their order.
  static void order(Increments* inc) {
    const auto by_bin = [](const std::pair<uint32_t, double>& a, const std::pair<uint32_t, double>& b) {
      return a.first < b.first;
    };
    if (!std::is_sorted(inc->begin(), inc->end(), by_bin)) std::stable_sort(inc->begin(), inc->end(), by_bin);
  }

  // How many bins of (ordered) inc are not held yet: what add() grows by.
  size_t fresh_bins(const Increments& inc) const {
    size_t n = 0, i = 0;
    for (size_t k = 0; k < inc.size(); ++k) {
      if (k > 0 && inc[k].first == inc[k - 1].first) continue;
      while (i < bins.size() && bins[i] < inc[k].first) ++i;
      if (i == bins.size() || bins[i] != inc[k].first) ++n;
    }
    return n;
  }

  // Adds (ordered) inc, fresh = fresh_bins(inc): merged from the back in place.
  void add(const Increments& inc, size_t fresh) {
    size_t i = bins.size(), k = inc.size(), out = bins.size() + fresh;
    bins.resize(out);
    v.resize(out);
    while (k > 0) {
      const uint32_t b = inc[k - 1].first;
      size_t s = k - 1;
      while (s > 0 && inc[s - 1].first == b) --s;
      while (i > 0 && bins[i - 1] > b) {
        --out;
        --i;
        bins[out] = bins[i];
        v[out] = v[i];
      }
      double sum = 0;  // a dense array's bin starts at 0 too
      if (i > 0 && bins[i - 1] == b) sum = v[--i];
      for (size_t r = s; r < k; ++r) sum += inc[r].second;
      --out;
      bins[out] = b;
      v[out] = sum;
      k = s;
    }
  }

  size_t size() const { return bins.size(); }
};

}  // namespace latscope
