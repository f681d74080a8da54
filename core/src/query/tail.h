// The unlogged last window of fio log series, from fio's json+ output
// (see tail.cc). Shared by the stored-model query and the streaming fold.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "query/aligner.h"

namespace latscope {

// run label, host, job, direction. The run (docs/runs.md) keeps one run's
// json+ from completing another run's logs of the same job number.
using TailKey = std::tuple<std::string, std::string, std::string, int>;

TailKey tail_key_of_json(const Source& src, const Series& s);  // job "<host>/<job>" in client mode
TailKey tail_key_of_log(const Source& src, const Series& s);

// The json+ jobs loaded, by key.
struct JsonIndex {
  std::map<TailKey, std::vector<const Series*>> series;
  std::map<TailKey, const Source*> source;
  void add(const Source& src);  // ignores anything but usable fio json sources
};

// kImplausible: the log lacks more I/Os than fio's unlogged last window can
// hold (folder.h unlogged_tail_bound): fio lost them (3.6-3.16) or the log was
// cut; adding them all at the end would put them in the wrong quantum.
enum class TailOutcome { kNoJson, kNone, kAdded, kMismatch, kAmbiguous, kEpoch, kImplausible };

// The tail window of one selected log series; *tail is set when kAdded. The
// caller also refuses keys that several loaded logs share (kAmbiguous).
TailOutcome json_tail_for(const JsonIndex& json, const Selected& x, Series* tail);

// Counts outcomes and words them as query notes.
struct TailTally {
  size_t added = 0, mismatched = 0, ambiguous = 0, epoch = 0, implausible = 0;
  std::string names;
  void count(TailOutcome o, const std::string& json_name);
  void notes(std::vector<std::string>* out) const;
};

}  // namespace latscope
