// The one histogram model every input format converts to.
//
//   Source (one input file)            e.g. s1_clat_hist.2.log.127.0.0.1
//     +- Series (segment x direction)  job 2, read
//          +- windows: (start_ms, end_ms] + sparse counts over a BinLayout
//
// A window holds the I/Os that completed in (start_ms, end_ms]. Counts are
// kept sparse (bin index, count) because a 1856-bin fio line usually has a few
// dozen non-empty bins; memory is per window, never per byte of log text.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "latscope/layout.h"
#include "latscope/status.h"

namespace latscope {

enum class Dir : uint8_t { kRead = 0, kWrite = 1, kTrim = 2 };

// Labels: name=value pairs that say what a series is (docs/model.md):
//   run, host, job, dir, tag, kind (clat/lat/slat), file, prefix, ...
// Sources carry the file-level ones, series their own; a series' label is its
// own value if it has one, else its source's (label_of). Grouping, selection
// and offsets read labels only, never file names or formats.
class Labels {
 public:
  // Sets (or replaces) a label; an empty value removes it.
  void set(const std::string& name, const std::string& value);
  // The value, or nullptr when the label is absent.
  const std::string* find(const std::string& name) const;
  const std::vector<std::pair<std::string, std::string>>& items() const { return kv_; }
  bool operator==(const Labels& o) const { return kv_ == o.kv_; }

 private:
  std::vector<std::pair<std::string, std::string>> kv_;  // sorted by name
};

// What a series' windows mean in time: a time series (windows over the run)
// or one whole-run histogram (fio json+), which time queries never add; or
// the window values of a fio log_avg_msec log (docs/formats-fio-lat.md): one
// instant window (t, t] per logged line, holding one count in the bin of the
// line's value, and io_ns[i] the value (ns) of window i, a window's average
// (or max) latency, not an I/O: queries show their mean and max per quantum,
// never percentiles (query/window_values.h).
enum class Role : uint8_t { kTimeSeries = 0, kWholeRun = 1, kWindowValues = 2 };
constexpr int kDirCount = 3;
// The largest count, sum of a line's counts, or running total of a series a
// reader accepts: 2^53, the last integer a double (the queries' arithmetic,
// the page's numbers) holds exactly. Beyond it a line is an Issue::kOverflow
// (docs/input-robustness.md, "Counts").
constexpr uint64_t kMaxCount = uint64_t{1} << 53;
// The latest time_ms a fio log line may carry: 2^53 ms (~285,000 years).
// Past it a double no longer holds whole ms, and lines near 2^63 or 2^64
// fell out of every time query while `summary` counted them; such a line is
// an Issue::kOverflow (docs/input-robustness.md, "Time bases").
constexpr uint64_t kMaxTimeMs = uint64_t{1} << 53;
// The sentence that skips such a line.
std::string time_too_late(uint64_t time_ms);
const char* dir_name(Dir d);  // "read", "write", "trim"

// The lowest and highest bins a quantum's (or a window's) extremes may come
// from (docs/extremes.md); empty: none.
struct ExtremeBins {
  uint32_t lo = UINT32_MAX;
  uint32_t hi = 0;
  void add(uint32_t bin) {
    if (bin < lo) lo = bin;
    if (bin > hi) hi = bin;
  }
  void add(const ExtremeBins& o) {
    if (o.any()) {
      add(o.lo);
      add(o.hi);
    }
  }
  bool any() const { return lo != UINT32_MAX; }
  bool operator==(const ExtremeBins& o) const { return lo == o.lo && hi == o.hi; }
};

struct Window {
  double start_ms = 0;  // exclusive
  double end_ms = 0;    // inclusive
  uint64_t total = 0;   // sum of the window's counts
  uint32_t offset = 0;  // byte offset of the window's bins in Series::data
  uint32_t n = 0;       // number of non-empty bins
};

// Reads a line of a file already parsed once more, from its byte offset in
// the (decompressed) text: the CLI's seekable plain file (FileOptions::reread).
class LineReader {
 public:
  virtual ~LineReader() = default;
  // The line starting at byte `at`, without its '\n'; false when it cannot
  // be read.
  virtual bool line(uint64_t at, std::string* out) = 0;
};

// Where a format decodes the bins of windows it did not keep again from
// (Series::line_at; docs/quanta.md, "Memory: the fold by quanta").
class BinsElsewhere {
 public:
  virtual ~BinsElsewhere() = default;
  // The bins of the window read from the line at byte `at`, which must hold
  // n bins summing to total (else the file changed since it was parsed).
  virtual Status bins(uint64_t at, uint32_t n, uint64_t total, std::vector<uint32_t>* bins,
                      std::vector<uint64_t>* counts) const = 0;
};

struct Source;

// Windows read twice (docs/quanta.md, "Memory: windows read twice"): a
// format that reads a window again from its own line (HdrHistogram logs
// with FileOptions::reread) can hand each window on, once it is final, to
// a sink instead of keeping it. The CLI's first pass keeps only what the
// query's plan needs of them (a WindowDigest); its second pass reads them
// again in time order and the sweep drops each once passed (WindowFeed).
class WindowSink {
 public:
  virtual ~WindowSink() = default;
  // Window w of the format's series number `series` (the order its source
  // lists them in), its bins at byte line_at of the file, or kept in the
  // series' data (Series::kBinsInData: counts an earlier window merged);
  // its w.n bins and counts, valid during the call.
  virtual void window(size_t series, const Window& w, uint64_t line_at, const uint32_t* bins,
                      const uint64_t* counts) = 0;
  // After the last window, the source finished (its series hold none).
  virtual void finish(Source* src) { (void)src; }
};

// A window's bins and counts, as a reader decoded them.
struct WindowBins {
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
};

// The second pass: the windows of series held with a WindowDigest, read
// again from their files in time order as the sweep reaches them.
class WindowFeed {
 public:
  virtual ~WindowFeed() = default;
  // Series number `series` of src will be read (before any more()).
  virtual void want(const Source& src, size_t series) = 0;
  // Appends that series' next windows to *w, with their lines and their
  // bins as the second reading decoded them, until one starts at or after
  // until_ms or it has no more; false when none was left to append. A read
  // error: status().
  virtual bool more(const Source& src, size_t series, double until_ms, std::vector<Window>* w,
                    std::vector<uint64_t>* line_at, std::vector<WindowBins>* bins) = 0;
  virtual Status status() const = 0;
};

// What a query's plan reads of a series' windows, kept in the first pass
// in place of all but the first and last (Series::digest).
struct WindowDigest {
  double interval_ms = 0;  // query/interval.h logging_interval_ms: the median window length
  double run_gap_ms = 0;   // the gap its runs were joined across (query/axis.h add_time_runs)
  struct Run {
    double start = 0, end = 0;  // ms
    double ios = 0;             // the I/Os its windows hold
  };
  std::vector<Run> runs;  // at offset 0
  size_t windows = 0;     // every window the format gave
  uint64_t total = 0;     // their counts (Series::total)
  uint64_t most = 0;      // the largest window's (folder.h tail facts)
};

// Joins windows into runs of time holding I/Os, apart by more than a gap
// (query/axis.h add_time_runs; a WindowDigest keeps them). Windows in order.
class RunMaker {
 public:
  RunMaker(double gap_ms, double unit, bool per_io) : gap_(gap_ms), unit_(unit), per_io_(per_io) {}
  void add(const Window& w, double offset_ms);
  // The run still open, if any, appended; then no run is open.
  void finish(std::vector<WindowDigest::Run>* out);
  std::vector<WindowDigest::Run>& done() { return done_; }

