// The per-host percentile matrix's bytes (docs/result-format.md, "Per-host
// percentile matrix (version 4)"): the section's writer and its reader by
// ranges, and the version 4 container's parts. Untrusted like the rest of a
// result: every length and index is checked before anything is sized by it.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "latscope/inflate.h"
#include "latscope/result_matrix.h"
#include "query/aligner.h"
#include "result/codec_parts.h"

namespace latscope {
namespace {

constexpr char kSectionMagic[8] = {'L', 'S', 'M', 'A', 'T', 'R', 'I', 'X'};
constexpr char kIndexMagic[8] = {'L', 'S', 'M', 'X', 'I', 'X', '\0', '\0'};
constexpr char kSectionEnd[8] = {'L', 'S', 'M', 'X', 'E', 'N', 'D', '\0'};
constexpr char kPartsMagic[8] = {'L', 'S', 'P', 'A', 'R', 'T', 'S', '\0'};
constexpr char kPartsEnd[8] = {'L', 'S', 'W', 'I', 'T', 'H', 'M', 'X'};
// Version 2: a block's first group is in the index only, so a merge copies a
// block as stored (docs/result-format.md, "Blocks copied as stored (matrix
// section version 2)"); version 1 sections are still read.
constexpr uint32_t kSectionVersion = 2;
constexpr size_t kSectionHead = 12;   // "LSMATRIX" u32 version
constexpr size_t kSectionTrail = 16;  // u64 index offset, "LSMXEND\0"
constexpr size_t kEntry1 = 32;  // u32 level, i64 time block, u32 first group, u32 rows, u64 offset, u32 zlen
constexpr size_t kEntry2 = 36;  // u32 level, i64 time block, u32 first group, u32 groups, u32 rows, u64 offset, u32 zlen
constexpr size_t kMaxPercentiles = 64;  // the few-samples mask is 64 bits
constexpr size_t kMaxInflated = size_t{1} << 30;

struct Out {
  std::vector<uint8_t>* b;
  void u32(uint32_t v) { for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i))); }
  void u64(uint64_t v) { for (int i = 0; i < 8; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i))); }
  void f64(double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    u64(u);
  }
  void var(uint64_t v) {
    while (v >= 0x80) {
      b->push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    b->push_back(static_cast<uint8_t>(v));
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    b->insert(b->end(), s.begin(), s.end());
  }
  void bytes(const char* p, size_t n) { b->insert(b->end(), p, p + n); }
};

// Reads what remains of an inflated stream; the first failure is kept.
struct In {
  In(const uint8_t* data, size_t size) : p(data), n(size) {}
  const uint8_t* p;
  size_t n;
  size_t at = 0;
  std::string err;
  bool need(size_t k, const char* what) {
    if (!err.empty()) return false;
    if (k > n - at) err = std::string("truncated (") + what + ")";
    return err.empty();
  }
  uint32_t u32(const char* what) {
    if (!need(4, what)) return 0;
    at += 4;
    return get_u32(p + at - 4);
  }
  uint64_t u64(const char* what) {
    if (!need(8, what)) return 0;
    at += 8;
    return get_u64(p + at - 8);
  }
  double f64(const char* what) {
    const uint64_t u = u64(what);
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  }
  uint64_t var(const char* what) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!need(1, what)) return 0;
      const uint8_t c = p[at++];
      v |= static_cast<uint64_t>(c & 0x7f) << shift;
      if (!(c & 0x80)) return v;
    }
    if (err.empty()) err = std::string("varint too long (") + what + ")";
    return 0;
  }
  std::string str(const char* what) {
    const uint32_t k = u32(what);
    if (!need(k, what)) return std::string();
    at += k;
    return std::string(reinterpret_cast<const char*>(p + at - k), k);
  }
};

Status bad(const std::string& why) { return Status::Error(ErrorCode::kUnusableFile, "result: matrix: " + why); }

std::string level_text(const MatrixHead& h, uint32_t level) {
  return level < h.levels.size() ? " (level " + quantum_text(h.levels[level]) + " ms)" : std::string();
}

