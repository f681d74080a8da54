// Which windows a quantum's min, max, p0 and p100 may come from
// (docs/extremes.md). Counts and the other percentiles use every window's
// overlap weight; the extremes use only the windows that lie mostly in the
// quantum, so the sliver of a window that closed a few ms after a quantum's
// end (weight ~0.002) no longer repeats that window's spike in the next
// quantum. Shared by the stored-model sweep (aligner.cc) and the streaming
// fold (stream.cc) so both give the same numbers.
#pragma once

#include <algorithm>
#include <cstdint>

#include "latscope/engine.h"

namespace latscope {

// The lowest and highest bins (of the query's common layout) that windows
// counted for the extremes put I/Os in.
struct ExtremeBins {
  uint32_t lo = UINT32_MAX;
  uint32_t hi = 0;
  void add(uint32_t bin) {
    lo = std::min(lo, bin);
    hi = std::max(hi, bin);
  }
  void add(const ExtremeBins& o) {
    if (o.any()) {
      add(o.lo);
      add(o.hi);
    }
  }
  bool any() const { return lo != UINT32_MAX; }
};

// Window (s, e] (shifted; s == e: an instant, which the caller has already
// placed in the quantum) and quantum [a, b): true when they overlap by at
// least half of the shorter of the two. A window no longer than the quantum
// counts where at least half of it lies; a window longer than the quantum
// (quantum finer than the logs) counts in every quantum it covers at least
// half of.
bool counts_for_extremes(double s, double e, double a, double b);

// Restricts a filled row's min, max and percentiles to [lowest value of bin
// x.lo, highest value of bin x.hi] (values per `method`, as
// compute_percentiles reports a bin). No-op when x is empty: a quantum no
// window counts for (only slivers at a run's edge) keeps every bin.
void limit_extremes(const BinLayout& layout, const ExtremeBins& x, Method method, Row* row);

}  // namespace latscope
