#include "hdr_processor/java_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hdr_processor/java_format.h"

namespace latscope::hdr_processor {

namespace {

int32_t nlz64(uint64_t v) { return v == 0 ? 64 : __builtin_clzll(v); }

// Java's `1L << n` (the shift count is taken mod 64).
int64_t jshl(int64_t v, int32_t n) {
  return static_cast<int64_t>(static_cast<uint64_t>(v) << (static_cast<uint32_t>(n) & 63U));
}

// DoubleHistogram.findContainingBinaryOrderOfMagnitude(long)
int32_t containing_order(int64_t v) { return 64 - nlz64(static_cast<uint64_t>(v)); }
int32_t containing_order(double v) { return containing_order(java_d2l(std::ceil(v))); }

// AbstractHistogram.numberOfSubbuckets
int32_t number_of_subbuckets(int32_t digits) {
  const int64_t largest = 2 * java_d2l(std::pow(10.0, digits));
  const auto mag = static_cast<int32_t>(java_d2l(std::ceil(std::log(static_cast<double>(largest)) / std::log(2.0))));
  return static_cast<int32_t>(java_d2l(std::pow(2.0, mag)));
}

}  // namespace

int64_t java_d2l(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// ---------------------------------------------------------------- JHistogram

JHistogram::JHistogram(int64_t lowest, int64_t highest, int32_t digits) {
  if (digits < 0 || digits > 5) {
    fail("numberOfSignificantValueDigits must be between 0 and 5, not " + std::to_string(digits));
    return;
  }
  if (lowest < 1) {
    fail("lowestDiscernibleValue must be >= 1, not " + std::to_string(lowest));
    return;
  }
  if (highest < 2 * lowest) {
    fail("highestTrackableValue (" + std::to_string(highest) + ") cannot be < (2 * lowestDiscernibleValue " +
         std::to_string(lowest) + ")");
    return;
  }
  digits_ = digits;
  lowest_ = lowest;
  const int64_t largest = 2 * java_d2l(std::pow(10.0, digits));
  unit_mag_ = static_cast<int32_t>(java_d2l(std::log(static_cast<double>(lowest)) / std::log(2.0)));
  // Java: (1 << unitMagnitude) - 1 is an int expression.
  unit_mask_ = static_cast<int64_t>(
      static_cast<int32_t>(static_cast<uint32_t>(1) << (static_cast<uint32_t>(unit_mag_) & 31U)) - 1);
  sub_bucket_count_mag_ =
      static_cast<int32_t>(java_d2l(std::ceil(std::log(static_cast<double>(largest)) / std::log(2.0))));
  half_mag_ = sub_bucket_count_mag_ - 1;
  sub_bucket_count_ = 1 << sub_bucket_count_mag_;
  half_ = sub_bucket_count_ / 2;
  sub_bucket_mask_ = jshl(static_cast<int64_t>(sub_bucket_count_) - 1, unit_mag_);
  if (sub_bucket_count_mag_ + unit_mag_ > 62) {
    fail("Cannot represent numberOfSignificantValueDigits worth of values beyond lowestDiscernibleValue");
    return;
  }
  establish_size(highest);
  leading_zero_count_base_ = 64 - unit_mag_ - sub_bucket_count_mag_;
  counts_.assign(static_cast<size_t>(len_), 0);
  max_value_ = 0;
  min_non_zero_ = INT64_MAX;
}

JHistogram JHistogram::decoded(const hdr::Histogram& h) {
  JHistogram j(h.config.lowest, h.config.highest, h.config.digits);
  if (!j.ok()) return j;
  j.set_i2d(h.config.ratio);
  for (size_t k = 0; k < h.index.size(); ++k) {
    const size_t i = h.index[k];
    if (i >= static_cast<size_t>(j.len_)) {
      j.fail("a count at index " + std::to_string(i) + " lies beyond the highest trackable value " +
             std::to_string(h.config.highest) + " the payload declares (Java cannot decode it)");
      return j;
    }
    if (h.count[k] > static_cast<uint64_t>(INT64_MAX)) {
      j.fail("a count does not fit in a Java long");
      return j;
    }
    j.counts_[i] = static_cast<int64_t>(h.count[k]);
  }
  j.establish_internal_tracking_values();
  return j;
}

int32_t JHistogram::bucket_index(int64_t value) const {
  return leading_zero_count_base_ - nlz64(static_cast<uint64_t>(value | sub_bucket_mask_));
}

int32_t JHistogram::counts_index(int64_t value) const {
  const int32_t b = bucket_index(value);
  const auto sub = static_cast<int32_t>(static_cast<uint64_t>(value) >> static_cast<uint32_t>(b + unit_mag_));
  const int32_t base = (b + 1) << half_mag_;
  return base + (sub - half_);
}

int64_t JHistogram::value_from_index(int32_t index) const {
  int32_t b = (index >> half_mag_) - 1;
  int32_t sub = (index & (half_ - 1)) + half_;
  if (b < 0) {
    sub -= half_;
    b = 0;
  }
  return jshl(sub, b + unit_mag_);
}

int64_t JHistogram::lowest_equivalent(int64_t value) const {
  const int32_t b = bucket_index(value);
  const auto sub = static_cast<int32_t>(static_cast<uint64_t>(value) >> static_cast<uint32_t>(b + unit_mag_));
  return jshl(sub, b + unit_mag_);
}

int64_t JHistogram::size_of_equivalent_range(int64_t value) const {
  return jshl(1, unit_mag_ + bucket_index(value));
}

int32_t JHistogram::buckets_needed(int64_t value) const {
  int64_t smallest_untrackable = jshl(sub_bucket_count_, unit_mag_);
  int32_t needed = 1;
  while (smallest_untrackable <= value) {
    if (smallest_untrackable > INT64_MAX / 2) return needed + 1;
    smallest_untrackable <<= 1;
    ++needed;
  }
  return needed;
}

void JHistogram::establish_size(int64_t new_highest) {
  bucket_count_ = buckets_needed(new_highest);
  len_ = (bucket_count_ + 1) * half_;
  highest_ = new_highest;
}

void JHistogram::resize(int64_t new_highest) {
  establish_size(new_highest);
  counts_.resize(static_cast<size_t>(len_), 0);
}

void JHistogram::updated_max_value(int64_t value) {
  const int64_t internal = value | unit_mask_;
  if (internal > max_value_) max_value_ = internal;
}

void JHistogram::update_min_non_zero_value(int64_t value) {
  if (value <= unit_mask_) return;
  const int64_t internal = value & ~unit_mask_;
  if (internal < min_non_zero_) min_non_zero_ = internal;
}

void JHistogram::update_min_and_max(int64_t value) {
  if (value > max_value_) updated_max_value(value);
  if (value < min_non_zero_ && value != 0) update_min_non_zero_value(value);
}

void JHistogram::establish_internal_tracking_values() {
  max_value_ = 0 | unit_mask_;
  min_non_zero_ = INT64_MAX;
  int32_t max_index = -1;
  int32_t min_nz_index = -1;
  int64_t observed = 0;
  for (int32_t i = 0; i < len_; ++i) {
    const int64_t c = counts_[static_cast<size_t>(i)];
    if (c > 0) {
      observed += c;
      max_index = i;
      if (min_nz_index == -1 && i != 0) min_nz_index = i;
    }
  }
  if (max_index >= 0) updated_max_value(highest_equivalent(value_from_index(max_index)));
  if (min_nz_index >= 0) update_min_non_zero_value(value_from_index(min_nz_index));
  total_ = observed;
}

void JHistogram::reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_ = 0;
  max_value_ = 0 | unit_mask_;
  min_non_zero_ = INT64_MAX;
  start_timestamp_ms = INT64_MAX;
  end_timestamp_ms = 0;
}

bool JHistogram::record(int64_t value, int64_t count) {
  if (!ok()) return false;
  if (value < 0) return fail("Histogram recorded value cannot be negative.");
  int32_t index = counts_index(value);
  if (index < 0 || index >= len_) {
    if (!auto_resize_) {
      return fail("value " + std::to_string(value) + " outside of histogram covered range");
    }
    resize(value);
    index = counts_index(value);
    if (index < 0 || index >= len_) return fail("value " + std::to_string(value) + " cannot be tracked");
    counts_[static_cast<size_t>(index)] += count;
    highest_ = highest_equivalent(value_from_index(len_ - 1));
  } else {
    counts_[static_cast<size_t>(index)] += count;
  }
  update_min_and_max(value);
  total_ += count;
  return true;
}

int64_t JHistogram::max_value() const { return max_value_ == 0 ? 0 : highest_equivalent(max_value_); }

int64_t JHistogram::min_non_zero_value() const {
  return min_non_zero_ == INT64_MAX ? INT64_MAX : lowest_equivalent(min_non_zero_);
}

bool JHistogram::add(const JHistogram& other) {
  if (!ok()) return false;
  const int64_t highest_recordable = highest_equivalent(value_from_index(len_ - 1));
  if (highest_recordable < other.max_value()) {
    if (!auto_resize_) return fail("The other histogram includes values that do not fit in this histogram's range.");
    resize(other.max_value());
  }
  if (bucket_count_ == other.bucket_count_ && sub_bucket_count_ == other.sub_bucket_count_ &&
      unit_mag_ == other.unit_mag_) {
    int64_t observed = 0;
    for (int32_t i = 0; i < other.len_; ++i) {
      const int64_t c = other.counts_[static_cast<size_t>(i)];
      if (c > 0) {
        counts_[static_cast<size_t>(i)] += c;
        observed += c;
      }
    }
    total_ += observed;
    updated_max_value(std::max(max_value(), other.max_value()));
    update_min_non_zero_value(std::min(min_non_zero_value(), other.min_non_zero_value()));
  } else {
    const int32_t other_max_index = other.counts_index(other.max_value());
    if (!record(other.value_from_index(other_max_index), other.counts_[static_cast<size_t>(other_max_index)])) {
      return false;
    }
    for (int32_t i = 0; i < other_max_index; ++i) {
      const int64_t c = other.counts_[static_cast<size_t>(i)];
      if (c > 0 && !record(other.value_from_index(i), c)) return false;
    }
  }
  start_timestamp_ms = std::min(start_timestamp_ms, other.start_timestamp_ms);
  end_timestamp_ms = std::max(end_timestamp_ms, other.end_timestamp_ms);
  return true;
}

JHistogram JHistogram::empty_copy() const {
  JHistogram c(lowest_, highest_, digits_);
  c.auto_resize_ = auto_resize_;
  c.start_timestamp_ms = start_timestamp_ms;
  c.end_timestamp_ms = end_timestamp_ms;
  return c;
}

JHistogram JHistogram::copy_corrected(int64_t expected_interval) const {
  JHistogram c = empty_copy();
  for (int32_t i = 0; i < len_ && c.ok(); ++i) {
    const int64_t n = counts_[static_cast<size_t>(i)];
    if (n == 0) continue;
    const int64_t v = highest_equivalent(value_from_index(i));
    c.record(v, n);
    if (expected_interval <= 0) continue;
    for (int64_t missing = v - expected_interval; missing >= expected_interval; missing -= expected_interval) {
      if (!c.record(missing, n)) break;
    }
  }
  return c;
}

bool JHistogram::shift_values_left(int32_t orders) {
  if (orders < 0) return false;
  if (orders == 0 || total_ == counts_[0]) return true;
  const int32_t shift = orders << half_mag_;
  const int32_t max_index = counts_index(max_value());
  if (max_index >= len_ - shift) return false;  // would overflow
  const int64_t max_before = max_value_;
  const int64_t min_before = min_non_zero_;
  max_value_ = 0;
  min_non_zero_ = INT64_MAX;
  const bool lowest_half_populated = min_before < jshl(half_, unit_mag_);
  const int64_t zero_count = counts_[0];
  counts_[0] = 0;
  std::vector<int64_t> shifted(counts_.size(), 0);
  for (int32_t j = 0; j < len_; ++j) {
    const int32_t from = ((j - shift) % len_ + len_) % len_;
    shifted[static_cast<size_t>(j)] = counts_[static_cast<size_t>(from)];
  }
  counts_.swap(shifted);
  if (lowest_half_populated) {
    for (int32_t from = 1; from < half_; ++from) {
      const int64_t to_value = jshl(value_from_index(from), orders);
      const int32_t to_index = counts_index(to_value);
      const size_t phys = static_cast<size_t>(from) + static_cast<size_t>(shift);
      const int64_t c = counts_[phys];
      counts_[static_cast<size_t>(to_index)] = c;
      counts_[phys] = 0;
    }
  }
  counts_[0] = zero_count;
  update_min_and_max(jshl(max_before, orders));
  if (min_before < INT64_MAX) update_min_and_max(jshl(min_before, orders));
  return true;
}

bool JHistogram::shift_values_right(int32_t orders) {
  if (orders < 0) return false;
  if (orders == 0 || total_ == counts_[0]) return true;
  const int32_t shift = half_ * orders;
  const int32_t min_index = counts_index(min_non_zero_value());
  if (min_index < shift + half_) return false;  // would underflow
  const int64_t max_before = max_value_;
  const int64_t min_before = min_non_zero_;
  max_value_ = 0;
  min_non_zero_ = INT64_MAX;
  const int64_t zero_count = counts_[0];
  counts_[0] = 0;
  std::vector<int64_t> shifted(counts_.size(), 0);
  for (int32_t j = 0; j < len_; ++j) {
    const int32_t from = (j + shift) % len_;
    shifted[static_cast<size_t>(j)] = counts_[static_cast<size_t>(from)];
  }
  counts_.swap(shifted);
  counts_[0] = zero_count;
  update_min_and_max(max_before >> orders);
  if (min_before < INT64_MAX) update_min_and_max(min_before >> orders);
  return true;
}

int64_t JHistogram::value_at_percentile(double percentile) const {
  const double requested =
      std::min(std::max(std::nextafter(percentile, -std::numeric_limits<double>::infinity()), 0.0), 100.0);
  const double fp_count = (requested * static_cast<double>(total_)) / 100.0;
  const int64_t count_at = std::max<int64_t>(java_d2l(std::ceil(fp_count)), 1);
  int64_t running = 0;
  for (int32_t i = 0; i < len_; ++i) {
    running += counts_[static_cast<size_t>(i)];
    if (running >= count_at) {
      const int64_t v = value_from_index(i);
      return percentile == 0.0 ? lowest_equivalent(v) : highest_equivalent(v);
    }
  }
  return 0;
}

double JHistogram::mean() const {
  if (total_ == 0) return 0.0;
  double sum = 0;
  for_each_recorded([&sum](double v, double c) { sum += v * c; });
  return (sum * 1.0) / static_cast<double>(total_);
}

double JHistogram::std_deviation() const {
  if (total_ == 0) return 0.0;
  const double m = mean();
  double total_dev = 0.0;
  for_each_recorded([&](double v, double c) {
    const double dev = (v * 1.0) - m;
    total_dev += (dev * dev) * c;
  });
  return std::sqrt(total_dev / static_cast<double>(total_));
}

bool JHistogram::output_percentile_distribution(std::string* out, int32_t ticks_per_half, double scaling,
                                                bool csv) const {
  if (csv) {
    *out += "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n";
  } else {
    *out += "       Value     Percentile TotalCount 1/(1-Percentile)\n\n";
  }
  const int d = digits_;
  // PercentileIterator over the counts (AbstractHistogramIterator.next()).
  int32_t index = 0;
  int64_t to_current = 0;
  bool fresh = true;
  double level = 0.0;
  bool reached_last = false;
  const auto total = static_cast<double>(total_);
  for (;;) {
    if (!(to_current < total_)) {
      if (reached_last || total_ <= 0) break;
      level = 100.0;
      reached_last = true;
    }
    bool emitted = false;
    while (index < len_) {
      const int64_t c = counts_[static_cast<size_t>(index)];
      if (fresh) {
        to_current += c;
        fresh = false;
      }
      if (c != 0 && (100.0 * static_cast<double>(to_current)) / total >= level) {
        const double value = static_cast<double>(highest_equivalent(value_from_index(index))) / scaling;
        const double pct = level / 100.0;
        if (level != 100.0) {
          if (csv) {
            *out += java_fixed(value, d) + "," + java_fixed(pct, 12) + "," + java_int(to_current) + "," +
                    java_fixed(1 / (1.0 - pct), 2) + "\n";
          } else {
            *out += java_fixed(value, d, 12) + " " + java_fixed(pct, 12, 2) + " " + java_int(to_current, 10) + " " +
                    java_fixed(1 / (1.0 - pct), 2, 14) + "\n";
          }
        } else if (csv) {
          *out += java_fixed(value, d) + "," + java_fixed(pct, 12) + "," + java_int(to_current) + ",Infinity\n";
        } else {
          *out += java_fixed(value, d, 12) + " " + java_fixed(pct, 12, 2) + " " + java_int(to_current, 10) + "\n";
        }
        // incrementIterationLevel()
        const int64_t exponent = java_d2l(std::log(100.0 / (100.0 - level)) / std::log(2.0));
        const auto exponent1 = static_cast<int64_t>(static_cast<uint64_t>(exponent) + 1U);
        const int64_t pow2 = java_d2l(std::pow(2.0, static_cast<double>(exponent1)));
        const auto ticks = static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(ticks_per_half)) *
                                                static_cast<uint64_t>(pow2));
        level += 100.0 / static_cast<double>(ticks);
        emitted = true;
        break;
      }
      ++index;
      fresh = true;
    }
    if (!emitted) return false;  // Java's iterator throws here
  }
  if (!csv) {
    const double m = mean() / scaling;
    const double sd = std_deviation() / scaling;
    *out += "#[Mean    = " + java_fixed(m, d, 12) + ", StdDeviation   = " + java_fixed(sd, d, 12) + "]\n";
    *out += "#[Max     = " + java_fixed(static_cast<double>(max_value()) / scaling, d, 12) +
            ", Total count    = " + java_int(total_, 12) + "]\n";
    *out += "#[Buckets = " + java_int(bucket_count_, 12) + ", SubBuckets     = " + java_int(sub_bucket_count_, 12) +
            "]\n";
  }
  return true;
}

