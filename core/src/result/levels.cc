// Result files of several resolutions (version 3): docs/result-format.md,
// "Several resolutions". Each level is a complete version 2 file, so a page
// can fetch one level by HTTP range requests and decode it alone; this file
// writes the container, reads its directory (from the tail alone if need be)
// and decodes one level. The directory is untrusted: every number is checked
// against the file size before anything is sized or read by it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "latscope/result.h"
#include "latscope/result_stream.h"
#include "result/codec_parts.h"
#include "result/levels.h"

namespace latscope {
namespace {

constexpr char kLevelsMagic[8] = {'L', 'S', 'L', 'E', 'V', 'E', 'L', 'S'};
constexpr char kMultiEnd[8] = {'L', 'S', 'M', 'U', 'L', 'T', 'I', '\0'};
constexpr size_t kHeadBytes = sizeof kResultMagic + 4;  // "LSRESULT" u32 version
// A directory with levels summed over hosts has its own mark and a kind per
// entry, so a latscope that knows only LSLEVELS refuses it by name instead
// of reading a summed level as a level as kept (docs/result-format.md,
// "Levels summed over hosts").
constexpr char kLevelsKindMagic[8] = {'L', 'S', 'L', 'E', 'V', 'E', 'L', '2'};
constexpr size_t kEntryBytes = 24;                        // f64 quantum, u64 offset, u64 length
constexpr size_t kKindEntryBytes = 28;                    // and u32 kind (0 as kept, 1 summed over hosts)
constexpr size_t kDirFixed = sizeof kLevelsMagic + 4;     // "LSLEVELS" u32 nlevels

void put_u32(std::vector<uint8_t>* b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>* b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_f64(std::vector<uint8_t>* b, double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  put_u64(b, u);
}
double get_f64(const uint8_t* p) {
  const uint64_t u = get_u64(p);
  double v;
  std::memcpy(&v, &u, 8);
  return v;
}

Status bad_dir(const std::string& why) {
  return Status::Error(ErrorCode::kUnusableFile, "result: levels directory: " + why);
}

bool several_hosts(const Result& r) {
  const std::string* first = nullptr;
  for (const ResultSeries& s : r.series) {
    const std::string* h = s.labels.find("host");
    if (h && !first) first = h;
    else if (h && *h != *first) return true;
  }
  return false;
}

std::string level_name(size_t i, double q) { return "level " + std::to_string(i) + " (" + quantum_text(q) + " ms)"; }

}  // namespace

std::string quantum_text(double ms) {
  char b[40];
  std::snprintf(b, sizeof b, "%.15g", ms);
  return b;
}

Status encode_result_levels(const Result& finest, const std::vector<double>& level_quanta_ms, DeflateFn deflate,
                            std::vector<uint8_t>* out, uint32_t quanta_per_block) {
  out->clear();
  const double q0 = finest.quantum_ms;
  std::vector<double> quanta{q0};
  for (double q : level_quanta_ms) {
    if (!(q > 0) || !std::isfinite(q))
      return Status::Error(ErrorCode::kInvalidArgument, "result levels: " + quantum_text(q) + " ms is no positive quantum");
    if (quantum_multiple(q0, q) == 0)
      return Status::Error(ErrorCode::kInvalidArgument, "result levels: " + quantum_text(q) +
                                                            " ms is no multiple of the finest level's " +
                                                            quantum_text(q0) + " ms");
    quanta.push_back(q);
  }
  std::sort(quanta.begin(), quanta.end());
  quanta.erase(std::unique(quanta.begin(), quanta.end()), quanta.end());
  if (quanta.size() > kMaxResultLevels)
    return Status::Error(ErrorCode::kInvalidArgument, "result levels: " + std::to_string(quanta.size()) +
                                                          " levels (at most " + std::to_string(kMaxResultLevels) + ")");
  *out = result_levels_head();
  std::vector<ResultLevel> dir;
  std::vector<uint8_t> bytes;
  for (double q : quanta) {
    // Each coarser level from the finest, not from the previous level: the
    // same integers either way (cells nest), but one rule to state.
    Result level = finest;
    Status st = requantize(&level, q);
    if (st.ok()) st = encode_result(level, deflate, &bytes, quanta_per_block);
    if (!st.ok()) return st;
    dir.push_back({q, out->size(), bytes.size()});
    out->insert(out->end(), bytes.begin(), bytes.end());
  }
  // Several hosts: the coarser levels summed over hosts too (docs/result-format.md,
  // "Levels summed over hosts"), each label set without its host label.
  if (several_hosts(finest)) {
    Result sum = finest;
    for (ResultSeries& s : sum.series) s.labels.set("host", "");
    sum.normalize();
    for (size_t k = 1; k < quanta.size(); ++k) {
      Result level = sum;
      Status st = requantize(&level, quanta[k]);
      if (st.ok()) st = encode_result(level, deflate, &bytes, quanta_per_block);
      if (!st.ok()) return st;
      ResultLevel l{quanta[k], out->size(), bytes.size()};
      l.summed = true;
      dir.push_back(l);
      out->insert(out->end(), bytes.begin(), bytes.end());
    }
  }
  const std::vector<uint8_t> tail = result_levels_tail(dir, out->size());
  out->insert(out->end(), tail.begin(), tail.end());
  return Status::Ok();
}

std::vector<uint8_t> result_levels_head() {
  std::vector<uint8_t> out(kResultMagic, kResultMagic + sizeof kResultMagic);
  put_u32(&out, kResultLevelsVersion);
  return out;
}

std::vector<uint8_t> result_levels_tail(const std::vector<ResultLevel>& dir, uint64_t dir_at) {
  // Without sums the directory stays LSLEVELS byte for byte.
  const bool kinds = std::any_of(dir.begin(), dir.end(), [](const ResultLevel& l) { return l.summed; });
  std::vector<uint8_t> out = kinds ? std::vector<uint8_t>(kLevelsKindMagic, kLevelsKindMagic + sizeof kLevelsKindMagic)
                                   : std::vector<uint8_t>(kLevelsMagic, kLevelsMagic + sizeof kLevelsMagic);
  put_u32(&out, static_cast<uint32_t>(dir.size()));
  for (const ResultLevel& l : dir) {
    put_f64(&out, l.quantum_ms);
    put_u64(&out, l.offset);
    put_u64(&out, l.length);
    if (kinds) put_u32(&out, l.summed ? 1 : 0);
  }
  put_u64(&out, dir_at);
  out.insert(out.end(), kMultiEnd, kMultiEnd + sizeof kMultiEnd);
  return out;
}

Status read_result_levels_tail(const uint8_t* tail, size_t tail_n, uint64_t file_size,
                               std::vector<ResultLevel>* out, uint64_t* need_tail) {
  return read_result_levels_tail(tail, tail_n, file_size, out, need_tail, nullptr);
}

Status read_result_levels_tail(const uint8_t* tail, size_t tail_n, uint64_t file_size,
                               std::vector<ResultLevel>* out, uint64_t* need_tail, std::vector<ResultLevel>* summed) {
  out->clear();
  if (summed) summed->clear();
  *need_tail = 0;
  if (tail_n > file_size) return bad_dir("the tail (" + std::to_string(tail_n) + " bytes) is longer than the file");
  const uint64_t min_size = kHeadBytes + kDirFixed + kResultLevelsTrailer;
  if (file_size < min_size)
    return bad_dir("truncated (a file of " + std::to_string(file_size) + " bytes; at least " +
                   std::to_string(min_size) + " hold the directory)");
  if (tail_n < kResultLevelsTrailer) {
    *need_tail = kResultLevelsTrailer;
    return Status::Ok();
  }
  const uint8_t* trailer = tail + tail_n - kResultLevelsTrailer;
  if (std::memcmp(trailer + 8, kMultiEnd, sizeof kMultiEnd) != 0)
    return bad_dir("truncated or not a file of several levels (no LSMULTI end mark)");
  const uint64_t dir_at = get_u64(trailer);
  const uint64_t dir_end = file_size - kResultLevelsTrailer;
  // The size is known before a byte of it is read: bounded by the largest
  // directory, so a bad offset never asks for the whole file.
  // (at most 64 levels as kept and 64 summed)
  const uint64_t max_dir = kDirFixed + kKindEntryBytes * 2 * uint64_t{kMaxResultLevels};
  if (dir_at < kHeadBytes || dir_at > dir_end || dir_end - dir_at < kDirFixed || dir_end - dir_at > max_dir)
    return bad_dir("the trailer points at byte " + std::to_string(dir_at) + ", not at a directory of at most " +
                   std::to_string(kMaxResultLevels) + " levels before byte " + std::to_string(dir_end));
  const uint64_t dir_bytes = dir_end - dir_at;
  if (tail_n < file_size - dir_at) {
    *need_tail = file_size - dir_at;
    return Status::Ok();
  }
  const uint8_t* d = tail + (tail_n - (file_size - dir_at));
  const bool kinds = std::memcmp(d, kLevelsKindMagic, sizeof kLevelsKindMagic) == 0;
  if (!kinds && std::memcmp(d, kLevelsMagic, sizeof kLevelsMagic) != 0)
    return bad_dir("no LSLEVELS mark at byte " + std::to_string(dir_at) + " (nor LSLEVEL2)");
  const size_t width = kinds ? kKindEntryBytes : kEntryBytes;
  const uint32_t n = get_u32(d + sizeof kLevelsMagic);
  const uint32_t max_n = kinds ? 2 * kMaxResultLevels : kMaxResultLevels;
  if (n == 0 || n > max_n || kDirFixed + width * uint64_t{n} != dir_bytes)
    return bad_dir(std::to_string(n) + " levels do not fit its " + std::to_string(dir_bytes) + " bytes (" +
                   std::to_string(width) + " a level, at most " + std::to_string(max_n) + ")");
  std::vector<ResultLevel> levels(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* e = d + kDirFixed + width * i;
    levels[i] = {get_f64(e), get_u64(e + 8), get_u64(e + 16)};
    if (!kinds) continue;
    const uint32_t kind = get_u32(e + 24);
    if (kind > 1)
      return bad_dir(level_name(i, levels[i].quantum_ms) + ": kind " + std::to_string(kind) +
                     " (0: as kept, 1: summed over hosts)");
    levels[i].summed = kind == 1;
  }
  // The levels as kept first (finest first), then the summed ones, each
  // ascending; every quantum a multiple of the finest level as kept.
  for (uint32_t i = 0; i < n; ++i) {
    const ResultLevel& l = levels[i];
    const std::string name = level_name(i, l.quantum_ms);
    if (!(l.quantum_ms > 0) || !std::isfinite(l.quantum_ms))
      return bad_dir(name + ": the quantum is not a positive number of ms");
    if (i == 0 && l.summed) return bad_dir(name + ": summed over hosts, but no level as kept comes before it");
    if (i && !l.summed && levels[i - 1].summed)
      return bad_dir(name + ": a level as kept after the levels summed over hosts");
    if (i && l.summed == levels[i - 1].summed && !(l.quantum_ms > levels[i - 1].quantum_ms))
      return bad_dir(name + ": quanta not ascending (level " + std::to_string(i - 1) + " has " +
                     quantum_text(levels[i - 1].quantum_ms) + " ms)");
    if (i && quantum_multiple(levels[0].quantum_ms, l.quantum_ms) == 0)
      return bad_dir(name + ": no multiple of the finest level's " + quantum_text(levels[0].quantum_ms) + " ms");
    if (l.length < kHeadBytes)
      return bad_dir(name + " is " + std::to_string(l.length) + " bytes long, too short for a result");
    if (l.offset < kHeadBytes || l.offset > dir_at || l.length > dir_at - l.offset)
      return bad_dir(name + " lies outside the file (offset " + std::to_string(l.offset) + ", length " +
                     std::to_string(l.length) + "; the levels lie in bytes " + std::to_string(kHeadBytes) + " to " +
                     std::to_string(dir_at) + ")");
    for (uint32_t k = 0; k < i; ++k) {
      const ResultLevel& o = levels[k];
      if (l.offset < o.offset + o.length && o.offset < l.offset + l.length)
        return bad_dir(name + " overlaps level " + std::to_string(k) + " (bytes " + std::to_string(l.offset) + "+" +
                       std::to_string(l.length) + " and " + std::to_string(o.offset) + "+" +
                       std::to_string(o.length) + ")");
    }
  }
  for (ResultLevel& l : levels) {
    if (!l.summed) out->push_back(l);
    else if (summed) summed->push_back(l);
  }
  return Status::Ok();
}

Status read_result_levels(const uint8_t* data, size_t n, std::vector<ResultLevel>* out,
                          std::vector<ResultLevel>* summed) {
  out->clear();
  if (summed) summed->clear();
  if (n < kHeadBytes || std::memcmp(data, kResultMagic, sizeof kResultMagic) != 0 ||
      get_u32(data + sizeof kResultMagic) != kResultLevelsVersion)
    return Status::Error(ErrorCode::kUnusableFile, "result: file: not a result of several levels (LSRESULT, version 3)");
  uint64_t need = 0;
  Status st = read_result_levels_tail(data, n, n, out, &need, summed);
  if (st.ok() && need) return bad_dir("truncated (needs the last " + std::to_string(need) + " bytes)");
  return st;
}

size_t choose_result_level(const std::vector<ResultLevel>& levels, double query_quantum_ms) {
  size_t best = 0;
  if (!(query_quantum_ms > 0)) return best;
  for (size_t i = 0; i < levels.size(); ++i)
    if (quantum_multiple(levels[i].quantum_ms, query_quantum_ms)) best = i;
  return best;
}

Status decode_result_levels(const uint8_t* data, size_t n, Result* out, size_t max_inflated,
                            double level_quantum_ms) {
  std::vector<ResultLevel> levels;
  Status st = read_result_levels(data, n, &levels);
  if (!st.ok()) return st;
  size_t pick = 0;
  if (level_quantum_ms != 0) {
    pick = levels.size();
    std::string have;
    for (size_t i = 0; i < levels.size(); ++i) {
      if (levels[i].quantum_ms == level_quantum_ms) pick = i;
      have += (i ? ", " : "") + quantum_text(levels[i].quantum_ms);
    }
    if (pick == levels.size())
      return Status::Error(ErrorCode::kInvalidArgument, "result: no level of " + quantum_text(level_quantum_ms) +
                                                            " ms (the file has " + have + " ms)");
  }
  const ResultLevel& l = levels[pick];
  const uint8_t* p = data + l.offset;  // read_result_levels checked it against n
  const std::string name = "result: " + level_name(pick, l.quantum_ms) + ": ";
  const uint32_t version = get_u32(p + sizeof kResultMagic);
  if (std::memcmp(p, kResultMagic, sizeof kResultMagic) != 0 || !is_single_level_version(version))
    return Status::Error(ErrorCode::kUnusableFile,
                         name + "not a version 1, 2 or 5 result (each level is a complete file of one level)");
  st = decode_result(p, static_cast<size_t>(l.length), out, max_inflated);
  if (!st.ok()) {
    // "result: block 3: ..." -> "result: level 1 (10000 ms): block 3: ..."
    const std::string inner = st.message.rfind("result: ", 0) == 0 ? st.message.substr(8) : st.message;
    *out = Result();
    return Status::Error(st.code, name + inner);
  }
  if (out->quantum_ms != l.quantum_ms) {
    const double q = out->quantum_ms;
    *out = Result();
    return Status::Error(ErrorCode::kUnusableFile,
                         name + "its header says " + quantum_text(q) + " ms, the directory " + quantum_text(l.quantum_ms) + " ms");
  }
  return Status::Ok();
}

}  // namespace latscope
