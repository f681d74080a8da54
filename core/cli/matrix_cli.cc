// The per-host percentile matrix in the CLI: docs/result-format.md,
// "Per-host percentile matrix (version 4)".
#include "matrix_cli.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cli_common.h"
#include "latscope/matrix_answer.h"
#include "latscope/report.h"
#include "latscope/result_stream.h"
#include "reduce.h"

namespace latscope::cli {

std::vector<double> matrix_levels(const char* cmd, const Options& o, const std::string& keep, double quantum) {
  // Only when the result keeps host apart: without it there is no host's
  // histogram left to make a host's percentiles from. By default when --keep
  // names host (a cluster's per-host reduce, docs/cluster-merge.md); without
  // --keep (every label: one machine's run, read whole) only when --matrix
  // asks for it, so such files stay version 2 or 3.
  GroupBy names;
  const bool host_named = keep != "-" && keep != "none" && parse_group_by(keep, &names) &&
                          std::find(names.begin(), names.end(), "host") != names.end();
  if (!host_named && !(keep.empty() && o.matrix_given)) return {};
  const std::vector<double>& want = o.matrix_given ? o.matrix_levels : default_matrix_levels();
  std::vector<double> levels, left;
  for (double q : want) (quantum_multiple(quantum, q) ? levels : left).push_back(q);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  if (!left.empty()) {
    std::string l;
    for (double q : left) l += (l.empty() ? "" : ", ") + quantum_text(q);
    say(std::string("latscope ") + cmd + ": note: matrix levels " + l + " ms left out: not multiples of the " +
        quantum_text(quantum) + " ms quantum");
  }
  return levels;
}

void say_matrix(const char* cmd, const std::vector<double>& levels, uint64_t bytes) {
  std::string l;
  for (double q : levels) l += (l.empty() ? "" : ",") + quantum_text(q);
  say(std::string("latscope ") + cmd + ": per-host matrix at " + l + " ms: " + std::to_string(bytes) + " bytes");
}

Status add_matrix(const Result& r, const Options& o, const std::vector<double>& levels, std::vector<uint8_t>* bytes) {
  std::vector<uint8_t> out = result_matrix_head();
  const uint64_t hist_at = out.size(), hist_len = bytes->size();
  out.insert(out.end(), bytes->begin(), bytes->end());
  const uint64_t mx_at = out.size();
  MatrixWriter w(&deflate_zlib, vector_writer(&out));
  MatrixHead head;
  Status st = build_result_matrix(r, o.query, o.pct_labels, levels, &head, &w);
  if (!st.ok()) return st;
  const uint64_t parts_at = out.size();
  const std::vector<uint8_t> tail = result_parts_tail(hist_at, hist_len, mx_at, parts_at - mx_at, parts_at);
  out.insert(out.end(), tail.begin(), tail.end());
  *bytes = std::move(out);
  return Status::Ok();
}

bool open_matrices(const std::vector<ReadAtFn>& reads, const std::vector<uint64_t>& sizes,
                   const std::vector<std::string>& names, std::vector<MatrixReader>* readers, MatrixMergePlan* plan,
                   std::string* note) {
  readers->assign(reads.size(), MatrixReader());
  std::vector<const MatrixHead*> heads;
  bool any = false;
  note->clear();
  for (size_t i = 0; i < reads.size(); ++i) {
    bool has = false;
    const Status st = (*readers)[i].open(reads[i], sizes[i], &has);
    any = any || has;
    if (!st.ok()) {
      *note = names[i] + ": " + st.message;
      return false;
    }
    heads.push_back(has ? &(*readers)[i].head() : nullptr);
  }
  if (!any) return false;
  return plan_matrix_merge(heads, names, plan, note);
}

int pctiles_from_matrix(const std::vector<char*>& args, const Options& o) {
  // Only what the matrix holds: one file, host groups, CSV, a unit.
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--group-by" || a == "--quantum" || a == "--percentiles" || a == "--method" || a == "--unit" ||
        a == "--from" || a == "--to" || a == "-j" || a == "--jobs")
      ++i;
    else if (!a.empty() && a[0] == '-' && !(a.rfind("-j", 0) == 0 && a.size() > 2)) return -1;
  }
  if (o.files.size() != 1 || o.query.group_by != GroupBy{"host"} || o.format != "csv") return -1;
  const std::string& path = o.files[0];
  uint64_t size = 0;
  const ReadAtFn read = file_range_reader(path, &size);
  if (!read) return -1;
  MatrixReader m;
  bool has = false;
  Status st = m.open(read, size, &has);
  const std::string after = "; answered from the histograms instead";
  if (!st.ok()) {
    say("latscope pctiles: " + path + ": " + st.message + after);
    return -1;
  }
  if (!has) return -1;
  // The histograms' query of the same file at a level's quantum (core
  // matrix_answer.h says what the matrix holds); the quantum is the user's.
  const MatrixPlan plan = plan_matrix_answer(m, o.query, true, 0, UINT64_MAX);
  if (!plan.served || m.head().levels[plan.level] != o.query.quantum_ms) return -1;
  // Each host's rows were made on its own layout; the query of the
  // histograms folds every host onto the layout common to all of them. Only
  // when that is every host's own are the two the same bytes (hosts of other
  // fio coarseness merged: docs/result-format.md, "Reading it").
  ResultBlockReader hist;
  if (!hist.open(read, size).ok()) return -1;
  const std::string differ = matrix_layouts_differ(hist.head());
  if (!differ.empty()) {
    say("latscope pctiles: note: " + path + ": " + differ +
        ": answered from the histograms, on their common layout, not from the per-host matrix");
    return -1;
  }
  // Rows are written as each time block is read (a per-host day at 1 s is
  // millions of rows): memory is one time block's rows. A damaged block
  // found before anything is written leaves the answer to the histograms;
  // after, the output is cut and the exit status says so.
  bool wrote = false;
  QueryResult r;
  PctilesCsvWriter csv(r, o.pct_labels, o.unit, false, [&wrote](const std::string& text) {
    wrote = true;
    write_out(text);
  });
  st = answer_from_matrix(&m, plan, o.query, &csv, &r);
  if (!st.ok()) {
    say("latscope pctiles: " + path + ": " + st.message + (wrote ? "; the CSV above is cut there" : after));
    if (wrote) return 2;
    return -1;
  }
  csv.finish();
  say("latscope pctiles: note: answered from " + path + "'s per-host matrix (level " +
      quantum_text(m.head().levels[plan.level]) + " ms)");
  return 0;
}

}  // namespace latscope::cli
