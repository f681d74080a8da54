// The worst quantum per pixel column (QueryOptions::columns; docs/page-views.md,
// "Worst quantum per column"): a chart of W columns over a range of many more
// quanta draws, per group and column, one row whose every percentile (and
// max, mean) is the highest of the column's quanta, and min the lowest, each
// value naming the quantum it is from, so a spike one quantum long is drawn
// at any zoom (M4-style decimation, keeping only the tops: latency is read
// for its worst).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "latscope/engine.h"

namespace latscope {

class ColumnMaxSink : public RowSink {
 public:
  // [from_ms, to_ms) cut into `columns` equal columns; rows of `percentiles`
  // values each. Column rows go to `to`, or into *kept when `to` is null.
  ColumnMaxSink(double from_ms, double to_ms, uint32_t columns, size_t percentiles, RowSink* to,
                std::vector<Row>* kept);
  void expect(size_t rows) override;
  void add(const Row& row) override;
  bool wants_bands() const override { return to_ == nullptr || to_->wants_bands(); }
  // Hands on the last column's rows; call once, after the query.
  void finish();

 private:
  struct Group {
    bool seen = false;      // a quantum of this group is in the current column
    Row row;                // the column's row so far (t_ms: its first quantum)
    std::vector<char> has;  // per value: some quantum with samples gave it
    double samples = 0;     // summed over the column's quanta
    uint32_t quanta = 0;    // the column's quanta of this group
    uint32_t any = 0, all = ~0u;  // flags: union and intersection
  };
  size_t column_of(double t_ms) const;
  void flush();

  double from_ms_, width_ms_;
  uint32_t columns_;
  size_t np_;  // percentiles; values are those, then max, min, mean
  RowSink* to_;
  std::vector<Row>* kept_;
  size_t column_ = SIZE_MAX;
  std::vector<Group> groups_;
};

}  // namespace latscope
