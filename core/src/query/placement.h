// Late-start jobs placed where they ran (docs/placement.md). fio stamps each
// job's logs from that job's own start, so a job with startdelay=20 that ran
// 20-35 s is logged at 0-15 s. fio's json+ output says each job's startdelay
// (the json+ window is (startdelay, startdelay + runtime], json_source.cc);
// logs of that job (same host and job number as the tail match, tail.cc,
// any direction, histogram and per-I/O logs alike) are shifted by it.
// Shared by make_plan and StreamingQuery so both place alike.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "query/aligner.h"
#include "query/tail.h"

namespace latscope {

// What was placed, by shift, and what could not be; worded as query notes.
struct PlacementTally {
  std::map<double, std::vector<std::string>> shifted;  // ms -> file names
  std::vector<std::string> json_names;
  std::vector<std::string> random;  // files whose job had a random startdelay
  bool by_job_start = false;  // some placed from fio's job_start, not startdelay (fio_json.h)
  void notes(std::vector<std::string>* out) const;
};

// Adds each series' job start from `json` to its offset and coverage, unless
// the selection names an offset for its file or job (Selected::offset_named:
// the user said where it ran) or its times are epoch ms.
void place_series(const JsonIndex& json, std::vector<Selected>::iterator first, std::vector<Selected>::iterator last,
                  PlacementTally* tally);

// Without json+ (or for jobs it does not name): files of relative time whose
// first window starts at least a second, and one of its own windows, after
// every other file has ended its first window, named in a note: a job that
// started late, on its own clock.
struct LateStartCheck {
  struct File {
    std::string name;
    double start, first_end;
    bool placed;
  };
  std::vector<File> files;
  void see(const Selected& x);
  void notes(std::vector<std::string>* out) const;
};

}  // namespace latscope