// ----------------------------------------------------------- JDoubleHistogram

namespace {
const double kInitialLowest = std::pow(2.0, 800);
double highest_allowed_value_ever() {
  double v = 1.0;
  while (v < std::numeric_limits<double>::max() / 4.0) v *= 2;
  return v;
}
int64_t internal_ratio(int64_t configured) { return jshl(1, containing_order(configured) + 1); }
}  // namespace

JDoubleHistogram::JDoubleHistogram(int64_t highest_to_lowest_ratio, int32_t digits) {
  if (static_cast<double>(highest_to_lowest_ratio) * std::pow(10.0, digits) >= static_cast<double>(int64_t{1} << 61)) {
    error_ = "highestToLowestValueRatio * (10^numberOfSignificantValueDigits) must be < (1L << 61)";
    return;
  }
  if (digits < 0 || digits > 5) {
    error_ = "numberOfSignificantValueDigits must be between 0 and 5";
    return;
  }
  const int64_t range = (number_of_subbuckets(digits) / 2) * internal_ratio(highest_to_lowest_ratio);
  ints_ = JHistogram(1, range - 1, digits);
  init(highest_to_lowest_ratio, kInitialLowest);
}

JDoubleHistogram JDoubleHistogram::decoded(const hdr::Histogram& inner, int64_t configured_ratio) {
  JDoubleHistogram d;
  d.ints_ = JHistogram::decoded(inner);
  if (!d.ints_.ok()) return d;
  const int32_t digits = inner.config.digits;
  if (static_cast<double>(configured_ratio) * std::pow(10.0, digits) >= static_cast<double>(int64_t{1} << 61)) {
    d.error_ = "highestToLowestValueRatio * (10^numberOfSignificantValueDigits) must be < (1L << 61)";
    return d;
  }
  const int64_t range = (number_of_subbuckets(digits) / 2) * internal_ratio(configured_ratio);
  if (d.ints_.lowest() != 1 || d.ints_.highest_trackable() != range - 1) {
    d.error_ = "integer values histogram does not match stated parameters.";
    return d;
  }
  d.init(configured_ratio, d.ints_.i2d() * d.ints_.sub_bucket_half_count());
  return d;
}

