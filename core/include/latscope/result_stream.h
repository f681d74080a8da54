// Result files read and written block by block (docs/result-format.md,
// "Merging in time order"): `latscope merge` adds any number of results
// holding one time block of the output at a time, so its memory is what one
// block of the merged result keeps, whatever the number of inputs or the
// length of the run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "latscope/result.h"

namespace latscope {

// Takes the next bytes of the output; false when they could not be written.
using WriteFn = std::function<bool(const uint8_t* p, size_t n)>;
// A WriteFn appending to *out.
WriteFn vector_writer(std::vector<uint8_t>* out);

// Writes a version 2 result file as it goes (version 5 when the series hold
// several hosts: blocks cut by host as well as by time; docs/result-format.md,
// "Blocks by host (version 5)"): begin() the header (the series of `meta`,
// whose cells are not read), add() cells in time order (each call's cells in
// blocks after the previous call's, a block being a time block and a chunk),
// finish() the index and trailer. encode_result is begin + add + finish of
// one Result.
class ResultEncoder {
 public:
  ResultEncoder(DeflateFn deflate, WriteFn write, uint32_t quanta_per_block = 600);
  Status begin(const Result& meta);
  // part.series parallel to meta's (same order); cells at part's quantum.
  Status add(const Result& part);
  // One block as stored (z: its zlib stream), copied from a file of the
  // same quanta per block whose chunk held the same series in the same order.
  Status put_block(uint32_t chunk, int64_t first, int64_t last, uint32_t cells, const uint8_t* z, size_t zn);
  Status finish();
  // After begin(): each series' chunk, and how many.
  const std::vector<uint32_t>& series_chunks() const { return chunk_of_; }
  uint32_t chunk_count() const { return nchunks_; }
  uint64_t bytes() const { return pos_; }
  uint64_t cells() const { return cells_; }
  uint32_t quanta_per_block() const { return qpb_; }

 private:
  Status emit(const std::vector<uint8_t>& bytes);
  DeflateFn deflate_;
  WriteFn write_;
  uint32_t qpb_;
  uint64_t pos_ = 0;
  uint64_t cells_ = 0;
  uint32_t nblocks_ = 0;
  int64_t last_block_ = INT64_MIN;
  uint32_t last_chunk_ = 0;
  uint32_t version_ = kResultVersion;
  uint32_t nchunks_ = 1;
  std::vector<uint32_t> chunk_of_, pos_in_chunk_;
  std::vector<uint8_t> index_;
};

// A version 3 file written as it goes (docs/result-format.md, "Several
// resolutions"): result_levels_head(), then each level's complete version 2
// file, then result_levels_tail() of their places (dir_at: its own offset).
std::vector<uint8_t> result_levels_head();
std::vector<uint8_t> result_levels_tail(const std::vector<ResultLevel>& dir, uint64_t dir_at);

// Reads n bytes at offset of a file into *out; false with *err otherwise.
using ReadAtFn = std::function<bool(uint64_t offset, uint64_t n, std::vector<uint8_t>* out, std::string* err)>;

// One result file (version 1 or 2, or the finest level of a version 3
// file) read by ranges: open() reads the header and the block index (the
// LSIX table, checked: blocks tile the bytes between header and index, in
// ascending time); read() inflates only the blocks of a time range and
// checks each against its index entry. Nothing else is held.
class ResultBlockReader {
 public:
  Status open(ReadAtFn read, uint64_t file_size, size_t max_inflated = kMaxResultBytes);
  // Quantum, clock and series (without cells).
  const Result& head() const { return head_; }
  // The first and last quantum with cells (false: no cells at all).
  bool span(int64_t* first, int64_t* last) const;
  // The first quantum >= from that a block may hold (false: none).
  bool next_quantum(int64_t from, int64_t* q) const;
  // The quanta of a version 3 file's levels (finest first; empty otherwise).
  const std::vector<double>& level_quanta() const { return level_quanta_; }
  // Cells of quanta [from, to) appended to out (shaped as head(): same
  // series, in order, at the same quantum); cells must be read in time order.
  // chunks: only the blocks of these chunks (null: all).
  Status read(int64_t from, int64_t to, Result* out, const std::vector<bool>* chunks = nullptr);

  // Blocks by host (docs/result-format.md, "Blocks by host (version 5)"):
  // the file's version (1, 2 or 5), quanta per block, each series' chunk
  // (versions 1 and 2: one chunk of every series) and how many.
  uint32_t version() const { return version_; }
  uint32_t quanta_per_block() const { return qpb_; }
  const std::vector<uint32_t>& series_chunks() const { return chunk_of_; }
  uint32_t chunk_count() const { return nchunks_; }
  // The index entry of the block (first quantum, chunk), if there is one.
  bool find_block(int64_t first, uint32_t chunk, size_t* i) const;
  // Block i as stored: its zlib stream, checked as read() checks a block
  // (against scratch, shaped as head(); no cell kept).
  struct StoredBlock {
    int64_t first = 0, last = 0;
    uint32_t cells = 0;
    std::vector<uint8_t> z;
  };
  Status read_block(size_t i, Result* scratch, StoredBlock* out);

 private:
  struct Entry {
    int64_t first, last;
    uint64_t offset;
    uint32_t zlen, cells, chunk;
  };
  Status read_entries(size_t begin, size_t end, int64_t from, int64_t to, const std::vector<bool>* chunks,
                      Result* out, bool stored);
  Status named(Status s) const;
  ReadAtFn read_;
  std::vector<double> level_quanta_;
  std::string level_;  // "level 0 (1000 ms): " inside a file of several levels
  uint64_t base_ = 0;  // where the (level's) version 1 or 2 file starts
  uint32_t version_ = 2;
  uint32_t qpb_ = 1;
  uint32_t nchunks_ = 1;
  std::vector<uint32_t> chunk_of_;
  std::vector<std::vector<uint32_t>> members_;
  size_t max_inflated_ = kMaxResultBytes;
  Result head_;
  std::vector<Entry> index_;
  std::vector<uint8_t> buf_, scratch_;
};

// A merge of result files planned from their heads (merge()'s rules):
// the merged quantum (the coarsest, when every other nests in it), the
// clock, the series (union of label sets and layouts, canonical order;
// coverage span = union, full = intersection), and the notes merge() gives.
struct MergePlan {
  Result head;                               // no cells
  std::vector<std::vector<uint32_t>> index;  // input i's series s -> head series
  std::vector<std::string> notes;
};
// On error, *bad_input is the input it concerns.
Status plan_merge(const std::vector<const Result*>& heads, MergePlan* plan, size_t* bad_input);

// The plan of the same heads summed over hosts: each series with its host
// label dropped (what reduce --keep without host keeps), for the levels
// summed over hosts (docs/result-format.md, "Levels summed over hosts").
// False (and *plan untouched) when the series hold fewer than two hosts: the
// merge as kept is then that sum already.
bool plan_merge_summed(const std::vector<const Result*>& heads, MergePlan* plan);

// Writes the merged result at quantum_ms (the plan's, or a multiple of it:
// a coarser level) through enc (begun and finished by the caller), one of
// enc's blocks at a time. On error, *bad_input is the input it concerns
// (SIZE_MAX: none).
Status write_merge(const MergePlan& plan, std::vector<ResultBlockReader>* inputs, double quantum_ms,
                   ResultEncoder* enc, size_t* bad_input);

}  // namespace latscope
