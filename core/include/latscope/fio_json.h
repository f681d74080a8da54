// fio's own summary output (--output-format=json or json+) as per-job,
// per-direction records: exact stats, fio's percentile list and, for json+,
// the whole-run latency bins mapped back to fine bin indices.
//
// Two shapes of input (whole file text, no filesystem here):
//  * local mode: one document {"fio version":..,"jobs":[{jobname,..,"read":{..}}]}
//  * client mode (--client): "<host> ..." text lines first, then one
//    document whose "client_stats" holds each job with its "hostname", plus
//    an "All clients" entry that sums every job (no percentiles, no bins).
// Text outside the document is counted (Issue::kJsonNoise), never an error.
//
// Bins: json+ writes "bins": {"<plat_idx_to_val(i)>": count} for non-empty
// fine bins; keys map back with fio_plat_val_to_idx (layout.h). fio >= 3.0
// writes clat_ns (ns, 1856 bins); fio 2.x wrote clat (us, 1216 bins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/layout.h"
#include "latscope/model.h"
#include "latscope/status.h"

namespace latscope {

struct FioJsonPercentile {
  std::string key;        // as fio wrote it: "99.950000"
  double p = 0;           // 99.95
  uint64_t value_ns = 0;  // fio's value (plat_idx_to_val of the bin), ns
};

struct FioJsonDir {
  Dir dir = Dir::kRead;
  uint64_t total_ios = 0;
  uint64_t runtime_ms = 0;  // fio's "runtime" of this direction (ms)
  // Which latency block the numbers below come from: "clat" normally, "lat"
  // when fio put the percentiles/bins under lat_ns (lat_percentiles=1).
  std::string kind = "clat";
  uint64_t n = 0;           // samples (clat_ns.N; fio 2.x: bins total or total_ios)
  uint64_t min_ns = 0;      // exact, from fio's counters (not from bins)
  uint64_t max_ns = 0;
  double mean_ns = 0;
  double stddev_ns = 0;
  std::vector<FioJsonPercentile> percentiles;  // file order; empty if fio printed none
  // json+ bins, sparse: fine bin indices ascending and unique, counts > 0.
  bool has_bins = false;
  bool bins_summed = false;  // aggregate entry: bins are the sum of its jobs' bins
  std::vector<uint32_t> bin_index;
  std::vector<uint64_t> bin_count;
  uint64_t bins_total = 0;

  // Dense counts over nbins fine bins (FioJsonReport::layout->size()).
  std::vector<uint64_t> dense(size_t nbins) const;
  std::vector<double> dense_double(size_t nbins) const;
};

// The label of a json+ source whose jobs are placed by fio's job_start
// (FioJsonJob::job_start_ms), not by their startdelay.
constexpr const char* kJobStartLabel = "job_start";
// The job label of a group entry's whole-run series: "group" and fio's groupid.
constexpr const char* kGroupJobPrefix = "group";

struct FioJsonJob {
  std::string host;     // "" in local mode
  std::string jobname;  // fio's job section name ("randrw")
  // 1-based position among this host's job entries, in file order: the <job>
  // of the matching hist log NAME_clat_hist.<job>.log[.<host>]. fio numbers
  // threads 1.. in job-file order (thread_number) and reports them in that
  // order, one entry per thread unless group_reporting merges them.
  // Evidence: in fio-s1 (client mode) only the pairing "k-th entry of host h
  // <-> s1_clat_hist.k.log.h" keeps every repaired logged bin <= the json+
  // bin, for all 4 jobs and both directions (tested in bin_math_test).
  // 0 for the aggregate entry.
  int job_index = 0;
  int groupid = 0;
  // fio's startdelay for this job ("job options", else "global options") as
  // written ("2", "500ms"; empty: none) and in ms: where the job's own clock,
  // which stamps its logs, starts on the run's (docs/placement.md). NaN when
  // fio chose it at random (a range "1-5") or the text is not a fio time.
  std::string start_delay;
  double start_delay_ms = 0;
  // fio >= 3.36's "job_start": ms on the job_start_clock_id clock (the
  // real-time clock by default) at the zero of the job's log times; 0 when
  // absent. When every entry of a host has one, start_delay_ms is the
  // entry's job_start less the host's earliest: every late start placed
  // (startdelay, stonewall, wait_for), not only startdelay (docs/placement.md).
  int64_t job_start_ms = 0;
  bool placed_by_start = false;  // start_delay_ms is from job_start
  // The file-name prefix of the job's latency logs: fio's write_hist_log
  // ("job options", else "global options"), else write_lat_log; its last
  // path component, the NAME of NAME_clat_hist.1.log; the job name when the
  // option is given empty (fio's default name); "" when the job wrote none.
  // Ties a run's logs to its json+ output (docs/runs.md).
  std::string log_prefix;
  // Every log option's prefix (write_hist_log, write_lat_log, write_bw_log,
  // write_iops_log, in that order, each once): one run's logs may carry
  // several, and each ties its logs to this output (docs/runs.md).
  std::vector<std::string> log_prefixes;
  // fio listed the entry's options ("job options", or its document's
  // "global options"): log_prefixes then says every log the job wrote.
  bool options_listed = false;
  bool aggregate = false;  // client mode "All clients" entry
  // The entry reports a group of jobs, not one (group_reporting): its
  // document lists fewer entries of a job name than that job's numjobs
  // (docs/folders.md, "group_reporting"). job_index is then no log's job
  // number: 0, and no log is matched with the entry.
  bool group = false;
  uint32_t line = 0;       // where the job object starts in the file
  uint32_t column = 0;
  std::vector<FioJsonDir> dirs;  // directions present in the file (read/write/trim)

  const FioJsonDir* find(Dir d) const;
};

struct FioJsonReport {
  std::string fio_version;  // "fio-3.33"
  int version = 3;          // bin layout version: 3 (ns) or 2 (us, fio 2.x)
  LayoutPtr layout;         // fio_layout(version, 0): what bin_index refers to
  bool client_mode = false;
  // Some entry counts its reads and writes only together ("mixed":
  // unified_rw_reporting=1); such counts set against no direction's log.
  bool mixed_only = false;
  uint64_t documents = 0;   // JSON documents found (older clients print several)
  std::vector<FioJsonJob> jobs;  // file order; the aggregate stays where fio put it
  Diagnostics diag;              // kJsonNoise lines, skipped bins
};

// Parses the whole text of a fio json/json+ output file named `name`.
// The largest fio json output any reader buffers (the registry's reader and
// `latscope summary` alike): a document is parsed whole, and fio's own
// outputs are kilobytes to a few MiB (docs/input-robustness.md).
constexpr size_t kMaxFioJsonBytes = size_t{256} << 20;
const char* const kFioJsonTooLarge = "larger than 256 MiB for a JSON document; not read";

// Fails (kUnusableFile, "name:line:column: ...") when no JSON document is
// found, a document is malformed, or it has neither "jobs" nor
// "client_stats". A single bad bin or percentile entry is skipped and counted.
Status parse_fio_json(const std::string& name, const char* data, size_t size,
                      FioJsonReport* out);

// A fio time option's text in ms, as fio reads startdelay: a decimal number
// with an optional unit us/usec, ms/msec, s/sec, m/min, h/hour, d/day (any
// case; none: seconds). False for anything else, ranges ("1-5") included.
bool parse_fio_seconds(const std::string& text, double* ms);

}  // namespace latscope