 private:
  double gap_, unit_;
  bool per_io_;
  bool open_ = false;
  WindowDigest::Run cur_;
  std::vector<WindowDigest::Run> done_;
};

// The first pass's sink for one file: keeps each series' first and last
// window and makes its WindowDigest; finish puts them in the series.
// complete() is false when a series cannot be held so (a window that holds
// counts merged into it, or more distinct window lengths than kMaxLengths):
// the file is then read again with its windows kept.
class DigestSink : public WindowSink {
 public:
  static constexpr size_t kMaxLengths = 4096;
  explicit DigestSink(double run_gap_ms) : gap_(run_gap_ms) {}
  void window(size_t series, const Window& w, uint64_t line_at, const uint32_t* bins,
              const uint64_t* counts) override;
  void finish(Source* src) override;
  bool complete() const { return complete_; }

 private:
  struct One;
  double gap_;
  bool complete_ = true;
  std::vector<std::shared_ptr<One>> per_;
};

// A window's non-empty bins are stored as n pairs of LEB128 varints
// (gap to the previous non-empty bin, count): ~2 bytes per bin instead of 12,
// which is what bounds the model at a few hundred bytes per fio window.
struct Series {
  Dir dir = Dir::kRead;
  Role role = Role::kTimeSeries;
  Labels labels;         // the series' own labels (dir, job, tag, ...); see label_of
  std::string job;       // fio job number as in the file name ("1"), or the segment's
  int segment = 0;       // per_job_logs=0: 0-based job segment within the file
  LayoutPtr layout;
  std::vector<Window> windows;     // sorted by end_ms, non-overlapping
  std::vector<uint8_t> data;       // the windows' bins, varint-coded
  bool repaired = false;           // client/server accumulation defect repaired
  uint64_t saturated = 0;          // samples in a saturating last bin
  // Result files (docs/result-format.md, "Reading a result"): counts are
  // fixed point with this many fractional bits (0: whole I/Os; queries
  // multiply by 2^-count_frac_bits), and full_* is where every log folded
  // into the series had data (the `partial` flag), when it differs from the
  // windows' span (NaN: the windows').
  uint8_t count_frac_bits = 0;
  double full_start_ms = std::numeric_limits<double>::quiet_NaN();
  double full_end_ms = std::numeric_limits<double>::quiet_NaN();
  // Result files of version 2 (docs/extremes.md, "Results"): per window, the
  // bins (of this series' layout) its quantum's extremes may come from, which
  // a result cell records apart from its counts; an empty ExtremeBins: none.
  // Empty vector: every window's extremes are its own non-empty bins.
  std::vector<ExtremeBins> extremes;
  // The logging interval (query/interval.h logging_interval_ms: the median
  // window length), kept by the Engine when the source joins it (finish,
  // add_source), once the windows are final, so
  // that every query does not sort them again; NaN: not kept, computed.
  double interval_ms = std::numeric_limits<double>::quiet_NaN();
  // Per-I/O series (fio per-I/O logs, docs/formats-fio-lat.md): windows are
  // instants (t, t] holding the I/Os of one completion ms. io_ns, io_bs and
  // io_offset hold each I/O's exact latency, block size and offset in window
  // order (window i's windows[i].total I/Os follow window i-1's); all empty
  // when not kept (beyond kMaxPerIoSamples); io_offset also when the log has
  // no offset column.
  bool per_io = false;
  std::vector<uint64_t> io_ns;
  std::vector<uint32_t> io_bs;
  std::vector<uint64_t> io_offset;
  bool has_io_values() const { return per_io && !io_ns.empty(); }
  // Window values of a log written with log_window_value=both (fio >= 3.37,
  // docs/formats-fio-lat.md "log_avg_msec logs"): window i's maximum (ns),
  // beside its average in io_ns[i]; empty for every other series.
  std::vector<uint64_t> window_max_ns;
  // Bins left in the file (FileOptions::reread): per window, the byte offset
  // of the line its bins are decoded from again through `elsewhere`, or
  // kBinsInData for a window kept in data as usual; empty: all in data.
  // 8 bytes a window instead of its bins (~2 bytes each).
  static constexpr uint64_t kBinsInData = UINT64_MAX;
  std::vector<uint64_t> line_at;
  std::shared_ptr<const BinsElsewhere> elsewhere;
  // Held without its windows (WindowSink): windows holds the first and the
  // last, and the digest what the plan reads of the others; a query sweeps
  // such a series only through a WindowFeed (stream.h). Null: windows whole.
  std::shared_ptr<const WindowDigest> digest;

