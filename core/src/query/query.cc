#include <algorithm>
#include <cmath>
#include <utility>

#include "latscope/engine.h"
#include "latscope/uncertainty.h"
#include "query/adaptive.h"
#include "query/aligner.h"
#include "query/budget.h"
#include "query/column_max.h"
#include "query/per_io.h"
#include "query/window_values.h"

namespace latscope {

Status compat_query(const std::vector<Source>& sources, const QueryOptions& opts, QueryResult* out);

namespace {

// A histogram's non-zero bins gathered, with their edges, into a layout of
// just those bins (docs/formats-hdr.md, "Wide layouts"). The statistics,
// percentiles and bands below scan every bin of their span and only skip or
// add its zeros, so over the gathered bins they give the same bits. Layouts
// of kWideLayoutBins or more (aligner.h) only.
struct Gathered {
  BinLayout layout;
  std::vector<double> counts;
};

// The non-zero bins of counts among `from` (ascending; each once) into *g.
void gather(const BinLayout& layout, const double* counts, const std::vector<uint32_t>& from, Gathered* g) {
  BinLayout& c = g->layout;
  c.kind = layout.kind;
  if (c.id != layout.id) c.id = layout.id;  // value_step_ns reads it
  c.coarseness = layout.coarseness;
  // Sized for every bin of `from`, written in place, cut to what was kept.
  const size_t most = from.size();
  const bool rep = !layout.rep.empty();
  if (g->counts.size() < most) {
    g->counts.resize(most);
    c.lo.resize(most);
    c.hi.resize(most);
  }
  if (rep && c.rep.size() < most) c.rep.resize(most);
  size_t n = 0, last = layout.size();
  for (const uint32_t i : from) {
    if (counts[i] == 0) continue;
    g->counts[n] = counts[i];
    c.lo[n] = layout.lo[i];
    c.hi[n] = layout.hi[i];
    if (rep) c.rep[n] = layout.rep[i];
    ++n;
    last = i;
  }
  g->counts.resize(n);
  c.lo.resize(n);
  c.hi.resize(n);
  c.rep.resize(rep ? n : 0);
  // The saturating bin is the layout's last: only then the gathered last.
  c.last_saturates = layout.last_saturates && last + 1 == layout.size();
}

// fill_row over the bins given; the window extremes (ext) are bins of extremes_layout.
// Inlined into fill_row's two calls: a per-host query at 1 s makes 720,000
// rows, and the call alone was 1.5% of it (tests/bench/count_query.sh).
__attribute__((always_inline)) inline void fill_bins(const BinLayout& layout, const double* counts,
                                                     const ExtremeBins& ext, const QueryOptions& opts, Row* row,
                                                     BinSpan span, bool bands, const BinLayout& extremes_layout) {
  double sum = -1;
  if (!counts || !compute_stats(layout, counts, &row->stats, span, &sum)) {
    row->flags |= kFlagEmpty;
    return;
  }
  if (opts.method == Method::kHdr) hdr_stats(layout, counts, &row->stats, span);  // docs/formats-hdr.md
  // fio's p0 is bin 0's value, empty or not (percentiles.h).
  BinSpan from_zero = span;
  if (opts.method == Method::kFio) from_zero.begin = 0;
  compute_percentiles(layout, counts, opts.percentiles.data(), opts.percentiles.size(), opts.method,
                      row->p.data(), from_zero, sum);
  // Sampling band of every percentile, bins included (docs/uncertainty.md).
  if (bands) compute_bands(layout, counts, opts.percentiles.data(), opts.percentiles.size(), row->p.data(), span);
  // ext holds bins of the query's layout, not of a gathered one.
  if (opts.window_extremes) limit_extremes(extremes_layout, ext, opts.method, row);  // docs/extremes.md
  for (const PercentileValue& v : row->p) {
    if (v.few_samples) row->flags |= kFlagFewSamples;
    if (v.saturated) row->flags |= kFlagSaturated;
  }
  if (row->stats.saturated) row->flags |= kFlagSaturated;
}

}  // namespace

void fill_row(const BinLayout& layout, const double* counts, const ExtremeBins& ext, const QueryOptions& opts,
              Row* row, BinSpan span, bool bands, const std::vector<uint32_t>* occupied) {
  // fio's method reads bin 0 whatever its count (percentiles.h), so it is not gathered.
  if (layout.size() >= kWideLayoutBins && counts && opts.method != Method::kFio) {
    const size_t end = std::min(span.end, layout.size()), begin = std::min(span.begin, end);
    if (occupied || end - begin >= kWideLayoutBins) {
      thread_local Gathered g;
      thread_local std::vector<uint32_t> scanned;  // the span's non-zero bins, when no list is given
      if (!occupied) {
        scanned.clear();
        for (size_t i = begin; i < end; ++i)
          if (counts[i] != 0) scanned.push_back(static_cast<uint32_t>(i));
        occupied = &scanned;
      }
      gather(layout, counts, *occupied, &g);
      fill_bins(g.layout, g.counts.data(), ext, opts, row, {0, g.counts.size()}, bands, layout);
      return;
    }
  }
  fill_bins(layout, counts, ext, opts, row, span, bands, layout);
}


namespace {

// Where part k of n starts (QueryOptions::part_index): the first busy
// quantum at or after k/n of the grid (the grid's end for k = n). The whole
// query reaches a busy quantum as itself, never inside a skipped gap, and
// a Sweep started there adds what it would have added arriving from quantum
// 0 (its cursors only skip windows that end before the quantum), so the
// parts' rows are the whole query's rows cut there, and each skipped gap's
// note comes from the one part holding its start.
//
// With pixel columns (QueryOptions::columns) the cut moves on to the first
// quantum of the next column, so that each column's rows come from one part
// (ColumnMaxSink makes one row per column and group of the rows it gets).
size_t part_cut(const Plan& plan, const QueryOptions& opts, uint32_t k, uint32_t n) {
  if (k == 0) return 0;
  if (k >= n) return plan.quanta;
  double at = std::floor(static_cast<double>(plan.quanta) * k / n);
  if (opts.columns > 0) {
    const double width = (opts.sel.to_ms - opts.sel.from_ms) / opts.columns;
    const double c = std::floor(((plan.first + at) * plan.quantum_ms - opts.sel.from_ms) / width);
    if (c >= 0 && c + 1 < opts.columns) {  // else the cut is in the first or last column: at its end
      at = std::ceil((opts.sel.from_ms + (c + 1) * width) / plan.quantum_ms) - plan.first;
      // The quantum's own column decides (ColumnMaxSink::column_of's rounding).
      const auto col = [&](double j) { return std::floor(((plan.first + j) * plan.quantum_ms - opts.sel.from_ms) / width); };
      while (at > 0 && col(at - 1) > c) --at;
      while (col(at) <= c) ++at;
    } else {
      at = c < 0 ? std::ceil(opts.sel.from_ms / plan.quantum_ms) - plan.first : static_cast<double>(plan.quanta);
    }
    at = std::min(std::max(at, 0.0), static_cast<double>(plan.quanta));
  }
  return Sweep(plan).next_busy(static_cast<size_t>(at));
}

// Answers that keep their rows (not the sweep's) hand them to a sink after.
Status handed(Status st, QueryResult* out, RowSink* sink) {
  if (sink && st.ok()) {
    sink->expect(out->rows.size());
    for (const Row& r : out->rows) sink->add(r);
    std::vector<Row>().swap(out->rows);
  }
  return st;
}

// A fresh answer, or why the percentiles asked cannot be.
Status begin_answer(const QueryOptions& opts, QueryResult* out) {
  *out = QueryResult();
  out->quantum_ms = opts.quantum_ms;
  for (double p : opts.percentiles)
    if (!(p >= 0 && p <= 100))
      return Status::Error(ErrorCode::kInvalidArgument, "percentiles must be within [0, 100]");
  return Status::Ok();
}

}  // namespace

size_t Engine::query_rows_bound(const QueryOptions& opts) const {
  if (opts.compat_fio_histo_log_pctiles || opts.adaptive_accuracy > 0) return 0;
  Plan plan;
  if (!make_plan(sources_, opts.sel, opts.group_by, opts.quantum_ms, &plan).ok() || !plan.layout) return 0;
  return row_quanta_bound(plan) * plan.groups.size();
}

Status Engine::query(const QueryOptions& opts, QueryResult* out) const {
  return query(opts, out, nullptr);
}

Status Engine::query(const QueryOptions& opts, QueryResult* out, RowSink* sink) const {
  if (opts.columns > 0) {  // the worst quantum per pixel column (query/column_max.h)
    const Selection& sel = opts.sel;
    if (!std::isfinite(sel.from_ms) || !std::isfinite(sel.to_ms) || !(sel.from_ms < sel.to_ms)) {
      *out = QueryResult();
      return Status::Error(ErrorCode::kInvalidArgument,
                           "\"columns\" needs the range the columns cover: finite from_ms < to_ms");
    }
    std::vector<Row> kept;
    ColumnMaxSink cm(sel.from_ms, sel.to_ms, opts.columns, opts.percentiles.size(), sink, sink ? nullptr : &kept);
    Status st = answer(opts, out, &cm);
    if (!st.ok()) return st;
    cm.finish();
    if (!sink) out->rows = std::move(kept);
    return st;
  }
  return answer(opts, out, sink);
}

// The rows of every quantum (columns, when asked, are made of them by the
// caller's sink; query_sources cuts parts between them).
Status Engine::answer(const QueryOptions& opts, QueryResult* out, RowSink* sink) const {
  if (Status st = begin_answer(opts, out); !st.ok()) return st;
  // Only fixed quanta are cut into parts; the other kinds are answered whole by part 0.
  const bool first_part = opts.part_index == 0;
  if (opts.compat_fio_histo_log_pctiles)
    return first_part ? handed(compat_query(sources_, opts, out), out, sink) : Status::Ok();
  if (opts.adaptive_accuracy > 0)  // query/adaptive.h
    return first_part ? handed(adaptive_query(sources_, opts, out), out, sink) : Status::Ok();
  return query_sources(refs_of(sources_), opts, out, sink);
}

Status query_sources(const SourceRefs& sources, const QueryOptions& opts, QueryResult* out, RowSink* sink,
                     WindowFeed* feed) {
  if (Status st = begin_answer(opts, out); !st.ok()) return st;
  const bool first_part = opts.part_index == 0;
  Plan plan;
  Status st = make_plan(sources, opts.sel, opts.group_by, opts.quantum_ms, &plan);
  if (!st.ok()) return st;
  if (const std::string why = unfed_series(plan, feed); !why.empty())
    return Status::Error(ErrorCode::kInvalidArgument, why);
  std::vector<Selected> window_values;  // fio log_avg_msec logs (query/window_values.h)
  for (const Source* src : sources) select_window_values(*src, opts.sel, &window_values);
  if (plan.series.empty() && !window_values.empty())
    return first_part ? handed(window_value_query(std::move(window_values), opts, out), out, sink) : Status::Ok();
  take_plan_facts(plan, out);
  if (!window_values.empty()) out->notes.push_back(window_values_left_out_note(window_values.size()));
  if (!plan.layout) return Status::Ok();
  const bool exact = opts.method == Method::kExact && exact_possible(plan.series, opts.max_per_io_samples, &out->notes);  // per_io.h

  const size_t k = plan.layout->size();
  const size_t np = opts.percentiles.size();
  Sweep sweep(plan, feed);
  std::vector<double> acc;
  std::vector<uint32_t> flags;
  std::vector<ExtremeBins> ext;
  std::vector<std::vector<uint64_t>> raw;
  // The sweep's one quantum: a dense histogram per group (Sweep::next).
  const double sweep_bytes = 8.0 * static_cast<double>(k) * static_cast<double>(plan.groups.size());
  if (sweep_bytes > static_cast<double>(opts.max_query_bytes))
    return Status::Error(ErrorCode::kInvalidArgument,
                         over_budget("the fold", std::to_string(plan.groups.size()) + " groups of " +
                                                     std::to_string(k) + " bins",
                                     sweep_bytes, opts.max_query_bytes));
  const size_t rows_bound = row_quanta_bound(plan) * plan.groups.size();
  // Rows held here count against the query's budget (budget.h); a sink
  // takes them as they come.
  if (!sink && static_cast<double>(rows_bound) * row_bytes(np) > static_cast<double>(opts.max_query_bytes))
    return Status::Error(ErrorCode::kInvalidArgument,
                         over_budget("the answer", "up to " + std::to_string(rows_bound) + " rows",
                                     static_cast<double>(rows_bound) * row_bytes(np), opts.max_query_bytes));
  if (sink) sink->expect(rows_bound);
  else out->rows.reserve(rows_bound);
  const bool bands = opts.bands && (!sink || sink->wants_bands());
  out->bands = bands;
  Row row;  // reused: its percentile vector is allocated once
  size_t j_begin = 0, j_end = plan.quanta;
  if (opts.part_count > 1) {
    j_begin = part_cut(plan, opts, opts.part_index, opts.part_count);
    j_end = part_cut(plan, opts, opts.part_index + 1, opts.part_count);
  }
  for (size_t j = j_begin; j < j_end; ++j) {
    sweep.fill(j);
    if (feed && !feed->status().ok()) return feed->status();
    if (!sweep.status().ok()) return sweep.status();
    const size_t busy = sweep.next_busy(j);
    if (busy - j >= kSkipEmptyQuanta) {
      out->notes.push_back(skipped_quanta_note((plan.first + static_cast<double>(j)) * plan.quantum_ms,
                                               (plan.first + static_cast<double>(busy)) * plan.quantum_ms, busy - j));
      j = busy - 1;
      continue;
    }
    sweep.next(j, &acc, &flags, &ext, exact ? &raw : nullptr);
    if (!sweep.status().ok()) return sweep.status();
    const bool wide = plan.layout && plan.layout->size() >= kWideLayoutBins;  // Sweep::occupied
    for (size_t g = 0; g < plan.groups.size(); ++g) {
      row.t_ms = (plan.first + static_cast<double>(j)) * plan.quantum_ms;
      row.group = static_cast<uint32_t>(g);
      row.stats = Stats();
      row.p.assign(np, PercentileValue());
      row.flags = flags[g];
      row.width_ms = 0;
      const double* counts = acc.data() + g * k;
      // Only the bins this quantum added to (Sweep::touched) can hold counts.
      const ExtremeBins& t = sweep.touched()[g];
      const BinSpan span = t.any() ? BinSpan{t.lo, size_t{t.hi} + 1} : BinSpan{0, 0};
      if (exact) fill_row_exact(&raw[g], opts, &row);
      else fill_row(*plan.layout, counts, ext[g], opts, &row, span, bands, wide ? &sweep.occupied()[g] : nullptr);
      if (sink) sink->add(row);
      else out->rows.push_back(row);
    }
  }
  return Status::Ok();
}

}  // namespace latscope
