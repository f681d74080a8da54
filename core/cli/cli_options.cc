#include "cli_options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "cli_common.h"
#include "folder_args.h"
#include "help.h"
#include "latscope/options_json.h"
#include "reduce.h"

namespace latscope::cli {
namespace {

bool fail(const char* command, const std::string& msg) {
  say(std::string("latscope ") + command + ": " + msg + " (see latscope " + command + " --help)");
  return false;
}

bool parse_dirs(const std::string& s, unsigned* out) {
  unsigned d = 0;
  for (const std::string& part : split(s, ',')) {
    if (part == "r" || part == "read") d |= kDirRead;
    else if (part == "w" || part == "write") d |= kDirWrite;
    else if (part == "t" || part == "trim") d |= kDirTrim;
    else return false;
  }
  *out = d;
  return d != 0;
}

// The commands that read each option of parse_options (docs/cli.md,
// "Options"): one a command would ignore is refused, never dropped in
// silence. Options outside this table are every command's that reaches
// parse_options; each command's --help lists what it reads
// (tests/help_cli_test.sh holds the two to each other).
enum Command : unsigned { kPctiles = 1, kHeatmap = 2, kSummary = 4, kReduce = 8, kExport = 16, kReport = 32 };
// The input and selection block: every command that reads logs into a query.
constexpr unsigned kReading = kPctiles | kHeatmap | kReduce | kExport | kReport;
struct Accepted {
  const char* flag;
  unsigned by;
};
constexpr Accepted kAccepted[] = {
    {"-j", kReading},
    {"--quantum", kReading},
    // reduce: the per-host matrix's (docs/result-format.md, "Per-host percentile matrix (version 4)")
    {"--percentiles", kPctiles | kSummary | kReduce | kReport},
    {"--group-by", kPctiles | kReport},
    {"--run", kReading | kSummary},
    {"--run-by", kReading | kSummary},
    {"--directions", kReading},
    {"--offset", kReading},
    {"--exclude-host", kReading},
    // The heat map and the report's result show what was recorded
    // (query/heatmap.cc, docs/ci-reports.md).
    {"--co-interval", kPctiles},
    {"--from", kReading},
    {"--to", kReading},
    {"--host", kReading},
    {"--unit", kPctiles | kHeatmap | kSummary},
    {"--hdr-unit", kReading | kSummary},
    {"--kind", kReading},
    {"--account", kReading},
    {"--y", kHeatmap},
    {"--method", kPctiles | kReduce | kReport},
    {"--matrix", kReduce},
    {"--compat", kPctiles},
    {"--bounds", kPctiles},
    {"--header-units", kPctiles | kHeatmap | kSummary},
    {"--adaptive", kPctiles},
    {"--no-tail", kReading},
    {"--no-place", kReading},
    {"--no-repair", kReading | kSummary},
    {"--repair", kReading | kSummary},
    {"--fio-version", kReading},
    {"--coarseness", kReading},
    {"--format", kPctiles | kHeatmap | kSummary},  // export takes its own before (cmd_export.cc)
    {"--max-memory", kPctiles | kReduce | kExport | kReport},
    {"--rows", kHeatmap | kReport},
    {"--min", kHeatmap},
    {"--max", kHeatmap},
    {"--density", kHeatmap},
};

unsigned command_bit(const std::string& command) {
  static const std::pair<const char*, unsigned> kNames[] = {{"pctiles", kPctiles}, {"heatmap", kHeatmap},
                                                           {"summary", kSummary}, {"reduce", kReduce},
                                                           {"export", kExport},   {"report", kReport}};
  for (const auto& [name, bit] : kNames)
    if (command == name) return bit;
  return ~0u;
}

// The table's name of an argument: -jN and --jobs are -j, --adaptive=ACC is --adaptive.
std::string flag_of(const std::string& a) {
  if (a == "--jobs" || (a.rfind("-j", 0) == 0 && (a.size() == 2 || a[2] != '-'))) return "-j";
  if (a.rfind("--adaptive=", 0) == 0) return "--adaptive";
  return a;
}

}  // namespace

bool takes_option(const std::string& command, const std::string& arg) {
  const std::string flag = flag_of(arg);
  for (const Accepted& x : kAccepted)
    if (flag == x.flag) return (x.by & command_bit(command)) != 0;
  return true;
}

bool parse_quantum(const std::string& text, double* ms) {
  double v = 0;
  if (!parse_double(text, &v) || !(v > 0) || !std::isfinite(v)) return false;
  *ms = v;
  return true;
}

bool parse_quanta(const std::string& text, std::vector<double>* ms) {
  ms->clear();
  for (const std::string& part : split(text, ',')) {
    double q = 0;
    if (!parse_quantum(part, &q)) return false;
    ms->push_back(q);
  }
  return !ms->empty();
}

bool parse_options(int argc, char** argv, int first, const char* command, Options* o) {
  for (int i = first; i < argc; ++i) {
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
    } else if (a.size() < 2 || a[0] != '-') {
      o->files.push_back(a);
    } else if (!takes_option(command, a)) {
      return fail(command, flag_of(a) + " is not an option of " + command + ": it would be ignored");
    } else if (a == "-j" || a == "--jobs" || (a.rfind("-j", 0) == 0 && a.size() > 2 && a[2] != '-')) {
      // -j N, -jN, --jobs N: files parsed at once (cli_common.h)
      double n = 0;
      if (a.size() > 2 && a[1] == 'j') v = a.substr(2);
      else if (!value(&v)) v.clear();
      if (!parse_double(v, &n) || n < 1 || n > 1024 || n != static_cast<int>(n))
        return fail(command, "-j needs a number of files to parse at once, 1 to 1024");
      o->jobs = static_cast<int>(n);
    } else if (a == "--quantum") {
      if (!value(&v) || !parse_quantum(v, &o->query.quantum_ms))
        return fail(command, "--quantum needs a positive number of milliseconds");
      o->quantum_given = true;
    } else if (a == "--matrix") {
      // The per-host matrix's levels, or none (docs/result-format.md, "Per-host percentile matrix (version 4)").
      o->matrix_given = true;
      o->matrix_levels.clear();
      if (!value(&v) || (v != "none" && !parse_quanta(v, &o->matrix_levels)))
        return fail(command, "--matrix takes quanta in ms (1000,10000,60000,600000,3600000) or none");
    } else if (a == "--percentiles") {
      if (!value(&v)) return fail(command, "--percentiles needs a list like 50,99,99.9");
      // The one percentile-list parser (percentile_list.h), the page's too.
      const Status st = parse_percentile_list(v, &o->query.percentiles, &o->pct_labels);
      if (!st.ok()) return fail(command, st.message);
    } else if (a == "--group-by") {
      if (!value(&v) || !parse_group_by(v, &o->query.group_by))
        return fail(command, "--group-by takes all or label names, comma-combined (host, job, dir, file, tag, run, kind)");
    } else if (a == "--run") {
      RunPattern rp;
      if (!value(&v) || !parse_run_pattern(v, &rp)) return fail(command, "--run takes NAME=GLOB (docs/runs.md)");
      o->runs.patterns.push_back(rp);
    } else if (a == "--run-by") {
      if (!value(&v) || !parse_run_by(v, &o->runs.by))
        return fail(command, "--run-by takes auto, folder, prefix, json or none (docs/runs.md)");
    } else if (a == "--directions") {
      if (!value(&v) || !parse_dirs(v, &o->query.sel.dirs))
        return fail(command, "--directions takes a comma list of r, w, t");
    } else if (a == "--offset") {
      const size_t eq = value(&v) ? v.rfind('=') : std::string::npos;
      double ms;
      if (eq == std::string::npos || !parse_double(v.substr(eq + 1), &ms))
        return fail(command, "--offset takes NAME=MS (NAME a host, a file, or job:N / job:HOST/N)");
      o->query.sel.offsets_ms[v.substr(0, eq)] = ms;
    } else if (a == "--exclude-host") {
      if (!value(&v)) return fail(command, "--exclude-host needs a host");
      o->query.sel.exclude_hosts.push_back(v);
    } else if (a == "--co-interval") {
      double ms;
      if (!value(&v) || !parse_double(v, &ms) || !(ms > 0))
        return fail(command, "--co-interval takes the expected interval between samples in ms (> 0)");
      o->query.sel.co_interval_ms = ms;
    } else if (a == "--from" || a == "--to") {
      double ms;
      if (!value(&v) || !parse_double(v, &ms)) return fail(command, a + " needs a time in ms");
      (a == "--from" ? o->query.sel.from_ms : o->query.sel.to_ms) = ms;
    } else if (a == "--host") {
      // Local-mode logs name no host: reduced on each host, they say which
      // one (docs/cluster-merge.md). Every input gets it, json+ output too.
      if (!value(&v) || v.empty()) return fail(command, "--host takes a host name");
      o->file.host = v;
    } else if (a == "--unit") {
      if (!value(&v) || !parse_unit(v, &o->unit)) return fail(command, "--unit takes ns, us or ms");
    } else if (a == "--hdr-unit") {
      if (!value(&v) || (v != "ns" && v != "us" && v != "ms")) return fail(command, "--hdr-unit takes ns, us or ms");
      o->file.hdr_unit_ns = v == "ns" ? 1 : v == "us" ? 1e3 : 1e6;  // HdrHistogram values carry no unit
    } else if (a == "--kind") {
      if (!value(&v)) return fail(command, "--kind takes clat, lat or slat (comma-combinable)");
      o->query.sel.kinds.clear();
      for (const std::string& k : split(v, ',')) {
        if (k != "clat" && k != "lat" && k != "slat")
          return fail(command, "--kind takes clat, lat or slat (comma-combinable), not '" + k + "'");
        o->query.sel.kinds.push_back(k);
      }
    } else if (a == "--account") {
      // Which log counts a job's I/Os when it has several (docs/folders.md).
      Account acc = Account::kNone;
      if (!value(&v) || !parse_account(v, &acc)) return fail(command, "--account takes hist or per-io");
      o->query.sel.accounts = {acc};
    } else if (a == "--y") {
      if (!value(&v) || (v != "latency" && v != "bs" && v != "offset"))
        return fail(command, "--y takes latency, bs or offset (bs and offset: fio per-I/O logs)");
      o->y = v == "bs" ? HeatmapOptions::Y::kBs : v == "offset" ? HeatmapOptions::Y::kOffset : HeatmapOptions::Y::kLatency;
    } else if (a == "--method") {
      if (!value(&v) || !parse_method(v, &o->query.method))
        return fail(command, std::string("--method takes ") + kMethodNames);
    } else if (a == "--compat") {
      if (!value(&v) || v != "fio-histo-log-pctiles")
        return fail(command, "--compat takes fio-histo-log-pctiles");
      o->query.compat_fio_histo_log_pctiles = true;
    } else if (a == "--bounds") {
      o->bounds = true;
    } else if (a == "--header-units") {
      o->header_units = true;
    } else if (a == "--adaptive" || a.rfind("--adaptive=", 0) == 0) {
      // Optional ACC (docs/uncertainty.md): --adaptive=ACC, or the next
      // argument when it is a number and no file of that name exists (a log
      // named "2" stays an input).
      double acc = kDefaultAccuracy, next = 0;
      if (a.size() > 10) {
        if (!parse_double(a.substr(11).c_str(), &acc)) return fail(command, "--adaptive= takes a number (default 0.5)");
      } else if (i + 1 < argc && parse_double(argv[i + 1], &next) && !std::ifstream(argv[i + 1])) {
        acc = next;
        ++i;
      }
      if (!(acc > 0)) return fail(command, "--adaptive takes an accuracy > 0 (default 0.5)");
      o->query.adaptive_accuracy = acc;
    } else if (a == "--no-tail") {
      o->query.sel.complete_tail = false;
    } else if (a == "--no-place") {
      o->query.sel.place_jobs = false;
    } else if (a == "--no-repair") {
      o->file.repair = RepairMode::kOff;
    } else if (a == "--repair") {
      if (!value(&v) || (v != "auto" && v != "off" && v != "force"))
        return fail(command, "--repair takes auto, off or force");
      o->file.repair = v == "off" ? RepairMode::kOff : v == "force" ? RepairMode::kForce : RepairMode::kAuto;
    } else if (a == "--fio-version") {
      double x;
      if (!value(&v) || !parse_double(v, &x) || (x != 2 && x != 3))
        return fail(command, "--fio-version takes 2 or 3");
      o->file.fio_version = static_cast<int>(x);
    } else if (a == "--coarseness") {
      double x;
      if (!value(&v) || !parse_double(v, &x) || x < 0 || x > 6 || x != static_cast<int>(x))
        return fail(command, "--coarseness takes 0..6");
      o->file.coarseness = static_cast<int>(x);
    } else if (a == "--format") {
      if (!value(&v) || (v != "csv" && v != "json")) return fail(command, "--format takes csv or json");
      o->format = v;
    } else if (a == "--max-memory") {
      // SIZE in bytes, or with K, M, G, T (powers of 1024): the query's budget (docs/input-robustness.md)
      double x = 0, mult = 1;
      if (value(&v) && !v.empty()) {
        const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(v.back())));
        const std::string units = "KMGT";
        const size_t k = units.find(u);
        if (k != std::string::npos) {
          mult = std::ldexp(1.0, 10 * static_cast<int>(k + 1));
          v.pop_back();
        }
      }
      if (v.empty() || !parse_double(v, &x) || !(x > 0) || !(x * mult < 1.8e19))
        return fail(command, "--max-memory needs a size like 512M, 4G or 8589934592");
      o->query.max_query_bytes = static_cast<uint64_t>(x * mult);
    } else if (a == "--rows") {
      double x;
      if (!value(&v) || !parse_double(v, &x) || x < 1 || x > 100000)
        return fail(command, "--rows takes 1..100000");
      o->rows = static_cast<uint32_t>(x);
    } else if (a == "--density") {
      // host:p99, host,job:99.9 (docs/cli.md, "heatmap --density")
      const size_t colon = value(&v) ? v.rfind(':') : std::string::npos;
      // The percentile as --percentiles reads one (percentile_list.h): p99, 99, max.
      const std::string p = colon == std::string::npos ? "" : v.substr(colon + 1);
      std::vector<double> ps;
      std::vector<std::string> labels;
      if (colon == std::string::npos || !parse_group_by(v.substr(0, colon), &o->density_by) ||
          o->density_by.empty() || !parse_percentile_list(p, &ps, &labels).ok() || ps.size() != 1)
        return fail(command, "--density takes LABELS:P, the groups' label and one percentile (host:p99)");
      o->density_p = ps[0];
    } else if (a == "--min" || a == "--max") {
      double x;
      if (!value(&v) || !parse_double(v, &x) || x <= 0)
        return fail(command, a + " takes a positive latency in --unit");
      (a == "--min" ? o->min_lat : o->max_lat) = x;
    } else if (const std::string near = did_you_mean(command, a); !near.empty()) {
      std::string msg = "latscope ";
      msg += command;
      msg += ": unknown option ";
      msg += a;
      msg += near;
      say(msg);
      return false;
    } else {
      return fail(command, "unknown option " + a);
    }
  }
  if (o->files.empty()) return fail(command, "no input files");
  // A folder stands for the files below it, as in the page (folder_args.h).
  std::string walk_error;
  if (!expand_folders(&o->files, &walk_error)) return fail(command, walk_error);
  if (o->files.empty()) return fail(command, "no input files in the folders named");
  // An empty range is a typo, never a question (docs/input-robustness.md).
  if (!(o->query.sel.from_ms < o->query.sel.to_ms))
    return fail(command, "--from must be before --to (" + format_number(o->query.sel.from_ms) + " >= " +
                             format_number(o->query.sel.to_ms) + " ms): nothing could be shown");
  if (o->query.compat_fio_histo_log_pctiles && (o->bounds || o->query.adaptive_accuracy > 0))
    return fail(command, "--compat fio-histo-log-pctiles reproduces the script: no --bounds or --adaptive");
  if (o->jobs == 0) o->jobs = default_jobs();
  // Which log counts a job's I/Os (docs/folders.md): planned with the runs.
  o->run_labels.prefer = o->query.sel.accounts;
  const GroupBy& g = o->query.group_by;
  o->run_labels.all_accounts = std::find(g.begin(), g.end(), kAccountLabel) != g.end();
  // Without --quantum a result is read at its own quantum, not re-spread
  // onto 1 s quanta (docs/result-format.md, "Reading a result").
  std::string from;
  double q = 0;
  if (takes_option(command, "--quantum") && !o->quantum_given && !o->quantum_from_levels &&
      results_quantum(o->files, &q, &from) &&
      q != o->query.quantum_ms) {
    o->query.quantum_ms = q;
    say(std::string("latscope ") + command + ": note: quantum " + quantum_text(q) + " ms, the result's own (" + from +
        "; --quantum to choose another)");
  }
  // A result of several resolutions may read a coarser level when that is
  // exact: fixed quanta and no shifted clock (an offset moves windows off
  // the coarse grid). docs/result-format.md, "Several resolutions".
  if (std::string(command) != "summary" && o->query.adaptive_accuracy == 0 && !o->query.compat_fio_histo_log_pctiles &&
      o->query.sel.offsets_ms.empty() && o->query.sel.co_interval_ms == 0)
    o->file.query_quantum_ms = o->query.quantum_ms;
  return true;
}

}  // namespace latscope::cli
