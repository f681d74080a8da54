// The per-host percentile matrix of a result file (docs/result-format.md,
// "Per-host percentile matrix (version 4)"): per level of a ladder of quanta,
// per group (host), per quantum, the row `pctiles --group-by host --quantum
// L` prints, computed where the histograms are (reduce) and concatenated,
// never recomputed from percentiles, by merge. Laid out in blocks of
// (level, time block, run of groups: the index says which) with an index, so that a reader fetches
// one level, one time range and one set of hosts by range requests.
//
//   "LSRESULT" u32 4
//   histograms   a complete version 2 or 3 file
//   matrix       "LSMATRIX" section (header, blocks, LSMXIX index, trailer)
//   "LSPARTS\0" (u64 offset, u64 length) x 2      u64 its offset  "LSWITHMX"
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "latscope/engine.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"
#include "latscope/status.h"

namespace latscope {

constexpr uint32_t kResultMatrixVersion = 4;  // the container that holds a matrix
constexpr size_t kResultPartsTail = 16 + 8 + 32;  // "LSPARTS\0", two parts, u64 offset, "LSWITHMX"
// The default ladder: 1 s, 10 s, 1 min, 10 min, 1 h.
const std::vector<double>& default_matrix_levels();

// The most blocks a merge writes into one matrix (an index entry each, 36
// bytes): a 2,000-host day at 1 s in blocks of 600 quanta x 64 hosts is
// under 6,000 (docs/result-format.md, "Merging the matrix").
constexpr uint32_t kMaxMatrixBlocks = uint32_t{1} << 20;

struct MatrixHead {
  bool absolute_time = false;
  std::string group_by = "host";       // the labels a row's group is made of
  std::vector<std::string> labels;     // percentile labels, parallel to percentiles
  std::vector<double> percentiles;
  std::string method;                  // the query's method, as its option names it
  uint32_t quanta_per_block = 600;
  uint32_t groups_per_block = 64;
  std::vector<double> levels;          // ascending quanta, ms
  std::vector<std::string> groups;     // ascending, unique: "host=node01"
};

// What a row of pctiles CSV (without --bounds) shows, kept exactly.
struct MatrixRow {
  double t_ms = 0;
  uint32_t group = 0;  // index into MatrixHead::groups
  uint32_t flags = 0;  // RowFlags
  double samples = 0, min_ns = 0, mean_ns = 0, max_ns = 0;
  std::vector<double> p;  // parallel to MatrixHead::percentiles
  uint64_t few = 0;       // bit i: percentile i has few samples
};

struct MatrixBlock {
  uint32_t level = 0;        // index into MatrixHead::levels
  int64_t time_block = 0;    // floor(t_ms / (level quantum x quanta_per_block))
  uint32_t first_group = 0;  // section version 1: a multiple of groups_per_block
  uint32_t groups = 0;       // groups [first_group, first_group + groups): 1 to groups_per_block
  uint32_t rows = 0;
  uint64_t offset = 0;       // from the section's start
  uint32_t zlen = 0;
};

// The time block a row of a level belongs to.
int64_t matrix_time_block(const MatrixHead& h, uint32_t level, double t_ms);

// Writes a matrix section (version 2: docs/result-format.md, "Blocks copied
// as stored (matrix section version 2)") as it goes: begin(head), add() or
// add_stored() blocks in index order (level, time block, first group),
// finish() index and trailer.
class MatrixWriter {
 public:
  MatrixWriter(DeflateFn deflate, WriteFn write) : deflate_(deflate), write_(std::move(write)) {}
  Status begin(const MatrixHead& head);
  // rows ascending (t_ms, group), every one in [first_group, first_group + groups), groups <= groups_per_block
  Status add(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups,
             const std::vector<MatrixRow>& rows);
  // A version 2 block's compressed bytes as another section stores them
  // (MatrixReader::read_stored): its rows' groups are relative to the first
  // group, which only the index holds, so the bytes stand for groups
  // [first_group, first_group + groups) here as they did there. first_t and
  // last_t: its first and last row's time (the level's span).
  Status add_stored(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups, uint32_t rows,
                    const std::vector<uint8_t>& z, double first_t, double last_t);
  // How many blocks were deflated (add) and copied (add_stored).
  uint64_t deflated() const { return deflated_; }
  uint64_t copied() const { return copied_; }
  Status finish();
  uint64_t bytes() const { return pos_; }

