// Quanta finer than the logs (docs/quanta.md). A window's counts are spread
// evenly over the quanta it overlaps, so a quantum shorter than a series'
// logging interval shows an even share of that window, not what happened in
// the quantum. Rows of such quanta carry kFlagFiner and the query says which
// series and intervals, the same way in Engine::query and StreamingQuery.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

// A series' logging interval in ms: the median length of its windows (fio
// stamps a histogram window when an I/O completes after log_hist_msec has
// elapsed, so lengths run a little over the nominal interval). 0 for series
// of instants (per-I/O logs), which have no interval.
double logging_interval_ms(const Series& s);

// True when a quantum of q ms is finer than an interval: shorter by more than
// the 5% that fio's stamping adds to a window (docs/quanta.md).
bool finer_than_interval(double interval_ms, double q_ms);

// The series a query's quantum is finer than, by interval, and the note naming them.
struct FinerTally {
  std::map<double, std::vector<std::string>> files;  // interval (ms, rounded) -> file names
  void count(double interval_ms, double q_ms, const std::string& source_name);
  void notes(double q_ms, std::vector<std::string>* out) const;
};

}  // namespace latscope
