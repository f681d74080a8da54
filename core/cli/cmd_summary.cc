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
#include "cmd_summary.h"

#include <algorithm>
#include <map>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cli_common.h"
#include "input.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/options_json.h"
#include "latscope/percentiles.h"
#include "latscope/reader.h"
#include "latscope/report.h"
#include "latscope/runs.h"
#include "runs_cli.h"
#include "summary_compare.h"

namespace {

using namespace latscope;

const char kUsage[] =
    "usage: latscope summary [--format csv|json] [--unit ns|us|ms] [--percentiles LIST]\n"
    "                        [--repair auto|off|force] [--compare] [--run NAME=GLOB]...\n"
    "                        [--run-by auto|folder|prefix|json|none] FILE...\n"
    "  FILE: fio histogram logs (write_hist_log) or fio --output-format=json/json+ output,\n"
    "        plain or .gz; - for standard input. One row per file, host, job and direction.\n"
    "        CSV text cells starting with = + - @ (a formula to spreadsheets) get a leading '.\n"
    "  --percentiles LIST  default: fio's 1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99\n"
    "  --unit              default ns\n"
    "  --compare           two runs side by side: per statistic both whole-run values, the\n"
    "                      change in % and whether it is within one bin or the 95% sampling\n"
    "                      bands (docs/runs.md); implied by --run or --run-by\n"
    "  --run NAME=GLOB     files matching GLOB belong to run NAME (repeatable)\n"
    "  --run-by HOW        how runs are found: auto (default), folder, prefix, json, none\n"
    "exit status: 0 ok, 1 something was left out (skipped lines, the unreadable rest of a\n"
    "  damaged .gz; see stderr), 2 a file is unusable\n";

const char kFioDefaultPercentiles[] = "1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99";
constexpr size_t kChunk = size_t{4} << 20;
constexpr size_t kSniff = size_t{64} * 1024;
const double kBlank = std::numeric_limits<double>::quiet_NaN();

struct Options {
  std::string format = "csv";
  Unit unit = Unit::kNs;
  std::vector<double> ps;
  std::vector<std::string> labels;
  FileOptions file;
  std::vector<std::string> files;
  RunOptions runs;       // --run, --run-by (docs/runs.md)
  bool compare = false;  // --compare
};

struct SummaryRow {
  std::string file, host, job, dir;
  uint64_t samples = 0;
  bool exact = false;  // min/mean/max are fio's own values: print every digit
  double min_ns = kBlank, mean_ns = kBlank, max_ns = kBlank;
  std::vector<double> p;  // ns; NaN: not available
};

struct FileReport {
  std::string name;
  std::string format;
  Status status;
  uint64_t skipped = 0;
};

int usage_error(const std::string& msg) {
  cli::say("latscope summary: " + msg);
  std::fputs(kUsage, stderr);
  return 2;
}

// A CSV text cell: a value starting with = + - @ (or a tab or carriage
// return) is a formula to Excel, LibreOffice and Google Sheets, so it gets a
// leading apostrophe (OWASP's rule); then RFC 4180 quoting (csv_field).
// docs/input-robustness.md, "CSV cells".
std::string csv_text(const std::string& s) { return cli::summary_csv_text(s); }

// The one formatter of this command's numbers (summary_compare.cc).
std::string number(double v, bool exact) { return cli::summary_number(v, exact); }


// Percentiles and stats of one dense histogram by fio's method.
void fill_from_bins(const BinLayout& layout, const std::vector<double>& counts, const Options& o,
                    bool stats_from_bins, SummaryRow* row) {
  row->p.assign(o.ps.size(), kBlank);
  Stats st;
  if (!compute_stats(layout, counts.data(), &st)) return;  // empty
  if (stats_from_bins) {
    row->min_ns = st.min_ns;
    row->mean_ns = st.mean_ns;
    row->max_ns = st.max_ns;
  }
  std::vector<PercentileValue> pv(o.ps.size());
  if (compute_percentiles(layout, counts.data(), o.ps.data(), o.ps.size(), Method::kFio, pv.data())) {
    for (size_t i = 0; i < pv.size(); ++i) row->p[i] = pv[i].value_ns;
  }
}

void summarize_json(const std::string& path, const FioJsonReport& r, const Options& o,
                    std::vector<SummaryRow>* rows) {
  for (const FioJsonJob& j : r.jobs) {
    for (const FioJsonDir& d : j.dirs) {
      if (d.n == 0) continue;  // e.g. trim in a read/write job
      SummaryRow row;
      row.file = path;
      row.host = j.aggregate ? "" : j.host;
      row.job = j.aggregate ? "all" : std::to_string(j.job_index);
      row.dir = dir_name(d.dir);
      row.samples = d.n;
      if (d.has_bins) {
        fill_from_bins(*r.layout, d.dense_double(r.layout->size()), o, false, &row);
      } else {
        // Plain json: only fio's printed list is known.
        row.p.assign(o.ps.size(), kBlank);
        for (size_t i = 0; i < o.ps.size(); ++i) {
          for (const FioJsonPercentile& fp : d.percentiles) {
            if (fp.p == o.ps[i]) row.p[i] = static_cast<double>(fp.value_ns);
          }
        }
      }
      row.exact = true;
      row.min_ns = static_cast<double>(d.min_ns);
      row.mean_ns = d.mean_ns;
      row.max_ns = static_cast<double>(d.max_ns);
      rows->push_back(std::move(row));
    }
  }
}

// A wide layout (HdrHistogram's, tens of thousands of bins) gathered to the
// bins a series uses, in order: the statistics and percentiles only skip
// empty bins, so they are the same (docs/formats-hdr.md "Wide layouts"),
// and a log of thousands of tags no longer costs tags x layout bins. fio's
// p0 is bin 0's value (percentiles.h): not gathered when p0 is asked.
constexpr size_t kGatherBins = 4096;

void summarize_source(const Source& src, const Options& o, std::vector<SummaryRow>* rows) {
  const bool p0 = std::any_of(o.ps.begin(), o.ps.end(), [](double p) { return p == 0; });
  for (const Series& s : src.series) {
    if (!s.layout) continue;
    // Result files keep fixed-point counts (model.h, count_frac_bits).
    const double unit = std::ldexp(1.0, -static_cast<int>(s.count_frac_bits));
    double sum = 0;
    std::vector<double> counts;
    BinLayout gathered;
    const BinLayout* layout = s.layout.get();
    if (s.layout->size() >= kGatherBins && !p0) {
      std::map<uint32_t, double> used;
      for (const Window& w : s.windows)
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) { used[b] += static_cast<double>(c) * unit; });
      gathered.kind = s.layout->kind;
      gathered.id = s.layout->id;
      for (const auto& [b, c] : used) {
        gathered.lo.push_back(s.layout->lo[b]);
        gathered.hi.push_back(s.layout->hi[b]);
        gathered.rep.push_back(s.layout->rep[b]);
        counts.push_back(c);
        sum += c;
      }
      gathered.last_saturates = s.layout->last_saturates && !used.empty() && used.rbegin()->first + 1 == s.layout->size();
      layout = &gathered;
    } else {
      counts.assign(s.layout->size(), 0.0);
      for (const Window& w : s.windows) {
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
          counts[b] += static_cast<double>(c) * unit;
          sum += static_cast<double>(c) * unit;
        });
      }
    }
    const auto total = static_cast<uint64_t>(std::llround(sum));
    SummaryRow row;
    row.file = src.name;
    row.host = src.id.host;
    row.job = s.job;
    row.dir = dir_name(s.dir);
    row.samples = total;
    fill_from_bins(*layout, counts, o, true, &row);
    rows->push_back(std::move(row));
  }
}