 private:
  Status emit(const std::vector<uint8_t>& b);
  Status place(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups, uint32_t rows,
               const std::vector<uint8_t>& z, double first_t, double last_t);
  DeflateFn deflate_;
  WriteFn write_;
  MatrixHead head_;
  uint64_t pos_ = 0;
  uint64_t deflated_ = 0, copied_ = 0;
  std::vector<MatrixBlock> index_;
  std::vector<std::pair<double, double>> span_;  // per level: first and last row time
};

// The rows of a QueryResult grouped by `group_by` at level `level` written
// as the blocks of that level (rows of every group of head.groups).
Status write_matrix_level(const MatrixHead& head, uint32_t level, const QueryResult& q, MatrixWriter* w);

// The matrix of a Result: for each level, the query `q` (group_by and
// quantum replaced) on r read back as a result file reads, so each row is
// what `pctiles --group-by host --quantum L` prints for r, and for its logs.
// head gets groups, levels and the query's description; the section is
// written through w (begun and finished here).
Status build_result_matrix(const Result& r, QueryOptions q, const std::vector<std::string>& labels,
                           const std::vector<double>& levels, MatrixHead* head, MatrixWriter* w);

// A matrix section read by ranges: open() reads the container's parts, the
// section's trailer, index and header (all checked before anything is sized
// by them); read() inflates one block and checks it against its entry.
class MatrixReader {
 public:
  // False in *has when the file holds no matrix (a version 1, 2 or 3 file).
  Status open(ReadAtFn read, uint64_t file_size, bool* has);
  const MatrixHead& head() const { return head_; }
  const std::vector<MatrixBlock>& blocks() const { return index_; }
  Status read(size_t block, std::vector<MatrixRow>* rows);
  // Block b's compressed bytes, not inflated (a merge copies them: "Merging
  // the matrix"); only a version 2 section's can be copied into one.
  Status read_stored(size_t block, std::vector<uint8_t>* z);
  uint32_t version() const { return version_; }
  // Where block b's zlen compressed bytes lie in the file (what read(b)
  // fetches, after the block's u32 length): a page reading by ranges
  // fetches them first (wasm/bindings.cc MatrixFile).
  uint64_t block_at(size_t b) const { return base_ + index_[b].offset + 4; }
  // A level's first and last row time; false when it has no rows.
  bool span(uint32_t level, double* first, double* last) const {
    if (level >= span_.size() || !(span_[level].first <= span_[level].second)) return false;
    *first = span_[level].first;
    *last = span_[level].second;
    return true;
  }

 private:
  ReadAtFn read_;
  std::vector<std::pair<double, double>> span_;
  uint64_t base_ = 0;  // where the section starts in the file
  uint32_t version_ = 0;  // the section's: 1 (first group in each block) or 2
  MatrixHead head_;
  std::vector<MatrixBlock> index_;
  // The bytes read and inflated are scratch shared by every reader of the
  // thread (matrix_codec.cc io_buffers): a merge opens a reader per input,
  // and buffers each kept were ~200 KB a host.
};

// The parts of a version 4 file from its last kResultPartsTail bytes:
// where the histograms (a version 2 or 3 file) and the matrix lie.
Status read_result_parts(const uint8_t* tail, uint64_t file_size, uint64_t* hist_at, uint64_t* hist_len,
                         uint64_t* matrix_at, uint64_t* matrix_len);
// The tail that ends a version 4 file (parts_at: its own offset).
std::vector<uint8_t> result_parts_tail(uint64_t hist_at, uint64_t hist_len, uint64_t matrix_at, uint64_t matrix_len,
                                       uint64_t parts_at);
// "LSRESULT" u32 4.
std::vector<uint8_t> result_matrix_head();

// The histograms of a whole file: itself for versions 1-3, the embedded
// file for version 4 (*at, *len). Errors name the parts.
Status result_histograms(const uint8_t* data, size_t n, uint64_t* at, uint64_t* len);

// Merging matrices (docs/result-format.md, "Merging the matrix"): the
// output's head (the groups' union, natural order) and each input's group
// index -> the output's. False, with *why, when the inputs cannot be
// concatenated: one holds no matrix, their levels, percentiles, method or
// clock differ, or a group is in two inputs (its percentiles would need the
// two inputs' histograms added first).
struct MatrixMergePlan {
  MatrixHead head;
  std::vector<std::vector<uint32_t>> map;
};
bool plan_matrix_merge(const std::vector<const MatrixHead*>& heads, const std::vector<std::string>& names,
                       MatrixMergePlan* plan, std::string* why);
// The inputs' rows concatenated, one output block at a time (begun and
// finished here). On error, *bad_input is the input it concerns.
Status write_matrix_merge(const MatrixMergePlan& plan, std::vector<MatrixReader>* inputs, MatrixWriter* w,
                          size_t* bad_input);

// A query answered from rows of one level (every group, time order): the
// QueryResult pctiles_csv prints as the query on the histograms does.
void matrix_query_result(const MatrixHead& head, uint32_t level, std::vector<MatrixRow>* rows, QueryResult* out);
// One matrix row as the query row it was made from (row->p sized to its percentiles).
void matrix_row_to_row(const MatrixRow& m, Row* row);

}  // namespace latscope
