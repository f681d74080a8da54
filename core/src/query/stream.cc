// StreamingQuery (stream.h): the parts' finish, for the fold by file.
//
// Engine::query sweeps quanta and, for each, adds every selected series'
// overlapping windows in series order (query_sources). While every part
// holds its sources, StreamingQuery::finish hands them to that same sweep.
// Otherwise each series is swept alone as it arrives (stream_fold.cc) and
// its quanta added to the (quantum, group) cells: counts are whole result
// units, so a cell's sum is the query's bits whatever the grouping of its
// additions; quantum edges are index * Q in both.
#include "latscope/stream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "query/layout_merge.h"
#include "query/per_io.h"
#include "query/stream_impl.h"

namespace latscope {

using stream_detail::Coverage;
using stream_detail::PendingTail;
using stream_detail::Cell;

Status StreamingQuery::add_part(const Source& src) {
  Impl& I = *impl_;
  if (!I.error.ok()) return I.error;
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    if (source_excluded(src, I.opts.sel)) return Status::Ok();  // as make_plan: no tails, no placement
    // Kept for tails and placement, and for queries of json+ alone
    // (docs/whole-run.md): whole-run histograms are small.
    I.json_sources.push_back(src);
    I.json.add(I.json_sources.back());
    return Status::Ok();
  }
  for (const Series& s : src.series) ++I.logs_per_key[tail_key_of_log(src, s)];
  // Held (stream_hold.cc): the source given (add(Source&&)) or a copy.
  std::shared_ptr<const Source> keep;
  if (I.holding) {
    const std::shared_ptr<const Source>* given = stream_detail::donated_source();
    keep = given && given->get() == &src ? *given : std::make_shared<const Source>(src);
  }
  const Source& use = keep ? *keep : src;
  std::vector<Selected> sel;
  select_series(use, I.opts.sel, &sel);
  if (I.opts.sel.place_jobs) place_series(I.json, sel.begin(), sel.end(), &I.placed);  // as make_plan
  for (const Selected& x : sel) I.late.see(x);
  I.fold_selected(use, sel);
  if (I.holding && !sel.empty()) {
    I.kept_sources.push_back(std::move(keep));
    I.kept_bytes += stream_detail::source_model_bytes(use);
    if (!I.holding_pays()) I.flush_held();
  }
  return I.error;
}