void JDoubleHistogram::init(int64_t configured, double lowest) {
  configured_ratio_ = configured;
  set_trackable_range(lowest, lowest * static_cast<double>(internal_ratio(configured)));
}

void JDoubleHistogram::set_trackable_range(double lowest, double highest) {
  current_lowest_ = lowest;
  current_highest_limit_ = highest;
  ints_.set_i2d(lowest / static_cast<double>(ints_.sub_bucket_half_count()));
}

void JDoubleHistogram::reset() {
  ints_.reset();
  init(configured_ratio_, kInitialLowest);
}

int32_t JDoubleHistogram::capped_order(double v) const {
  if (v > static_cast<double>(configured_ratio_)) {
    return static_cast<int32_t>(
        java_d2l(std::log(static_cast<double>(configured_ratio_)) / std::log(2.0)));
  }
  if (v > std::pow(2.0, 50)) return 50;
  return containing_order(v);
}

bool JDoubleHistogram::handle_shift_exception(int32_t orders) {
  if (!auto_resize_) return false;
  const int32_t current = containing_order(ints_.highest_trackable());
  const int32_t next = orders + current;
  if (next > 63) return false;
  const int64_t new_highest = jshl(1, next) - 1;
  ints_.resize(new_highest);
  ints_.highest_ = new_highest;
  configured_ratio_ = jshl(configured_ratio_, orders);
  return true;
}

