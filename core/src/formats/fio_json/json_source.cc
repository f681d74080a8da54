// fio's json/json+ output as a model Source: one Series per job and
// direction holding the job's whole-run bins as a single window
// (startdelay, startdelay + runtime] on the run's clock (docs/placement.md;
// a random startdelay counts as 0 and the series gets the label
// startdelay=<fio's text>) with the role kWholeRun. Time queries do not add these histograms (they
// would double-count the logs); they take from them the tail window fio never
// logs (query/tail.cc). A JSON document is parsed whole, so the reader
// buffers it (bounded by kMaxFioJsonBytes).
#include <cmath>
#include <cstdint>
#include <vector>

#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/reader.h"

namespace latscope {
namespace {


// fio's own figures of every job entry and direction (model.h FioFigures):
// a job's bins are the series read_fio_json_source made of them (one per job
// direction with bins, in job order); the aggregate's, which no series holds
// (queries would count its I/Os twice), are kept with its figures.
void add_fio_figures(const FioJsonReport& rep, Source* src) {
  uint32_t next = 0;  // the next job series
  for (const FioJsonJob& job : rep.jobs) {
    for (const FioJsonDir& d : job.dirs) {
      const bool made = !job.aggregate && d.has_bins && !d.bin_index.empty();
      const uint32_t series = made ? next++ : 0;
      if (d.n == 0) continue;  // no I/O in this direction (trim in a read/write job)
      FioFigures f;
      f.host = job.host;
      f.job = job.job_index;
      f.aggregate = job.aggregate;
      f.dir = d.dir;
      f.log_prefixes = job.log_prefixes;
      f.options_listed = job.options_listed;
      f.n = d.n;
      f.min_ns = d.min_ns;
      f.max_ns = d.max_ns;
      f.mean_ns = d.mean_ns;
      for (const FioJsonPercentile& p : d.percentiles) f.percentiles.emplace_back(p.p, p.value_ns);
      f.has_bins = d.has_bins;
      if (made) f.series = {series};
      if (job.aggregate && d.has_bins) {
        f.bin_index = d.bin_index;
        f.bin_count = d.bin_count;
      }
      src->fio.push_back(std::move(f));
    }
  }
}

Status read_fio_json_source(const std::string& text, Source* src) {
  FioJsonReport rep;
  Status st = parse_fio_json(src->name, text.data(), text.size(), &rep);
  src->diag.merge(rep.diag);
  if (!st.ok()) return st;
  src->layout = rep.layout;
  // The version that wrote the run (docs/fio-versions.md): the unit of its
  // per-I/O logs and its known logging defects follow from it (folder.h).
  if (!rep.fio_version.empty()) src->labels.set("fio", rep.fio_version);
  for (const FioJsonJob& job : rep.jobs) {
    if (job.aggregate) continue;
    // Placement says how it knows (query/placement.cc).
    if (job.placed_by_start) src->labels.set(kJobStartLabel, "1");
    for (const FioJsonDir& d : job.dirs) {
      if (!d.has_bins || d.bin_index.empty()) continue;
      Series s;
      s.dir = d.dir;
      s.role = Role::kWholeRun;
      // In client mode one file holds every host's jobs: job "<host>/<n>"
      // keys the tail match (tail.cc); the labels say host and job apart.
      // An entry of a group of jobs (group_reporting) is no log's job: its
      // key matches none, so it gives no job's tail (docs/folders.md, "group_reporting").
      const std::string id = job.group ? kGroupJobPrefix + std::to_string(job.groupid) : std::to_string(job.job_index);
      s.job = (job.host.empty() ? "" : job.host + "/") + id;
      s.labels.set("job", id);
      s.labels.set("host", job.host);
      // The prefix of the job's logs, not the json's file name: the json+
      // series and the logs of one job share it (docs/runs.md).
      s.labels.set("prefix", job.log_prefix);
      s.layout = rep.layout;
      const double delay = std::isfinite(job.start_delay_ms) ? job.start_delay_ms : 0;
      if (!std::isfinite(job.start_delay_ms)) s.labels.set("startdelay", job.start_delay);
      s.add_window(delay, delay + static_cast<double>(d.runtime_ms), d.bin_index.data(), d.bin_count.data(),
                   static_cast<uint32_t>(d.bin_index.size()));
      for (size_t i = 0; i < d.bin_index.size(); ++i)
        if (d.bin_index[i] + 1 == rep.layout->size()) s.saturated += d.bin_count[i];
      src->series.push_back(std::move(s));
      ++src->records;
    }
  }
  add_fio_figures(rep, src);
  if (src->series.empty()) {
    // fio's plain json (pbench-fio's fio-result.txt, CBT's json_output.N,
    // bench-fio's <mode>-<iodepth>-<numjobs>.json): a genuine fio output with
    // no histogram, so named like any file that is no latency log, not an
    // error (docs/formats.md, "Files that are not latency logs").
    src->format = FileFormat::kIgnored;
    src->ignored = rep.mixed_only
                       ? "fio json output with reads and writes counted together (\"mixed\": unified_rw_reporting=1): "
                         "latscope keeps counts per direction, so it neither adds it nor sets the logs against it "
                         "(docs/folders.md, \"unified_rw_reporting\")"
                       : "fio json output without json+ bins: no histograms to add up (`latscope summary` shows its "
                         "percentiles; fio --output-format=json+ writes the bins)";
  }
  return Status::Ok();
}

// fio's json starts with '{'; in client mode fio prints "<host> ..." lines
// first, and a byte-order mark may lead: "fio version" inside decides then.
SniffResult sniff_fio_json(const SniffInput& in) {
  SniffResult r{FileFormat::kFioJson, 0, "fio json output"};
  const std::string_view b = sniffing::body(in);
  size_t i = 0;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) ++i;
  if (i < b.size() && b[i] == '{') r.confidence = 90;
  else if (b.find("\"fio version\"") != std::string_view::npos) r.confidence = 85;
  return r;
}

class FioJsonReader : public Reader {
 public:
  explicit FioJsonReader(Source src) : src_(std::move(src)) { src_.format = FileFormat::kFioJson; }
  void append(const char* data, size_t n) override {
    src_.bytes += n;
    if (!src_.status.ok()) return;
    if (text_.size() + n <= kMaxFioJsonBytes) {
      text_.append(data, n);
    } else {
      std::string().swap(text_);
      src_.status = Status::Error(ErrorCode::kUnusableFile, src_.name + ": " + kFioJsonTooLarge);
    }
  }
  Source finish() override {
    if (src_.status.ok()) {
      Status st = read_fio_json_source(text_, &src_);
      if (!st.ok()) src_.status = st;
    }
    std::string().swap(text_);
    return std::move(src_);
  }

 private:
  Source src_;
  std::string text_;
};

std::unique_ptr<Reader> create_fio_json(Source src, const FileOptions&) {
  return std::make_unique<FioJsonReader>(std::move(src));
}

}  // namespace

FormatEntry fio_json_format() { return {FileFormat::kFioJson, &sniff_fio_json, &create_fio_json}; }

}  // namespace latscope
