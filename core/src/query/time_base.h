// One time axis per query (docs/input-robustness.md, "Time bases"). Logs
// written with log_unix_epoch=1 stamp windows in epoch ms, the others in ms
// since the job's start: no offset relates the two, so a query never puts
// them on one axis. It shows the time base most selected series have (a
// tie: the first selected series'), leaves the other series out and names
// their files in a note and a kMixedTimeBases count. The stored-model query
// (make_plan) and the streaming fold (stream.cc) both decide with this tally,
// so their output stays identical.
#pragma once

#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

struct TimeBaseTally {
  size_t series[2] = {0, 0};           // selected series: [0] relative, [1] epoch
  std::vector<std::string> files[2];   // their sources' names, first-seen order
  int first = -1;                      // time base of the first selected series

  // Counts n selected series of src (n may be 0).
  void count(const Source& src, size_t n);
  bool mixed() const { return series[0] && series[1]; }
  // The time base shown: 1 epoch, 0 relative.
  int kept() const;
  // Note and diagnostic for the left-out series; nothing when not mixed.
  void report(std::vector<std::string>* notes, Diagnostics* diag) const;
};

}  // namespace latscope
