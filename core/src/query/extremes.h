// Which windows a quantum's min, max, p0 and p100 may come from
// (docs/extremes.md). Counts and the other percentiles use every window's
// overlap weight; the extremes use only the windows whose midpoint lies in
// the quantum, so the sliver of a window that closed a few ms after a quantum's
// end (weight ~0.002) no longer repeats that window's spike in the next
// quantum. Shared by the stored-model sweep (aligner.cc) and the streaming
// fold (stream.cc) so both give the same numbers.
#pragma once

#include <algorithm>
#include <cstdint>

#include "latscope/engine.h"

namespace latscope {

// Window (s, e] (shifted; s == e: an instant, which the caller has already
// placed in the quantum) and quantum [a, b): true when the window's midpoint
// lies in the quantum. Each window's extremes go to exactly one quantum, and
// since quanta of Q nest in quanta of kQ, so do the quanta holding
// midpoints: what a result cell records of its extremes adds up exactly
// when results merge or are re-quantized (docs/extremes.md).
bool counts_for_extremes(double s, double e, double a, double b);

// Restricts a filled row's min, max and percentiles to [lowest value of bin
// x.lo, highest value of bin x.hi] (values per `method`, as
// compute_percentiles reports a bin). No-op when x is empty: a quantum no
// window counts for (only slivers at a run's edge) keeps every bin.
void limit_extremes(const BinLayout& layout, const ExtremeBins& x, Method method, Row* row);

}  // namespace latscope
