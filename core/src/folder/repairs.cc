// Repairs decided by fio's own count (latscope/folder.h settle_repairs,
// docs/folders.md "Repairs on fio's count"). The reader judges a client log
// from its windows alone (fio_hist/repair.h: the raw totals climb, the
// repaired ones are far flatter); on a short log or one with a stall that
// judgement can fail for one direction and hold for the other. fio's json+
// settles it: the defect makes the raw windows sum to roughly the square of
// the run's length in windows times the rate, far more than fio counted,
// while the repaired windows sum to fio's count less the unlogged tail.
#include <algorithm>

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

void settle_source(Source* src, const std::vector<FolderFile>& folder) {
  settle_units(src, folder);
  settle_repairs(src, folder);
}

}  // namespace latscope
