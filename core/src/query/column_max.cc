#include "query/column_max.h"

#include <algorithm>
#include <cmath>

namespace latscope {
namespace {

// The value `i` of a row: its percentiles in order, then max, min, mean
// (Row::value_t_ms's order); NaN when the quantum has no samples (it never
// wins).
double value_of(const Row& r, size_t i) {
  if (!(r.stats.samples > 0)) return std::nan("");
  const size_t np = r.p.size();
  if (i < np) return r.p[i].value_ns;
  return i == np ? r.stats.max_ns : i == np + 1 ? r.stats.min_ns : r.stats.mean_ns;
}

}  // namespace

ColumnMaxSink::ColumnMaxSink(double from_ms, double to_ms, uint32_t columns, size_t percentiles, RowSink* to,
                             std::vector<Row>* kept)
    : from_ms_(from_ms),
      width_ms_((to_ms - from_ms) / columns),
      columns_(columns),
      np_(percentiles),
      to_(to),
      kept_(kept) {}

void ColumnMaxSink::expect(size_t rows) {
  if (to_) to_->expect(rows);  // still a bound: no more rows are made than come
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
  const size_t values = np_ + 3;
  if (!g.seen) {  // the column's first quantum: its row, every value named after it
    g.seen = true;
    g.row = row;
    g.row.value_t_ms.assign(values, row.t_ms);
    g.has.assign(values, 0);
    g.samples = 0;
    g.quanta = 0;
    g.any = 0;
    g.all = ~0u;
  }
  g.samples += row.stats.samples;
  ++g.quanta;
  g.any |= row.flags;
  g.all &= row.flags;
  for (size_t i = 0; i < values; ++i) {
    const double v = value_of(row, i);
    if (std::isnan(v)) continue;
    const double cur = value_of(g.row, i);
    // Strictly worse (higher; min: lower): the first quantum keeps a tie.
    const bool wins = !g.has[i] || (i == np_ + 1 ? v < cur : v > cur);
    if (!wins) continue;
    g.has[i] = 1;
    g.row.value_t_ms[i] = row.t_ms;
    if (i < np_) {
      g.row.p[i] = row.p[i];
    } else if (i == np_) {
      g.row.stats.max_ns = v;
      g.row.stats.saturated = row.stats.saturated;
    } else if (i == np_ + 1) {
      g.row.stats.min_ns = v;
    } else {
      g.row.stats.mean_ns = v;
    }
    // value_of reads the row's samples: a column whose first quanta were empty has some now.
    if (!(g.row.stats.samples > 0)) g.row.stats.samples = row.stats.samples;
  }
}

void ColumnMaxSink::flush() {
  std::vector<Row*> out;
  for (Group& g : groups_) {
    if (!g.seen) continue;
    g.seen = false;
    // I/Os per quantum, averaged over the column: the IOPS drawn under the chart.
    g.row.stats.samples = g.samples / g.quanta;
    // Flags of any of the column's quanta, but empty only when all are.
    g.row.flags = (g.any & ~kFlagEmpty) | (g.all & kFlagEmpty);
    out.push_back(&g.row);
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
}

void ColumnMaxSink::finish() { flush(); }

}  // namespace latscope
