// ValueMatrixBuilder (latscope/report.h): the rows' values as the page's
// groups view reads them. Values and their NaNs come from the same
// row_percentile and unit_or_nan as PctilesColumnsBuilder's, so both views
// show the same numbers;
// tests/value_matrix_test.cc compares the two.
#include <algorithm>
#include <limits>
#include <vector>

#include "latscope/report.h"

namespace latscope {

namespace {
constexpr double kNull = std::numeric_limits<double>::quiet_NaN();
}  // namespace

void ValueMatrixBuilder::expect(size_t rows) {
  samples_.reserve(samples_.size() + rows);
  group_.reserve(group_.size() + rows);
  t_.reserve(t_.size() + rows);
  p_.reserve(p_.size() + rows * np_);
}

void ValueMatrixBuilder::add(const Row& row) {
  t_.push_back(row.t_ms);
  group_.push_back(row.group);
  samples_.push_back(row.flags & kFlagEmpty ? 0 : row.stats.samples);
  for (size_t j = 0; j < np_; ++j) {
    const PercentileValue* pv = row_percentile(row, j);
    p_.push_back(pv ? unit_or_nan(pv->value_ns, unit_) : kNull);
  }
}

ValueMatrix ValueMatrixBuilder::take(size_t groups, const std::vector<uint8_t>* row_marks, size_t width) {
  ValueMatrix m;
  // Fixed quanta come in time order (one pass); adaptive ones per group.
  m.times = t_;
  if (!std::is_sorted(m.times.begin(), m.times.end())) std::sort(m.times.begin(), m.times.end());
  m.times.erase(std::unique(m.times.begin(), m.times.end()), m.times.end());
  const size_t T = m.times.size();
  m.values.assign(groups * T * np_, kNull);
  m.samples.assign(groups * T, 0);
  const bool marked = row_marks && width && row_marks->size() == t_.size() * width;
  if (marked) m.marks.assign(groups * T * width, 0);
  size_t at = 0;
  for (size_t i = 0; i < t_.size(); ++i) {
    if (group_[i] >= groups) continue;  // not one of the result's groups (none are)
    if (at >= T || m.times[at] != t_[i])
      at = static_cast<size_t>(std::lower_bound(m.times.begin(), m.times.end(), t_[i]) - m.times.begin());
    const size_t k = size_t{group_[i]} * T + at;
    m.samples[k] = samples_[i];
    for (size_t j = 0; j < np_; ++j) m.values[k * np_ + j] = p_[i * np_ + j];
    if (marked)
      for (size_t j = 0; j < width; ++j) m.marks[k * width + j] = (*row_marks)[i * width + j];
  }
  *this = ValueMatrixBuilder(np_, unit_);
  return m;
}

}  // namespace latscope
