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
#include "query/tail.h"

#include <cstdint>
#include <map>
#include <vector>

#include "latscope/folder.h"

namespace latscope {

TailKey tail_key_of_json(const Source& src, const Series& s) {
  // A local-mode job: the json's own host, "" unless the file was given one
  // (FileOptions::host, the CLI's --host), as its logs are.
  std::string host, job;
  json_host_job(src, s, &host, &job);
  return {label_of(src, s, "run"), host, job, static_cast<int>(s.dir)};
}

TailKey tail_key_of_log(const Source& src, const Series& s) {
  // Per-I/O logs hold every I/O, no unlogged tail, and log_avg_msec logs
  // hold no I/O counts: a key no json+ job has, so that neither makes a
  // histogram log's tail look ambiguous (docs/folders.md).
  const bool not_counts = s.per_io || s.role == Role::kWindowValues;
  return {label_of(src, s, "run"), src.id.host, s.job, static_cast<int>(s.dir) + (not_counts ? 16 : 0)};
}

void JsonIndex::add(const Source& src) {
  if (!src.status.ok() || src.format != FileFormat::kFioJson) return;
  for (const Series& s : src.series) {
    series[tail_key_of_json(src, s)].push_back(&s);
    source[tail_key_of_json(src, s)] = &src;
  }
}

TailOutcome json_tail_for(const JsonIndex& json, const Selected& x, Series* tail) {
  auto it = json.series.find(tail_key_of_log(*x.src, *x.series));
  if (it == json.series.end()) return TailOutcome::kNoJson;
  // A result's series (docs/result-format.md) is no log of one job: it has no tail.
  if (x.series->count_frac_bits) return TailOutcome::kNoJson;
  if (x.series->role == Role::kWholeRun) return TailOutcome::kNoJson;  // json+ alone: no log to complete
  if (it->second.size() != 1) return TailOutcome::kAmbiguous;
  // The json's runtime is on the job's clock, not the epoch.
  if (x.src->absolute_time) return TailOutcome::kEpoch;
  const Series& js = *it->second.front();
  const BinLayout& L = *x.series->layout;
  // fio's coarse logs sum 2^c fine bins; fio 2 and 3 layouts never mix in one run.
  if (L.kind != js.layout->kind || js.layout->coarseness != 0) return TailOutcome::kMismatch;
  std::vector<int64_t> diff(L.size(), 0);
  for (const Window& w : js.windows)
    js.for_each_bin(w, [&](uint32_t b, uint64_t c) {
      const size_t to = b >> L.coarseness;
      if (to < diff.size()) diff[to] += static_cast<int64_t>(c);
    });
  for (const Window& w : x.series->windows)
    x.series->for_each_bin(w, [&](uint32_t b, uint64_t c) { diff[b] -= static_cast<int64_t>(c); });
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
  for (size_t b = 0; b < diff.size(); ++b) {
    if (diff[b] < 0) return TailOutcome::kMismatch;  // an unrepaired client log, another run
    if (diff[b] > 0) {
      bins.push_back(static_cast<uint32_t>(b));
      counts.push_back(static_cast<uint64_t>(diff[b]));
    }
  }
  if (bins.empty()) return TailOutcome::kNone;
  const double start = x.series->windows.back().end_ms;
  // The direction's runtime: the json+ window is (startdelay, startdelay + runtime]
  // on the run's clock (docs/placement.md); the log is on the job's.
  const double end = js.windows.front().end_ms - js.windows.front().start_ms;
  if (!(end > start)) return TailOutcome::kMismatch;
  uint64_t missing = 0;
  for (uint64_t c : counts) missing += c;
  if (static_cast<double>(missing) > unlogged_tail_bound(tail_facts_of(*x.series), end))
    return TailOutcome::kImplausible;
  *tail = Series();
  tail->dir = x.series->dir;
  tail->job = x.series->job;
  tail->segment = x.series->segment;
  tail->layout = x.series->layout;
  tail->add_window(start, end, bins.data(), counts.data(), static_cast<uint32_t>(bins.size()));
  return TailOutcome::kAdded;
}

void TailTally::count(TailOutcome o, const std::string& json_name) {
  switch (o) {
    case TailOutcome::kAdded:
      ++added;
      if (names.find(json_name) == std::string::npos) names += (names.empty() ? "" : ", ") + json_name;
      break;
    case TailOutcome::kMismatch: ++mismatched; break;
    case TailOutcome::kAmbiguous: ++ambiguous; break;
    case TailOutcome::kEpoch: ++epoch; break;
    case TailOutcome::kImplausible: ++implausible; break;
    case TailOutcome::kNone:
    case TailOutcome::kNoJson: break;
  }
}

void TailTally::notes(std::vector<std::string>* out) const {
  if (added)
    out->push_back("added the last, unlogged window of " + std::to_string(added) +
                   " log series from fio's json+ output (" + names + ")");
  // The series left without a tail window, by why.
  const auto left = [out](size_t n, const char* why) {
    if (n) out->push_back(std::to_string(n) + " log series " + why + " no tail window added for them");
  };
  left(mismatched, "hold more than their job's json+ bins (an unrepaired client/server log, or another run):");
  left(ambiguous, "match a json+ job that several loaded logs share:");
  left(implausible,
       "lack more I/Os than fio's unlogged last window holds (fio lost them, or the log was cut: see the trust "
       "summary, docs/folders.md):");
  left(epoch, "have epoch timestamps (log_unix_epoch): json+ runtimes are relative,");
}

void add_json_tails(const SourceRefs& sources, const Selection& sel, Plan* plan) {
  JsonIndex json;
  std::map<TailKey, int> logs;
  // The json+ outputs and the histogram logs, a gzip copy of one counted
  // once (folder.h gzip_copies): a second json+ of a job, or a second log,
  // would make its tail ambiguous.
  std::vector<const Source*> read;
  std::vector<FolderFile> named;
  for (const Source* ref : sources) {
    const Source& src = *ref;
    const bool json_out = src.format == FileFormat::kFioJson && !source_excluded(src, sel);
    if (!json_out && (!src.status.ok() || src.format != FileFormat::kFioHist)) continue;
    read.push_back(&src);
    named.emplace_back();
    named.back().run_file.name = src.name;
    named.back().run_file.json = json_out;
    named.back().account = json_out ? Account::kNone : Account::kHist;
    named.back().head_hash = src.head_hash;
  }
  const std::vector<size_t> copies = gzip_copies(named);
  for (size_t k = 0; k < read.size(); ++k) {
    if (copies[k] != SIZE_MAX) continue;
    if (named[k].run_file.json) json.add(*read[k]);
    else
      for (const Series& s : read[k]->series) ++logs[tail_key_of_log(*read[k], s)];
  }
  if (json.series.empty()) return;
  std::vector<Selected> tails;
  TailTally tally;
  for (Selected& x : plan->series) {
    const TailKey key = tail_key_of_log(*x.src, *x.series);
    Series t;
    TailOutcome o = json_tail_for(json, x, &t);
    if (o == TailOutcome::kAdded && logs[key] != 1) o = TailOutcome::kAmbiguous;
    tally.count(o, o == TailOutcome::kAdded ? json.source[key]->name : "");
    if (o != TailOutcome::kAdded) continue;
    plan->extra.push_back(std::move(t));
    // The tail stays a series of its own, also for the extremes rule: its
    // midpoint must not decide for its log, whose last window can hold most
    // of the tail's quantum (docs/extremes.md, "Each series on its own").
    Selected y = x;
    y.series = &plan->extra.back();
    y.cover_end = y.series->windows.back().end_ms + x.offset_ms;
    x.cover_end = y.cover_end;  // the series now reaches the end of the run
    x.full_end = y.full_end = y.cover_end;
    tails.push_back(y);
  }
  tally.notes(&plan->notes);
  plan->series.insert(plan->series.end(), tails.begin(), tails.end());
}

}  // namespace latscope
