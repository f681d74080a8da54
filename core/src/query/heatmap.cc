#include <algorithm>
#include <cmath>
#include <cstdio>

#include "latscope/engine.h"
#include "query/aligner.h"
#include "query/density.h"
#include "query/per_io.h"

namespace latscope {

// The latency rows of a heat map (docs/page-views.md, "One colour scale"):
// `rows` log-spaced ranges between min_ns and max_ns, each 0 meaning the
// lowest or highest non-empty bin edge of the plan's series.
void latency_row_edges(const Plan& plan, double min_ns, double max_ns, uint32_t rows, std::vector<double>* edges) {
  double lo = min_ns, hi = max_ns;
  if (lo <= 0 || hi <= 0) {
    double dmin = HUGE_VAL, dmax = 0;
    for (const Selected& x : plan.series) {
      const BinLayout& sl = *x.series->layout;
      for (const Window& w : x.series->windows)
        x.series->for_each_bin(w, [&](uint32_t b, uint64_t) {
          dmin = std::min(dmin, sl.lo[b]);
          dmax = std::max(dmax, (sl.last_saturates && b + 1 == sl.size()) ? sl.lo[b] * 1.01 : sl.hi[b]);
        });
    }
    if (lo <= 0) lo = dmin < HUGE_VAL ? dmin : 1;
    if (hi <= 0) hi = dmax > 0 ? dmax : lo * 10;
  }
  lo = std::max(lo, 1.0);  // log scale: 1 ns floor (fio's bin 0 starts at 0)
  if (hi <= lo) hi = lo * 2;
  edges->resize(rows + 1);
  const double ratio = std::log(hi / lo);
  for (uint32_t r = 0; r <= rows; ++r) (*edges)[r] = lo * std::exp(ratio * r / rows);
  edges->back() = hi;
}

Status check_heatmap_options(const HeatmapOptions& opts) {
  if (opts.rows == 0 || opts.rows > 100000)
    return Status::Error(ErrorCode::kInvalidArgument, "rows must be within 1..100000");
  if (opts.min_ns < 0 || opts.max_ns < 0 || (opts.max_ns > 0 && opts.min_ns >= opts.max_ns))
    return Status::Error(ErrorCode::kInvalidArgument, "latency bounds need 0 <= min < max");
  if (opts.density_by.empty()) return Status::Ok();
  if (opts.y != HeatmapOptions::Y::kLatency)
    return Status::Error(ErrorCode::kInvalidArgument, "a density's rows are latencies, not block sizes or offsets");
  if (!(opts.density_percentile >= 0 && opts.density_percentile <= 100))
    return Status::Error(ErrorCode::kInvalidArgument, "the density's percentile must be within 0..100");
  return Status::Ok();
}

Status check_heatmap_cells(const char* what, size_t quanta, uint32_t rows) {
  const double cells = static_cast<double>(quanta) * rows;
  if (cells <= kMaxHeatmapCells) return Status::Ok();
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "%s of %zu quanta x %u rows = %.3g cells (%.3g GB) is over the %.3g-cell limit: a coarser "
                "quantum, fewer rows or a shorter time range (from/to)",
                what, quanta, rows, cells, cells * 8 / 1e9, kMaxHeatmapCells);
  return Status::Error(ErrorCode::kInvalidArgument, buf);
}