bool JDoubleHistogram::shift_range_right(int32_t orders) {
  double new_lo = current_lowest_;
  double new_hi = current_highest_limit_;
  const double mult = 1.0 / static_cast<double>(jshl(1, orders));
  current_highest_limit_ *= mult;
  if (ints_.total() > ints_.count_at_index(0)) {
    if (!ints_.shift_values_left(orders)) {
      if (!handle_shift_exception(orders)) {
        set_trackable_range(new_lo, new_hi);
        return false;
      }
      new_hi /= mult;
      if (!ints_.shift_values_left(orders)) {
        set_trackable_range(new_lo, new_hi);
        return false;
      }
    }
  }
  new_lo *= mult;
  new_hi *= mult;
  set_trackable_range(new_lo, new_hi);
  return true;
}

bool JDoubleHistogram::shift_range_left(int32_t orders) {
  double new_lo = current_lowest_;
  double new_hi = current_highest_limit_;
  const double mult = 1.0 * static_cast<double>(jshl(1, orders));
  current_lowest_ *= mult;
  if (ints_.total() > ints_.count_at_index(0)) {
    if (ints_.shift_values_right(orders)) {
      new_lo *= mult;  // HdrHistogram 2.1.11 scales twice on this path
      new_hi *= mult;
    } else {
      if (!handle_shift_exception(orders)) {
        set_trackable_range(new_lo, new_hi);
        return false;
      }
      new_lo /= mult;
    }
  }
  new_lo *= mult;
  new_hi *= mult;
  set_trackable_range(new_lo, new_hi);
  return true;
}

