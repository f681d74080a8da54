#include "query/column_max.h"

#include <algorithm>
#include <cmath>

namespace latscope {
namespace {

// The value `i` of a row: its percentiles in order, then max; NaN when the
// quantum has no samples (it never wins).
double value_of(const Row& r, size_t i) {
  if (!(r.stats.samples > 0)) return std::nan("");
  return i < r.p.size() ? r.p[i].value_ns : r.stats.max_ns;
}

}  // namespace

ColumnMaxSink::ColumnMaxSink(double from_ms, double to_ms, uint32_t columns, size_t percentiles, RowSink* to,
                             std::vector<Row>* kept)
    : from_ms_(from_ms),
      width_ms_((to_ms - from_ms) / columns),
      columns_(columns),
      values_(percentiles + 1),
      to_(to),
      kept_(kept) {}

void ColumnMaxSink::expect(size_t rows) {
  if (to_) to_->expect(rows);  // still a bound: no more rows are kept than come
}

size_t ColumnMaxSink::column_of(double t_ms) const {
  // A quantum overlapping the range's start begins before it: column 0.
  const double c = std::floor((t_ms - from_ms_) / width_ms_);
  if (!(c > 0)) return 0;
  return c >= columns_ ? columns_ - 1 : static_cast<size_t>(c);
}

void ColumnMaxSink::add(const Row& row) {
  const size_t c = column_of(row.t_ms);
  if (c != column_) {
    flush();
    column_ = c;
  }
  if (row.group >= groups_.size()) groups_.resize(row.group + 1);
  Group& g = groups_[row.group];
  if (g.best.empty()) g.best.assign(values_, -1);
  bool wins = false;
  for (size_t i = 0; i < values_; ++i) {
    const double v = value_of(row, i);
    // Strictly higher: the first quantum keeps a tie.
    if (!std::isnan(v) && (g.best[i] < 0 || v > value_of(g.rows[static_cast<size_t>(g.best[i])], i))) wins = true;
  }
  if (!wins) {
    if (g.rows.empty() && g.empty < 0 && !(row.stats.samples > 0)) {
      g.empty = 0;
      g.rows.push_back(row);
    }
    return;
  }
  if (g.empty >= 0) {  // a quantum with samples replaces the empty one
    g.rows.clear();
    g.empty = -1;
  }
  const int at = static_cast<int>(g.rows.size());
  g.rows.push_back(row);
  for (size_t i = 0; i < values_; ++i) {
    const double v = value_of(row, i);
    if (!std::isnan(v) && (g.best[i] < 0 || v > value_of(g.rows[static_cast<size_t>(g.best[i])], i))) g.best[i] = at;
  }
  if (g.rows.size() > 2 * values_) compact(&g);
}

// Drops the candidates no value points at any more (a long column of rising
// values would otherwise keep every row).
void ColumnMaxSink::compact(Group* g) {
  std::vector<int> at(g->rows.size(), -1);
  for (int b : g->best)
    if (b >= 0) at[static_cast<size_t>(b)] = 0;
  std::vector<Row> kept;
  for (size_t r = 0; r < g->rows.size(); ++r) {
    if (at[r] < 0) continue;
    at[r] = static_cast<int>(kept.size());
    kept.push_back(std::move(g->rows[r]));
  }
  for (int& b : g->best)
    if (b >= 0) b = at[static_cast<size_t>(b)];
  g->rows = std::move(kept);
}

void ColumnMaxSink::flush() {
  std::vector<const Row*> out;
  for (Group& g : groups_) {
    if (g.empty < 0) compact(&g);
    for (const Row& r : g.rows) out.push_back(&r);
  }
  // The query's order: time, then group.
  std::sort(out.begin(), out.end(), [](const Row* a, const Row* b) {
    return a->t_ms != b->t_ms ? a->t_ms < b->t_ms : a->group < b->group;
  });
  for (const Row* r : out) {
    if (to_) {
      to_->add(*r);
    } else {
      kept_->push_back(*r);
    }
  }
  for (Group& g : groups_) {
    g.rows.clear();
    std::fill(g.best.begin(), g.best.end(), -1);
    g.empty = -1;
  }
}

void ColumnMaxSink::finish() { flush(); }

}  // namespace latscope
