#include "query/placement.h"

#include <algorithm>
#include <cmath>

#include "latscope/fio_json.h"
#include "latscope/text.h"

namespace latscope {
namespace {

std::string base_name(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  return s == std::string::npos ? path : path.substr(s + 1);
}

void add_unique(std::vector<std::string>* v, const std::string& s) {
  if (std::find(v->begin(), v->end(), s) == v->end()) v->push_back(s);
}

}  // namespace

void place_series(const JsonIndex& json, std::vector<Selected>::iterator first, std::vector<Selected>::iterator last,
                  PlacementTally* tally) {
  if (json.series.empty()) return;
  for (auto it = first; it != last; ++it) {
    Selected& x = *it;
    if (x.src->absolute_time || x.offset_named || x.series->count_frac_bits) continue;
    if (x.series->role == Role::kWholeRun) continue;  // json+ itself: already on the run's clock
    // The job's json+ entries in any direction: one start per job.
    const Series* js = nullptr;
    const Source* jsrc = nullptr;
    bool clash = false;
    for (int d = 0; d < kDirCount; ++d) {
      auto f = json.series.find(TailKey{label_of(*x.src, *x.series, "run"), x.src->id.host, x.series->job, d});
      if (f == json.series.end()) continue;
      for (const Series* s : f->second) {
        if (js && s->windows.front().start_ms != js->windows.front().start_ms) clash = true;
        if (!js) {
          js = s;
          jsrc = json.source.at(f->first);
        }
      }
    }
    if (!js || clash) continue;  // two json+ outputs disagree: which run is it?
    const std::string file = base_name(x.src->name);
    if (const std::string* random = js->labels.find("startdelay")) {
      add_unique(&tally->random, file + " (startdelay=" + *random + ")");
      continue;
    }
    const double d = js->windows.front().start_ms;
    if (!(d > 0)) continue;
    x.offset_ms += d;
    x.cover_start += d;
    x.cover_end += d;
    x.full_start += d;
    x.full_end += d;
    x.placed = true;
    add_unique(&tally->shifted[d], file);
    add_unique(&tally->json_names, base_name(jsrc->name));
    tally->by_job_start = tally->by_job_start || jsrc->labels.find(kJobStartLabel) != nullptr;
  }
}

void PlacementTally::notes(std::vector<std::string>* out) const {
  if (!shifted.empty()) {
    std::string what;
    for (const auto& kv : shifted) {
      what += what.empty() ? "" : "; ";
      for (size_t i = 0; i < kv.second.size(); ++i) what += (i ? ", " : "") + kv.second[i];
      what += " +" + format_number(kv.first) + " ms";
    }
    std::string from;
    for (const std::string& j : json_names) from += (from.empty() ? "" : ", ") + j;
    out->push_back(std::string("placed late-start jobs by their ") +
                   (by_job_start ? "start (fio's job_start)" : "startdelay") + " in " + from + ": " + what +
                   " (fio stamps each job's logs from the job's own start; docs/placement.md)");
  }
  if (!random.empty()) {
    std::string what;
    for (const std::string& r : random) what += (what.empty() ? "" : ", ") + r;
    out->push_back("not placed: " + what +
                   ": fio picked the delay at random and its output does not say which (docs/placement.md)");
  }
}

void LateStartCheck::see(const Selected& x) {
  if (x.src->absolute_time || x.series->windows.empty()) return;
  const std::string name = base_name(x.src->name);
  const double fe = x.series->windows.front().end_ms + x.offset_ms;
  for (File& f : files)
    if (f.name == name) {
      f.start = std::min(f.start, x.cover_start);
      f.first_end = std::min(f.first_end, fe);
      f.placed = f.placed || x.placed || x.offset_named;
      return;
    }
  files.push_back({name, x.cover_start, fe, x.placed || x.offset_named});  // an offset the user named places it too
}

void LateStartCheck::notes(std::vector<std::string>* out) const {
  if (files.size() < 2) return;
  for (const File& f : files) {
    if (f.placed) continue;
    double others = -HUGE_VAL;  // when the last of the others ends its first window
    for (const File& g : files)
      if (&g != &f) others = std::max(others, g.first_end);
    const double gap = f.start - others;
    if (!(gap >= 1000) || !(gap >= f.first_end - f.start)) continue;
    out->push_back(f.name + " starts " + format_number(std::round(gap) / 1000) +
                   " s after the others' first window: a late-start job? its times are relative to its own "
                   "start; give fio's json+ output or --offset (docs/placement.md)");
  }
}

}  // namespace latscope