Status check_head(const MatrixHead& h) {
  if (h.percentiles.size() > kMaxPercentiles || h.labels.size() != h.percentiles.size())
    return bad("header: " + std::to_string(h.percentiles.size()) + " percentiles (at most " +
               std::to_string(kMaxPercentiles) + ", each with its label)");
  if (h.quanta_per_block == 0 || h.groups_per_block == 0) return bad("header: a block of no quanta or no groups");
  for (size_t i = 0; i < h.levels.size(); ++i)
    if (!(h.levels[i] > 0) || !std::isfinite(h.levels[i]) || (i && !(h.levels[i] > h.levels[i - 1])))
      return bad("header: level " + std::to_string(i) + ": quanta not positive and ascending");
  for (size_t i = 1; i < h.groups.size(); ++i)
    if (!natural_less(h.groups[i - 1], h.groups[i])) return bad("header: groups not in natural order and unique at group " + std::to_string(i));
  return Status::Ok();
}

}  // namespace

const std::vector<double>& default_matrix_levels() {
  static const std::vector<double> kLadder{1000, 10000, 60000, 600000, 3600000};
  return kLadder;
}

int64_t matrix_time_block(const MatrixHead& h, uint32_t level, double t_ms) {
  const double b = std::floor(t_ms / (h.levels[level] * h.quanta_per_block));
  // Beyond any clock (9e15 blocks): no block's, so a row there is refused.
  return std::fabs(b) < 9e15 ? static_cast<int64_t>(b) : INT64_MIN;
}

Status MatrixWriter::emit(const std::vector<uint8_t>& b) {
  if (!write_(b.data(), b.size())) return Status::Error(ErrorCode::kInternal, "result: matrix: the output could not be written");
  pos_ += b.size();
  return Status::Ok();
}

Status MatrixWriter::begin(const MatrixHead& head) {
  head_ = head;
  span_.assign(head.levels.size(), {HUGE_VAL, -HUGE_VAL});
  Status st = check_head(head);
  if (!st.ok()) return st;
  std::vector<uint8_t> raw, z, out;
  Out h{&raw};
  h.u32(head.absolute_time ? 1 : 0);
  h.str(head.group_by);
  h.u32(static_cast<uint32_t>(head.percentiles.size()));
  for (size_t i = 0; i < head.percentiles.size(); ++i) {
    h.str(head.labels[i]);
    h.f64(head.percentiles[i]);
  }
  h.str(head.method);
  h.u32(head.quanta_per_block);
  h.u32(head.groups_per_block);
  h.u32(static_cast<uint32_t>(head.levels.size()));
  for (double q : head.levels) h.f64(q);
  h.u32(static_cast<uint32_t>(head.groups.size()));
  for (const std::string& g : head.groups) h.str(g);
  if (!deflate_(raw.data(), raw.size(), &z)) return Status::Error(ErrorCode::kInternal, "result: matrix: deflate failed");
  Out o{&out};
  o.bytes(kSectionMagic, sizeof kSectionMagic);
  o.u32(kSectionVersion);
  o.u32(static_cast<uint32_t>(z.size()));
  out.insert(out.end(), z.begin(), z.end());
  return emit(out);
}

Status MatrixWriter::add(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups,
                         const std::vector<MatrixRow>& rows) {
  if (rows.empty()) return Status::Ok();
  std::vector<uint8_t> raw, z, out;
  Out b{&raw};
  b.u32(level);
  b.u64(static_cast<uint64_t>(time_block));
  b.u32(static_cast<uint32_t>(rows.size()));
  for (const MatrixRow& r : rows) {
    b.f64(r.t_ms);
    b.var(r.group - first_group);
    b.var(r.flags);
    b.f64(r.samples);
    b.f64(r.min_ns);
    b.f64(r.mean_ns);
    b.f64(r.max_ns);
    for (size_t i = 0; i < head_.percentiles.size(); ++i) b.f64(i < r.p.size() ? r.p[i] : 0);
    b.var(r.few);
  }
  if (!deflate_(raw.data(), raw.size(), &z)) return Status::Error(ErrorCode::kInternal, "result: matrix: deflate failed");
  ++deflated_;
  return place(level, time_block, first_group, groups, static_cast<uint32_t>(rows.size()), z, rows.front().t_ms,
                    rows.back().t_ms);
}

Status MatrixWriter::add_stored(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups,
                                uint32_t rows, const std::vector<uint8_t>& z, double first_t, double last_t) {
  if (rows == 0) return Status::Ok();
  ++copied_;
  return place(level, time_block, first_group, groups, rows, z, first_t, last_t);
}

