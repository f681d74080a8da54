// Repairs decided by fio's own count (latscope/folder.h settle_repairs,
// docs/folders.md "Repairs on fio's count"). The reader judges a client log
// from its windows alone (fio_hist/repair.h: the raw totals climb, the
// repaired ones are far flatter); on a short log or one with a stall that
// judgement can fail for one direction and hold for the other. fio's json+
// settles it: the defect makes the raw windows sum to roughly the square of
// the run's length in windows times the rate, far more than fio counted,
// while the repaired windows sum to fio's count less the unlogged tail.
#include <algorithm>
#include <functional>

#include "formats/fio_hist/repair.h"
#include "latscope/folder.h"

namespace latscope {

void settle_repairs(Source* src, const std::vector<FolderFile>& folder) {
  if (!src->status.ok() || src->format != FileFormat::kFioHist || src->id.host.empty()) return;
  const std::string* run_label = src->labels.find("run");
  const std::string run = run_label ? *run_label : "";
  for (Series& s : src->series) {
    if (s.repaired || s.role != Role::kTimeSeries || s.count_frac_bits) continue;
    // fio's count for this job and direction, from exactly one json+ output.
    uint64_t fio = 0;
    int found = 0;
    for (const FolderFile& f : folder) {
      if (f.run != run) continue;
      for (const FolderFile::JobCount& c : f.json_counts)
        if (c.host == src->id.host && c.job == s.job && c.dir == static_cast<int>(s.dir)) {
          fio = c.ios;
          ++found;
        }
    }
    if (found != 1) continue;
    const uint64_t raw = s.total();
    if (raw <= fio) continue;  // as written it fits fio's count: not ours to change
    uint64_t clamped = 0;
    Series rep = repair_accumulation_defect(s, &clamped);
    const uint64_t fixed = rep.total();
    if (clamped || fixed > fio) continue;
    rep.dir = s.dir;
    rep.role = s.role;
    rep.labels = s.labels;
    rep.job = s.job;
    rep.segment = s.segment;
    rep.layout = s.layout;
    rep.interval_ms = s.interval_ms;
    rep.repaired = true;
    for (const Window& w : rep.windows)
      rep.for_each_bin(w, [&](uint32_t b, uint64_t c) {
        if (s.layout->last_saturates && b + 1 == s.layout->size()) rep.saturated += c;
      });
    src->diag.add(Issue::kRepaired, 0, 0,
                  std::string(dir_name(s.dir)) + " (job " + s.job + "): as written the log holds " +
                      std::to_string(raw) + " I/Os, fio's json+ counted " + std::to_string(fio) +
                      ": client/server accumulation defect repaired on that evidence (" + std::to_string(fixed) +
                      " I/Os; the rest is fio's unlogged last window)");
    s = std::move(rep);
  }
}

namespace {

// Whether json+ job `j`'s whole-run bins hold every bin of series `s`.
bool holds(const FolderFile::JobCount& j, const Series& s) {
  if (!s.layout) return false;
  const bool fio2 = s.layout->kind == LayoutKind::kFio2;
  if ((s.layout->kind != LayoutKind::kFio3 && !fio2) || (fio2 ? 2 : 3) != j.version) return false;
  std::vector<uint64_t> have(s.layout->size(), 0);
  for (const auto& [b, n] : j.bins)
    if ((b >> s.layout->coarseness) < have.size()) have[b >> s.layout->coarseness] += n;
  bool ok = true;
  for (const Window& w : s.windows)
    s.for_each_bin(w, [&](uint32_t b, uint64_t n) {
      if (have[b] < n) ok = false;
      else have[b] -= n;
    });
  return ok;
}

}  // namespace

void settle_segments(Source* src, const std::vector<FolderFile>& folder) {
  if (!src->status.ok() || !src->id.job.empty()) return;
  if (src->format != FileFormat::kFioHist && src->format != FileFormat::kFioLat) return;
  int segments = 0;
  for (const Series& s : src->series) segments = std::max(segments, s.segment + 1);
  if (segments < 2) return;
  const std::string* run_label = src->labels.find("run");
  const std::string run = run_label ? *run_label : "";
  // The run's json+ jobs on this file's host, each with its directions.
  std::vector<std::string> jobs;
  std::vector<const FolderFile::JobCount*> counts;
  int outputs = 0;
  for (const FolderFile& f : folder) {
    if (f.run != run || f.json_counts.empty()) continue;
    ++outputs;
    for (const FolderFile::JobCount& c : f.json_counts) {
      if (c.host != src->id.host) continue;
      counts.push_back(&c);
      if (std::find(jobs.begin(), jobs.end(), c.job) == jobs.end()) jobs.push_back(c.job);
    }
  }
  if (outputs != 1 || jobs.size() != static_cast<size_t>(segments) || segments > 256) return;
  // fits[g][k]: segment g's every series fits job k's bins.
  std::vector<std::vector<bool>> fits(static_cast<size_t>(segments), std::vector<bool>(jobs.size(), true));
  for (const Series& s : src->series)
    for (size_t k = 0; k < jobs.size(); ++k) {
      const FolderFile::JobCount* c = nullptr;
      for (const FolderFile::JobCount* x : counts)
        if (x->job == jobs[k] && x->dir == static_cast<int>(s.dir)) c = x;
      if (!c || !holds(*c, s)) fits[static_cast<size_t>(s.segment)][k] = false;
    }
  // The reader's order first (segment g is job g + 1): kept when it fits.
  std::vector<size_t> order(static_cast<size_t>(segments));
  bool as_read = true;
  for (size_t g = 0; g < order.size(); ++g) {
    const auto it = std::find(jobs.begin(), jobs.end(), std::to_string(g + 1));
    if (it == jobs.end() || !fits[g][static_cast<size_t>(it - jobs.begin())]) as_read = false;
  }
  if (as_read) return;
  // A matching that fits every segment to its own job: augmenting paths
  // (Kuhn), at most segments x edges steps; a search through orders could
  // take factorial time on a crafted folder (docs/input-robustness.md).
  std::vector<int> segment_of(jobs.size(), -1);
  std::vector<bool> visited;
  std::function<bool(size_t)> augment = [&](size_t g) {
    for (size_t k = 0; k < jobs.size(); ++k) {
      if (!fits[g][k] || visited[k]) continue;
      visited[k] = true;
      if (segment_of[k] < 0 || augment(static_cast<size_t>(segment_of[k]))) {
        segment_of[k] = static_cast<int>(g);
        return true;
      }
    }
    return false;
  };
  for (size_t g = 0; g < order.size(); ++g) {
    visited.assign(jobs.size(), false);
    if (!augment(g)) return;  // no matching: the file order stays, the tails say the rest
  }
  for (size_t k = 0; k < jobs.size(); ++k) order[static_cast<size_t>(segment_of[k])] = k;
  std::string said;
  for (Series& s : src->series) {
    const std::string& job = jobs[order[static_cast<size_t>(s.segment)]];
    if (s.job == job) continue;
    s.job = job;
    s.labels.set("job", job);
  }
  for (size_t g = 0; g < order.size(); ++g)
    said += (g ? ", " : "") + std::string("segment ") + std::to_string(g + 1) + " is job " + jobs[order[g]];
  src->diag.add(Issue::kSegmentsMatched, 0, 0,
                said + ": fio appends each job's part as the job ends; matched by the run's json+ bins");
}

void settle_source(Source* src, const std::vector<FolderFile>& folder) {
  settle_units(src, folder);
  settle_repairs(src, folder);
  settle_segments(src, folder);
}

}  // namespace latscope