// Reports a json file's outcome the way the other commands report a log's.
void print_json_diagnostics(const std::string& path, const FioJsonReport& r, const Status& st) {
  Source s;
  s.name = path;
  s.format = FileFormat::kFioJson;
  s.status = st;
  s.diag = r.diag;
  cli::print_diagnostics(s);
}

// Reads one input: returns 0, 1 (something left out) or 2 (unusable).
// `opened`: standard input, already opened; else path is opened here.
// `cmp`: --compare, the file's histograms go to run `side` instead of rows.
int read_one(const std::string& path, cli::Input* opened, const Options& o, std::vector<SummaryRow>* rows,
             FileReport* rep, cli::RunCompare* cmp, size_t side, const std::vector<FolderFile>* folder) {
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
  // The first bytes decide the format (the registry's sniff, reader.h).
  const std::string head = in->peek(kSniff);
  const bool is_json =
      !head.empty() && sniff({name, head.data(), head.size(), head.size() < kSniff}).format == FileFormat::kFioJson;
  std::vector<char> buf(kChunk);
  Engine engine;
  int h = -1;
  std::string text;  // whole json document
  if (!is_json) h = engine.open_file(name, o.file);
  for (;;) {
    const size_t n = in->read(buf.data(), buf.size());
    if (n == 0) break;
    if (!is_json) {
      engine.append(h, buf.data(), n);
    } else if (text.size() + n > kMaxFioJsonBytes) {  // as the registry's reader: not read, and no further
      rep->status = Status::Error(ErrorCode::kUnusableFile, name + ": " + kFioJsonTooLarge);
      cli::say("latscope: " + rep->status.message);
      return 2;
    } else {
      text.append(buf.data(), n);
    }
  }
  int rc = cli::report_input(*in);
  if (in->level() == cli::InputLevel::kUnusable) {
    rep->status = Status::Error(ErrorCode::kUnusableFile, name + ": " + in->problem());
    return 2;
  }
  if (is_json) {
    rep->format = format_name(FileFormat::kFioJson);
    FioJsonReport r;
    Status st = parse_fio_json(name, text.data(), text.size(), &r);
    rep->status = st;
    print_json_diagnostics(name, r, st);
    if (!st.ok()) return 2;
    rep->skipped = r.diag.skipped_lines();
    if (cmp) cmp->add_json(side, r);
    else summarize_json(name, r, o, rows);
    return std::max(rc, rep->skipped ? 1 : 0);
  }
  const Source* got = &engine.finish(h);
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
  else summarize_source(src, o, rows);
  return std::max(rc, rep->skipped ? 1 : 0);
}

