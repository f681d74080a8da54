#include "query/density.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "latscope/report.h"

namespace latscope {

int32_t density_row(const std::vector<double>& edges, double v) {
  if (!(v >= edges.front())) return -1;
  if (v > edges.back()) return -2;
  const auto r = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin() - 1;
  return static_cast<int32_t>(std::min<ptrdiff_t>(r, static_cast<ptrdiff_t>(edges.size()) - 2));
}

QueryOptions density_query(const HeatmapOptions& opts) {
  QueryOptions q;
  q.quantum_ms = opts.quantum_ms;
  q.percentiles = {opts.density_percentile};
  q.group_by = opts.density_by;
  q.method = opts.density_method;
  q.sel = opts.sel;
  q.sel.co_interval_ms = 0;  // recorded data, as the heat map (co.h)
  q.bands = false;           // values only: the bands are a third of a per-host query
  return q;
}

namespace {

// The quantum index of a row on the plan's grid (both grids are multiples
// of the quantum, axis.h), or -1 off it.
int64_t quantum_of(const Row& row, double t0, double quantum_ms, size_t quanta) {
  const double j = std::round((row.t_ms - t0) / quantum_ms);
  return j >= 0 && j < static_cast<double>(quanta) ? static_cast<int64_t>(j) : -1;
}

// Counts each row's percentile into its cell; holds no group names, so its
// memory is the grid's whatever the number of groups.
class DensitySink : public RowSink {
 public:
  DensitySink(const Plan& plan, HeatmapResult* out) : plan_(plan), out_(out), column_(plan.quanta, 0) {}
  bool wants_bands() const override { return false; }
  void add(const Row& row) override {
    const PercentileValue* p = row_percentile(row, 0);
    if (!p) return;
    const int64_t j = quantum_of(row, plan_.t0, plan_.quantum_ms, plan_.quanta);
    if (j < 0) return;
    const int32_t r = density_row(out_->edges_ns, p->value_ns);
    if (r >= 0) out_->counts[static_cast<size_t>(j) * out_->rows + static_cast<size_t>(r)] += 1;
    else if (r == -1) out_->below += 1;
    else out_->above += 1;
    column_[static_cast<size_t>(j)] += 1;
  }
  uint32_t max_column() const {
    return column_.empty() ? 0 : *std::max_element(column_.begin(), column_.end());
  }

 private:
  const Plan& plan_;
  HeatmapResult* out_;
  std::vector<uint32_t> column_;  // groups with a value, per quantum
};

// The lowest and highest value of the rows: the span the density's rows
// are fitted to.
class SpanSink : public RowSink {
 public:
  bool wants_bands() const override { return false; }
  void add(const Row& row) override {
    const PercentileValue* p = row_percentile(row, 0);
    if (!p) return;
    lo = std::min(lo, p->value_ns);
    hi = std::max(hi, p->value_ns);
  }
  double lo = HUGE_VAL, hi = -HUGE_VAL;
};

// Gathers the groups of one cell.
class CellSink : public RowSink {
 public:
  CellSink(const Plan& plan, const std::vector<double>& edges, uint32_t quantum, uint32_t row)
      : plan_(plan), edges_(edges), quantum_(quantum), row_(row) {}
  bool wants_bands() const override { return false; }
  void add(const Row& row) override {
    const PercentileValue* p = row_percentile(row, 0);
    if (!p || quantum_of(row, plan_.t0, plan_.quantum_ms, plan_.quanta) != quantum_) return;
    if (density_row(edges_, p->value_ns) == static_cast<int32_t>(row_)) hits.emplace_back(row.group, p->value_ns);
  }
  std::vector<std::pair<uint32_t, double>> hits;