Status MatrixWriter::place(uint32_t level, int64_t time_block, uint32_t first_group, uint32_t groups, uint32_t rows,
                           const std::vector<uint8_t>& z, double first_t, double last_t) {
  std::vector<uint8_t> out;
  out.reserve(4 + z.size());
  Out o{&out};
  o.u32(static_cast<uint32_t>(z.size()));
  out.insert(out.end(), z.begin(), z.end());
  index_.push_back({level, time_block, first_group, groups, rows, pos_, static_cast<uint32_t>(z.size())});
  if (level < span_.size()) {
    std::pair<double, double>& sp = span_[level];
    sp.first = std::min(sp.first, first_t);
    sp.second = std::max(sp.second, last_t);
  }
  return emit(out);
}

Status MatrixWriter::finish() {
  std::vector<uint8_t> out;
  Out o{&out};
  const uint64_t at = pos_;
  o.bytes(kIndexMagic, sizeof kIndexMagic);
  o.u32(static_cast<uint32_t>(index_.size()));
  for (const MatrixBlock& e : index_) {
    o.u32(e.level);
    o.u64(static_cast<uint64_t>(e.time_block));
    o.u32(e.first_group);
    o.u32(e.groups);
    o.u32(e.rows);
    o.u64(e.offset);
    o.u32(e.zlen);
  }
  // Each level's first and last row time (none: +inf, -inf): a merge
  // lists every quantum between the inputs' (docs/result-format.md, "Merging the matrix").
  for (const auto& sp : span_) {
    o.f64(sp.first);
    o.f64(sp.second);
  }
  o.u64(at);
  o.bytes(kSectionEnd, sizeof kSectionEnd);
  return emit(out);
}

// ---- the container's parts ----

std::vector<uint8_t> result_matrix_head() {
  std::vector<uint8_t> out(kResultMagic, kResultMagic + sizeof kResultMagic);
  Out{&out}.u32(kResultMatrixVersion);
  return out;
}

std::vector<uint8_t> result_parts_tail(uint64_t hist_at, uint64_t hist_len, uint64_t matrix_at, uint64_t matrix_len,
                                       uint64_t parts_at) {
  std::vector<uint8_t> out(kPartsMagic, kPartsMagic + sizeof kPartsMagic);
  Out o{&out};
  o.u64(hist_at);
  o.u64(hist_len);
  o.u64(matrix_at);
  o.u64(matrix_len);
  o.u64(parts_at);
  o.bytes(kPartsEnd, sizeof kPartsEnd);
  return out;
}

Status read_result_parts(const uint8_t* tail, uint64_t file_size, uint64_t* hist_at, uint64_t* hist_len,
                         uint64_t* matrix_at, uint64_t* matrix_len) {
  auto fail = [](const std::string& why) { return Status::Error(ErrorCode::kUnusableFile, "result: parts: " + why); };
  if (file_size < 12 + kResultPartsTail) return fail("truncated (" + std::to_string(file_size) + " bytes)");
  if (std::memcmp(tail, kPartsMagic, 8) != 0 || std::memcmp(tail + kResultPartsTail - 8, kPartsEnd, 8) != 0)
    return fail("truncated or no LSPARTS directory at the end");
  *hist_at = get_u64(tail + 8);
  *hist_len = get_u64(tail + 16);
  *matrix_at = get_u64(tail + 24);
  *matrix_len = get_u64(tail + 32);
  const uint64_t parts_at = get_u64(tail + 40);
  // The two parts tile the bytes between the head and the directory.
  if (parts_at != file_size - kResultPartsTail || *hist_at != 12 || *hist_len > parts_at - 12 ||
      *matrix_at != *hist_at + *hist_len || *matrix_len != parts_at - *matrix_at)
    return fail("the histograms (byte " + std::to_string(*hist_at) + ", " + std::to_string(*hist_len) +
                " bytes) and the matrix (byte " + std::to_string(*matrix_at) + ", " + std::to_string(*matrix_len) +
                " bytes) do not fill the file's " + std::to_string(file_size) + " bytes");
  return Status::Ok();
}

