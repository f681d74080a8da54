// HdrHistogram's index math (docs/formats-hdr.md, "Model"), from the
// formulas written down in hdr_histogram.h.
#include "formats/hdr/hdr_histogram.h"

namespace latscope::hdr {
namespace {

int32_t floor_log2(uint64_t v) {
  int32_t r = -1;
  while (v) {
    v >>= 1;
    ++r;
  }
  return r;
}

}  // namespace

int32_t Config::unit_magnitude() const { return lowest >= 1 ? floor_log2(static_cast<uint64_t>(lowest)) : 0; }

int64_t Config::sub_bucket_count() const {
  // 2^ceil(log2(2 * 10^digits)); digits is 0..5 for a decoded histogram.
  int64_t largest = 2;
  for (int32_t d = 0; d < digits && d < 9; ++d) largest *= 10;
  int64_t c = 1;
  while (c < largest) c <<= 1;
  return c;
}

int32_t Config::sub_bucket_half_count_magnitude() const {
  return floor_log2(static_cast<uint64_t>(sub_bucket_count())) - 1;
}

int64_t Config::lowest_equivalent_at(int64_t i, int32_t half_mag, int32_t unit_mag) {
  const int64_t half = int64_t{1} << half_mag;
  int64_t b = (i >> half_mag) - 1;
  int64_t s = (i & (half - 1)) + half;
  if (b < 0) {
    s -= half;
    b = 0;
  }
  const int64_t shift = b + unit_mag;
  if (shift >= 63) return INT64_MAX;
  const uint64_t v = static_cast<uint64_t>(s) << shift;
  return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(v);
}

int64_t Config::bucket_width_at(int64_t i, int32_t half_mag, int32_t unit_mag) {
  int64_t b = (i >> half_mag) - 1;
  if (b < 0) b = 0;
  const int64_t shift = b + unit_mag;
  return shift >= 63 ? INT64_MAX : int64_t{1} << shift;
}

int64_t Config::lowest_equivalent(int64_t i) const {
  return lowest_equivalent_at(i, sub_bucket_half_count_magnitude(), unit_magnitude());
}

int64_t Config::bucket_width(int64_t i) const {
  return bucket_width_at(i, sub_bucket_half_count_magnitude(), unit_magnitude());
}

int64_t Config::index_of(int64_t v) const {
  if (v < 0) v = 0;
  const int32_t unit_mag = unit_magnitude();
  const int32_t half_mag = sub_bucket_half_count_magnitude();
  const uint64_t sub_mask = static_cast<uint64_t>(sub_bucket_count() - 1) << unit_mag;
  const int32_t leading_zero_base = 64 - unit_mag - half_mag - 1;
  const uint64_t x = static_cast<uint64_t>(v) | sub_mask;
  const int32_t lz = 63 - floor_log2(x);
  const int32_t bucket = leading_zero_base - lz;
  const int64_t sub = static_cast<int64_t>(static_cast<uint64_t>(v) >> (bucket + unit_mag));
  return (static_cast<int64_t>(bucket + 1) << half_mag) + (sub - (int64_t{1} << half_mag));
}

uint64_t Histogram::total() const {
  uint64_t t = 0;
  for (uint64_t c : count) t += c;
  return t;
}

}  // namespace latscope::hdr
