// `latscope summary`: one row per file x host x job x direction with the
// whole run's sample count, min/mean/max and percentiles by fio's method
// (Method::kFio: the representative value of the first bin whose cumulative
// count reaches p% of N, compared as fio's binary does).
//
//   file,host,job,dir,samples,min,mean,max,p1,p5,...,p99.99
//   s1.json,127.0.0.2,1,read,8000,601,138175.380375,88530312,30848,...
//
// Inputs, told apart by content:
//  * fio histogram logs: every window of a series summed into one histogram;
//    min/mean/max come from the bins (edges and midpoints). The log lacks the
//    run's last, partial window (fio never writes it).
//  * fio json/json+ output: min/mean/max are fio's exact values; percentiles
//    come from the json+ bins (equal to fio's own list, see bin_math_test),
//    or, for plain json, from fio's printed list when it has the requested p.
//    Client mode's "All clients" entry is reported with job "all".
//
// This file reads the arguments and the inputs (each through its own Engine)
// and prints; the rows, the A/B table and their text are core's
// (latscope/summary.h), which the page's A/B table uses as well.
#include "cmd_summary.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_options.h"
#include "header_units.h"
#include "help.h"
#include "input.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/options_json.h"
#include "latscope/reader.h"
#include "latscope/report.h"
#include "latscope/runs.h"
#include "latscope/summary.h"
#include "runs_cli.h"

namespace {

using namespace latscope;

const char kFioDefaultPercentiles[] = "1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99";
constexpr size_t kChunk = size_t{4} << 20;
constexpr size_t kSniff = size_t{64} * 1024;
struct Options {
  std::string format = "csv";
  SummaryColumns cols;  // --percentiles, --unit
  FileOptions file;
  std::vector<std::string> files;
  RunOptions runs;       // --run, --run-by (docs/runs.md)
  bool compare = false;  // --compare
  bool header_units = false;  // --header-units (header_units.h)
};

// Reports a json file's outcome the way the other commands report a log's:
// plain json too (which the engine names ignored) is read, not ignored.
void print_json_diagnostics(const Source& src) {
  Source s;
  s.name = src.name;
  s.format = FileFormat::kFioJson;
  s.status = src.status;
  s.diag = src.diag;
  cli::print_diagnostics(s);
}

// Reads one input: returns 0, 1 (something left out) or 2 (unusable).
// `opened`: standard input, already opened; else path is opened here.
// `cmp`: --compare, the file's histograms go to run `side` instead of rows.
int read_one(const std::string& path, cli::Input* opened, const Options& o, std::vector<SummaryRow>* rows,
             SummaryFile* rep, RunCompare* cmp, size_t side, const std::vector<FolderFile>* folder) {
  cli::Input own;
  cli::Input* in = opened;
  rep->name = path == "-" ? "(stdin)" : path;
  if (!in) {
    in = &own;
    std::string err;
    if (!in->open(path, &err)) {
      rep->status = Status::Error(ErrorCode::kUnusableFile, path + ": " + err);
      cli::say("latscope: " + rep->status.message);
      return 2;
    }
  }
  const std::string& name = in->name();
  // The first bytes decide the format (the registry's sniff, reader.h); fio
  // json is read as json even if it names no job with bins (plain json).
  const std::string head = in->peek(kSniff);
  const bool is_json =
      !head.empty() && sniff({name, head.data(), head.size(), head.size() < kSniff}).format == FileFormat::kFioJson;
  FileOptions fo = o.file;
  if (is_json) fo.format = FileFormat::kFioJson;
  std::vector<char> buf(kChunk);
  Engine engine;
  const int h = engine.open_file(name, fo);
  uint64_t json_bytes = 0;
  for (;;) {
    const size_t n = in->read(buf.data(), buf.size());
    if (n == 0) break;
    if (is_json && (json_bytes += n) > kMaxFioJsonBytes) {  // as the registry's reader: not read, and no further
      rep->status = Status::Error(ErrorCode::kUnusableFile, name + ": " + kFioJsonTooLarge);
      cli::say("latscope: " + rep->status.message);
      return 2;
    }
    engine.append(h, buf.data(), n);
  }
  int rc = cli::report_input(*in);
  if (in->level() == cli::InputLevel::kUnusable) {
    rep->status = Status::Error(ErrorCode::kUnusableFile, name + ": " + in->problem());
    return 2;
  }
  const Source* got = &engine.finish(h);
  if (is_json) {
    rep->format = format_name(FileFormat::kFioJson);
    rep->status = got->status;
    print_json_diagnostics(*got);
    if (!got->status.ok()) return 2;
    rep->skipped = got->diag.skipped_lines();
    if (cmp) cmp->add_source(side, *got);
    else summarize_source(*got, o.cols, rows);
    return std::max(rc, rep->skipped ? 1 : 0);
  }
  // A per-I/O log whose columns do not say its unit: the inputs' evidence
  // decides it (folder.h settle_units, docs/fio-versions.md).
  Source settled;
  if (folder && cli::may_settle(*got)) {
    settled = *got;
    cli::settle_and_say(&settled, *folder);
    got = &settled;
  }
  const Source& src = *got;
  rep->format = format_name(src.format);
  rep->status = src.status;
  cli::print_diagnostics(src);
  // A file named like a log that holds none is unusable (exit 2, as in
  // every other command), though no reader claimed it.
  if (!src.status.ok()) return 2;
  if (src.format == FileFormat::kIgnored) return rc;  // named on stderr; no rows
  rep->skipped = src.diag.skipped_lines();
  if (cmp) cmp->add_source(side, src);
  else summarize_source(src, o.cols, rows);
  if (!cmp && std::any_of(src.series.begin(), src.series.end(),
                          [](const Series& s) { return s.role == Role::kWindowValues; }))
    cli::say("latscope: " + name +
             ": note: a fio log_avg_msec log: each line is a window's average (or max) latency, not an I/O, so its "
             "rows show the windows' count, min, mean and max and no percentile (docs/formats-fio-lat.md)");
  return std::max(rc, rep->skipped ? 1 : 0);
}

// The shared parser (cli_options.h), which refuses what summary does not
// read; --compare is summary's own. fio's percentiles and ns are the
// defaults: the rows read digit for digit against fio's output.
bool parse_args(int argc, char** argv, Options* o) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i >= 2 && !std::strcmp(argv[i], "--")) {
      args.insert(args.end(), argv + i, argv + argc);
      break;
    }
    if (i >= 2 && !std::strcmp(argv[i], "--compare")) o->compare = true;
    else args.push_back(argv[i]);
  }
  cli::Options c;
  c.unit = Unit::kNs;
  if (!parse_percentile_list(kFioDefaultPercentiles, &c.query.percentiles, &c.pct_labels).ok()) return false;
  if (!cli::parse_options(static_cast<int>(args.size()), args.data(), 2, "summary", &c)) return false;
  o->format = c.format;
  o->cols.unit = c.unit;
  o->cols.ps = c.query.percentiles;
  o->cols.labels = c.pct_labels;
  o->file = c.file;
  o->files = c.files;
  o->runs = c.runs;
  o->header_units = c.header_units;
  return true;
}

}  // namespace