std::string render_csv(const std::vector<SummaryRow>& rows, const Options& o) {
  std::string out = "file,host,job,dir,samples,min,mean,max";
  for (const std::string& l : o.labels) out += "," + csv_field(l);
  out += "\n";
  for (const SummaryRow& r : rows) {
    out += csv_text(r.file) + "," + csv_text(r.host) + "," + csv_text(r.job) + "," + r.dir + "," +
           std::to_string(r.samples);
    for (double v : {r.min_ns, r.mean_ns, r.max_ns}) out += "," + number(ns_to_unit(v, o.unit), r.exact);
    for (double v : r.p) out += "," + number(ns_to_unit(v, o.unit), r.exact);
    out += "\n";
  }
  return out;
}

std::string json_number(double v, bool exact) {
  std::string s = number(v, exact);
  return s.empty() ? "null" : s;
}

// report.h's json_escape returns the quoted JSON string.
std::string render_json(const std::vector<SummaryRow>& rows, const std::vector<FileReport>& files,
                        const Options& o) {
  std::string out = "{\"unit\":\"" + std::string(unit_name(o.unit)) + "\",\"method\":\"fio\",\"percentiles\":[";
  for (size_t i = 0; i < o.labels.size(); ++i) {
    // labels are "p" + the text as given; the list holds the text itself
    out += (i ? "," : "") + json_escape(o.labels[i].substr(1));
  }
  out += "],\"rows\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const SummaryRow& r = rows[i];
    out += (i ? ",{" : "{");
    out += "\"file\":" + json_escape(r.file) + ",\"host\":" + json_escape(r.host) + ",\"job\":" +
           json_escape(r.job) + ",\"dir\":\"" + r.dir + "\",\"samples\":" + std::to_string(r.samples);
    out += ",\"min\":" + json_number(ns_to_unit(r.min_ns, o.unit), r.exact);
    out += ",\"mean\":" + json_number(ns_to_unit(r.mean_ns, o.unit), r.exact);
    out += ",\"max\":" + json_number(ns_to_unit(r.max_ns, o.unit), r.exact);
    out += ",\"p\":[";
    for (size_t k = 0; k < r.p.size(); ++k) out += (k ? "," : "") + json_number(ns_to_unit(r.p[k], o.unit), r.exact);
    out += "]}";
  }
  out += "],\"files\":[";
  for (size_t i = 0; i < files.size(); ++i) {
    const FileReport& f = files[i];
    out += (i ? ",{" : "{");
    out += "\"name\":" + json_escape(f.name) + ",\"format\":" + json_escape(f.format) +
           ",\"ok\":" + (f.status.ok() ? "true" : "false") + ",\"message\":" + json_escape(f.status.message) +
           ",\"skipped_lines\":" + std::to_string(f.skipped) + "}";
  }
  out += "]}\n";
  return out;
}

