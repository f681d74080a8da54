#include "query/time_base.h"

#include <algorithm>

namespace latscope {

void TimeBaseTally::count(const Source& src, size_t n) {
  if (n == 0) return;
  const int b = src.absolute_time ? 1 : 0;
  if (first < 0) first = b;
  series[b] += n;
  std::vector<std::string>& f = files[b];
  if (std::find(f.begin(), f.end(), src.name) == f.end()) f.push_back(src.name);
}

int TimeBaseTally::kept() const {
  if (series[0] != series[1]) return series[1] > series[0] ? 1 : 0;
  return first < 0 ? 0 : first;
}

namespace {

// "a, b, c and 4 more": names as given, at most kMaxNames of them.
std::string name_list(const std::vector<std::string>& names) {
  constexpr size_t kMaxNames = 8;
  std::string s;
  for (size_t i = 0; i < names.size() && i < kMaxNames; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > kMaxNames) s += " and " + std::to_string(names.size() - kMaxNames) + " more";
  return s;
}

std::string counted(size_t series, size_t files) {
  return std::to_string(series) + " series in " + std::to_string(files) + (files == 1 ? " file" : " files");
}

}  // namespace

void TimeBaseTally::report(std::vector<std::string>* notes, Diagnostics* diag) const {
  if (!mixed()) return;
  const int keep = kept(), drop = 1 - keep;
  const char* kName[2] = {"relative timestamps (ms since the job's start)", "epoch timestamps (log_unix_epoch)"};
  notes->push_back("time bases differ: " + counted(series[keep], files[keep].size()) + " with " + kName[keep] +
                   " shown (" + name_list(files[keep]) + "); " + counted(series[drop], files[drop].size()) +
                   " with " + kName[drop] + " left out: " + name_list(files[drop]) +
                   " (query those files on their own)");
  diag->add_count(Issue::kMixedTimeBases, series[drop]);
}

}  // namespace latscope
