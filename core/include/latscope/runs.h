// Runs: which input files came from one fio run (docs/runs.md).
//
//   files (names, fio identities, json+ log prefixes) --plan_runs--> RunPlan
//   RunPlan: a run name per file, each run's files and how it was found, and
//   the evidence that the inputs are several runs
//
// The plan only names runs; the caller sets each file's "run" label
// (model.h, docs/model.md) so that grouping (--group-by run), result files
// (--keep run) and exports keep runs apart. No filesystem here: names are the
// paths as the caller gave them.
#pragma once

#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

// How files are put into runs when no --run pattern names them.
enum class RunBy {
  kAuto,    // evidence: json+ outputs, then colliding log names (docs/runs.md)
  kFolder,  // one run per folder
  kPrefix,  // one run per fio log prefix (a json+ output: its jobs' prefix)
  kJson,    // one run per json+ output, with the logs its jobs name
  kNone,    // everything is one run (no label, no warning)
};
// "auto", "folder", "prefix", "json", "none"; false for anything else.
bool parse_run_by(const std::string& text, RunBy* out);

// --run NAME=GLOB: files matching GLOB belong to run NAME (first match wins).
// GLOB is a shell pattern (fnmatch: * ? [..], '*' also matches '/') matched
// against the whole path and against every tail of it that starts after a
// '/', so "b/*" matches "runs/b/x.log".
struct RunPattern {
  std::string name;
  std::string glob;
};
// Parses "NAME=GLOB"; false when either side is empty.
bool parse_run_pattern(const std::string& text, RunPattern* out);
bool run_glob_matches(const std::string& glob, const std::string& path);

struct RunOptions {
  RunBy by = RunBy::kAuto;
  std::vector<RunPattern> patterns;  // applied before `by`
  // True when the user said how runs are formed (a pattern or --run-by).
  bool explicit_choice() const { return by != RunBy::kAuto || !patterns.empty(); }
};

// What plan_runs needs to know about one input.
struct RunFile {
  std::string name;                  // path as given
  FileIdentity id;                   // parse_fio_file_name(name)
  bool json = false;                 // fio json/json+ output
  std::vector<std::string> prefixes; // json: its jobs' log prefixes (FioJsonJob::log_prefixes)
  // json: its jobs list their options and none names a log: its run wrote
  // no log, so it claims none (docs/runs.md).
  bool wrote_no_logs = false;
  std::string given;                 // a run the caller fixed for this file (FileOptions::run)
};
// The RunFile of a parsed source: a json source's prefixes come from its
// series' "prefix" labels and fio's figures (json_source.cc); a "run" label
// is `given`.
RunFile run_file_of(const Source& src);

struct Run {
  std::string name;
  std::string how;           // "json+ a/a.json", "folder b", "prefix c2", "--run b=b/*", ...
  std::vector<size_t> files; // indices into the plan's input, input order
};

struct RunPlan {
  std::vector<std::string> run_of;  // per input file: its run's name
  std::vector<Run> runs;            // in order of first file
  // Why the inputs are several runs, one sentence each (empty: one run).
  std::vector<std::string> evidence;
  bool several() const { return runs.size() > 1; }
};

RunPlan plan_runs(const std::vector<RunFile>& files, const RunOptions& opts);

// "2 runs: a (a/a.json, a/a_clat_hist.1.log), b (...)": at most `max_files`
// names per run, then "and N more".
// The plan as JSON for the page: {"runs":[{"name","how","files":[names]}],
// "evidence":[sentences],"several":bool}.
std::string run_plan_json(const RunPlan& plan, const std::vector<RunFile>& files);

std::string describe_runs(const RunPlan& plan, const std::vector<RunFile>& files, size_t max_files = 4);

}  // namespace latscope