Status StreamingQuery::finish_part(QueryResult* out, Result* res, RowSink* sink) {
  Impl& I = *impl_;
  *out = QueryResult();
  out->quantum_ms = I.opts.quantum_ms;
  if (!I.error.ok()) return I.error;
  for (const std::string& name : I.opts.group_by)
    if (!res && I.any_series && !I.labels_seen.count(name))
      return unknown_group_label(name, {I.labels_seen.begin(), I.labels_seen.end()});

  // fio json+ alone: its whole-run histograms, as make_plan falls back to
  // them (docs/whole-run.md).
  if (!I.any_series) {
    I.flush_held();  // nothing is held: these fold by file
    bool any = false;
    for (const Source& src : I.json_sources) {
      std::vector<Selected> sel;
      select_series(src, I.opts.sel, &sel, Role::kWholeRun);
      if (!sel.empty()) any = true;
      I.fold_selected(src, sel);
      if (!I.error.ok()) return I.error;
    }
    if (any) out->notes.push_back(whole_run_note());
  }
  // Tails last, as Engine::query appends them after every series.
  for (PendingTail& t : I.tails) {
    if (I.logs_per_key[t.key] != 1) {
      I.tally.count(TailOutcome::kAmbiguous, "");
      continue;
    }
    I.tally.count(TailOutcome::kAdded, t.json_name);
    I.folding = t.log_name;
    if (I.holding) I.jobs.push_back({&t.tail, t.offset, t.group, t.co, &t.log_name});
    else I.fold(t.tail, t.offset, t.group, t.co);
    if (!I.error.ok()) return I.error;
    if (!t.co) add_time_runs(t.tail, t.offset, t.log_name, I.coverage[t.coverage].serial, I.opts.quantum_ms, &I.runs);
    I.coverage[t.coverage].end = I.coverage[t.coverage].full_end = t.tail.windows.back().end_ms + t.offset;
  }
  out->notes.insert(out->notes.end(), I.time_notes.begin(), I.time_notes.end());
  I.placed.notes(&out->notes);
  for (const auto& [ms, files] : I.placed.shifted)
    for (const std::string& f : files) out->placed[f] = ms;
  I.late.notes(&out->notes);
  I.finer.notes(I.opts.quantum_ms, &out->notes);
  out->diag.merge(I.time_diag);
  I.tally.notes(&out->notes);
  bool exact = false;  // as exact_possible decides for Engine::query (per_io.h)
  if (I.opts.method == Method::kExact) {
    if (I.io_missing) out->notes.push_back(exact_fallback_note(I.io_missing));
    else if (I.io_over) out->notes.push_back(exact_budget_note(I.opts.max_per_io_samples));
    else exact = true;
  }

  if (I.layouts.size() > 1) {
    const std::string what = describe_layout_merge(I.layouts, *I.target);
    if (!what.empty()) out->diag.add(Issue::kMixedLayouts, 0, 0, what);
  }
  bool any_abs = false, any_rel = false;
  for (const Coverage& c : I.coverage) (c.absolute ? any_abs : any_rel) = true;
  out->absolute_time = any_abs && !any_rel;

  // Groups in natural order, as make_plan lists them.
  std::vector<std::string> names = I.group_names;
  std::sort(names.begin(), names.end(), natural_less);
  out->groups = names;
  if (res) return I.to_result(res);
  std::vector<uint32_t> order(names.size());  // output index -> folded group id
  for (size_t g = 0; g < names.size(); ++g) order[g] = I.group_ids[names[g]];
  if (!I.target || I.coverage.empty()) return Status::Ok();
  out->layout_id = I.target->id;

  const double q = I.opts.quantum_ms;
  std::vector<double> max_start(I.group_names.size(), -HUGE_VAL), min_end(I.group_names.size(), HUGE_VAL);
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const Coverage& c : I.coverage) {
    lo = std::min(lo, c.start);
    hi = std::max(hi, c.end);
  }
  double first = 0, last = 0;
  std::vector<TimeRun>& time_runs = I.runs;
  std::vector<size_t> gone;  // serials none of whose windows is on the axis (axis.h)
  Status ast = decide_axis(
      &lo, &hi, out->absolute_time, I.opts.sel, q, [&time_runs](std::vector<TimeRun>* r) { r->swap(time_runs); },
      &first, &last, &out->notes, &out->diag, &gone);
  if (!ast.ok()) return ast;
  std::vector<std::vector<std::pair<double, double>>> finer(I.group_names.size());  // spans of finer series
  for (const Coverage& c : I.coverage) {
    if (std::find(gone.begin(), gone.end(), c.serial) != gone.end()) continue;
    if (finer_than_interval(c.interval, q)) finer[c.group].emplace_back(c.start, c.end);
    max_start[c.group] = std::max(max_start[c.group], c.full_start);
    min_end[c.group] = std::min(min_end[c.group], c.full_end);
  }

  // Each group's finer spans as disjoint runs in time order, walked once as
  // the quanta go by: a per_job_logs=0 log restarting every other line has
  // a span per segment, and testing every span in every quantum was
  // quadratic.
  std::vector<size_t> finer_at(finer.size(), 0);
  for (std::vector<std::pair<double, double>>& spans : finer) {
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> runs;
    for (const std::pair<double, double>& s : spans) {
      if (!runs.empty() && s.first <= runs.back().second) runs.back().second = std::max(runs.back().second, s.second);
      else runs.push_back(s);
    }
    spans.swap(runs);
  }
  const BinLayout& L = *I.target;
  const size_t np = I.opts.percentiles.size();
  // As query_sources decides it: a sink that shows no bands is spared them.
  const bool bands = I.opts.bands && (!sink || sink->wants_bands());
  out->bands = bands;
  std::vector<double> dense(L.size(), 0.0);
  // Rows come from here only when every part folded by file: held
  // sources are swept by StreamingQuery::finish (query_sources).
  I.flush_held();
  if (!I.error.ok()) return I.error;
  for (double j = first; j < last; ++j) {
    // Long runs where no group has a count (as Sweep::next_busy sees them).
    const auto busy_it = I.cells.lower_bound({static_cast<int64_t>(j), 0});
    const double busy = busy_it == I.cells.end() ? last : std::min(last, static_cast<double>(busy_it->first.first));
    if (busy - j >= static_cast<double>(kSkipEmptyQuanta)) {
      out->notes.push_back(skipped_quanta_note(j * q, busy * q, static_cast<size_t>(busy - j)));
      j = busy - 1;
      continue;
    }
    const double a = j * q, b = a + q;
    for (size_t g = 0; g < names.size(); ++g) {
      const uint32_t id = order[g];
      Row row;
      row.t_ms = a;
      row.group = static_cast<uint32_t>(g);
      row.p.resize(np);
      if (a < max_start[id] || b > min_end[id]) row.flags |= kFlagPartial;
      // As Sweep::next decides it (aligner.cc): a quantum overlapping a finer series' span.
      const std::vector<std::pair<double, double>>& spans = finer[id];
      size_t& k = finer_at[id];
      while (k < spans.size() && spans[k].second <= a) ++k;
      if (k < spans.size() && a < spans[k].second && b > spans[k].first) row.flags |= kFlagFiner;
      auto it = I.cells.find({static_cast<int64_t>(j), id});
      const double* counts = nullptr;
      const std::vector<uint32_t>* occupied = nullptr;  // sparse cells: the only bins with counts
      std::vector<uint64_t> io;
      ExtremeBins ext;
      if (it != I.cells.end()) {
        Cell& c = it->second;
        ext = c.ext;
        io.swap(c.io);
        if (I.sparse) {  // dense is all zeros between rows: only these bins are set, then reset
          for (size_t i = 0; i < c.sp.size(); ++i) dense[c.sp.bins[i]] = c.sp.v[i];
          occupied = &c.sp.bins;
        } else {
          std::fill(dense.begin(), dense.end(), 0.0);
          std::copy(c.v.begin(), c.v.end(), dense.begin() + c.lo);
        }
        counts = dense.data();
      }
      if (exact) fill_row_exact(&io, I.opts, &row);
      else fill_row(L, counts, ext, I.opts, &row, BinSpan{}, bands, occupied);
      if (it != I.cells.end()) {
        if (occupied)
          for (const uint32_t bin : *occupied) dense[bin] = 0;
        I.held -= it->second.bytes();
        I.cells.erase(it);  // each cell is read once: free it as the rows go out
      }
      if (sink) {  // handed on, not held
        sink->add(row);
        continue;
      }
      // The rows held count against the same budget as the grid (budget.h).
      if (static_cast<double>(out->rows.size() + 1) * row_bytes(np) > static_cast<double>(I.opts.max_query_bytes))
        return Status::Error(ErrorCode::kInvalidArgument,
                             over_budget("the answer", std::to_string(out->rows.size() + 1) + " rows and more",
                                         static_cast<double>(out->rows.size() + 1) * row_bytes(np),
                                         I.opts.max_query_bytes));
      out->rows.push_back(std::move(row));
    }
  }
  return Status::Ok();
}

}  // namespace latscope