  // Appends a window; bins strictly ascending, counts > 0.
  void add_window(double start_ms, double end_ms, const uint32_t* bins, const uint64_t* counts,
                  uint32_t n);
  // Calls f(bin, count) for each non-empty bin of w, in ascending bin order.
  template <class F>
  void for_each_bin(const Window& w, F&& f) const;
  void decode(const Window& w, std::vector<uint32_t>* bins, std::vector<uint64_t>* counts) const;
  // The same for windows[wi] wherever its bins are (line_at): an error when
  // its line no longer reads as it did.
  Status decode_at(size_t wi, std::vector<uint32_t>* bins, std::vector<uint64_t>* counts) const;
  // False when a window's bytes overrun data, bins are not ascending or reach
  // nbins, or totals disagree (for data from outside, e.g. another worker).
  bool valid(size_t nbins) const;
  uint64_t total() const;
};

namespace varint {
inline void put(std::vector<uint8_t>* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}
// Into a buffer with room for 10 bytes; returns the bytes written.
inline size_t put(uint8_t* out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<uint8_t>(v);
  return n;
}
// Unchecked: for data the engine wrote itself (see Series::valid).
inline uint64_t get(const uint8_t*& p) {
  uint64_t v = *p & 0x7f;
  int shift = 7;
  while (*p++ & 0x80) {
    v |= static_cast<uint64_t>(*p & 0x7f) << shift;
    shift += 7;
  }
  return v;
}
}  // namespace varint

template <class F>
void Series::for_each_bin(const Window& w, F&& f) const {
  const uint8_t* p = data.data() + w.offset;
  uint64_t bin = 0;
  for (uint32_t i = 0; i < w.n; ++i) {
    const uint64_t gap = varint::get(p);
    const uint64_t count = varint::get(p);
    bin = i == 0 ? gap : bin + 1 + gap;
    f(static_cast<uint32_t>(bin), count);
  }
}

// Append only: the numeric values travel in the worker transport (model_io).
// kIgnored: a file that is not a latency log (job file, text, IOPS log); the
// reason is in Source::ignored and it is neither an error nor data.
// kResult: a latscope result file (docs/result-format.md); kTsv: the long
// table `latscope export --format tsv` writes (docs/export-formats.md).
enum class FileFormat { kUnknown, kFioHist, kFioJson, kHdrLog, kFioLat, kIgnored, kResult, kTsv };
const char* format_name(FileFormat f);

// How many per-I/O values (latency + bs + offset, ~20 bytes each) an engine
// keeps across all its per-I/O logs, and a streaming query across its
// inputs: 32 Mi I/Os (~640 MiB). Beyond it the bins stay exact but
// Method::kExact falls back to bins and bs/offset heat maps refuse, saying so
// (docs/formats-fio-lat.md, "Memory").
constexpr uint64_t kMaxPerIoSamples = uint64_t{32} << 20;

// Identity parsed from fio's file names:
//   <prefix>_clat_hist.<job>.log[.<host>][.gz]   (also _lat_hist, _slat_hist)
struct FileIdentity {
  std::string prefix;  // "s1"
  std::string kind;    // "clat", "lat", "slat"; empty when unknown
  std::string job;     // "2"; empty when the name has no job number
  std::string host;    // "127.0.0.1"; empty for local-mode logs
  bool gz = false;
};
FileIdentity parse_fio_file_name(const std::string& path);

// fio's own whole-run figures for one job entry and direction of its json
// or json+ output, as fio printed them (docs/model.md, "fio's figures"): the
// bins round every latency to its bin, these are exact. What `latscope
// summary` and the A/B table (summary.h) print for a json source, so neither
// re-reads the json text. Directions fio counted no I/O in are not kept.
struct FioFigures {
  std::string host;        // fio's hostname ("" in local mode)
  int job = 0;             // FioJsonJob::job_index: the entry's place among its host's; 0 for the aggregate
                           // and for an entry of a group of jobs (FioJsonJob::group)
  bool aggregate = false;  // client mode's "All clients" entry (every job again)
  Dir dir = Dir::kRead;
  std::vector<std::string> log_prefixes;  // FioJsonJob::log_prefixes of the entry (runs.h)
  bool options_listed = false;            // FioJsonJob::options_listed
  uint64_t n = 0;          // fio's N (clat_ns.N; fio 2.x: bins total or total_ios)
  uint64_t min_ns = 0;
  uint64_t max_ns = 0;
  double mean_ns = 0;
  // fio's printed percentile list in file order: (p, value in ns).
  std::vector<std::pair<double, uint64_t>> percentiles;
  // json+ bins (false: plain json). A job's are its series' (the one index
  // in `series`; none: empty bins); the aggregate's, the sum of its jobs'
  // (fio_json.h), no series holds (queries would count its I/Os twice), so
  // they are kept here, sparse as in FioJsonDir.
  bool has_bins = false;
  std::vector<uint32_t> series;  // indices into Source::series
  std::vector<uint32_t> bin_index;
  std::vector<uint64_t> bin_count;
};

constexpr size_t kHeadHashBytes = 4096;
uint64_t head_hash_of(const char* data, size_t n);  // over the first kHeadHashBytes of [data, data + n)

struct Source {
  std::string name;  // as given by the caller (path or file name)
  FileIdentity id;
  FileFormat format = FileFormat::kUnknown;
  LayoutPtr layout;
  bool absolute_time = false;  // log_unix_epoch timestamps
  uint64_t lines = 0;
  uint64_t records = 0;        // accepted histogram lines
  uint64_t bytes = 0;
  // FNV-1a of the first kHeadHashBytes of the text the engine was given
  // (0: none): a file and its gzip copy have the same (folder.h plan_accounts).
  uint64_t head_hash = 0;
  Labels labels;               // file-level labels (file, host, job, kind, prefix, run)
  std::string ignored;         // format kIgnored: what the file looks like ("fio job file")
  std::vector<Series> series;
  std::vector<FioFigures> fio;  // fio json/json+ sources: fio's figures, in file order
  Diagnostics diag;
  Status status;               // not ok => file unusable, series empty
};

// The host and job number a fio json+ series counts: its job is "<n>" in
// local mode (host: the file's own, "" unless given one) and "<host>/<n>" in
// client mode (formats/fio_json/json_source.cc). The key its logs match
// (query/tail.cc, folder.h).
void json_host_job(const Source& src, const Series& s, std::string* host, std::string* job);

// A series' label: its own, else its source's; "" when neither has it.
// "host" of a local-mode log is "local" (fio's client mode names hosts).
std::string label_of(const Source& src, const Series& s, const std::string& name);
// The labels of a source's file name and identity (file, prefix, kind, job,
// host), set by the engine when a file is opened.
Labels labels_from_identity(const std::string& name, const FileIdentity& id);
// Fills the labels every series has from its fields (dir, job), keeping any a
// reader set itself (tag, ...).
void complete_series_labels(Series* s);

}  // namespace latscope
