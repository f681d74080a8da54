// One time axis per query, of at most kMaxQuanta quanta (docs/input-robustness.md,
// "Far times"). A file whose clock is off by years, or one line with a
// corrupt timestamp, used to stretch the axis past that limit and fail the
// whole query, naming no file. Now, only when the windows do not fit, the
// query keeps the set of time runs holding the most I/Os that fits, leaves
// the others out and names their files (error far-times: exit 1). When
// everything fits the axis is what it always was. Engine::query's plan
// (aligner.cc) and the streaming fold (stream.cc) decide with this one
// function, so their rows stay identical.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/model.h"

namespace latscope {

// The most quanta one axis holds: rows, heat-map columns and the fold's
// grid are all sized by it.
constexpr double kMaxQuanta = 50e6;

// A stretch of one series' windows without a gap of over a quarter of the
// axis limit, shifted by the series' offset.
struct TimeRun {
  double start = 0, end = 0;  // ms
  double ios = 0;             // the I/Os its windows hold
  std::string file;
  size_t owner = 0;  // the caller's series index
};

// Windows further apart than this are in different runs (add_time_runs).
inline double time_run_gap_ms(double quantum_ms) { return kMaxQuanta / 4 * quantum_ms; }

// Appends the runs of series s of file `file` (windows shifted by offset_ms)
// for a query at quantum_ms.
void add_time_runs(const Series& s, double offset_ms, const std::string& file, size_t owner, double quantum_ms,
                   std::vector<TimeRun>* runs);

// The axis [first, last) in quantum indices for windows covering [lo, hi] ms.
// Relative time starts at quantum 0 or before; from/to of sel clip it. When
// that is over kMaxQuanta quanta, the runs (runs_of appends them; called
// only then) decide what is kept: the notes and diag name what was left
// out, *lo, *hi become the kept runs' span and *gone lists the owners none
// of whose runs was kept (the caller drops those series: their spans then
// neither flag rows partial nor widen the axis). An error only when no run
// fits by itself: it says how to get the answer.
Status decide_axis(double* lo, double* hi, bool absolute_time, const Selection& sel, double quantum_ms,
                   const std::function<void(std::vector<TimeRun>*)>& runs_of, double* first, double* last,
                   std::vector<std::string>* notes, Diagnostics* diag, std::vector<size_t>* gone);

}  // namespace latscope