bool parse_args(int argc, char** argv, Options* o, std::string* err, bool* help) {
  Status st = parse_percentile_list(kFioDefaultPercentiles, &o->ps, &o->labels);
  if (!st.ok()) {
    *err = st.message;
    return false;
  }
  auto fail = [err](const std::string& m) {
    *err = m;
    return false;
  };
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= argc) return false;
      *v = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--") {
      for (++i; i < argc; ++i) o->files.push_back(argv[i]);
      break;
    } else if (a == "-h" || a == "--help") {
      *help = true;
      return true;
    } else if (a.size() < 2 || a[0] != '-') {
      o->files.push_back(a);
    } else if (a == "--format") {
      if (!value(&v) || (v != "csv" && v != "json")) return fail("--format takes csv or json");
      o->format = v;
    } else if (a == "--unit") {
      if (!value(&v) || !parse_unit(v, &o->unit)) return fail("--unit takes ns, us or ms");
    } else if (a == "--percentiles") {
      if (!value(&v)) return fail("--percentiles needs a list like 50,99,99.9");
      st = parse_percentile_list(v, &o->ps, &o->labels);
      if (!st.ok()) return fail("--percentiles: " + st.message);
    } else if (a == "--compare") {
      o->compare = true;
    } else if (a == "--run") {
      RunPattern rp;
      if (!value(&v) || !parse_run_pattern(v, &rp)) return fail("--run takes NAME=GLOB (docs/runs.md)");
      o->runs.patterns.push_back(rp);
    } else if (a == "--run-by") {
      if (!value(&v) || !parse_run_by(v, &o->runs.by))
        return fail("--run-by takes auto, folder, prefix, json or none (docs/runs.md)");
    } else if (a == "--no-repair") {
      o->file.repair = RepairMode::kOff;
    } else if (a == "--repair") {
      if (!value(&v) || (v != "auto" && v != "off" && v != "force")) {
        return fail("--repair takes auto, off or force");
      }
      o->file.repair = v == "off" ? RepairMode::kOff : v == "force" ? RepairMode::kForce : RepairMode::kAuto;
    } else {
      return fail("unknown option " + a);
    }
  }
  if (o->files.empty()) return fail("no input files");
  return true;
}

}  // namespace

int cmd_summary(int argc, char** argv) {
  Options o;
  std::string err;
  bool help = false;
  if (!parse_args(argc, argv, &o, &err, &help)) return usage_error(err);
  if (help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  int rc = 0;
  std::vector<SummaryRow> rows;
  std::vector<FileReport> files;
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
  cli::RunCompare cmp(o.ps, o.labels, o.unit);
  if (compare)
    for (const Run& r : plan.runs) {
      cli::RunSide side;
      side.name = r.name;
      side.how = r.how;
      for (size_t i : r.files) side.files.push_back(planned[i].name);
      cmp.sides().push_back(std::move(side));
    }
  const std::vector<std::string> paths = cli::inputs(o.files);
  // Two runs side by side sum each run's logs: one account of every I/O
  // (docs/folders.md), per run.
  std::vector<AccountChoice> choices(folder.size());
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
    FileReport rep;
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
    cli::write_out(o.format == "json" ? cmp.json() : cmp.csv());
    return rc;
  }
  const std::string out = o.format == "json" ? render_json(rows, files, o) : render_csv(rows, o);
  cli::write_out(out);
  return rc;
}
