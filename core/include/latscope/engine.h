// The engine: streaming ingestion of log files into the model (model.h), then
// queries over the parsed model (align onto time quanta, merge by group,
// percentiles, heat-map grid). No filesystem, no printing: the CLI and the
// WebAssembly shim are thin wrappers around this class.
//
//   open_file(name) -> h ; append(h, bytes)* ; finish(h) -> Source
//   (the format is sniffed from the first bytes by the registry, reader.h;
//   any number of files may be open at once, in any interleaving)
//   query(QueryOptions) -> QueryResult        (percentiles over time)
//   heatmap(HeatmapOptions) -> HeatmapResult  (counts per quantum x latency row)
//
// Queries never re-read input: changing quantum, grouping, offsets or the
// selection only re-aligns the stored windows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "latscope/folder.h"
#include "latscope/model.h"
#include "latscope/percentiles.h"
#include "latscope/runs.h"
#include "latscope/status.h"

namespace latscope {

enum class RepairMode { kAuto, kOff, kForce };

struct FileOptions {
  FileFormat format = FileFormat::kUnknown;  // kUnknown: detect from content
  int fio_version = 0;    // 0: detect from the column count; 2 or 3 to force
  int coarseness = -1;    // -1: detect; 0..6 to force (with fio_version)
  RepairMode repair = RepairMode::kAuto;
  // fio per-I/O logs: keep at most this many exact values (with bs and
  // offset) for Method::kExact and bs/offset heat maps; the engine counts it
  // across all its files (model.h, kMaxPerIoSamples). Bins are always kept.
  uint64_t max_per_io_samples = kMaxPerIoSamples;
  std::string host;       // overrides the host parsed from the name when set
  std::string job;        // overrides the job parsed from the name when set
  std::string run;        // the file's "run" label when set
  // HdrHistogram logs carry no unit: ns per recorded value unit (1 = ns,
  // jHiccup and most writers; 1000 = us, YCSB; 1e6 = ms). 0: not given, so
  // ns unless the log's header names a writer of microseconds (YCSB's
  // "#[Logging for: ...]"). docs/formats-hdr.md, "Units".
  double hdr_unit_ns = 0;
  // The quantum the queries on this file will use, when one is known and
  // exact on a coarser level (the CLI's --quantum without --offset or
  // --adaptive): a result of several resolutions then reads its coarsest
  // level whose quantum divides it, which answers exactly as the finest does
  // (docs/result-format.md, "Several resolutions"). 0: the finest level.
  double query_quantum_ms = 0;
  // The memory a result file (docs/result-format.md, "Memory") may take
  // once decoded; 0: kMaxResultBytes (1 GiB). The page passes its memory
  // budget (web/src/engine/budget.js).
  size_t max_result_bytes = 0;
  // The file's text read again from a byte offset (the CLI's seekable plain
  // file): formats that can decode a window from its own line
  // (HdrHistogram logs) then keep its offset instead of its bins
  // (Series::line_at), and the fold by quanta decodes it again when it
  // reaches it (docs/quanta.md, "Memory: the fold by quanta"). Null: bins kept.
  std::shared_ptr<LineReader> reread;
  // With reread: such formats hand each final window to this sink instead
  // of keeping it (model.h WindowSink; the CLI's fold in time order).
  std::shared_ptr<WindowSink> hand_on;
};

// Grouping is by label names (model.h, label_of): "host", "job", "dir",
// "tag", "run", "kind", "file", ... Empty = one group "all".
using GroupBy = std::vector<std::string>;
// Parses "all" | "host,job" (comma-combined label names); false on an empty
// or malformed name.
bool parse_group_by(const std::string& text, GroupBy* out);

enum DirMask : unsigned { kDirRead = 1, kDirWrite = 2, kDirTrim = 4, kDirAll = 7 };

// Which data a query sees and how its clocks are shifted.
struct Selection {
  unsigned dirs = kDirAll;
  // Latency kinds (label "kind": clat, lat, slat; series without one count as
  // clat, as fio's histogram logs and json+ are). Empty: when the selection
  // holds several kinds, clat only (else lat, else slat), with a note naming
  // what was left out: lat, clat and slat are never merged silently.
  std::vector<std::string> kinds;
  std::vector<std::string> exclude_sources;  // Source::name
  std::vector<std::string> exclude_hosts;  // host labels ("local": logs without a host)
  // Time offset in ms added to every window of a source, keyed by host label
  // ("local" or "(local)" for logs without a host), by job ("job:N" for a
  // local job, "job:HOST/N") or by Source::name or file name (a file's own
  // entry wins over its job's, which wins over its host's).
  std::map<std::string, double> offsets_ms;
  // fio starts a job with startdelay late but stamps its logs from its own
  // start: when fio's json+ output is loaded, shift each log of such a job by
  // its startdelay (added to a host offset; not when an offset names the
  // file or job). docs/placement.md.
  bool place_jobs = true;
  // Only quanta overlapping [from_ms, to_ms) (query time base) are reported.
  double from_ms = -std::numeric_limits<double>::infinity();
  double to_ms = std::numeric_limits<double>::infinity();
  // fio never logs a job's last, partial window; its json+ output has the
  // whole run. When json+ output is loaded with the logs, add that window
  // (last time_ms, runtime] to each matching log series (same host, job and
  // direction) with counts = json+ bins - logged bins (only when no bin would
  // go negative). See query/tail.cc.
  bool complete_tail = true;
  // Several logs of one job's I/Os (a histogram log and a per-I/O log of the
  // same run, host, job, kind and prefix): the account used, in this order
  // of preference (empty: per-I/O logs, then histogram logs); the others are
  // left out with a note, never added (folder.h plan_accounts). Grouping by
  // "account" shows them side by side instead.
  std::vector<Account> accounts;
  // Coordinated-omission correction (docs/coordinated-omission.md): > 0 adds
  // HdrHistogram's correction for this expected interval between samples.
  // Every group then appears twice, labelled co=uncorrected and co=corrected,
  // side by side; the correction never replaces the recorded data.
  double co_interval_ms = 0;
};

// QueryOptions::max_query_bytes by default: 2 GiB.
constexpr uint64_t kDefaultQueryBytes = uint64_t{2} << 30;

struct QueryOptions {
  double quantum_ms = 1000;  // any positive value
  std::vector<double> percentiles{50, 90, 99, 99.9, 100};  // each in [0, 100]
  GroupBy group_by;  // label names; empty: one group "all"
  Method method = Method::kInterp;
  // Method::kExact: at most this many per-I/O values held by a query
  // (StreamingQuery); beyond it percentiles come from bins, with a note.
  uint64_t max_per_io_samples = kMaxPerIoSamples;
  // The most memory a query's grid and rows may take (docs/input-robustness.md,
  // "Query budget"): checked before allocating; over it the query fails
  // naming the input and the limit (CLI --max-memory).
  uint64_t max_query_bytes = kDefaultQueryBytes;
  Selection sel;
  // Reproduce tools/hist/fio-histo-log-pctiles.py (time_ms as window start,
  // its test start/end, all directions summed). See compat.h.
  bool compat_fio_histo_log_pctiles = false;
  // min, max, p0 and p100 only from the windows whose midpoint lies in the
  // quantum (docs/extremes.md; result files record them per cell); false:
  // from every overlapping window.
  bool window_extremes = true;
  // > 0: adaptive quanta instead of fixed ones (docs/uncertainty.md). Each
  // group's windows, whole and in time order, are added until the 95% band
  // of the highest requested percentile below 100 has a rank half-width of
  // at most this fraction of the I/Os expected above that percentile,
  // (hi - lo) / 2 <= accuracy * n (1 - p/100). quantum_ms is then unused.
  double adaptive_accuracy = 0;
  // false: the rows may leave out their error bands (PercentileValue err_ns,
  // lo_ns, hi_ns keep their defaults) and the query skips working out the
  // sampling bands. The page asks so when its view cannot draw them (a band
  // needs a few pixels per quantum); they are a third of a per-host query
  // at 1 s and 58% of its columns (docs/page-speed.md "Bands when drawn").
  // QueryResult::bands says whether the rows carry them.
  bool bands = true;
  // Part part_index of part_count of the fixed-quanta rows (docs/page-speed.md
  // "The query in two workers"): the quanta are cut at part_count - 1 busy
  // quanta near equal shares of the grid, so the parts' rows, notes that are
  // not the plan's, and nothing else differ from the whole query's, and
  // their rows concatenated in part order are its rows. A query that is not
  // on fixed quanta (adaptive, compat, window values) is answered whole by
  // part 0 and empty by the others.
  uint32_t part_index = 0, part_count = 1;
  // > 0: the rows a chart of this many pixel columns can show (docs/page-views.md,
  // "Worst quantum per column"): sel.from_ms .. sel.to_ms (both finite) cut
  // into `columns` equal columns, one row per column and group: each
  // percentile, max and mean the highest of the column's quanta (the first
  // on a tie), min the lowest, each as `latscope pctiles` at that quantum
  // gives it and named in Row::value_t_ms, so a one-quantum spike survives at
  // any zoom. t_ms: the column's first quantum; samples: its I/Os per
  // quantum; flags: any quantum's, empty only when all are. 0: every row.
  uint32_t columns = 0;
};

enum RowFlags : uint32_t {
  kFlagEmpty = 1u << 0,      // no samples in this quantum
  kFlagFewSamples = 1u << 1, // some percentile lacks samples (see PercentileValue)
  kFlagSaturated = 1u << 2,  // some value is a lower bound (fio's last bin)
  kFlagPartial = 1u << 3,    // some selected series has no window covering part of the quantum
  // fio log_avg_msec window values (Role::kWindowValues): samples counts
  // windows, min/mean/max are over their values, percentiles are blank.
  kFlagWindowValues = 1u << 4,
  // The quantum is shorter than the logging interval of a selected series
  // covering it: that series' counts are an even share of its window
  // (docs/quanta.md).
  kFlagFiner = 1u << 5,
  // Adaptive quanta: the group's I/Os, all of them, do not reach the
  // requested accuracy (QueryOptions::adaptive_accuracy).
  kFlagShort = 1u << 6,
};

struct Row {
  double t_ms = 0;  // quantum start: ms since run start, or epoch ms (absolute logs)
  uint32_t group = 0;  // index into QueryResult::groups
  Stats stats;
  std::vector<PercentileValue> p;  // parallel to QueryOptions::percentiles
  uint32_t flags = 0;
  double width_ms = 0;  // adaptive quanta: the quantum's width (it covers [t_ms, t_ms + width_ms])
  // QueryOptions::columns: per value (each percentile, then max, min, mean)
  // the start of the quantum it is from; empty otherwise.
  std::vector<double> value_t_ms;
};

// Where Engine::query hands its rows one by one.
class RowSink {
 public:
  virtual ~RowSink() = default;
  // Called once, before any row, with an upper bound on the rows to come
  // (quanta x groups): the columns a sink fills can be made once, at their
  // size, instead of doubling (docs/page-speed.md "Rows straight into
  // columns").
  virtual void expect(size_t rows) { (void)rows; }
  // The row is only valid during the call.
  virtual void add(const Row& row) = 0;
  // Whether rows need their sampling bands (lo_ns, hi_ns). A sink that shows
  // only the values (the page's groups view) says no: the bands are a tenth
  // of a per-host query at 1 s. Without them lo_ns, hi_ns keep their
  // defaults (0, infinity).
  virtual bool wants_bands() const { return true; }
};

struct QueryResult {
  std::vector<std::string> groups;  // "all", "host=127.0.0.1", "host=a;job=1;dir=read"
  std::vector<Row> rows;            // ordered by time, then group
  double quantum_ms = 1000;
  bool absolute_time = false;       // t_ms are epoch ms
  bool adaptive = false;            // rows are adaptive quanta (Row::width_ms)
  bool bands = true;                // rows carry err_ns, lo_ns, hi_ns (QueryOptions::bands)
  std::string layout_id;            // layout the groups were merged on
  std::vector<std::string> notes;   // e.g. compat: where the script would crash
  // Files (base names) shifted by their job's startdelay from fio's json+
  // (docs/placement.md), and by how many ms: the page's file table shows it.
  std::map<std::string, double> placed;
  Diagnostics diag;                 // query-time issues (mixed layouts, ...)
};

struct HeatmapOptions {
  double quantum_ms = 1000;
  uint32_t rows = 64;   // latency rows, log-spaced
  double min_ns = 0;    // 0: the data's min
  double max_ns = 0;    // 0: the data's max
  // The y axis: latency (any input), or from fio per-I/O logs only the block
  // size (rows: powers of two, [2^k, 2^(k+1)) bytes) or the offset (rows:
  // `rows` equal ranges of [0, max offset]). docs/formats-fio-lat.md.
  enum class Y { kLatency, kBs, kOffset } y = Y::kLatency;
  Selection sel;
  // The density of groups (docs/page-views.md, "Host density"): when set,
  // a cell counts the groups (values of these labels: host, job, ...) whose
  // `density_percentile` in that quantum lies in the row, that value being
  // exactly what `latscope pctiles --group-by LABELS -p P --method M` gives;
  // rows are log-spaced as the latency heat map's, a bound left 0 being the
  // lowest or highest group value (not bin edge). Empty: I/Os are counted.
  GroupBy density_by;
  double density_percentile = 99;  // in [0, 100]
  Method density_method = Method::kInterp;
};

// One group of a density cell (Engine::density_cell): its name as the
// query's groups name it ("host=h07") and its percentile in ns.
struct DensityMember {
  std::string group;
  double value_ns = 0;
};

struct HeatmapResult {
  double t0_ms = 0;          // start of the first quantum
  double quantum_ms = 1000;
  bool absolute_time = false;
  uint32_t quanta = 0;
  uint32_t rows = 0;
  std::vector<double> edges_ns;  // rows + 1 ascending row edges
  std::vector<double> counts;    // quanta * rows, time-major: counts[q * rows + r]
  double below = 0, above = 0;   // samples outside [edges.front(), edges.back())
  std::vector<std::string> notes;  // e.g. series of another time base left out (as QueryResult)
  Diagnostics diag;                // query-time issues (mixed layouts, mixed time bases)
  std::string y = "latency";     // "latency" (edges in ns), "bs" or "offset" (edges in bytes)
  // Density (HeatmapOptions::density_by): the groups the query found, and
  // the most groups of one quantum with a value (a column's counts, below
  // and above included, sum to its groups with a value).
  uint32_t groups = 0;
  uint32_t max_column = 0;
};

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts a file. Returns its handle (not an index into sources()).
  int open_file(const std::string& name, const FileOptions& opts = {});
  // Feeds the next bytes; any chunking gives identical results.
  void append(int handle, const char* data, size_t n);
  // False once more bytes cannot change the file's Source: its head showed
  // it is no latency log (or a broken one), and the rest would only be
  // counted. Readers stop there: a results folder often holds fio's data
  // files, gigabytes each (docs/folders.md, "Reading a folder").
  bool wants_bytes(int handle) const;
  // Ends the file and appends its Source (status, series, diagnostics; an
  // ignored file has format kIgnored and Source::ignored) to sources().
  const Source& finish(int handle);
  // The index in sources() of a finished handle's Source; -1 before finish.
  int source_index(int handle) const;

