// Per-host questions answered from the matrix: docs/page-views.md, "Groups
// from the matrix"; the matrix itself: docs/result-format.md, "Per-host
// percentile matrix (version 4)".
#include "latscope/matrix_answer.h"

#include <algorithm>
#include <memory>
#include <cmath>
#include <string>
#include <vector>

#include "latscope/percentiles.h"
#include "query/column_max.h"

namespace latscope {
namespace {

// Why the matrix cannot answer q, or "" when it holds what q asks.
std::string not_held(const MatrixHead& h, const QueryOptions& q) {
  if (h.group_by != "host" || q.group_by != GroupBy{"host"}) return "not grouped by host";
  if (h.method != method_name(q.method)) return "method " + std::string(method_name(q.method)) + ", not the matrix's " + h.method;
  const Selection& s = q.sel;
  const Selection none;
  if (s.dirs != none.dirs || !s.kinds.empty() || !s.exclude_sources.empty() || !s.exclude_hosts.empty() ||
      !s.offsets_ms.empty() || !s.accounts.empty() || s.complete_tail != none.complete_tail)
    return "a selection of the data (directions, kinds, exclusions, offsets or accounts)";
  if (s.co_interval_ms > 0) return "coordinated-omission correction";
  if (q.adaptive_accuracy > 0 || q.compat_fio_histo_log_pctiles || !q.window_extremes)
    return "adaptive quanta, fio's arithmetic or no window extremes";
  if (q.part_count != 1) return "a part of the rows";
  // Pixel columns are made of the matrix's rows as of the histograms' (query/column_max.h).
  if (q.columns != 0 && !(std::isfinite(s.from_ms) && std::isfinite(s.to_ms) && s.from_ms < s.to_ms))
    return "pixel columns without a finite range";
  return "";
}

bool overlaps(double t, double len, double from, double to) { return t + len > from && t < to; }

}  // namespace

std::string matrix_layouts_differ(const Result& hist) {
  if (hist.series.empty()) return "";
  const ResultSeries& first = hist.series.front();
  for (const ResultSeries& x : hist.series)
    if (!x.layout || !first.layout || x.layout->id != first.layout->id)
      return "its hosts' bin layouts differ (" + (first.layout ? first.layout->id : std::string("none")) + ", " +
             (x.layout ? x.layout->id : std::string("none")) + ")";
  return "";
}

MatrixPlan plan_matrix_answer(const MatrixReader& m, const QueryOptions& q, bool quantum_chosen, uint32_t columns,
                              uint64_t max_rows) {
  MatrixPlan p;
  const MatrixHead& h = m.head();
  p.why = not_held(h, q);
  if (!p.why.empty()) return p;
  for (double want : q.percentiles) {
    const auto it = std::find(h.percentiles.begin(), h.percentiles.end(), want);
    if (it == h.percentiles.end()) {
      p.why = "percentile " + std::to_string(want) + " is not in the matrix";
      p.pct.clear();
      return p;
    }
    p.pct.push_back(static_cast<size_t>(it - h.percentiles.begin()));
  }
  if (h.levels.empty()) {
    p.why = "the matrix has no levels";
    return p;
  }
  // The range shown; unbounded ends are the matrix's own (its coarsest level's span).
  double from = q.sel.from_ms, to = q.sel.to_ms;
  double first = 0, last = 0;
  const auto top = static_cast<uint32_t>(h.levels.size() - 1);
  if (m.span(top, &first, &last)) {
    if (!std::isfinite(from)) from = first;
    if (!std::isfinite(to)) to = last + h.levels[top];
  }
  const auto exact = std::find(h.levels.begin(), h.levels.end(), q.quantum_ms);
  if (exact != h.levels.end()) {
    p.level = static_cast<uint32_t>(exact - h.levels.begin());
  } else if (quantum_chosen) {
    p.why = "no level of " + std::to_string(q.quantum_ms) + " ms";
    return p;
  } else {
    // Two quanta per pixel column at most (docs/page-loading.md §8): finer buys nothing on screen.
    const double most = 2.0 * std::max<uint32_t>(200, columns);
    p.level = top;
    for (uint32_t l = 0; l <= top; ++l)
      if ((to - from) / h.levels[l] <= most) {
        p.level = l;
        break;
      }
  }
  const double span = h.levels[p.level] * h.quanta_per_block;
  for (size_t b = 0; b < m.blocks().size(); ++b) {
    const MatrixBlock& e = m.blocks()[b];
    if (e.level != p.level || !overlaps(static_cast<double>(e.time_block) * span, span, from, to)) continue;
    p.blocks.push_back(b);
    p.rows += e.rows;
  }
  if (p.rows > max_rows) {
    p.why = std::to_string(p.rows) + " rows at " + std::to_string(h.levels[p.level]) + " ms, over " +
            std::to_string(max_rows);
    p.blocks.clear();
    return p;
  }
  p.served = true;
  return p;
}

Status answer_from_matrix(MatrixReader* m, const MatrixPlan& plan, const QueryOptions& q, RowSink* sink,
                          QueryResult* out) {
  if (!plan.served) return Status::Error(ErrorCode::kInvalidArgument, "matrix: " + plan.why);
  const MatrixHead& h = m->head();
  const double len = h.levels[plan.level];
  const size_t np = plan.pct.size();
  *out = QueryResult();
  out->groups = h.groups;
  out->quantum_ms = len;
  out->absolute_time = h.absolute_time;
  out->bands = false;
  // Pixel columns (QueryOptions::columns): each column's worst of the
  // matrix's rows, as the engine makes them of the histograms' rows
  // (docs/page-views.md, "Worst quantum per column"), so no histogram is
  // read for the percentiles chart by host.
  std::unique_ptr<ColumnMaxSink> cm;
  if (q.columns > 0) cm = std::make_unique<ColumnMaxSink>(q.sel.from_ms, q.sel.to_ms, q.columns, np, sink, nullptr);
  RowSink* to = cm ? static_cast<RowSink*>(cm.get()) : sink;
  to->expect(static_cast<size_t>(plan.rows));  // a bound: rows outside the range are left out
  // Blocks are in index order (time block, then groups), several blocks a
  // time block: each time block's rows are sorted and handed on before the
  // next is read, so only one time block's rows are held (an index out of
  // time order is taken whole).
  const std::vector<MatrixBlock>& index = m->blocks();
  bool in_time_order = true;
  for (size_t k = 1; k < plan.blocks.size(); ++k)
    if (index[plan.blocks[k]].time_block < index[plan.blocks[k - 1]].time_block) in_time_order = false;
  // One time block's rows, in a pool whose percentile vectors are reused,
  // put in order through their (time, group, index) keys.
  std::vector<MatrixRow> pool, block;
  size_t used = 0;
  struct Key {
    double t;
    uint32_t group;
    uint32_t at;
  };
  std::vector<Key> order;
  Row row;  // reused: its percentile vector is allocated once
  const auto hand_on = [&]() {
    std::sort(order.begin(), order.end(),
              [](const Key& x, const Key& y) { return x.t < y.t || (x.t == y.t && x.group < y.group); });
    for (const Key& k : order) {
      matrix_row_to_row(pool[k.at], &row);
      to->add(row);
    }
    order.clear();
    used = 0;
  };
  for (size_t k = 0; k < plan.blocks.size(); ++k) {
    const size_t b = plan.blocks[k];
    if (in_time_order && k > 0 && index[b].time_block != index[plan.blocks[k - 1]].time_block) hand_on();
    Status st = m->read(b, &block);
    if (!st.ok()) return st;
    for (const MatrixRow& r : block) {
      if (!overlaps(r.t_ms, len, q.sel.from_ms, q.sel.to_ms)) continue;
      if (used == pool.size()) pool.emplace_back();
      MatrixRow& d = pool[used];
      d = r;  // copy-assigned: d.p keeps its storage
      // The asked percentiles only, in the asked order.
      d.p.resize(np);
      uint64_t few = 0;
      for (size_t i = 0; i < np; ++i) {
        d.p[i] = r.p[plan.pct[i]];
        few |= ((r.few >> plan.pct[i]) & 1) << i;
      }
      d.few = few;
      order.push_back({d.t_ms, d.group, static_cast<uint32_t>(used)});
      ++used;
    }
  }
  hand_on();
  if (cm) cm->finish();
  return Status::Ok();
}

namespace {
// Keeps the rows (the QueryResult form).
class KeepRows : public RowSink {
 public:
  explicit KeepRows(std::vector<Row>* rows) : rows_(rows) {}
  void expect(size_t n) override { rows_->reserve(n); }
  void add(const Row& row) override { rows_->push_back(row); }

 private:
  std::vector<Row>* rows_;
};
}  // namespace

Status answer_from_matrix(MatrixReader* m, const MatrixPlan& plan, const QueryOptions& q, QueryResult* out) {
  std::vector<Row> rows;
  KeepRows keep(&rows);
  Status st = answer_from_matrix(m, plan, q, &keep, out);
  out->rows = std::move(rows);
  return st;
}

}  // namespace latscope
