// What a results folder holds, file by file (docs/folders.md):
//
//   * one account of every I/O: when a job's I/Os are described by several
//     logs (a histogram log and a per-I/O log of the same job, direction and
//     latency kind), queries use one of them (plan_accounts), never both;
//   * the unit of fio per-I/O logs that do not say it (fio 2 wrote us, fio 3
//     ns, and both wrote 4 columns): decided from the folder's evidence
//     (settle_units), said on the file;
//   * a cross-check of every log against fio's own count (json+), and fio's
//     known logging defects by version (TrustBuilder).
//
// The inputs are FolderFile records (runs.h RunFile plus what a log is), made
// from parsed sources (folder_file_of) by the engine, or from names and
// sniffed heads by the CLI before it reads anything; both give the same plan.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "latscope/model.h"
#include "latscope/runs.h"

namespace latscope {

// Which account of its jobs' I/Os a file gives.
enum class Account : uint8_t {
  kNone,    // not a log of fio jobs' I/Os (json+, .hlog, tables, results, ignored)
  kHist,    // fio histogram log (write_hist_log): windows of counts
  kPerIo,   // fio per-I/O log (write_lat_log): every I/O, exact
  kAvg,     // fio log_avg_msec log: window averages, no I/O counts
};
const char* account_name(Account a);  // "", "hist", "per-io", "avg"
// "hist" | "per-io" (the user's words); false for anything else.
bool parse_account(const std::string& text, Account* out);
// Which log counts a job's I/Os when it has several, first preferred: the
// default order, which completes a user's choice (docs/folders.md).
constexpr Account kDefaultAccounts[] = {Account::kPerIo, Account::kHist};

// The label name a log's account is kept under (model.h labels), so that
// `--group-by account` shows two accounts of the same I/Os side by side
// instead of choosing one.
constexpr const char* kAccountLabel = "account";

// The account of a parsed source: by its format and its series' roles.
Account account_of(const Source& src);

// One file as the folder planning sees it.
struct FolderFile {
  RunFile run_file;            // name, identity, json prefixes (runs.h)
  std::string run;             // its run's name ("" when the files are one run)
  FileFormat format = FileFormat::kUnknown;
  Account account = Account::kNone;
  std::string fio_version;     // json: "fio-3.33" as fio wrote it; "" otherwise
  int hist_version = 0;        // fio histogram log: 2 (1216-bin, us) or 3 (1856-bin, ns) layouts
  uint64_t head_hash = 0;      // Source::head_hash
  // json+: fio's own count of each job's I/Os per direction (the whole-run
  // bins' total), keyed as the logs of the job are (tail.h TailKey: run
  // aside, host "" in local mode, job number, direction).
  struct JobCount {
    std::string host, job;
    int dir = 0;
    uint64_t ios = 0;
    int version = 3;  // the bins' fio layout: 2 or 3
    std::vector<std::pair<uint32_t, uint64_t>> bins;  // fine bins, ascending
  };
  std::vector<JobCount> json_counts;
};

FolderFile folder_file_of(const Source& src);

// Per file: "" when the file is used, else the file whose account of the
// same I/Os is used instead, and why (one sentence).
struct AccountChoice {
  std::string used_instead;  // the name of the file used for these I/Os
  std::string why;
};

// Prefer: accounts in the order the user prefers them (empty: per-I/O logs,
// which hold every I/O exactly and the run's last partial window, then
// histogram logs). Two files describe the same I/Os when they have the same
// run, host, job number, latency kind and fio log prefix and both are
// histogram or per-I/O logs (docs/folders.md "One account of every I/O").
std::vector<AccountChoice> plan_accounts(const std::vector<FolderFile>& files, const std::vector<Account>& prefer);

// Per file: the index of the file it is a gzip copy of, or SIZE_MAX. A log
// or fio json output NAME.gz beside NAME (gzip -k, an archive half
// extracted) whose text starts the same (Source::head_hash) holds the same
// I/Os: NAME is read,
// the copy named and left out, and it forms no run (docs/folders.md,
// "gzip copies"). plan_accounts leaves copies out too.
std::vector<size_t> gzip_copies(const std::vector<FolderFile>& files);
// The choices of plan_accounts for the gzip copies alone: what is left out
// when every account is shown (--group-by account).
std::vector<AccountChoice> plan_gzip_copies(const std::vector<FolderFile>& files);

// The evidence a folder gives about the unit of its per-I/O logs.
struct UnitDecision {
  int fio_version = 0;   // 2: values in us; 3: values in ns
  bool guessed = false;  // from magnitudes only, or evidence that disagrees
  std::string why;       // one sentence naming the evidence
};

// A per-I/O log's unit is pending when its columns do not say the fio
// version (no priority column: fio 2, or fio 3 before it wrote one): the
// reader then keeps the values as written (factor 1) and labels the source
// "unit=pending" until settle_units decides (docs/fio-versions.md).
constexpr const char* kUnitLabel = "unit";
bool unit_pending(const Source& src);

// The decision for a pending file of run `run` from the folder's other files:
// the run's fio json+ versions, then the run's histogram logs' layouts; with
// neither, `median_value` (the log's median value as written) decides, and
// the decision is marked guessed.
UnitDecision decide_unit(const std::vector<FolderFile>& folder, const std::string& run, double median_value);

// Settles a pending source: decides its unit (decide_unit with the source's
// own median value), rescales its values to ns (x1000 for us) and rebins its
// windows, sets unit=ns|us and adds the decision to its diagnostics
// (Issue::kUnitDecided, or kUnitGuessed). A source not pending is left alone.
void settle_units(Source* src, const std::vector<FolderFile>& folder);

// A client/server histogram log (fio's accumulation defect, docs/numbers.md,
// "Repair") that the reader kept as written because its windows alone
// did not show the defect (a short log, a stall): when the run's json+
// counts fewer I/Os for the job and direction than the log holds as
// written, and the repaired series holds no more than fio counted, the
// series is repaired on that evidence and says so (docs/folders.md
// "Repairs on fio's count").
void settle_repairs(Source* src, const std::vector<FolderFile>& folder);

// per_job_logs=0 writes every job's log into one file, each job's part
// appended when the job ends: the file's segments are in the order the jobs
// finished, not in job order. With the run's json+, each segment is matched
// to the job whose whole-run bins can hold its bins (bin by bin, every
// direction) and relabelled when the order was wrong (docs/folders.md
// "per_job_logs=0 segments").
void settle_segments(Source* src, const std::vector<FolderFile>& folder);

// settle_units, settle_repairs and settle_segments: what the folder decides about a file
// once every file is known. Idempotent.
void settle_source(Source* src, const std::vector<FolderFile>& folder);

// At most how many I/Os fio's unlogged last window of a histogram log
// series can hold (fio issue 490; docs/folders.md "Cross-check against
// fio's count"): the series' own rate over the time from its last record to
// the end of fio's runtime, that time capped at 1.5 logging intervals (fio
// writes a record every interval), twice that plus Poisson noise, or a busy
// window (twice the busiest plus 4) when larger or when the runtime is not
// comparable (runtime_ms NaN: epoch logs). The tail window from json+ is
// added only within it (query/tail.cc), and the trust summary names a log
// missing more.
struct TailFacts {
  uint64_t total = 0, max_window = 0;
  double first_ms = 0, last_ms = 0, interval_ms = 0;
};
TailFacts tail_facts_of(const Series& s);
double unlogged_tail_bound(const TailFacts& f, double runtime_ms);

// One file of the trust summary (docs/folders.md "Trust summary").
struct TrustRow {
  std::string file;
  std::string what;        // "fio histogram log", "fio per-I/O log (clat)", "fio json+ output", ...
  std::string fio_version; // known or inferred ("fio-3.33", "fio 3 (1856 bins)"), "" unknown
  std::string unit;        // "ns", "us", "" when not a log of values
  std::string account;     // "hist", "per-io", ...; "" for others
  std::string kind;        // fio logs: the latency kind (clat, lat, slat; histogram logs clat)
  std::string used_instead;  // superseded: the file used for these I/Os
  uint64_t ios = 0;          // I/Os (bin counts) the file holds
  uint64_t fio_ios = 0;      // fio's own count for the same jobs and directions (json+), 0: none
  bool compared = false;     // fio_ios is known for every series of the file
  // fio's json+ of groups of jobs (group_reporting): ios and fio_ios are then
  // its run's logs and fio's groups' count, set against each other for the
  // run as a whole; this many logs (docs/folders.md, "group_reporting").
  uint32_t logs = 0;
  std::string repairs;       // "client/server defect repaired (2 series)", ...
  std::vector<std::string> warnings;  // defects, shortfalls, guessed units: one sentence each
  // A known fio defect or a count that disagrees with fio's: the numbers of
  // this file are doubtful (the CLI exits 1).
  bool doubtful = false;
  std::vector<std::string> notes;     // decisions said once (unit, account)
  bool ok = true;            // the file is usable
};

// The trust summary, built from the sources as they are read (in any order:
// the CLI hands each file over and drops it; the engine all it holds). Keeps
// a few numbers per series, never the windows.
class TrustBuilder {
 public:
  // `folder` and `choices`: every input (plan_accounts over them), in any
  // order; files are matched by name.
  TrustBuilder(std::vector<FolderFile> folder, std::vector<AccountChoice> choices);
  void add(const Source& src);
  std::vector<TrustRow> rows() const;

