// A result file read by ranges (latscope/result_stream.h): the header and
// the LSIX index first, then only the blocks of a time range
// (docs/result-format.md, "Merging in time order"). The same checks as the
// whole-file decoder (codec_parts.h), in the same words; the index is
// untrusted, so it is checked to tile the bytes between the header and
// itself before any block is read by it.
#include <algorithm>
#include <cstring>
#include <string>

#include "latscope/result_matrix.h"
#include "latscope/result_stream.h"
#include "result/codec_parts.h"

namespace latscope {
namespace {

constexpr size_t kHead = sizeof kResultMagic + 4;  // "LSRESULT" u32 version
constexpr size_t kTrailer = 16;                    // u64 index offset, "LSRESEND"
// i64 first, i64 last, u64 offset, u32 zlen, u32 cells (version 5: and u32 chunk)
constexpr size_t kEntry = 32;
constexpr int64_t kMaxQuantum = 9000000000000000;  // 9e15, as the decoder bounds a block's quanta

Status bad(const std::string& where, const std::string& why) {
  return Status::Error(ErrorCode::kUnusableFile, "result: " + where + ": " + why);
}

}  // namespace

Status ResultBlockReader::open(ReadAtFn read, uint64_t size, size_t max_inflated) {
  read_ = std::move(read);
  max_inflated_ = max_inflated;
  head_ = Result();
  index_.clear();
  level_quanta_.clear();
  std::string err;
  auto get = [&](uint64_t off, uint64_t n, const char* where) {
    return read_(off, n, &buf_, &err) ? Status::Ok() : bad(where, err);
  };
  if (size < kHead) return bad("file", "truncated (" + std::to_string(size) + " bytes)");
  Status st = get(0, kHead, "file");
  if (!st.ok()) return st;
  if (std::memcmp(buf_.data(), kResultMagic, sizeof kResultMagic) != 0) return bad("file", "no result magic (LSRESULT)");
  uint32_t version = get_u32(buf_.data() + sizeof kResultMagic);
  if (version == kResultMatrixVersion) {
    // Histograms and a matrix (docs/result-format.md, "Per-host percentile
    // matrix (version 4)"): the histograms are read as the file they are.
    if (size < 12 + kResultPartsTail) return bad("parts", "truncated (" + std::to_string(size) + " bytes)");
    st = get(size - kResultPartsTail, kResultPartsTail, "parts");
    uint64_t at = 0, len = 0, ma = 0, ml = 0;
    if (st.ok()) st = read_result_parts(buf_.data(), size, &at, &len, &ma, &ml);
    if (!st.ok()) return st;
    st = get(at, kHead, "parts");
    if (!st.ok()) return st;
    if (get_u32(buf_.data() + sizeof kResultMagic) == kResultMatrixVersion)
      return bad("parts", "the histograms are not a version 1, 2, 3 or 5 result");
    const ReadAtFn outer = read_;
    return open([outer, at](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* why) {
      return outer(at + off, n, out, why);
    }, len, max_inflated);
  }
  base_ = 0;
  uint64_t len = size;
  std::string& level = level_;  // "level 0 (1000 ms): " for a file of several levels
  level.clear();
  if (version == kResultLevelsVersion) {
    // The finest level: every coarser one is requantize() of it.
    std::vector<ResultLevel> levels;
    uint64_t need = kResultLevelsTrailer;
    for (int tries = 0; tries < 3 && need; ++tries) {
      if (need > size) need = size;
      st = get(size - need, need, "levels directory");
      if (st.ok()) st = read_result_levels_tail(buf_.data(), buf_.size(), size, &levels, &need);
      if (!st.ok()) return st;
    }
    if (levels.empty()) return bad("levels directory", "unreadable");
    for (const ResultLevel& l : levels) level_quanta_.push_back(l.quantum_ms);
    base_ = levels[0].offset;
    len = levels[0].length;
    level = "level 0 (" + quantum_text(levels[0].quantum_ms) + " ms): ";
    st = get(base_, kHead, "level 0");
    if (!st.ok()) return st;
    version = get_u32(buf_.data() + sizeof kResultMagic);
    if (std::memcmp(buf_.data(), kResultMagic, sizeof kResultMagic) != 0 || !is_single_level_version(version))
      return bad("level 0", "not a version 1, 2 or 5 result (each level is a complete file of one level)");
    head_.quantum_ms = levels[0].quantum_ms;
  } else if (!is_single_level_version(version)) {
    return bad("file", "version " + std::to_string(version) + " (this latscope reads versions 1 to 5" +
                           (version > kResultHostBlocksVersion ? "; a newer latscope wrote it)" : ")"));
  }
  version_ = version;
  auto in_level = [this](Status s) { return named(std::move(s)); };
  if (len < kHead + 4 + kTrailer) return in_level(bad("header", "truncated"));
  st = get(base_ + kHead, 4, "header");
  if (!st.ok()) return st;
  const uint64_t hz = get_u32(buf_.data());
  if (kHead + 4 + hz + kTrailer + 8 > len) return in_level(bad("header", "truncated (header at byte 12)"));
  st = get(base_ + kHead + 4, hz, "header");
  if (!st.ok()) return st;
  const double level_q = head_.quantum_ms;
  std::vector<uint32_t> chunk_of;
  st = decode_result_header(buf_.data(), buf_.size(), max_inflated_, version, &head_, &qpb_, &chunk_of, &nchunks_);
  if (!st.ok()) return in_level(st);
  members_ = chunk_members(chunk_of, nchunks_);
  chunk_of_ = std::move(chunk_of);
  if (!level.empty() && head_.quantum_ms != level_q)
    return in_level(bad("header", "says " + quantum_text(head_.quantum_ms) + " ms, the directory " +
                                      quantum_text(level_q) + " ms"));
  // The trailer points at the index; the index lists the blocks.
  st = get(base_ + len - kTrailer, kTrailer, "trailer");
  if (!st.ok()) return st;
  const uint64_t index_at = get_u64(buf_.data());
  const uint64_t blocks_at = kHead + 4 + hz;
  if (std::memcmp(buf_.data() + 8, "LSRESEND", 8) != 0 || index_at < blocks_at || index_at > len - kTrailer - 8)
    return in_level(bad("trailer", "does not point at the index or lacks the end mark"));
  st = get(base_ + index_at, len - kTrailer - index_at, "index");
  if (!st.ok()) return st;
  const uint32_t nb = get_u32(buf_.data() + 4);
  const bool by_host = version == kResultHostBlocksVersion;
  const size_t entry = by_host ? kEntry + 4 : kEntry;  // and the block's u32 chunk before its zlib stream
  if (std::memcmp(buf_.data(), "LSIX", 4) != 0 || (buf_.size() - 8) / entry != nb || (buf_.size() - 8) % entry)
    return in_level(bad("index", "lists " + std::to_string(nb) + " blocks in " + std::to_string(buf_.size()) + " bytes"));
  uint64_t expect = blocks_at;
  for (uint32_t i = 0; i < nb; ++i) {
    const uint8_t* e = buf_.data() + 8 + entry * i;
    Entry x{static_cast<int64_t>(get_u64(e)), static_cast<int64_t>(get_u64(e + 8)), get_u64(e + 16), get_u32(e + 24),
            get_u32(e + 28), by_host ? get_u32(e + 32) : 0};
    // Quanta within the decoder's range (codec.cc, "quantum index out of range");
    // ascending time, then chunk in a time block (version 5).
    const bool after = i == 0 || x.first > index_.back().first ||
                       (by_host && x.first == index_.back().first && x.chunk > index_.back().chunk);
    const bool grid = x.first % static_cast<int64_t>(qpb_) == 0 && x.last >= x.first && x.first >= -kMaxQuantum &&
                      x.last <= kMaxQuantum && static_cast<uint64_t>(x.last - x.first) < qpb_ && after &&
                      x.chunk < nchunks_;
    if (x.offset != expect || !grid || x.cells == 0)
      return in_level(bad("index", "entry " + std::to_string(i) + " does not match block " + std::to_string(i)));
    expect = x.offset + (by_host ? 8 : 4) + x.zlen;
    index_.push_back(x);
  }
  if (expect != index_at)
    return in_level(bad("index", "lists " + std::to_string(nb) + " blocks, the file has more"));
  std::vector<uint8_t>().swap(buf_);
  return Status::Ok();
}

Status ResultBlockReader::named(Status s) const {
  // Errors inside a level name it, as decode_result does ("result: level 0 (1000 ms): block 3: ...").
  if (s.ok() || level_.empty() || s.message.rfind("result: ", 0) != 0) return s;
  return Status::Error(s.code, "result: " + level_ + s.message.substr(8));
}

bool ResultBlockReader::span(int64_t* first, int64_t* last) const {
  if (index_.empty()) return false;
  *first = index_.front().first;
  *last = index_.back().last;
  return true;
}

bool ResultBlockReader::next_quantum(int64_t from, int64_t* q) const {
  // Entries ascend by first quantum; in a time block the chunks' last
  // quanta differ, so the block's end decides, then its entries in turn.
  auto it = std::lower_bound(index_.begin(), index_.end(), from, [this](const Entry& e, int64_t v) {
    return e.first + static_cast<int64_t>(qpb_) - 1 < v;
  });
  for (; it != index_.end(); ++it) {
    if (it->last < from) continue;
    *q = std::max(from, it->first);
    return true;
  }
  return false;
}

bool ResultBlockReader::find_block(int64_t first, uint32_t chunk, size_t* i) const {
  auto it = std::lower_bound(index_.begin(), index_.end(), std::make_pair(first, chunk),
                             [](const Entry& e, const std::pair<int64_t, uint32_t>& v) {
                               return e.first < v.first || (e.first == v.first && e.chunk < v.second);
                             });
  if (it == index_.end() || it->first != first || it->chunk != chunk) return false;
  *i = static_cast<size_t>(it - index_.begin());
  return true;
}

Status ResultBlockReader::read_block(size_t i, Result* scratch, StoredBlock* out) {
  // Copied as stored, so checked as read() checks it (every cell parsed
  // against scratch's series and layouts, none kept), its cells matching the entry.
  const Entry& x = index_[i];
  Status st = read_entries(i, i + 1, INT64_MIN, INT64_MAX, nullptr, scratch, /*stored=*/true);
  if (!st.ok()) return st;
  const size_t at = version_ == kResultHostBlocksVersion ? 8 : 4;
  out->first = x.first;
  out->last = x.last;
  out->cells = x.cells;
  out->z.assign(buf_.begin() + static_cast<std::ptrdiff_t>(at), buf_.end());
  std::vector<uint8_t>().swap(buf_);
  return Status::Ok();
}

Status ResultBlockReader::read(int64_t from, int64_t to, Result* out, const std::vector<bool>* chunks) {
  return read_entries(0, index_.size(), from, to, chunks, out, /*stored=*/false);
}

Status ResultBlockReader::read_entries(size_t begin, size_t end, int64_t from, int64_t to,
                                       const std::vector<bool>* chunks, Result* out, bool stored) {
  BlockContext ctx;
  ctx.check_only = stored;
  ctx.version = version_;
  ctx.quanta_per_block = qpb_;
  ctx.max_inflated = max_inflated_;
  const bool by_host = version_ == kResultHostBlocksVersion;
  const size_t at = by_host ? 8 : 4;
  uint64_t decoded = 0;
  std::vector<size_t> had(out->series.size());
  // The entries of [from, to): the index ascends by first quantum.
  if (from != INT64_MIN) {
    const int64_t span = static_cast<int64_t>(qpb_) - 1;
    begin = static_cast<size_t>(
        std::lower_bound(index_.begin() + static_cast<std::ptrdiff_t>(begin), index_.begin() + static_cast<std::ptrdiff_t>(end),
                         from, [span](const Entry& e, int64_t v) { return e.first + span < v; }) -
        index_.begin());
  }
  for (size_t i = begin; i < end; ++i) {
    const Entry& x = index_[i];
    if (x.first >= to) break;
    if (x.last < from || (chunks && !(*chunks)[x.chunk])) continue;
    std::string err;
    if (!read_(base_ + x.offset, uint64_t{at} + x.zlen, &buf_, &err))
      return named(bad("block " + std::to_string(i), err));
    if (get_u32(buf_.data()) != x.zlen || (by_host && get_u32(buf_.data() + 4) != x.chunk))
      return named(bad("index", "entry " + std::to_string(i) + " does not match block " + std::to_string(i)));
    for (size_t s = 0; s < had.size(); ++s) had[s] = out->series[s].cells.size();
    ctx.prev_first = i ? index_[i - 1].first : INT64_MIN;
    ctx.prev_chunk = i ? index_[i - 1].chunk : 0;
    ctx.chunk = x.chunk;
    ctx.members = by_host ? &members_[x.chunk] : nullptr;
    BlockInfo info;
    Status st = decode_result_block(buf_.data() + at, x.zlen, ctx, i, out, &decoded, &scratch_, &info);
    if (st.ok() && (info.first != x.first || info.last != x.last || info.cells != x.cells))
      st = bad("index", "entry " + std::to_string(i) + " does not match block " + std::to_string(i));
    if (!st.ok()) return named(st);
    // Only the range asked for: a block may reach past it at either end.
    for (size_t s = 0; s < had.size(); ++s) {
      std::vector<ResultCell>& cells = out->series[s].cells;
      const auto b = cells.begin() + static_cast<std::ptrdiff_t>(had[s]);
      cells.erase(std::remove_if(b, cells.end(), [&](const ResultCell& c) { return c.quantum < from || c.quantum >= to; }),
                  cells.end());
    }
  }
  // Nothing kept between reads: a merge holds a reader per input, and a
  // block's bytes each would grow its memory with the inputs.
  if (!stored) std::vector<uint8_t>().swap(buf_);
  std::vector<uint8_t>().swap(scratch_);
  return Status::Ok();
}

}  // namespace latscope