 private:
  const Plan& plan_;
  const std::vector<double>& edges_;
  int64_t quantum_;
  uint32_t row_;
};

}  // namespace

Status density_row_edges(const Engine& engine, const Plan& plan, const HeatmapOptions& opts,
                         std::vector<double>* edges) {
  double lo = opts.min_ns, hi = opts.max_ns;
  if (lo <= 0 || hi <= 0) {
    // The whole run's values, whatever from/to say, as the heat map's rows
    // are its bins' (latency_row_edges): a time range counts on the same
    // rows, so the page's zoomed export and `--from/--to` agree.
    QueryOptions whole = density_query(opts);
    whole.sel.from_ms = -HUGE_VAL;
    whole.sel.to_ms = HUGE_VAL;
    SpanSink span;
    QueryResult q;
    Status st = engine.query(whole, &q, &span);
    if (!st.ok()) return st;
    // The 1 ns floor of the rows' log scale (latency_row_edges); no value
    // at all leaves the heat map's bounds.
    if (span.lo <= span.hi) {
      if (lo <= 0) lo = std::max(span.lo, 1.0);
      if (hi <= 0) hi = std::max(span.hi, lo);
    }
  }
  latency_row_edges(plan, lo, hi, opts.rows, edges);
  return Status::Ok();
}

Status fill_density(const Engine& engine, const Plan& plan, const HeatmapOptions& opts, HeatmapResult* out) {
  Status st = check_heatmap_cells("density", plan.quanta, opts.rows);
  if (!st.ok()) return st;
  st = density_row_edges(engine, plan, opts, &out->edges_ns);
  if (!st.ok()) return st;
  out->quanta = static_cast<uint32_t>(plan.quanta);
  out->counts.assign(plan.quanta * opts.rows, 0.0);
  DensitySink sink(plan, out);
  QueryResult q;
  st = engine.query(density_query(opts), &q, &sink);
  if (!st.ok()) return st;
  out->groups = static_cast<uint32_t>(q.groups.size());
  out->max_column = sink.max_column();
  for (const std::string& n : q.notes)
    if (std::find(out->notes.begin(), out->notes.end(), n) == out->notes.end()) out->notes.push_back(n);
  return Status::Ok();
}

Status Engine::density_cell(const HeatmapOptions& opts, uint32_t quantum, uint32_t row,
                            std::vector<DensityMember>* out) const {
  out->clear();
  if (opts.density_by.empty())
    return Status::Error(ErrorCode::kInvalidArgument, "a density cell needs the label its groups are of");
  Status st = check_heatmap_options(opts);
  if (!st.ok()) return st;
  Plan plan;
  Selection sel = opts.sel;
  sel.co_interval_ms = 0;
  st = make_plan(sources_, sel, GroupBy{}, opts.quantum_ms, &plan);
  if (!st.ok()) return st;
  if (!plan.layout || quantum >= plan.quanta || row >= opts.rows) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "no density cell (quantum %u, row %u): the density has %zu quanta x %u rows",
                  quantum, row, plan.layout ? plan.quanta : size_t{0}, opts.rows);
    return Status::Error(ErrorCode::kInvalidArgument, buf);
  }
  // The same rows as the density's, fitted to every quantum's values.
  std::vector<double> edges;
  st = density_row_edges(*this, plan, opts, &edges);
  if (!st.ok()) return st;
  // Only this quantum is asked: a range inside it selects it alone (the
  // grid is multiples of the quantum whatever from/to say, axis.h).
  QueryOptions q = density_query(opts);
  const double t = plan.t0 + quantum * opts.quantum_ms;
  q.sel.from_ms = std::max(q.sel.from_ms, t + opts.quantum_ms / 4);
  q.sel.to_ms = std::min(q.sel.to_ms, t + opts.quantum_ms * 3 / 4);
  CellSink sink(plan, edges, quantum, row);
  QueryResult r;
  st = query(q, &r, &sink);
  if (!st.ok()) return st;
  for (const auto& [g, v] : sink.hits) out->push_back({r.groups[g], v});
  std::sort(out->begin(), out->end(), [](const DensityMember& a, const DensityMember& b) {
    return a.value_ns != b.value_ns ? a.value_ns < b.value_ns : natural_less(a.group, b.group);
  });
  return Status::Ok();
}

}  // namespace latscope
