// The worst quantum per pixel column (QueryOptions::columns; docs/page-views.md,
// "Worst quantum per column"): a chart of W columns over a range of many more
// quanta draws, per group and column, the rows where each percentile (and
// max) is highest, so a spike one quantum long is drawn at any zoom (M4-style
// decimation, keeping only the tops: latency is read for its worst).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "latscope/engine.h"

namespace latscope {

class ColumnMaxSink : public RowSink {
 public:
  // [from_ms, to_ms) cut into `columns` equal columns; rows of `percentiles`
  // values each. Kept rows go to `to`, or into *kept when `to` is null.
  ColumnMaxSink(double from_ms, double to_ms, uint32_t columns, size_t percentiles, RowSink* to,
                std::vector<Row>* kept);
  void expect(size_t rows) override;
  void add(const Row& row) override;
  bool wants_bands() const override { return to_ == nullptr || to_->wants_bands(); }
  // Hands on the last column's rows; call once, after the query.
  void finish();

 private:
  struct Group {
    std::vector<Row> rows;  // candidates of the current column, in time order
    std::vector<int> best;  // per percentile, then max: index into rows, -1 none
    int empty = -1;         // an empty row, kept while nothing else is
  };
  size_t column_of(double t_ms) const;
  void flush();
  void compact(Group* g);

  double from_ms_, width_ms_;
  uint32_t columns_;
  size_t values_;  // percentiles + max
  RowSink* to_;
  std::vector<Row>* kept_;
  size_t column_ = SIZE_MAX;
  std::vector<Group> groups_;
};

}  // namespace latscope
