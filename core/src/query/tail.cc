// The window fio never logs (fio issue 490): a job's last, partial window.
// fio's json+ output has the job's whole-run bins, so
//
//   tail = json+ bins - sum of the logged windows      (bin by bin, >= 0)
//
// covers (last time_ms, runtime] on the job's clock. Matching a log series to
// a json+ job: same host ("" in local mode), same job number (fio numbers a
// host's jobs 1.. in the order its json lists them; see fio_json.h) and same
// direction, and exactly one log file for that key, so two runs' logs are
// never completed from one json.
#include <map>
#include <tuple>

#include "query/aligner.h"

namespace latscope {
namespace {

using Key = std::tuple<std::string, std::string, int>;  // host, job, direction

// A json Series' job is "<host>/<job>" in client mode, "<job>" in local mode.
Key json_key(const Series& s) {
  const size_t slash = s.job.rfind('/');
  if (slash == std::string::npos) return {"", s.job, static_cast<int>(s.dir)};
  return {s.job.substr(0, slash), s.job.substr(slash + 1), static_cast<int>(s.dir)};
}

// The json's fine bins on the log's layout: fio's coarse logs sum 2^c fine
// bins; fio 2 and 3 layouts never mix within one run.
bool same_family(const BinLayout& log, const BinLayout& json) {
  return log.kind == json.kind && json.coarseness == 0;
}

}  // namespace

void add_json_tails(const std::vector<Source>& sources, Plan* plan) {
  std::map<Key, std::vector<const Series*>> json;
  std::map<Key, const Source*> json_src;
  std::map<Key, int> logs;
  for (const Source& src : sources) {
    if (!src.status.ok()) continue;
    for (const Series& s : src.series) {
      if (src.format == FileFormat::kFioJson) {
        json[json_key(s)].push_back(&s);
        json_src[json_key(s)] = &src;
      } else if (src.format == FileFormat::kFioHist) {
        ++logs[Key{src.id.host, s.job, static_cast<int>(s.dir)}];
      }
    }
  }
  if (json.empty()) return;

  std::vector<Selected> tails;
  size_t mismatched = 0, ambiguous = 0, epoch = 0;
  std::string json_names;
  std::vector<int64_t> diff;
  for (Selected& x : plan->series) {
    if (x.src->format != FileFormat::kFioHist) continue;
    const Key key{x.src->id.host, x.series->job, static_cast<int>(x.series->dir)};
    auto it = json.find(key);
    if (it == json.end()) continue;
    if (it->second.size() != 1 || logs[key] != 1) {
      ++ambiguous;
      continue;
    }
    if (x.src->absolute_time) {  // the json's runtime is on the job's clock, not the epoch
      ++epoch;
      continue;
    }
    const Series& js = *it->second.front();
    const BinLayout& L = *x.series->layout;
    if (!same_family(L, *js.layout)) {
      ++mismatched;
      continue;
    }
    diff.assign(L.size(), 0);
    for (const Window& w : js.windows)
      js.for_each_bin(w, [&](uint32_t b, uint64_t c) {
        const size_t to = b >> L.coarseness;
        if (to < diff.size()) diff[to] += static_cast<int64_t>(c);
      });
    for (const Window& w : x.series->windows)
      x.series->for_each_bin(w, [&](uint32_t b, uint64_t c) { diff[b] -= static_cast<int64_t>(c); });
    std::vector<uint32_t> bins;
    std::vector<uint64_t> counts;
    bool negative = false;
    for (size_t b = 0; b < diff.size(); ++b) {
      if (diff[b] < 0) negative = true;
      if (diff[b] > 0) {
        bins.push_back(static_cast<uint32_t>(b));
        counts.push_back(static_cast<uint64_t>(diff[b]));
      }
    }
    const double start = x.series->windows.back().end_ms;
    const double end = js.windows.front().end_ms;  // the direction's runtime
    // Logs that hold more than the json says (an unrepaired client log, another
    // run) or a runtime that ends before the last logged window: no tail.
    if (negative || (!bins.empty() && !(end > start))) {
      ++mismatched;
      continue;
    }
    if (bins.empty()) continue;
    Series t;
    t.dir = x.series->dir;
    t.job = x.series->job;
    t.segment = x.series->segment;
    t.layout = x.series->layout;
    t.add_window(start, end, bins.data(), counts.data(), static_cast<uint32_t>(bins.size()));
    plan->extra.push_back(std::move(t));
    Selected y = x;
    y.series = &plan->extra.back();
    y.cover_end = end + x.offset_ms;
    x.cover_end = y.cover_end;  // the series now reaches the end of the run
    tails.push_back(y);
    const std::string& name = json_src[key]->name;
    if (json_names.find(name) == std::string::npos) json_names += (json_names.empty() ? "" : ", ") + name;
  }
  if (!tails.empty())
    plan->notes.push_back("added the last, unlogged window of " + std::to_string(tails.size()) +
                          " log series from fio's json+ output (" + json_names + ")");
  if (mismatched)
    plan->notes.push_back(std::to_string(mismatched) +
                          " log series hold more than their job's json+ bins (an unrepaired "
                          "client/server log, or another run): no tail window added for them");
  if (ambiguous)
    plan->notes.push_back(std::to_string(ambiguous) +
                          " log series match a json+ job that several loaded logs share: no tail "
                          "window added for them");
  if (epoch)
    plan->notes.push_back(std::to_string(epoch) +
                          " log series have epoch timestamps (log_unix_epoch): json+ runtimes are "
                          "relative, no tail window added for them");
  plan->series.insert(plan->series.end(), tails.begin(), tails.end());
}

}  // namespace latscope
