#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include "cli_common.h"
#include "cli_options.h"
#include "commands.h"
#include "header_units.h"
#include "matrix_cli.h"
#include "latscope/stream.h"
#include "runs_cli.h"
#include "sla_args.h"
#include "time_order_feed.h"

namespace latscope::cli {
namespace {

// Whether the files are read twice, in time order the second time (model.h
// WindowFeed): every input a plain HdrHistogram log file (.hlog), few enough
// to be open at once, and a query whose sweep takes windows read again
// (no offset, correction or per-I/O values: query.cc unfed_series).
bool reads_in_time_order(const Options& o) {
  constexpr size_t kMostFiles = 32;
  const std::vector<std::string> files = inputs(o.files);
  if (files.empty() || files.size() > kMostFiles) return false;
  for (const std::string& f : files) {
    const size_t dot = f.rfind('.');
    if (f == "-" || dot == std::string::npos || f.substr(dot) != ".hlog") return false;
  }
  const QueryOptions& q = o.query;
  return q.sel.offsets_ms.empty() && q.sel.co_interval_ms <= 0 && q.method != Method::kExact && q.part_count <= 1;
}

}  // namespace

int cmd_pctiles(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  SlaArgs sla;
  if (!take_sla_args(&args, "pctiles", &sla)) return 2;
  if (sla.summary_md && sla.summary_file.empty()) {
    say("latscope pctiles: standard output holds the CSV; give --sla-summary md a FILE ending in .md");
    return 2;
  }
  Options o;
  if (!parse_options(static_cast<int>(args.size()), args.data(), 2, "pctiles", &o)) return 2;
  // A result's per-host matrix answers a per-host query it holds
  // (docs/result-format.md, "Per-host percentile matrix (version 4)").
  if (sla.rules.empty() && !sla.summary_md)
    if (const int m = pctiles_from_matrix(args, o); m >= 0) return m;
  // The SLA's percentiles join the query; the CSV keeps the requested ones.
  const size_t requested = o.query.percentiles.size();
  add_sla_percentiles(sla.rules, &o.query.percentiles, &o.pct_labels);
  const GroupBy& g = o.query.group_by;
  prepare_runs("pctiles", o.files, o.runs, std::count(g.begin(), g.end(), "run") > 0, "--group-by run",
               &o.run_labels);
  int rc = 0;
  QueryResult r;
  Status st;
  // CSV rows are written as the fold makes them, not held (a per-host day
  // at 1 s is millions of rows); SLA verdicts and JSON need them all.
  std::unique_ptr<PctilesCsvWriter> csv;
  if (o.format == "csv" && sla.rules.empty()) {
    csv = std::make_unique<PctilesCsvWriter>(r, o.pct_labels, o.unit, o.bounds, write_out);
    if (o.header_units)
      csv->edit_header([&o](const std::string& h) {
        return with_header_units(h, {"time_ms", "width_ms", "group", "samples", "flags"}, unit_name(o.unit));
      });
  }
  if (o.query.compat_fio_histo_log_pctiles || o.query.adaptive_accuracy > 0) {
    // The script's semantics, and adaptive quanta, need every file's
    // windows before any quantum.
    Engine engine;
    rc = load_files(&engine, o.files, o.file, o.jobs, &o.run_labels);
    st = engine.query(o.query, &r);
  } else {
    // Each file folded as it comes, or held and folded by quanta, whichever
    // holds less (docs/quanta.md, "Memory: the fold by quanta").
    StreamingQuery stream(o.query);
    // HdrHistogram log files read twice, their windows in time order the
    // second time, so memory does not grow with their length (docs/quanta.md,
    // "Memory: windows read twice").
    Reread reread(true);
    TimeOrderFeed feed(o.file);
    if (csv && reads_in_time_order(o)) {
      reread.digest_quantum_ms = o.query.quantum_ms;
      stream.set_feed(&feed);
    }
    rc = for_each_file(o.files, o.file, o.jobs, [&](Source& s) {
      const Status added = stream.add(std::move(s));
      if (!added.ok() && st.ok()) st = added;
    }, &o.run_labels, reread);
    if (st.ok()) st = stream.finish(&r, csv.get());
  }
  if (!st.ok()) {
    say("latscope pctiles: " + st.message);
    return 2;
  }
  rc = std::max(rc, print_after_query(r.notes, r.diag, o.query.sel.offsets_ms, o.run_labels));
  const int sla_rc = finish_sla("pctiles", sla, r, o.query.percentiles, sla_context(r, o.files));
  if (csv) {  // rows the fold kept (window-value logs alone, or the Engine::query paths)
    for (const Row& row : r.rows) csv->add(row);
    csv->finish();
    return std::max(rc, sla_rc);
  }
  keep_percentiles(&r, requested);
  o.pct_labels.resize(requested);
  std::string out = o.format == "json" ? pctiles_json(r, o.pct_labels, o.unit) : pctiles_csv(r, o.pct_labels, o.unit, o.bounds);
  if (o.format == "csv" && o.header_units)
    out = with_header_units(out, {"time_ms", "width_ms", "group", "samples", "flags"}, unit_name(o.unit));
  // JSON carries the trust summary beside the rows (docs/folders.md).
  if (o.format == "json" && o.run_labels.trust && !out.empty() && out.back() == '}') {
    out.pop_back();
    out += ",\"trust\":" + trust_json(o.run_labels.trust->rows()) + "}\n";
  } else if (o.format == "json") {
    out += "\n";
  }
  write_out(out);
  // Exit 3 (an SLA violated) outranks 1 and 2 (docs/ci-reports.md).
  return std::max(rc, sla_rc);
}

int cmd_heatmap(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, 2, "heatmap", &o)) return 2;
  prepare_runs("heatmap", o.files, o.runs, false, "a heat map of each run's files", &o.run_labels);
  Engine engine;
  int rc = load_files(&engine, o.files, o.file, o.jobs, &o.run_labels);
  HeatmapOptions h;
  h.quantum_ms = o.query.quantum_ms;
  h.rows = o.rows;
  h.y = o.y;
  h.sel = o.query.sel;
  const double to_ns = o.unit == Unit::kNs ? 1 : o.unit == Unit::kUs ? 1e3 : 1e6;
  h.min_ns = o.min_lat * to_ns;
  h.max_ns = o.max_lat * to_ns;
  h.density_by = o.density_by;
  h.density_percentile = o.density_p;
  HeatmapResult r;
  Status st = engine.heatmap(h, &r);
  if (!st.ok()) {
    say("latscope heatmap: " + st.message);
    return 2;
  }
  rc = std::max(rc, print_after_query(r.notes, r.diag, o.query.sel.offsets_ms, o.run_labels));
  HeatmapCsvOptions csv;
  csv.header_units = o.header_units;
  write_out(o.format == "json" ? heatmap_json(r) + "\n" : heatmap_csv(r, o.unit, csv));
  return rc;
}

}  // namespace latscope::cli
