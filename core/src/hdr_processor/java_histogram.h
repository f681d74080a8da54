// HdrHistogram 2.1.11's Histogram and DoubleHistogram as Java's
// HistogramLogProcessor uses them, reproduced operation for operation so that
// `latscope hdr` prints exactly what Java prints: the same bucket layout and
// resizing (the footer's Buckets), the same add paths (re-binning when the
// layouts differ), the same floating-point order in mean and deviation, the
// same percentile iteration, DoubleHistogram's auto-ranging shifts, and
// copyCorrectedForCoordinatedOmission. Counts are kept in logical index order
// (Java's normalizing index offset is an implementation detail of its array).
//
// Where Java would throw (a value outside a non-resizable range, a shift that
// would overflow), the operation fails and error() says why; nothing aborts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/hdr/hdr_histogram.h"

namespace latscope::hdr_processor {

// Java's (long) cast of a double: truncation, saturating, NaN -> 0.
int64_t java_d2l(double v);

class JHistogram {
 public:
  JHistogram() = default;
  // new Histogram(lowest, highest, digits). ok() false when Java's
  // constructor would throw (digits outside 0..5, lowest < 1,
  // highest < 2 * lowest, too many bits).
  JHistogram(int64_t lowest, int64_t highest, int32_t digits);
  // Histogram.decodeFromCompressedByteBuffer: the header's layout, counts in
  // order, then establishInternalTackingValues.
  static JHistogram decoded(const hdr::Histogram& h);

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // Layout.
  int32_t digits() const { return digits_; }
  int64_t lowest() const { return lowest_; }
  int64_t highest_trackable() const { return highest_; }
  int32_t bucket_count() const { return bucket_count_; }
  int32_t sub_bucket_count() const { return sub_bucket_count_; }
  int32_t sub_bucket_half_count() const { return half_; }
  int32_t counts_length() const { return len_; }
  int64_t count_at_index(int32_t i) const { return counts_[static_cast<size_t>(i)]; }
  int32_t counts_index(int64_t value) const;
  int64_t value_from_index(int32_t index) const;
  int64_t lowest_equivalent(int64_t value) const;
  int64_t size_of_equivalent_range(int64_t value) const;
  int64_t highest_equivalent(int64_t value) const {
    return lowest_equivalent(value) + size_of_equivalent_range(value) - 1;
  }
  int64_t median_equivalent(int64_t value) const {
    return lowest_equivalent(value) + (size_of_equivalent_range(value) >> 1);
  }

  // State.
  void set_auto_resize(bool on) { auto_resize_ = on; }
  double i2d() const { return i2d_; }
  double d2i() const { return d2i_; }
  void set_i2d(double r) {
    i2d_ = r;
    d2i_ = 1.0 / r;
  }
  int64_t end_timestamp_ms = 0;         // Java's endTimeStampMsec
  int64_t start_timestamp_ms = INT64_MAX;

  // Operations (false + error() where Java throws).
  void reset();
  bool record(int64_t value, int64_t count);  // recordValueWithCount
  bool add(const JHistogram& other);
  // copyCorrectedForCoordinatedOmission(expectedInterval) (expected > 0).
  JHistogram copy_corrected(int64_t expected_interval) const;
  // A copy with the same layout (new Histogram(this)), empty.
  JHistogram empty_copy() const;
  bool shift_values_left(int32_t orders);
  bool shift_values_right(int32_t orders);
  void resize(int64_t new_highest);

  // Statistics, as Java computes them.
  int64_t total() const { return total_; }
  int64_t max_value() const;           // getMaxValue
  int64_t min_non_zero_value() const;  // getMinNonZeroValue
  int64_t value_at_percentile(double percentile) const;
  double mean() const;
  double std_deviation() const;

  // outputPercentileDistribution(stream, ticks, scaling, csv) appended to *out.
  // False if Java's iterator would throw (ticks <= 0 and the like).
  bool output_percentile_distribution(std::string* out, int32_t ticks_per_half, double scaling,
                                      bool csv) const;