 private:
  struct SeriesFacts {
    std::string run, host, job;
    int dir = 0;
    bool json = false;  // a json+ job's whole-run count
    uint64_t total = 0, max_window = 0;
    double first_ms = 0, last_ms = 0;  // the windows' span; json+: (startdelay, startdelay + runtime]
    double interval_ms = 0;            // the logging interval (query/interval.h)
    bool epoch = false;                // the log's clock is the epoch (no json+ runtime to compare)
    TailFacts tail;                    // for unlogged_tail_bound
    bool repaired = false;
  };
  struct FileFacts {
    TrustRow row;
    std::string run, host, job;  // the file's (job: from its name; "" for per_job_logs=0)
    bool hist_named = false;  // named like a histogram log, refused or with lines of bad counts
    std::vector<SeriesFacts> series;
  };
  // fio's count of groups of jobs (group_reporting) per (run, host), and
  // the logs in use of that run and host set against it.
  struct GroupCount {
    std::string json;  // the json+ file that counts the groups
    uint64_t counted = 0, logged = 0;
    uint32_t logs = 0;
    double slack = 0;  // what histogram logs' unlogged last windows may hold
  };
  using Groups = std::map<std::pair<std::string, std::string>, GroupCount>;
  Groups group_counts() const;
  void compare_with_groups(const Groups& groups, const FileFacts& f, TrustRow* r) const;
  std::vector<FolderFile> folder_;
  std::vector<AccountChoice> choices_;
  std::vector<FileFacts> files_;
};

// fio's known logging defects by version (docs/fio-versions.md): one
// sentence per defect that `fio_version` ("fio-3.12") has for a log of this
// account, "" when none; *wrong: the log's numbers are wrong (not only odd).
std::string fio_defect(const std::string& fio_version, Account account, bool* wrong = nullptr);


// "1,912,345": I/O counts as people compare them with fio's own output.
std::string count_text(uint64_t n);

// What a folder is read without (docs/folders.md, "Reading a folder"): OS
// bookkeeping files and version-control or archive-metadata folders, never
// logs. The CLI's walk of a folder argument (core/cli/folder_args.h) and the
// page's picked or dropped folders (web/src/load/files.js, through the module
// page_defaults_module writes) leave out the same paths for the same reasons.
struct NamedReason {
  const char* name;
  const char* reason;
};
extern const std::vector<NamedReason> kLeftOutFolders;  // a folder of this name, and all below it
extern const std::vector<NamedReason> kLeftOutFiles;    // a file of this name
extern const NamedReason kLeftOutFilePrefix;            // a file whose name starts so ("._": macOS)
struct LeftOut {
  std::string reason;  // empty: the path is read
  std::string at;      // the folder left out ("a/.git/"), or the file itself
};
// For a '/'-separated path below a picked folder (its first part the folder's name).
LeftOut walk_left_out(const std::string& path);

// The rows as JSON: [{"file","what","fio_version","unit","account","kind","used_instead","ios",
// "fio_ios","compared","repairs","warnings":[..],"notes":[..],"doubtful","ok"}].
std::string trust_json(const std::vector<TrustRow>& rows);

}  // namespace latscope
