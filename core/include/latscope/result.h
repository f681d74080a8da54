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

// k >= 1 when coarse_ms == k * fine_ms exactly (k <= 1e12), else 0: the
// test for quanta that nest (merge, requantize, the levels of a file).
int64_t quantum_multiple(double fine_ms, double coarse_ms);

// Re-quantizes onto a quantum that is a multiple of r->quantum_ms (exact).
Status requantize(Result* r, double quantum_ms);

// ---- encoding (docs/result-format.md) ----

constexpr char kResultMagic[8] = {'L', 'S', 'R', 'E', 'S', 'U', 'L', 'T'};
constexpr uint32_t kResultVersion = 2;  // written by encode_result for the series of one host
// Blocks cut by series as well as by time: written by encode_result when the
// series hold more than one host (docs/result-format.md, "Blocks by host
// (version 5)"); a level of a version 3 file and the histograms of a
// version 4 file are a version 1, 2 or 5 file.
constexpr uint32_t kResultHostBlocksVersion = 5;
// A result of one level: versions 1, 2 and 5.
inline bool is_single_level_version(uint32_t v) { return v == 1 || v == 2 || v == kResultHostBlocksVersion; }

// zlib deflate for the writer: the native build links zlib (deflate_zlib in
// core/src/codec/deflate_zlib.cc); the page's WebAssembly build brings its
// own through fflate (wasm/deflate_fflate.cc, "Copy link with data").
// The memory a decoded result may take unless a caller says otherwise (the
// page passes its memory budget): 1 GiB.
constexpr size_t kMaxResultBytes = size_t{1} << 30;
// What a cell of nbins bins costs once decoded and read as model series:
// the ResultCell with its two vectors, then its window and varint bins
// (an estimate that errs high; docs/result-format.md, "Memory").
constexpr size_t kResultCellBytes = 160;
constexpr size_t kResultBinBytes = 24;

using DeflateFn = bool (*)(const uint8_t* in, size_t n, std::vector<uint8_t>* out);
bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out);

// Writes a result file. quanta_per_block: quanta per time block (>= 1).
Status encode_result(const Result& r, DeflateFn deflate, std::vector<uint8_t>* out,
                     uint32_t quanta_per_block = 600);

// Reads a result file of any supported version (1 to 5). Errors name what is
// wrong and where ("result: block 3: truncated (...)"); never crashes.
// max_inflated bounds the inflated size of each block, and the memory the
// decoded result takes (result_decoded_bytes, counted cell by cell as it is
// read): a file of repeated cells inflates thousands of times over
// (docs/result-format.md, "Memory"). A version 3 file holds
// several resolutions: one level is decoded, the others are not inflated.
// level_quantum_ms chooses it (0: the finest; else the level of exactly that
// quantum, an error when there is none). A version 1 or 2 file is its only
// level.
Status decode_result(const uint8_t* data, size_t n, Result* out, size_t max_inflated = kMaxResultBytes,
                     double level_quantum_ms = 0);

// ---- several resolutions (docs/result-format.md, "Several resolutions") ----
//
// A version 3 file embeds complete version 2 files, one per quantum, finest
// first, and ends with a directory of them, so a reader with HTTP range
// requests fetches the tail, then the directory, then one level's bytes, and
// hands an ordinary version 2 result to the engine.

constexpr uint32_t kResultLevelsVersion = 3;
constexpr uint32_t kMaxResultLevels = 64;
// The fixed tail: u64 offset of the directory, "LSMULTI\0".
constexpr size_t kResultLevelsTrailer = 16;

struct ResultLevel {
  double quantum_ms = 0;
  uint64_t offset = 0;  // from the file's start: where its "LSRESULT" is
  uint64_t length = 0;  // bytes of its complete version 2 file
  // The histograms summed over hosts (every label set with its host label
  // dropped), beside the levels as kept: a query that needs no host reads
  // one cluster's cells, not every host's (docs/result-format.md, "Levels
  // summed over hosts").
  bool summed = false;
};

// Writes a version 3 file: the finest level is `finest` at its own quantum;
// each other quantum of level_quanta_ms (in any order; the finest's may be
// listed or not) must be a multiple of it and is requantize() of it (exact).
// Each level's bytes are what encode_result writes for that level alone.
Status encode_result_levels(const Result& finest, const std::vector<double>& level_quanta_ms, DeflateFn deflate,
                            std::vector<uint8_t>* out, uint32_t quanta_per_block = 600);

// The levels directory, from the file's tail: `tail` holds the last tail_n
// bytes of a file of file_size bytes (the whole file when tail_n ==
// file_size). On success with *need_tail == 0, *out lists the levels (finest
// first). With *need_tail > tail_n the tail was too short: fetch the last
// *need_tail bytes and call again (*out empty). The directory is checked
// against file_size before anything is sized by it; errors name the level
// ("result: levels directory: level 2 (60000 ms) lies outside the file (...)").
Status read_result_levels_tail(const uint8_t* tail, size_t tail_n, uint64_t file_size,
                               std::vector<ResultLevel>* out, uint64_t* need_tail);
// The same, and the levels summed over hosts into *summed (ascending
// quantum; empty when the directory has none). *out lists only the levels
// as kept, so a reader that never asks for sums reads the file as before.
Status read_result_levels_tail(const uint8_t* tail, size_t tail_n, uint64_t file_size,
                               std::vector<ResultLevel>* out, uint64_t* need_tail, std::vector<ResultLevel>* summed);

// The directory of a whole version 3 file (its magic and version checked too).
Status read_result_levels(const uint8_t* data, size_t n, std::vector<ResultLevel>* out,
                          std::vector<ResultLevel>* summed = nullptr);

// The level a query at query_quantum_ms reads exactly: the coarsest whose
// quantum divides it; the finest (0) when none does or query_quantum_ms <= 0.
size_t choose_result_level(const std::vector<ResultLevel>& levels, double query_quantum_ms);

// A quantum as result messages print it: "60000", "0.5" (no trailing zeros).
std::string quantum_text(double ms);

// True when the bytes start with the result magic.
bool is_result_file(const char* data, size_t n);

}  // namespace latscope
