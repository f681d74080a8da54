// Internal to the result codec (docs/result-format.md, "Byte layout"): the
// header and one block decoded apart, so that the whole-file decoder
// (codec.cc) and the block reader (block_reader.cc, which streams `latscope
// merge`) check the same things with the same words.
#pragma once

#include <cstdint>
#include <vector>

#include "latscope/result.h"

namespace latscope {

// Little-endian integers at p (the fixed-width records: levels directory,
// LSIX index, trailers).
inline uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= static_cast<uint32_t>(p[k]) << (8 * k);
  return v;
}
inline uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(p[k]) << (8 * k);
  return v;
}

// What decoding a block needs from the header and the blocks before it.
struct BlockContext {
  uint32_t version = 2;           // 1: cells carry no extremes (migrated)
  uint32_t quanta_per_block = 1;  // from the header
  size_t max_inflated = kMaxResultBytes;
  int64_t prev_first = INT64_MIN;  // the previous block's first quantum (ascending)
  uint32_t prev_chunk = 0;         // and its chunk (version 5: ascending within a time block)
  uint32_t chunk = 0;              // this block's chunk (version 5)
  // The chunk's series, ascending (a cell's series is its position here);
  // null: every series (versions 1 and 2).
  const std::vector<uint32_t>* members = nullptr;
  // Every check made, no cell kept (a block copied as stored: merge_stream.cc).
  bool check_only = false;
};

// The chunks of a result's series (docs/result-format.md, "Blocks by host
// (version 5)"): series of one `host` label value (none: "") share a chunk;
// chunks numbered by their first series. *n: how many.
std::vector<uint32_t> result_series_chunks(const Result& r, uint32_t* n);
// Each chunk's series, ascending.
std::vector<std::vector<uint32_t>> chunk_members(const std::vector<uint32_t>& chunk_of, uint32_t n);

// A block as its cells say: what the index must list for it.
struct BlockInfo {
  int64_t first = 0, last = 0;
  uint32_t cells = 0;
};

// The zlib header stream (after "LSRESULT", version and its u32 length):
// *out gets the quantum, clock and series (no cells); *qpb the quanta per
// block; *chunks each series' chunk and *nchunks their number (version 5's
// table; versions 1 and 2: one chunk).
Status decode_result_header(const uint8_t* z, size_t zn, size_t max_inflated, uint32_t version, Result* out,
                            uint32_t* qpb, std::vector<uint32_t>* chunks, uint32_t* nchunks);

// One block's zlib stream (after its u32 length): its cells appended to
// out->series (shaped by decode_result_header); *decoded counts their cost
// against ctx.max_inflated ("Memory"). Errors start "result: block N: ".
Status decode_result_block(const uint8_t* z, size_t zn, const BlockContext& ctx, size_t block_no, Result* out,
                           uint64_t* decoded, std::vector<uint8_t>* scratch, BlockInfo* info);

}  // namespace latscope