  // Adds an already parsed source (from another Engine, e.g. another worker).
  // Returns its index in sources().
  int add_source(Source src);
  const std::vector<Source>& sources() const { return sources_; }
  // Moves every finished source out (to add_source them to another engine);
  // the engine keeps none.
  std::vector<Source> take_sources() { return std::move(sources_); }

  // Puts the finished sources into runs (latscope/runs.h, docs/runs.md) and
  // sets each one's "run" label to its run's name, so that queries can group
  // by run: when the runs are several or opts is the user's choice (a single
  // run found automatically gets no label, as in the CLI). A source opened
  // or added with a "run" label (FileOptions::run) keeps it; labels set by an
  // earlier call are planned afresh. Ignored and unusable files take no part
  // (their run_of is ""); the plan's file indices are indices in sources().
  RunPlan assign_runs(const RunOptions& opts);

  // The trust summary of the loaded files (folder.h, docs/folders.md): what
  // each is, its fio version and unit, the account used for its jobs' I/Os
  // and its I/Os against fio's own count.
  // `sel`: its accounts and exclude_sources, as the queries use them (a file
  // unticked gives its jobs' I/Os back to the other account).
  std::vector<TrustRow> trust(const Selection& sel = {}) const;

  // The quantum a view of the loaded files opens at when none was chosen
  // (latscope/quanta.h default_quantum_ms: the longest logging interval,
  // rounded to the nearest preset; docs/page-views.md, "Default quantum").
  // 0 when no series has an interval: the caller keeps its own default.
  double default_quantum_ms() const;
  // The quantum a chart of `width_px` pixel columns over `range_ms` follows
  // the zoom at (latscope/quanta.h zoom_quantum_ms, floored at the one above;
  // docs/page-views.md, "Quantum follows the zoom").
  double default_quantum_ms(double range_ms, double width_px) const;

