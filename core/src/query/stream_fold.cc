// The fold by file (stream_impl.h): each series swept as Engine::query
// sweeps (aligner.h Sweep) and its quanta added into the (quantum, group)
// cells, so the sums are bit for bit the query's (stream.cc says why); the
// common layout as files bring theirs; the grid quantized once into a result.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "latscope/text.h"
#include "query/layout_merge.h"
#include "query/stream_impl.h"

namespace latscope {

using stream_detail::Coverage;
using stream_detail::PendingTail;
using stream_detail::Cell;
using stream_detail::result_group;
using stream_detail::Span;

// The common layout, chosen as make_plan does over the layouts seen so far;
// cells already folded move onto a new target (a coarsening is exact).
void StreamingQuery::Impl::use_layout(const LayoutPtr& l) {
  layouts[l->id] = l;
  const LayoutPtr next = merge_layout(layouts);  // query/layout_merge.h
  if (target && next->id != target->id) {
    std::unique_ptr<RebinMap> m = make_rebin(*target, *next);
    const bool to_sparse = next->size() >= kWideLayoutBins;
    for (auto& kv : cells) {
      Cell moved;
      const Cell& old = kv.second;
      inc.clear();
      old.each([&](uint32_t b, double x) {
        if (to_sparse) {
          rebinned(*m, b, x, [this](uint32_t t, double part) { inc.emplace_back(t, part); });
          return;
        }
        for (uint32_t r = m->start[b]; r < m->start[b + 1]; ++r) moved.cover(m->to[r], m->to[r]);
        add_rebinned(*m, b, x, moved.v.data() - moved.lo);
      });
      if (to_sparse) {
        SparseCounts::order(&inc);
        moved.sp.add(inc, moved.sp.fresh_bins(inc));
      }
      moved.io.swap(kv.second.io);  // per-I/O values do not depend on the layout
      // every target bin the old extreme bins spread into, as Sweep adds them
      for (auto [from, to] : {std::pair{&old.ext, &moved.ext}, std::pair{&old.mid, &moved.mid}})
        if (from->any())
          for (uint32_t b : {from->lo, from->hi})
            for (uint32_t r = m->start[b]; r < m->start[b + 1]; ++r) to->add(m->to[r]);
      kv.second = std::move(moved);
    }
    held = 0;
    for (const auto& kv : cells) held += kv.second.bytes();
    rebin.clear();
  }
  target = next;
  sparse = target->size() >= kWideLayoutBins;
}

const RebinMap* StreamingQuery::Impl::map_for(const BinLayout& l) {
  if (l.id == target->id) return nullptr;
  auto& m = rebin[l.id];
  if (!m) m = make_rebin(l, *target);
  return m.get();
}

// The grid quantized once into a result (result.h): one series per group.
Status StreamingQuery::Impl::to_result(Result* r) {
  *r = Result();
  r->quantum_ms = opts.quantum_ms;
  bool any_abs = false, any_rel = false;
  for (const Coverage& c : coverage) (c.absolute ? any_abs : any_rel) = true;
  r->absolute_time = any_abs && !any_rel;
  if (!target) return Status::Ok();
  std::vector<ResultSeries> s(group_names.size());
  std::vector<uint8_t> seen(group_names.size(), 0);
  for (const Coverage& c : coverage) {
    ResultSeries& x = s[c.group];
    if (!seen[c.group]) {
      x.span_start_ms = c.start;
      x.span_end_ms = c.end;
      x.full_start_ms = c.full_start;
      x.full_end_ms = c.full_end;
      seen[c.group] = 1;
    }
    x.span_start_ms = std::min(x.span_start_ms, c.start);
    x.span_end_ms = std::max(x.span_end_ms, c.end);
    x.full_start_ms = std::max(x.full_start_ms, c.full_start);
    x.full_end_ms = std::min(x.full_end_ms, c.full_end);
  }
  for (size_t g = 0; g < s.size(); ++g) {
    s[g].labels = group_labels[g];
    s[g].layout = target;
  }
  // Held sources (stream_hold.cc) are folded a slice at a time, each
  // slice's cells quantized and freed before the next is made.
  horizon = -HUGE_VAL;
  slice = 64;
  for (;;) {
    const bool more = holding && fold_slice(HUGE_VAL);
    if (!error.ok()) return error;
    if (Status st = cells_to_result(&s); !st.ok()) return st;
    if (!more) break;
  }
  r->series = std::move(s);
  r->normalize();
  return Status::Ok();
}

// Every cell into its group's result series, in (quantum, group) order; the
// cells are freed.
Status StreamingQuery::Impl::cells_to_result(std::vector<ResultSeries>* out) {
  std::vector<ResultSeries>& s = *out;
  for (auto& kv : cells) {
    ResultCell cell;
    cell.quantum = kv.first.first;
    const Cell& c = kv.second;
    bool too_large = false;
    c.each([&](uint32_t b, double x) {
      const double units = result_units(x);
      if (!(units >= 1)) return;
      if (!(units < 18446744073709551616.0)) too_large = true;
      if (too_large) return;
      cell.bins.push_back(b);
      cell.counts.push_back(static_cast<uint64_t>(units));
    });
    if (too_large)
      return Status::Error(ErrorCode::kInvalidArgument, "a count too large for a result (over 2^36 I/Os in one cell)");
    cell.extremes = c.mid;  // docs/extremes.md, "Results"
    if (!cell.bins.empty()) s[kv.first.second].cells.push_back(std::move(cell));
  }
  cells.clear();
  held = 0;
  return Status::Ok();
}

CoCorrector* StreamingQuery::Impl::corrector_for(const LayoutPtr& l, double interval_ns) {
  std::unique_ptr<CoCorrector>& c = correctors[l.get()];
  if (!c) c = std::make_unique<CoCorrector>(l, interval_ns);
  return c.get();
}

// One series into its cells: the sweep of Engine::query (aligner.h Sweep,
// add_window) over a plan of this series alone, each quantum's counts then
// added to the (quantum, group) cell. Counts are whole result units
// (aligner.h on_result_grid), so a cell's sum is the same bits whether its
// windows are added one by one or a series' at once (exact below 2^25 I/Os
// in one bin of one cell: docs/result-format.md, "Counts: fixed point").
void StreamingQuery::Impl::fold(const Series& s, double offset, uint32_t group, CoCorrector* co, Span span) {
  const double q = opts.quantum_ms;
  bool keep_io = false;
  if (opts.method == Method::kExact) {
    if (!s.has_io_values() || co) {  // corrected copies are no I/Os (co.h)
      ++io_missing;
    } else if (!io_over && (io_kept += s.io_ns.size()) > opts.max_per_io_samples) {
      io_over = true;  // the query would hold too many values: bins only
      for (auto& kv : cells) std::vector<uint64_t>().swap(kv.second.io);
    } else {
      keep_io = !io_over;
    }
  }
  // The quanta the series reaches, within the span and the query's range;
  // times no grid can hold are skipped (the query's own range check
  // reports them).
  // Windows come in time order: those wholly before the span are done for
  // good (span.from), the first wholly after it ends the scan. They make
  // stretches of quanta, apart where no window reaches kSkipEmptyQuanta quanta
  // or more (a clock jump of years is two short stretches, never one sweep
  // across it: a stretch's quanta fit a size_t of 32 bits, as in WebAssembly).
  struct Stretch {
    double lo, hi;
    size_t first_window;
  };
  std::vector<Stretch> stretches;
  size_t from = span.from ? *span.from : 0;
  bool before = true;
  for (size_t wi = from; wi < s.windows.size(); ++wi) {
    const Window& w = s.windows[wi];
    if (w.n == 0) continue;
    const double st = w.start_ms + offset, e = w.end_ms + offset;
    const double j0 = std::floor((e > st ? st : e) / q) - 1, j1 = std::floor(e / q) + 1;
    if (!std::isfinite(j0) || !std::isfinite(j1) || std::fabs(j1) > 9e15 || j1 - j0 > 50e6) continue;
    if (j1 < span.lo) {
      if (before) from = wi + 1;
      continue;
    }
    before = false;
    if (j0 >= span.hi) break;
    const double a = std::max({j0, span.lo, skip_before}), b = std::min({j1 + 1, span.hi, skip_after});
    if (!(a < b)) continue;
    if (stretches.empty() || a > stretches.back().hi + static_cast<double>(kSkipEmptyQuanta)) stretches.push_back({a, b, wi});
    else stretches.back().hi = std::max(stretches.back().hi, b);
  }
  if (span.from) *span.from = from;
  Selected x;
  x.series = &s;
  x.offset_ms = offset;
  x.rebin = map_for(*s.layout);
  x.co = co;
  x.unit = std::ldexp(1.0, -static_cast<int>(s.count_frac_bits));  // model.h
  x.full_start = -HUGE_VAL;  // flags are the fold's finish's (stream.cc)
  x.full_end = HUGE_VAL;
  std::vector<double> acc;
  std::vector<uint32_t> flags;
  std::vector<ExtremeBins> ext;
  std::vector<std::vector<uint64_t>> raw;
  for (const Stretch& run : stretches) {
    Plan plan;
    plan.series.push_back(x);
    plan.groups.emplace_back();
    plan.layout = target;
    plan.first = run.lo;
    plan.quanta = static_cast<size_t>(run.hi - run.lo);
    plan.quantum_ms = q;
    Sweep sweep(plan);
    sweep.keep_own();
    sweep.start_at(0, run.first_window);
    for (size_t j = sweep.next_busy(0); j < plan.quanta; j = sweep.next_busy(j + 1)) {
      sweep.next(j, &acc, &flags, &ext, keep_io ? &raw : nullptr);
      if (!sweep.status().ok()) {
        error = sweep.status();
        return;
      }
      if (!add_quantum(sweep, acc, ext[0], keep_io ? &raw[0] : nullptr, run.lo + static_cast<double>(j), group))
        return;
    }
  }
}

// The counts the sweep of one series made for quantum j into cell (j,
// group); false when the query's memory would go over its limit (error set).
bool StreamingQuery::Impl::add_quantum(const Sweep& sweep, const std::vector<double>& acc, const ExtremeBins& ext,
                                     const std::vector<uint64_t>* io, double j, uint32_t group) {
  const double q = opts.quantum_ms;
  const ExtremeBins& t = sweep.touched()[0];
  if (!t.any()) return true;
  // What the cell grows by, checked before it is allocated (budget.h).
  const std::pair<int64_t, uint32_t> key{static_cast<int64_t>(j), group};
  auto it = cells.lower_bound(key);
  const bool fresh = it == cells.end() || it->first != key;
  double grow = kCellBytes + 8.0 * (static_cast<double>(t.hi - t.lo) + 1);
  size_t fresh_bins = 0;  // sparse cells: the bins this quantum adds to the cell
  if (sparse) {
    inc.clear();
    for (const uint32_t b : sweep.occupied()[0]) inc.emplace_back(b, acc[b]);
    fresh_bins = fresh ? SparseCounts().fresh_bins(inc) : it->second.sp.fresh_bins(inc);
    grow = (fresh ? kCellBytes : 0) + 12.0 * static_cast<double>(fresh_bins);
  } else if (!fresh) {
    const Cell& o = it->second;
    const double had = static_cast<double>(o.v.size());
    const double top = std::max(static_cast<double>(o.lo) + had, static_cast<double>(t.hi) + 1);
    grow = 8.0 * (top - static_cast<double>(std::min(o.lo, t.lo)) - had);
  }
  if (held + grow > static_cast<double>(opts.max_query_bytes)) {
    error = Status::Error(ErrorCode::kInvalidArgument,
                          over_budget(folding, std::to_string(cells.size()) + " cells of " + format_number(q) +
                                                   " ms quanta and more",
                                      held + grow, opts.max_query_bytes));
    return false;
  }
  held += grow;
  if (fresh) it = cells.emplace_hint(it, key, Cell());
  Cell& c = it->second;
  // docs/extremes.md: the bins of the windows whose midpoint lies here
  // (a result's cell records them), and where the row's extremes may
  // come from (Sweep: this series' own, else all it added here).
  c.mid.add(sweep.own()[0]);
  c.ext.add(ext);
  if (io) c.io.insert(c.io.end(), io->begin(), io->end());
  if (sparse) {
    c.sp.add(inc, fresh_bins);
    return true;
  }
  c.cover(t.lo, t.hi);
  double* v = c.v.data() - c.lo;
  for (uint32_t b = t.lo; b <= t.hi; ++b) v[b] += acc[b];
  return true;
}

void StreamingQuery::Impl::fold_selected(const Source& src, const std::vector<Selected>& sel) {
  Impl& I = *this;
  double co_ns = 0;
  const bool co = co_interval_ns(I.opts.sel, &co_ns);
  I.folding = src.name;
  // Every layout of the source first: the target then moves at most once per
  // source. Cells moved onto a target that a later layout replaces were
  // re-binned twice (a file of several HdrHistogram configurations lost its
  // top values; Stream.WideLayoutsGiveTheStoredModelsRowsBitForBit).
  for (const Selected& x : sel) I.use_layout(x.series->layout);
  for (const Selected& x : sel) {
    if (!I.error.ok()) return;
    // Every quantum a series' windows reach costs at least a cell and a row:
    // a log asked at a tiny quantum is refused before anything is allocated.
    const double quanta = distinct_quanta(*x.series, x.offset_ms, I.opts.quantum_ms);
    const double least = least_bytes(quanta, I.opts.percentiles.size());
    if (least > static_cast<double>(I.opts.max_query_bytes)) {
      char what[120];
      std::snprintf(what, sizeof what, "%.17g quanta of %.17g ms", quanta, I.opts.quantum_ms);
      I.error = Status::Error(ErrorCode::kInvalidArgument, over_budget(src.name, what, least, I.opts.max_query_bytes));
      return;
    }
    I.any_series = true;
    const size_t serial = I.serials++;
    I.finer.count(x.interval_ms, I.opts.quantum_ms, src.name);
    for (const Labels* l : {&x.series->labels, &src.labels})
      for (const auto& kv : l->items()) I.labels_seen.insert(kv.first);
    // With coordinated-omission correction each series is folded twice, as
    // recorded and corrected, into groups co=uncorrected / co=corrected.
    for (int corrected = 0; corrected <= (co ? 1 : 0); ++corrected) {
      Labels kept;
      const std::string base = result_group(src, *x.series, I.opts.group_by, &kept);
      const std::string key = co ? co_key(base, corrected != 0) : base;
      auto it = I.group_ids.find(key);
      if (it == I.group_ids.end()) {
        it = I.group_ids.emplace(key, static_cast<uint32_t>(I.group_names.size())).first;
        I.group_names.push_back(key);
        I.group_labels.push_back(kept);
      }
      CoCorrector* cc = corrected ? I.corrector_for(x.series->layout, co_ns) : nullptr;
      I.use_layout(x.series->layout);
      I.coverage.push_back(
          {it->second, x.cover_start, x.cover_end, src.absolute_time, x.full_start, x.full_end, x.interval_ms, serial});
      if (!cc) add_time_runs(*x.series, x.offset_ms, src.name, serial, I.opts.quantum_ms, &I.runs);
      if (I.holding) I.hold(*x.series, x.offset_ms, it->second, cc, &src.name);
      else I.fold(*x.series, x.offset_ms, it->second, cc);
      if (I.opts.sel.complete_tail && !I.json.series.empty()) {
        PendingTail t;
        const TailOutcome o = json_tail_for(I.json, x, &t.tail);
        if (o == TailOutcome::kAdded) {
          t.key = tail_key_of_log(src, *x.series);
          t.group = it->second;
          t.co = cc;
          t.offset = x.offset_ms;
          t.coverage = I.coverage.size() - 1;
          t.json_name = I.json.source.at(t.key)->name;
          t.log_name = src.name;
          I.tails.push_back(std::move(t));
        } else {
          I.tally.count(o, "");
        }
      }
    }
  }
}

}  // namespace latscope
