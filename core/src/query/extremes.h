// Which windows a quantum's min, max, p0 and p100 may come from
// (docs/extremes.md). Counts and the other percentiles use every window's
// overlap weight; the extremes use, series by series, only the windows whose
// midpoint lies in the quantum (a series with none there: every bin it adds
// there), so the sliver of a window that closed a few ms after a quantum's
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

// What one series brings to a quantum's extremes: own, the bins of its
// windows whose midpoint lies in the quantum (or what a result's cells
// recorded of them), or when it has none there, seen, every bin it adds to
// the quantum. Judged per series, not per group: another series' window
// (a per-I/O instant, a log of another interval or phase, the json+ tail)
// says nothing about where this series' I/Os are, and dropping this
// series' bins for it left rows whose min was above their mean
// (docs/extremes.md, "Each series on its own").
inline ExtremeBins own_or_seen(const ExtremeBins& own, const ExtremeBins& seen) {
  return own.any() ? own : seen;
}

// A result's series (counts in fixed point, docs/result-format.md) is logs
// already folded: its cells recorded their extremes, and a sum of results
// (latscope merge, ClickHouse's sums of the long table) holds only the
// union of what they recorded. Such a series brings its own only, so that
// the union is the same whether hosts are summed before or within the
// query (docs/extremes.md, "Results"; tests/clickhouse/run.sh).
inline ExtremeBins series_extremes(const Series& s, const ExtremeBins& own, const ExtremeBins& seen) {
  const bool folded = s.count_frac_bits != 0 || !s.extremes.empty();  // a result's, or a long table's
  return folded ? own : own_or_seen(own, seen);
}

// Restricts a filled row's min, max and percentiles to [lowest value of bin
// x.lo, highest value of bin x.hi] (values per `method`, as
// compute_percentiles reports a bin). No-op when x is empty (a group with
// no bins; since every series brings own_or_seen, nothing else is).
void limit_extremes(const BinLayout& layout, const ExtremeBins& x, Method method, Row* row);

}  // namespace latscope