  Status query(const QueryOptions& opts, QueryResult* out) const;
  // The same query with each row handed to `sink` in order instead of kept
  // in out->rows (which stays empty): a per-host query at 1 s is 720,000
  // rows, and keeping them cost more than computing them (fresh memory and a
  // heap block per row; docs/page-speed.md "Speed with many groups").
  Status query(const QueryOptions& opts, QueryResult* out, RowSink* sink) const;
  // A bound on the rows query(opts) gives, from its plan alone (no window is
  // added): what the page's worker engine asks before cutting a query into
  // parts for two workers (QueryOptions::part_index). 0 for a query not on
  // fixed quanta (it is not cut) or one that fails.
  size_t query_rows_bound(const QueryOptions& opts) const;
  Status heatmap(const HeatmapOptions& opts, HeatmapResult* out) const;
  // The groups of one cell of the density heatmap(opts) gives (opts with
  // density_by set): quantum index and row as in its counts, sorted by value
  // then name. Only that quantum is asked again, so no cell keeps a list
  // (docs/page-views.md, "Host density").
  Status density_cell(const HeatmapOptions& opts, uint32_t quantum, uint32_t row,
                      std::vector<DensityMember>* out) const;

 private:
  struct Pending;
  void decide(Pending& p, bool complete);
  // query's rows of every quantum, whatever sink makes of them (columns).
  Status answer(const QueryOptions& opts, QueryResult* out, RowSink* sink) const;
  std::vector<Source> sources_;
  std::vector<std::unique_ptr<Pending>> pending_;  // by handle; null once finished
  std::vector<int> handle_source_;                 // by handle: index in sources_
  std::vector<bool> planned_run_;                  // by source: "run" label set by assign_runs
};

}  // namespace latscope