Status result_histograms(const uint8_t* data, size_t n, uint64_t* at, uint64_t* len) {
  *at = 0;
  *len = n;
  if (n < 12 || get_u32(data + sizeof kResultMagic) != kResultMatrixVersion) return Status::Ok();
  uint64_t ma = 0, ml = 0;
  if (n < 12 + kResultPartsTail) return read_result_parts(data, n, at, len, &ma, &ml);
  return read_result_parts(data + n - kResultPartsTail, n, at, len, &ma, &ml);
}

// ---- the reader ----

namespace {

// One reader's compressed bytes and their inflated form, shared by every
// reader of the thread: memory is one block's whatever the number of
// readers open (a merge of hundreds of hosts' matrices). Each use is whole
// within one call of open() or read().
struct IoBuffers {
  std::vector<uint8_t> buf, scratch;
};
IoBuffers& io_buffers() {
  thread_local IoBuffers b;
  return b;
}

}  // namespace

Status MatrixReader::open(ReadAtFn read, uint64_t size, bool* has) {
  std::vector<uint8_t>& buf = io_buffers().buf;
  std::vector<uint8_t>& scratch = io_buffers().scratch;
  read_ = std::move(read);
  *has = false;
  head_ = MatrixHead();
  index_.clear();
  std::string err;
  auto get = [&](uint64_t off, uint64_t n) { return read_(off, n, &buf, &err) ? Status::Ok() : bad(err); };
  if (size < 12) return Status::Ok();
  Status st = get(0, 12);
  if (!st.ok() || get_u32(buf.data() + 8) != kResultMatrixVersion) return st;
  *has = true;
  if (size < 12 + kResultPartsTail) return read_result_parts(buf.data(), size, &base_, &base_, &base_, &base_);
  st = get(size - kResultPartsTail, kResultPartsTail);
  uint64_t ha = 0, hl = 0, len = 0;
  if (st.ok()) st = read_result_parts(buf.data(), size, &ha, &hl, &base_, &len);
  if (!st.ok()) return st;
  if (len < kSectionHead + 4 + 12 + kSectionTrail) return bad("truncated (" + std::to_string(len) + " bytes)");
  st = get(base_ + len - kSectionTrail, kSectionTrail);
  if (!st.ok()) return st;
  if (std::memcmp(buf.data() + 8, kSectionEnd, 8) != 0) return bad("trailer: no LSMXEND end mark");
  const uint64_t ix = get_u64(buf.data());
  if (ix < kSectionHead + 4 || ix > len - kSectionTrail - 12) return bad("trailer: does not point at the index");
  const uint64_t ix_len = len - kSectionTrail - ix;
  st = get(0 + base_, kSectionHead + 4);
  if (!st.ok()) return st;
  const uint32_t version = get_u32(buf.data() + 8);
  if (std::memcmp(buf.data(), kSectionMagic, 8) != 0 || version < 1 || version > kSectionVersion)
    return bad("header: not a matrix section (LSMATRIX, version 1 or 2)");
  const size_t entry = version == 1 ? kEntry1 : kEntry2;
  const uint64_t hz = get_u32(buf.data() + 12);
  if (hz > ix - kSectionHead - 4) return bad("header: truncated");
  st = get(base_ + kSectionHead + 4, hz);
  if (!st.ok()) return st;
  if (!inflate_zlib(buf.data(), buf.size(), kMaxInflated, &scratch, &err)) return bad("header: " + err);
  In in{scratch.data(), scratch.size()};
  MatrixHead h;
  h.absolute_time = in.u32("flags") & 1;
  h.group_by = in.str("group_by");
  const uint32_t np = in.u32("percentiles");
  if (np > kMaxPercentiles) return bad("header: " + std::to_string(np) + " percentiles (at most 64)");
  for (uint32_t i = 0; i < np && in.err.empty(); ++i) {
    h.labels.push_back(in.str("percentile label"));
    h.percentiles.push_back(in.f64("percentile"));
  }
  h.method = in.str("method");
  h.quanta_per_block = in.u32("quanta per block");
  h.groups_per_block = in.u32("groups per block");
  const uint32_t nl = in.u32("levels");
  if (nl > kMaxResultLevels) return bad("header: " + std::to_string(nl) + " levels (at most " + std::to_string(kMaxResultLevels) + ")");
  for (uint32_t i = 0; i < nl && in.need(8, "levels"); ++i) h.levels.push_back(in.f64("level"));
  const uint32_t ng = in.u32("groups");
  for (uint32_t i = 0; i < ng && in.need(4, "groups"); ++i) h.groups.push_back(in.str("group"));
  if (!in.err.empty()) return bad("header: " + in.err);
  if (in.at != in.n) return bad("header: " + std::to_string(in.n - in.at) + " bytes after its end");
  st = check_head(h);
  if (!st.ok()) return st;
  st = get(base_ + ix, ix_len);
  if (!st.ok()) return st;
  const uint32_t nb = get_u32(buf.data() + 8);
  const uint64_t spans = 16 * uint64_t{h.levels.size()};
  if (std::memcmp(buf.data(), kIndexMagic, 8) != 0 || 12 + uint64_t{nb} * entry + spans != ix_len)
    return bad("index: " + std::to_string(nb) + " blocks do not fill its " + std::to_string(ix_len) + " bytes");
  std::vector<MatrixBlock> index(nb);
  for (uint32_t i = 0; i < nb; ++i) {
    const uint8_t* e = buf.data() + 12 + entry * i;
    MatrixBlock& b = index[i];
    b.level = get_u32(e);
    b.time_block = static_cast<int64_t>(get_u64(e + 4));
    b.first_group = get_u32(e + 12);
    if (version == 1) {
      // A chunk of groups_per_block groups, the last one shorter.
      b.groups = b.first_group < h.groups.size()
                     ? std::min<uint32_t>(h.groups_per_block, static_cast<uint32_t>(h.groups.size()) - b.first_group)
                     : 0;
    } else {
      b.groups = get_u32(e + 16);
    }
    const size_t k = version == 1 ? 16 : 20;  // where rows, offset and zlen start
    b.rows = get_u32(e + k);
    b.offset = get_u64(e + k + 4);
    b.zlen = get_u32(e + k + 8 + 4);
  }
  span_.clear();
  for (size_t l = 0; l < h.levels.size(); ++l) {
    const uint8_t* e = buf.data() + 12 + entry * uint64_t{nb} + 16 * l;
    double a, b;
    const uint64_t ua = get_u64(e), ub = get_u64(e + 8);
    std::memcpy(&a, &ua, 8);
    std::memcpy(&b, &ub, 8);
    if (std::isnan(a) || std::isnan(b)) return bad("index: level " + std::to_string(l) + "'s time span is not a number");
    span_.push_back({a, b});
  }
  // Each level's span is that of its blocks (a merge lists every quantum in
  // it: "Merging the matrix"), or none without blocks.
  for (uint32_t l = 0; l < h.levels.size(); ++l) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const MatrixBlock& e : index)
      if (e.level == l) lo = std::min(lo, e.time_block), hi = std::max(hi, e.time_block);
    const auto [a, b] = span_[l];
    const bool none = lo == INT64_MAX && a == HUGE_VAL && b == -HUGE_VAL;
    if (!none && (!(a <= b) || matrix_time_block(h, l, a) != lo || matrix_time_block(h, l, b) != hi))
      return bad("index: level " + std::to_string(l) + "'s time span is not its blocks'");
  }
  // The index tiles the bytes between the header and itself, in ascending
  // (level, time block, first group), each entry within the header's tables,
  // the groups of one time block's entries not overlapping.
  uint64_t next = kSectionHead + 4 + hz;
  for (uint32_t i = 0; i < nb; ++i) {
    const MatrixBlock& e = index[i];
    const std::string name = "index: entry " + std::to_string(i) + ": ";
    if (e.offset != next || uint64_t{e.zlen} + 4 > ix - next) return bad(name + "does not follow the block before it");
    if (e.level >= h.levels.size() || e.first_group >= h.groups.size() ||
        (version == 1 && e.first_group % h.groups_per_block))
      return bad(name + "level " + std::to_string(e.level) + ", group " + std::to_string(e.first_group) +
                 " are not the header's");
    if (e.groups == 0 || e.groups > h.groups_per_block || e.groups > h.groups.size() - e.first_group)
      return bad(name + std::to_string(e.groups) + " groups from group " + std::to_string(e.first_group) + " (1 to " +
                 std::to_string(h.groups_per_block) + ", within the header's " + std::to_string(h.groups.size()) + ")");
    if (i) {
      const MatrixBlock& p = index[i - 1];
      const bool after = p.level < e.level || (p.level == e.level && (p.time_block < e.time_block ||
                                               (p.time_block == e.time_block && p.first_group + p.groups <= e.first_group)));
      if (!after) return bad(name + "not after entry " + std::to_string(i - 1) + " (level, time, group)");
    }
    next = e.offset + 4 + e.zlen;
  }
  if (next != ix) return bad("index: its blocks end at byte " + std::to_string(next) + ", the index is at " + std::to_string(ix));
  head_ = std::move(h);
  index_ = std::move(index);
  version_ = version;
  return Status::Ok();
}