 private:
  int32_t bucket_index(int64_t value) const;
  int32_t buckets_needed(int64_t value) const;
  void establish_size(int64_t new_highest);
  void update_min_and_max(int64_t value);
  void updated_max_value(int64_t value);
  void update_min_non_zero_value(int64_t value);
  void establish_internal_tracking_values();
  // Java's RecordedValuesIterator as getMean and getStdDeviation walk it:
  // fn(value, count) for each non-empty bucket, value its median-equivalent
  // of its highest-equivalent, in ascending order.
  template <typename Fn>
  void for_each_recorded(Fn fn) const {
    int64_t seen = 0;
    for (int32_t i = 0; i < len_ && seen < total_; ++i) {
      const int64_t c = counts_[static_cast<size_t>(i)];
      if (c == 0) continue;
      seen += c;
      fn(static_cast<double>(median_equivalent(highest_equivalent(value_from_index(i)))), static_cast<double>(c));
    }
  }
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }

  int32_t digits_ = 3;
  int64_t lowest_ = 1;
  int64_t highest_ = 2;
  int32_t unit_mag_ = 0;
  int64_t unit_mask_ = 0;
  int32_t sub_bucket_count_mag_ = 0;
  int32_t half_mag_ = 0;
  int32_t sub_bucket_count_ = 2;
  int32_t half_ = 1;
  int64_t sub_bucket_mask_ = 1;
  int32_t leading_zero_count_base_ = 0;
  int32_t bucket_count_ = 0;
  int32_t len_ = 0;
  std::vector<int64_t> counts_;
  int64_t total_ = 0;
  int64_t max_value_ = 0;
  int64_t min_non_zero_ = INT64_MAX;
  bool auto_resize_ = false;
  double i2d_ = 1.0;
  double d2i_ = 1.0;
  std::string error_;

  friend class JDoubleHistogram;
};

class JDoubleHistogram {
 public:
  JDoubleHistogram() = default;
  // new DoubleHistogram(highestToLowestValueRatio, digits) (not auto-resizing).
  JDoubleHistogram(int64_t highest_to_lowest_ratio, int32_t digits);
  // DoubleHistogram.decodeFromCompressedByteBuffer: the wrapped integer
  // histogram and the DHIST header's highest-to-lowest ratio.
  static JDoubleHistogram decoded(const hdr::Histogram& inner, int64_t configured_ratio);

  bool ok() const { return error_.empty() && ints_.ok(); }
  std::string error() const { return error_.empty() ? ints_.error() : error_; }

  void set_auto_resize(bool on) { auto_resize_ = on; }
  void reset();
  bool record(double value, int64_t count);  // recordValueWithCount
  bool add(const JDoubleHistogram& from);
  JDoubleHistogram copy_corrected(double expected_interval) const;
  JDoubleHistogram empty_copy() const;  // copy() followed by reset()

  int64_t configured_ratio() const { return configured_ratio_; }
  const JHistogram& ints() const { return ints_; }
  double i2d() const { return ints_.i2d(); }
  int64_t total() const { return ints_.total(); }
  double max_value() const { return static_cast<double>(ints_.max_value()) * i2d(); }
  double value_at_percentile(double p) const {
    return static_cast<double>(ints_.value_at_percentile(p)) * i2d();
  }
  bool output_percentile_distribution(std::string* out, int32_t ticks, double scaling, bool csv) const {
    return ints_.output_percentile_distribution(out, ticks, scaling / i2d(), csv);
  }
  int64_t end_timestamp_ms = 0;

 private:
  void init(int64_t configured, double lowest);
  void set_trackable_range(double lowest, double highest);
  bool auto_adjust(double value);
  int32_t capped_order(double v) const;
  bool shift_range_right(int32_t orders);
  bool shift_range_left(int32_t orders);
  bool handle_shift_exception(int32_t orders);

  int64_t configured_ratio_ = 2;
  double current_lowest_ = 0;
  double current_highest_limit_ = 0;
  bool auto_resize_ = false;
  JHistogram ints_;
  std::string error_;
};

}  // namespace latscope::hdr_processor