bool JDoubleHistogram::auto_adjust(double value) {
  if (value == 0.0) return true;
  if (value < current_lowest_) {
    if (value < 0.0) {
      error_ = "Negative values cannot be recorded";
      return false;
    }
    do {
      const int32_t shift = capped_order(std::ceil(current_lowest_ / value) - 1.0);
      if (!shift_range_right(shift)) {
        error_ = "a value is out of bounds for the DoubleHistogram's covered range";
        return false;
      }
    } while (value < current_lowest_);
  } else if (value >= current_highest_limit_) {
    if (value > highest_allowed_value_ever()) {
      error_ = "a value is above the highest a DoubleHistogram can record";
      return false;
    }
    do {
      const double ulp = std::nextafter(value, std::numeric_limits<double>::infinity()) - value;
      const int32_t shift = capped_order(std::ceil((value + ulp) / current_highest_limit_) - 1.0);
      if (!shift_range_left(shift)) {
        error_ = "a value is out of bounds for the DoubleHistogram's covered range";
        return false;
      }
    } while (value >= current_highest_limit_);
  }
  return true;
}

bool JDoubleHistogram::record(double value, int64_t count) {
  if (!ok()) return false;
  if ((value < current_lowest_ || value >= current_highest_limit_) && !auto_adjust(value)) return false;
  return ints_.record(java_d2l(value * ints_.d2i()), count);
}