Status MatrixReader::read_stored(size_t block, std::vector<uint8_t>* z) {
  const MatrixBlock& e = index_[block];
  std::string err;
  if (!read_(base_ + e.offset + 4, e.zlen, z, &err))
    return bad("block " + std::to_string(block) + level_text(head_, e.level) + ": " + err);
  return Status::Ok();
}

Status MatrixReader::read(size_t block, std::vector<MatrixRow>* rows) {
  std::vector<uint8_t>& buf = io_buffers().buf;
  std::vector<uint8_t>& scratch = io_buffers().scratch;
  // Kept, not cleared: resize below reuses each row's percentile vector
  // (a block is 38,400 rows; an allocation each was most of a read).
  const MatrixBlock& e = index_[block];
  const std::string name = "block " + std::to_string(block) + level_text(head_, e.level) + ": ";
  std::string err;
  if (!read_(base_ + e.offset + 4, e.zlen, &buf, &err)) return bad(name + err);
  if (!inflate_zlib(buf.data(), buf.size(), kMaxInflated, &scratch, &err)) return bad(name + err);
  In in{scratch.data(), scratch.size()};
  const uint32_t level = in.u32("level");
  const auto tb = static_cast<int64_t>(in.u64("time block"));
  // Version 2 keeps the first group in the index only (a copied block's bytes stand for other groups).
  const uint32_t fg = version_ == 1 ? in.u32("first group") : e.first_group;
  const uint32_t n = in.u32("rows");
  if (in.err.empty() && (level != e.level || tb != e.time_block || fg != e.first_group || n != e.rows))
    return bad(name + "does not match its index entry");
  const size_t np = head_.percentiles.size();
  // Each row takes at least 4 x 8 + 8 x np + 3 bytes: a count that cannot fit is refused before any is kept.
  if (in.err.empty() && uint64_t{n} * (35 + 8 * np) > in.n - in.at) return bad(name + "truncated (" + std::to_string(n) + " rows)");
  rows->resize(n);
  for (uint32_t i = 0; i < n && in.err.empty(); ++i) {
    MatrixRow& r = (*rows)[i];
    r.t_ms = in.f64("time");
    r.group = static_cast<uint32_t>(std::min<uint64_t>(in.var("group") + fg, UINT32_MAX));
    r.flags = static_cast<uint32_t>(in.var("flags"));
    r.samples = in.f64("samples");
    r.min_ns = in.f64("min");
    r.mean_ns = in.f64("mean");
    r.max_ns = in.f64("max");
    r.p.resize(np);
    for (size_t k = 0; k < np; ++k) r.p[k] = in.f64("percentile");
    r.few = in.var("few");
    if (!in.err.empty()) break;
    // The row's name is made only for its message: once a row, it was a third of a read.
    const auto row = [&] { return name + "row " + std::to_string(i) + ": "; };
    if (r.group >= head_.groups.size() || r.group - fg >= e.groups)
      return bad(row() + "group " + std::to_string(r.group) + " is not the block's");
    if (!std::isfinite(r.t_ms) || matrix_time_block(head_, level, r.t_ms) != tb) return bad(row() + "time outside the block");
    if (i && !((*rows)[i - 1].t_ms < r.t_ms || ((*rows)[i - 1].t_ms == r.t_ms && (*rows)[i - 1].group < r.group)))
      return bad(row() + "not after the row before it (time, group)");
  }
  if (!in.err.empty()) return bad(name + in.err);
  if (in.at != in.n) return bad(name + std::to_string(in.n - in.at) + " bytes after its rows");
  return Status::Ok();
}

}  // namespace latscope
