// The result: logs aligned and reduced to sparse histograms per time quantum
// and label set (docs/result-format.md). It is what `latscope reduce` writes,
// what `latscope merge` adds, and what any query reads back like a log.
//
//   Result
//     quantum_ms, absolute_time (epoch ms or run-relative quanta)
//     +- ResultSeries (one label set x one bin layout)
//          labels, layout, coverage (span = union, full = intersection)
//          +- cells: quantum index j (covers [j*Q, (j+1)*Q)) -> sparse bins
//
// Counts are unsigned fixed point with kResultFracBits fractional bits, so
// merge() is integer addition: exact, associative and commutative. Every
// query counts in these units (query/aligner.h, Share): the streaming fold
// converts its grid into a Result without rounding anything, and a result
// file answers every query exactly as its logs do (docs/result-format.md).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/layout.h"
#include "latscope/model.h"
#include "latscope/status.h"

namespace latscope {

// Fractional bits of a result count: 1 unit = 2^-28 I/O (max ~6.9e10 I/Os in
// one bin of one quantum and label set).
constexpr int kResultFracBits = 28;
constexpr double kResultOne = static_cast<double>(uint64_t{1} << kResultFracBits);

// A count in result units (2^-kResultFracBits I/O), rounded to the nearest.
inline double result_units(double count) { return std::round(count * kResultOne); }

struct ResultCell {
  int64_t quantum = 0;             // index j: the cell covers [j*Q, (j+1)*Q)
  std::vector<uint32_t> bins;      // ascending, < layout->size()
  std::vector<uint64_t> counts;    // fixed point, > 0, parallel to bins
  // The bins the cell's min, max, p0 and p100 may come from: those of the
  // windows whose midpoint lies in the quantum (docs/extremes.md, "Results").
  // Empty: no such window (or a version 1 file): a query uses every bin.
  ExtremeBins extremes;
};

struct ResultSeries {
  Labels labels;
  LayoutPtr layout;
  // Coverage of the logs folded in (ms, the result's time base): span is the
  // union (what quanta a query lists), full the intersection (where no
  // constituent is missing: the `partial` flag).
  double span_start_ms = 0, span_end_ms = 0;
  double full_start_ms = 0, full_end_ms = 0;
  std::vector<ResultCell> cells;   // ascending quantum, each non-empty
};

struct Result {
  double quantum_ms = 1000;
  bool absolute_time = false;
  std::vector<ResultSeries> series;  // canonical order: by labels, then layout id
  std::vector<std::string> notes;    // what merging did (re-quantized, ...); not encoded

  // Sorts series canonically and adds series of equal labels and layout.
  void normalize();
  uint64_t cells() const;
};

// "dir=read;host=a": a label set's canonical text (names sorted).
std::string labels_text(const Labels& l);

// Adds `other` into *into. Same quantum: cell-wise integer sums. Quanta where
// one is a multiple of the other: the finer is re-quantized onto the coarser
// (exact: its cells nest), with a note. Otherwise, or when one is on the
// epoch clock and the other is not, an error and *into unchanged. Series of
// equal labels but different layouts stay apart (a query merges them onto one
// layout, as it does for logs). A count beyond 2^64 is an error.
Status merge(Result* into, const Result& other);

// Re-quantizes onto a quantum that is a multiple of r->quantum_ms (exact).
Status requantize(Result* r, double quantum_ms);

// ---- encoding (docs/result-format.md) ----

constexpr char kResultMagic[8] = {'L', 'S', 'R', 'E', 'S', 'U', 'L', 'T'};
constexpr uint32_t kResultVersion = 2;  // written by encode_result

// zlib deflate for the writer: the native build links zlib (deflate_zlib in
// core/src/codec/deflate_zlib.cc); the page's WebAssembly build brings its
// own through fflate (wasm/deflate_fflate.cc, "Copy link with data").
using DeflateFn = bool (*)(const uint8_t* in, size_t n, std::vector<uint8_t>* out);
bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out);

// Writes a result file. quanta_per_block: quanta per time block (>= 1).
Status encode_result(const Result& r, DeflateFn deflate, std::vector<uint8_t>* out,
                     uint32_t quanta_per_block = 600);

// Reads a result file of any supported version (1, 2). Errors name what is
// wrong and where ("result: block 3: truncated (...)"); never crashes.
// max_inflated bounds the inflated size of each block.
Status decode_result(const uint8_t* data, size_t n, Result* out, size_t max_inflated = size_t{1} << 30);

// True when the bytes start with the result magic.
bool is_result_file(const char* data, size_t n);

}  // namespace latscope