int cmd_summary(int argc, char** argv) {
  Options o;
  if (!parse_args(argc, argv, &o)) return 2;
  int rc = 0;
  std::vector<SummaryRow> rows;
  std::vector<SummaryFile> files;
  // Runs (docs/runs.md): with --compare (or a run option) the two runs side
  // by side; else one row per file as ever, and a note when they are several.
  std::vector<RunFile> planned;
  std::vector<FolderFile> folder;  // what settles per-I/O logs' units
  const RunPlan plan = cli::plan_input_runs(o.files, o.runs, &planned, &folder);
  const bool compare = o.compare || o.runs.explicit_choice();
  if (compare && plan.runs.size() != 2) {
    cli::say("latscope summary: --compare needs two runs; the inputs are " + describe_runs(plan, planned) +
             " (--run NAME=GLOB or --run-by say which files form a run; docs/runs.md)");
    return 2;
  }
  if (!compare && plan.several())
    cli::say("latscope summary: note: the inputs look like " + describe_runs(plan, planned) +
             (plan.runs.size() == 2 ? "; --compare prints the two side by side" : ""));
  RunCompare cmp(o.cols);
  if (compare)
    for (const Run& r : plan.runs) {
      RunSide side;
      side.name = r.name;
      side.how = r.how;
      for (size_t i : r.files) side.files.push_back(planned[i].name);
      cmp.sides().push_back(std::move(side));
    }
  const std::vector<std::string> paths = cli::inputs(o.files);
  // A gzip copy beside its file (gzip -k) would repeat that file's rows
  // (docs/folders.md, "gzip copies"). Two runs side by side sum each run's
  // logs: one account of every I/O (docs/folders.md), per run.
  std::vector<AccountChoice> choices = plan_gzip_copies(folder);
  if (compare) {
    std::vector<FolderFile> by_run = folder;  // the files carry no run label: settling reads them as one
    for (size_t i = 0; i < by_run.size() && i < plan.run_of.size(); ++i) by_run[i].run = plan.run_of[i];
    choices = plan_accounts(by_run, {});
  }
  cli::Input std_in;  // "-": standard input, once (cli::inputs)
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    if (i < choices.size() && !choices[i].used_instead.empty()) {
      cli::say("latscope: " + path + ": not added: " + choices[i].why);
      continue;
    }
    size_t side = 0;
    for (size_t r = 0; r < plan.runs.size(); ++r)
      if (plan.runs[r].name == plan.run_of[i]) side = r;
    SummaryFile rep;
    cli::Input* opened = nullptr;
    if (path == "-") {
      std::string open_err;
      if (std_in.open(path, &open_err)) opened = &std_in;
    }
    const int r = read_one(path, opened, o, &rows, &rep, compare ? &cmp : nullptr, side, &folder);
    if (r > rc) rc = r;
    files.push_back(std::move(rep));
  }
  if (compare) {
    for (const std::string& n : cmp.notes()) cli::say("latscope summary: " + n);
    if (o.format == "json") cli::write_out(cmp.json());
    else cli::write_out(o.header_units ? cli::with_stat_units(cmp.csv(), unit_name(o.cols.unit)) : cmp.csv());
    return rc;
  }
  std::string out = o.format == "json" ? summary_json(rows, files, o.cols) : summary_csv(rows, o.cols);
  if (o.format == "csv" && o.header_units)
    out = cli::with_header_units(out, {"file", "host", "job", "dir", "samples"}, unit_name(o.cols.unit));
  cli::write_out(out);
  return rc;
}
