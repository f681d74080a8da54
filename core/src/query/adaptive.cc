// Adaptive quanta: a fixed quantum is honest about a p99.9 only when it holds
// thousands of I/Os; here each group's quanta grow, window by window, until
// they do (docs/uncertainty.md, "Adaptive quanta").
//
//   windows of a group, sorted by end:   (--](---](--](----](--](---]...
//   running count n after each end:        400  800 1200 ... enough? close
//   quantum k = (end of quantum k-1, end of its last window]
//
// A window is never split: it goes whole into the quantum holding its end,
// so counts stay whole I/Os (no overlap weighting). Windows ending at the
// same time always share a quantum.
#include "query/adaptive.h"

#include <algorithm>
#include <cmath>

#include "latscope/uncertainty.h"
#include "query/aligner.h"
#include "query/extremes.h"
#include "query/per_io.h"
#include "query/window_values.h"

namespace latscope {

bool adaptive_enough(uint64_t n, double p, double accuracy) {
  const RankBand b = rank_band(n, p);
  if (b.lo < 1 || b.hi > n) return false;
  const double tail = static_cast<double>(n) * (1 - p / 100);
  return static_cast<double>(b.hi - b.lo) / 2 <= accuracy * tail;
}

namespace {

struct Item {
  double end, start;
  uint32_t series, window;
  uint64_t io_first;  // per-I/O series: index of the window's first value in io_ns
};

// The count a window adds (coordinated-omission correction changes it).
double window_count(const Selected& x, const Window& w, WindowScratch* s) {
  if (!x.co) return static_cast<double>(w.total) * x.unit;
  x.series->decode(w, &s->bins, &s->counts);
  x.co->correct(s->bins, s->counts, &s->cbins, &s->ccounts);
  double n = 0;
  for (uint64_t c : s->ccounts) n += static_cast<double>(c) * x.unit;
  return n;
}

}  // namespace

Status adaptive_query(const std::vector<Source>& sources, const QueryOptions& opts, QueryResult* out) {
  double target = -1;  // the highest requested percentile below 100
  for (double p : opts.percentiles)
    if (p < 100) target = std::max(target, p);
  if (target < 0)
    return Status::Error(ErrorCode::kInvalidArgument,
                         "adaptive quanta need a percentile below 100 (p100, the maximum, has no upper band)");
  if (!(opts.adaptive_accuracy > 0) || !std::isfinite(opts.adaptive_accuracy))
    return Status::Error(ErrorCode::kInvalidArgument, "adaptive accuracy must be a positive number");

  Plan plan;
  Status st = make_plan(sources, opts.sel, opts.group_by, 1000, &plan);  // the grid is not used
  if (!st.ok()) return st;
  out->adaptive = true;
  out->quantum_ms = 0;
  take_plan_facts(plan, out);
  std::vector<Selected> window_values;  // fio log_avg_msec logs hold no I/Os to count (query/window_values.h)
  for (const Source& src : sources) select_window_values(src, opts.sel, &window_values);
  if (!window_values.empty()) out->notes.push_back(window_values_left_out_note(window_values.size()));
  if (!plan.layout) return Status::Ok();
  const bool exact = opts.method == Method::kExact && exact_possible(plan.series, opts.max_per_io_samples, &out->notes);

  // Every window of the selection whose end lies in [from, to), by group.
  std::vector<std::vector<Item>> items(plan.groups.size());
  for (size_t si = 0; si < plan.series.size(); ++si) {
    const Selected& x = plan.series[si];
    uint64_t io = 0;
    for (size_t i = 0; i < x.series->windows.size(); ++i) {
      const Window& w = x.series->windows[i];
      const double e = w.end_ms + x.offset_ms;
      if (e >= opts.sel.from_ms && e < opts.sel.to_ms)
        items[x.group].push_back({e, w.start_ms + x.offset_ms, static_cast<uint32_t>(si), static_cast<uint32_t>(i), io});
      io += w.total;
    }
  }

  const BinLayout& L = *plan.layout;
  const size_t k = L.size(), np = opts.percentiles.size();
  std::vector<double> dense(k);
  std::vector<uint64_t> raw;
  WindowScratch scratch;
  for (size_t g = 0; g < items.size(); ++g) {
    std::vector<Item>& it = items[g];
    std::stable_sort(it.begin(), it.end(), [](const Item& a, const Item& b) { return a.end < b.end; });
    // Pass 1: where quanta end (indices one past their last window).
    std::vector<size_t> cut;
    double n = 0;
    for (size_t i = 0; i < it.size(); ++i) {
      n += window_count(plan.series[it[i].series], plan.series[it[i].series].series->windows[it[i].window], &scratch);
      if (i + 1 < it.size() && it[i + 1].end == it[i].end) continue;  // same end: same quantum
      if (adaptive_enough(static_cast<uint64_t>(std::llround(n)), target, opts.adaptive_accuracy)) {
        cut.push_back(i + 1);
        n = 0;
      }
    }
    bool short_all = false;
    if (!it.empty() && (cut.empty() || cut.back() != it.size())) {
      // The rest falls short: it joins the last quantum, or is the only one.
      if (cut.empty()) short_all = true;
      if (!cut.empty()) cut.back() = it.size();
      else cut.push_back(it.size());
    }
    // Pass 2: each quantum's histogram and row.
    size_t from = 0;
    double start = 0;
    for (size_t c : cut) {
      if (from == 0) {  // the first quantum starts where its earliest window does
        start = it[0].start;
        for (size_t i = 0; i < c; ++i) start = std::min(start, it[i].start);
      }
      std::fill(dense.begin(), dense.end(), 0.0);
      raw.clear();
      ExtremeBins ext;  // whole windows: each lies in its quantum (docs/extremes.md)
      for (size_t i = from; i < c; ++i) {
        const Selected& x = plan.series[it[i].series];
        const Window& w = x.series->windows[it[i].window];
        add_window(x, w, Share(), dense.data(), &scratch, &ext);  // whole windows
        if (exact && x.series->has_io_values()) {
          const uint64_t* v = x.series->io_ns.data() + it[i].io_first;
          raw.insert(raw.end(), v, v + w.total);
        }
      }
      const double end = it[c - 1].end;
      Row row;
      row.t_ms = start;
      row.width_ms = end - start;
      row.group = static_cast<uint32_t>(g);
      row.p.resize(np);
      for (size_t si = 0; si < plan.series.size(); ++si) {
        const Selected& x = plan.series[si];
        if (x.group == g && (start < x.full_start || end > x.full_end)) row.flags |= kFlagPartial;
      }
      if (short_all) row.flags |= kFlagShort;
      if (exact) fill_row_exact(&raw, opts, &row);
      else fill_row(L, dense.data(), ext, opts, &row);
      out->rows.push_back(std::move(row));
      from = c;
      start = end;
    }
  }
  std::stable_sort(out->rows.begin(), out->rows.end(), [](const Row& a, const Row& b) {
    return a.t_ms != b.t_ms ? a.t_ms < b.t_ms : a.group < b.group;
  });
  return Status::Ok();
}

}  // namespace latscope
