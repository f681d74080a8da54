// One decoded HdrHistogram (an .hlog interval's payload), in HdrHistogram's
// own bucket indexing (docs/formats-hdr.md, "HdrHistogram interval logs"). This is
// the contract between the .hlog decoder (hdr_decode.*), the model
// conversion (an HdrHistogram layout per configuration) and `latscope hdr`
// (which reproduces Java's HistogramLogProcessor from these counts).
//
// Index math (HdrHistogram's AbstractHistogram): with d significant digits
//   subBucketCount = 2^ceil(log2(2 * 10^d)), half = subBucketCount / 2,
//   unitMag = floor(log2(lowestDiscernible)),
//   bucket b = (i >> log2(half)) - 1, sub s = (i & (half - 1)) + half,
//   if b < 0 { s -= half; b = 0 }
//   lowestEquivalent(i) = s << (b + unitMag), width(i) = 1 << (b + unitMag).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace latscope::hdr {

struct Config {
  int32_t digits = 3;           // significant value digits, 0..5
  int64_t lowest = 1;           // lowest discernible value (>= 1)
  int64_t highest = 0;          // highest trackable value as written (informational: size from counts)
  // DoubleHistogram only: value = integer bucket value * ratio
  // (integerToDoubleValueConversionRatio). 1 for integer histograms.
  double ratio = 1.0;
  bool is_double = false;

  int32_t unit_magnitude() const;          // floor(log2(lowest))
  int32_t sub_bucket_half_count_magnitude() const;  // log2(subBucketCount) - 1
  int64_t sub_bucket_count() const;
  // Integer value range of bucket index i: [lowest_equivalent, next_non_equivalent).
  int64_t lowest_equivalent(int64_t i) const;
  int64_t bucket_width(int64_t i) const;
  // The same with the magnitudes given: a layout of millions of indexes
  // computed them again per index, a second per 5-digit layout
  // (docs/input-robustness.md, "Layouts").
  static int64_t lowest_equivalent_at(int64_t i, int32_t half_mag, int32_t unit_mag);
  static int64_t bucket_width_at(int64_t i, int32_t half_mag, int32_t unit_mag);
  // (width - 1) first: the top bucket ends at exactly 2^63 - 1 without overflow.
  int64_t highest_equivalent(int64_t i) const { return lowest_equivalent(i) + (bucket_width(i) - 1); }
  int64_t median_equivalent(int64_t i) const { return lowest_equivalent(i) + (bucket_width(i) >> 1); }
  // The index whose range holds value v (HdrHistogram's countsArrayIndex).
  int64_t index_of(int64_t v) const;
};

struct Histogram {
  Config config;
  // The non-zero counts, in ascending logical index order (normalizingIndexOffset
  // ignored): count[k] is at index[k]. Sparse, because an interval's few
  // dozen counts lie among tens of thousands of indexes: held densely, every
  // interval paid a zero fill and a scan of all of them (docs/formats-hdr.md,
  // "Counts kept sparse"). Indexes fit 32 bits: 5 digits at the lowest unit
  // have (47 << 17) of them (hdr_decode.cc max_indexes).
  std::vector<uint32_t> index;
  std::vector<uint64_t> count;
  void clear() {
    index.clear();
    count.clear();
  }
  // Appends a non-zero count at an index above every one held.
  void push(uint32_t i, uint64_t c) {
    index.push_back(i);
    count.push_back(c);
  }
  // Indexes up to the highest non-zero one (0 when empty): the length of the
  // counts array a writer would encode.
  size_t length() const { return index.empty() ? 0 : size_t{index.back()} + 1; }
  uint64_t total() const;
};

}  // namespace latscope::hdr
