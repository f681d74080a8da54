// fio's json/json+ output as a model Source: one Series per job and
// direction holding the job's whole-run bins as a single window (0, runtime].
// Time queries do not add these histograms (they would double-count the
// logs); they take from them the tail window fio never logs (query/tail.cc).
#include "latscope/engine.h"
#include "latscope/fio_json.h"

namespace latscope {

Status read_fio_json_source(const std::string& text, Source* src) {
  src->format = FileFormat::kFioJson;
  FioJsonReport rep;
  Status st = parse_fio_json(src->name, text.data(), text.size(), &rep);
  src->diag.merge(rep.diag);
  if (!st.ok()) return st;
  src->layout = rep.layout;
  for (const FioJsonJob& job : rep.jobs) {
    if (job.aggregate) continue;
    for (const FioJsonDir& d : job.dirs) {
      if (!d.has_bins || d.bin_index.empty()) continue;
      Series s;
      s.dir = d.dir;
      s.job = (job.host.empty() ? "" : job.host + "/") + std::to_string(job.job_index);
      s.layout = rep.layout;
      // Whole run: (0, runtime] on the job's clock. In client mode the job is
      // "<host>/<job>", as one file holds every host's jobs.
      s.add_window(0, static_cast<double>(d.runtime_ms), d.bin_index.data(), d.bin_count.data(),
                   static_cast<uint32_t>(d.bin_index.size()));
      for (size_t i = 0; i < d.bin_index.size(); ++i)
        if (d.bin_index[i] + 1 == rep.layout->size()) s.saturated += d.bin_count[i];
      src->series.push_back(std::move(s));
      ++src->records;
    }
  }
  if (src->series.empty())
    return Status::Error(ErrorCode::kUnusableFile,
                         src->name + ": fio json without json+ bins (run fio with --output-format=json+)");
  return Status::Ok();
}

}  // namespace latscope