bool JDoubleHistogram::add(const JDoubleHistogram& from) {
  const JHistogram& f = from.ints_;
  for (int32_t i = 0; i < f.counts_length(); ++i) {
    const int64_t c = f.count_at_index(i);
    if (c > 0 && !record(static_cast<double>(f.value_from_index(i)) * from.i2d(), c)) return false;
  }
  return true;
}

JDoubleHistogram JDoubleHistogram::empty_copy() const {
  return JDoubleHistogram(configured_ratio_, ints_.digits());
}

JDoubleHistogram JDoubleHistogram::copy_corrected(double expected_interval) const {
  JDoubleHistogram t(configured_ratio_, ints_.digits());
  if (!t.ok()) return t;
  t.set_trackable_range(current_lowest_, current_highest_limit_);
  for (int32_t i = 0; i < ints_.counts_length() && t.ok(); ++i) {
    const int64_t n = ints_.count_at_index(i);
    if (n == 0) continue;
    const double v = static_cast<double>(ints_.highest_equivalent(ints_.value_from_index(i))) * t.i2d();
    if (!t.record(v, n)) break;
    if (expected_interval <= 0) continue;
    for (double missing = v - expected_interval; missing >= expected_interval; missing -= expected_interval) {
      if (!t.record(missing, n)) break;
    }
  }
  return t;  // end_timestamp_ms stays 0: Java's copy does not carry it
}

}  // namespace latscope::hdr_processor