// Heat-map rows are log-spaced latency ranges; each bin's count is spread
// over the rows it overlaps in proportion to the overlap (uniform density
// inside a bin, the same assumption as the interpolated percentiles).
Status Engine::heatmap(const HeatmapOptions& opts, HeatmapResult* out) const {
  *out = HeatmapResult();
  Status st = check_heatmap_options(opts);
  if (!st.ok()) return st;
  Plan plan;
  Selection sel = opts.sel;
  sel.co_interval_ms = 0;  // the heat map shows what was recorded (co.h: corrections sit beside it)
  st = make_plan(sources_, sel, GroupBy{}, opts.quantum_ms, &plan);
  if (!st.ok()) return st;
  out->quantum_ms = opts.quantum_ms;
  out->absolute_time = plan.absolute_time;
  out->notes = plan.notes;
  out->diag = plan.diag;
  out->t0_ms = plan.t0;
  out->rows = opts.rows;
  if (opts.y != HeatmapOptions::Y::kLatency) return io_heatmap(plan, opts, out);  // bs / offset: per_io.h
  if (!plan.layout || plan.quanta == 0) {
    out->edges_ns.assign(opts.rows + 1, 0);
    return Status::Ok();
  }
  const BinLayout& L = *plan.layout;
  const size_t k = L.size();

  // Rows counting groups by their percentile instead of I/Os span the
  // groups' values (docs/page-views.md, "Host density").
  if (!opts.density_by.empty()) return fill_density(*this, plan, opts, out);
  latency_row_edges(plan, opts.min_ns, opts.max_ns, opts.rows, &out->edges_ns);
  const double lo = out->edges_ns.front(), hi = out->edges_ns.back();

  // Precompute bin -> rows spread.
  std::vector<uint32_t> start(k + 1);
  std::vector<int32_t> row;  // -1 below, -2 above
  std::vector<double> frac;
  for (size_t i = 0; i < k; ++i) {
    start[i] = static_cast<uint32_t>(row.size());
    const bool sat = L.last_saturates && i + 1 == k;
    double a = std::max(L.lo[i], 0.0), b = sat ? L.lo[i] : L.hi[i];
    if (b <= a) {  // a point (saturated bin): one row
      int32_t r = a < lo ? -1 : a >= hi ? -2
                  : static_cast<int32_t>(std::upper_bound(out->edges_ns.begin(), out->edges_ns.end(), a) -
                                         out->edges_ns.begin()) - 1;
      row.push_back(r);
      frac.push_back(1);
      continue;
    }
    const double w = b - a;
    if (a < lo) {
      row.push_back(-1);
      frac.push_back((std::min(b, lo) - a) / w);
    }
    if (b > hi) {
      row.push_back(-2);
      frac.push_back((b - std::max(a, hi)) / w);
    }
    const double ca = std::max(a, lo), cb = std::min(b, hi);
    if (cb > ca) {
      size_t r = static_cast<size_t>(std::upper_bound(out->edges_ns.begin(), out->edges_ns.end(), ca) -
                                     out->edges_ns.begin()) - 1;
      for (; r < opts.rows && out->edges_ns[r] < cb; ++r) {
        const double ov = std::min(cb, out->edges_ns[r + 1]) - std::max(ca, out->edges_ns[r]);
        if (ov > 0) {
          row.push_back(static_cast<int32_t>(r));
          frac.push_back(ov / w);
        }
      }
    }
  }
  start[k] = static_cast<uint32_t>(row.size());

  st = check_heatmap_cells("heat map", plan.quanta, opts.rows);
  if (!st.ok()) return st;
  out->quanta = static_cast<uint32_t>(plan.quanta);
  out->counts.assign(plan.quanta * opts.rows, 0.0);
  Sweep sweep(plan);
  std::vector<double> acc;
  std::vector<uint32_t> flags;
  std::vector<ExtremeBins> ext;  // unused by heat maps: they show counts
  // A wide layout is read through the bins the quantum occupies, in the
  // same ascending order, so the same sums (docs/formats-hdr.md, "Wide layouts").
  const bool wide = k >= kWideLayoutBins && !plan.groups.empty();
  for (size_t j = 0; j < plan.quanta; ++j) {
    // Quanta no window reaches stay zero: a long empty grid costs nothing
    // (two lines far apart at --rows 1 once took a minute).
    const size_t busy = sweep.next_busy(j);
    if (busy > j) {
      j = busy - 1;
      continue;
    }
    sweep.next(j, &acc, &flags, &ext);
    double* dst = out->counts.data() + j * opts.rows;
    const auto add = [&](size_t i) {
      const double c = acc[i];
      if (c <= 0) return;
      for (uint32_t e = start[i]; e < start[i + 1]; ++e) {
        if (row[e] >= 0) dst[row[e]] += c * frac[e];
        else if (row[e] == -1) out->below += c * frac[e];
        else out->above += c * frac[e];
      }
    };
    // Only the bins this quantum added to can hold counts (Sweep::touched),
    // in the same ascending order: the same sums.
    if (plan.groups.empty()) continue;
    const ExtremeBins& t = sweep.touched()[0];
    if (wide)
      for (const uint32_t i : sweep.occupied()[0]) add(i);
    else if (t.any())
      for (size_t i = t.lo; i <= t.hi; ++i) add(i);
  }
  return Status::Ok();
}

}  // namespace latscope
