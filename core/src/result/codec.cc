// The result file: encode (version 2) and decode (every version so far).
// The byte layout is specified in docs/result-format.md; this file follows
// it section by section. Decoding is for untrusted bytes: every length is
// checked against what remains, every index against its table, and each
// error names the part of the file it is in.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "latscope/inflate.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "latscope/result_stream.h"
#include "result/codec_parts.h"
#include "result/levels.h"

namespace latscope {
namespace {

constexpr char kIndexMagic[4] = {'L', 'S', 'I', 'X'};
constexpr char kEndMagic[8] = {'L', 'S', 'R', 'E', 'S', 'E', 'N', 'D'};
constexpr uint32_t kMaxLayouts = 4096;
constexpr uint32_t kMaxBins = uint32_t{1} << 22;

class Out {
 public:
  explicit Out(std::vector<uint8_t>* b) : b_(b) {}
  void u8(uint8_t v) { b_->push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b_->push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) b_->push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    u64(u);
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    b_->insert(b_->end(), s.begin(), s.end());
  }
  void var(uint64_t v) { varint::put(b_, v); }
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b_->insert(b_->end(), c, c + n);
  }

 private:
  std::vector<uint8_t>* b_;
};

// Checked reader over untrusted bytes: after the first failure every read
// returns 0 and ok() is false; what() says what was being read.
class In {
 public:
  In(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool ok() const { return ok_; }
  size_t pos() const { return i_; }
  size_t left() const { return n_ - i_; }
  const std::string& what() const { return what_; }
  bool need(size_t k, const char* what) {
    if (!ok_) return false;
    if (k > n_ - i_) {
      ok_ = false;
      what_ = std::string("truncated (") + what + " at byte " + std::to_string(i_) + ")";
      return false;
    }
    return true;
  }
  void fail(const std::string& why) {
    if (ok_) what_ = why + " (at byte " + std::to_string(i_) + ")";
    ok_ = false;
  }
  uint8_t u8(const char* w) {
    if (!need(1, w)) return 0;
    return p_[i_++];
  }
  uint32_t u32(const char* w) {
    if (!need(4, w)) return 0;
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<uint32_t>(p_[i_ + k]) << (8 * k);
    i_ += 4;
    return v;
  }
  uint64_t u64(const char* w) {
    if (!need(8, w)) return 0;
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(p_[i_ + k]) << (8 * k);
    i_ += 8;
    return v;
  }
  int64_t i64(const char* w) { return static_cast<int64_t>(u64(w)); }
  double f64(const char* w) {
    const uint64_t u = u64(w);
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  }
  std::string str(const char* w) {
    const uint32_t k = u32(w);
    if (!need(k, w)) return std::string();
    std::string s(reinterpret_cast<const char*>(p_ + i_), k);
    i_ += k;
    return s;
  }
  uint64_t var(const char* w) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = u8(w);
      if (!ok_) return 0;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if (shift == 63 && b > 1) break;
        return v;
      }
    }
    fail(std::string("bad varint (") + w + ")");
    return 0;
  }
  const uint8_t* here() const { return p_ + i_; }
  void skip(size_t k) { i_ += k; }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t i_ = 0;
  bool ok_ = true;
  std::string what_;
};

Status bad(const std::string& where, const std::string& why) {
  return Status::Error(ErrorCode::kUnusableFile, "result: " + where + ": " + why);
}

void put_layout(Out* o, const BinLayout& l) {
  o->u8(static_cast<uint8_t>(l.kind));
  o->str(l.id);
  o->u32(static_cast<uint32_t>(l.coarseness));
  o->u8(l.last_saturates ? 1 : 0);
  if (l.kind == LayoutKind::kFio3 || l.kind == LayoutKind::kFio2) return;
  o->u32(static_cast<uint32_t>(l.size()));
  for (const std::vector<double>* v : {&l.lo, &l.hi, &l.rep})
    for (double x : *v) o->f64(x);
}

bool get_layout(In* in, LayoutPtr* out, std::string* why) {
  const uint8_t kind = in->u8("layout kind");
  const std::string id = in->str("layout id");
  const uint32_t coarse = in->u32("layout coarseness");
  const uint8_t sat = in->u8("layout saturation");
  if (!in->ok()) return false;
  if (kind == static_cast<uint8_t>(LayoutKind::kFio3) || kind == static_cast<uint8_t>(LayoutKind::kFio2)) {
    const int version = kind == static_cast<uint8_t>(LayoutKind::kFio3) ? 3 : 2;
    if (coarse > 6) {
      *why = "fio layout coarseness " + std::to_string(coarse) + " outside 0..6";
      return false;
    }
    LayoutPtr l = fio_layout(version, static_cast<int>(coarse));
    if (l->id != id) {
      *why = "layout id '" + id + "' does not match its kind (" + l->id + ")";
      return false;
    }
    *out = l;
    return true;
  }
  if (kind > static_cast<uint8_t>(LayoutKind::kCustom)) {
    *why = "unknown layout kind " + std::to_string(kind);
    return false;
  }
  const uint32_t n = in->u32("layout size");
  if (!in->ok()) return false;
  if (n == 0 || n > kMaxBins || static_cast<uint64_t>(n) * 24 > in->left()) {
    *why = "layout '" + id + "' claims " + std::to_string(n) + " bins";
    return false;
  }
  auto l = std::make_shared<BinLayout>();
  l->kind = static_cast<LayoutKind>(kind);
  l->id = id;
  l->coarseness = static_cast<int>(std::min<uint32_t>(coarse, 64));
  l->last_saturates = sat != 0;
  for (std::vector<double>* v : {&l->lo, &l->hi, &l->rep}) {
    v->resize(n);
    for (uint32_t i = 0; i < n; ++i) (*v)[i] = in->f64("layout edges");
  }
  for (uint32_t i = 0; i < n; ++i)
    if (!std::isfinite(l->lo[i]) || !std::isfinite(l->hi[i]) || l->hi[i] < l->lo[i] ||
        (i && l->lo[i] < l->lo[i - 1])) {
      *why = "layout '" + id + "': bin " + std::to_string(i) + " has bad edges";
      return false;
    }
  *out = l;
  return true;
}

Status deflated(DeflateFn deflate, const std::vector<uint8_t>& raw, Out* o, const char* what) {
  std::vector<uint8_t> z;
  if (!deflate(raw.data(), raw.size(), &z))
    return Status::Error(ErrorCode::kInternal, std::string("result: deflate failed (") + what + ")");
  o->u32(static_cast<uint32_t>(z.size()));
  o->bytes(z.data(), z.size());
  return Status::Ok();
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// ---- versions 1 and 2 (2 adds each cell's extremes) ----

// What an inflate past max_inflated adds to its message.
constexpr const char* kOverLimit =
    ", the limit of memory for one result (docs/result-format.md, \"Memory\"); nothing read";

}  // namespace

std::vector<uint32_t> result_series_chunks(const Result& r, uint32_t* n) {
  std::map<std::string, uint32_t> by_host;
  std::vector<uint32_t> chunk(r.series.size());
  for (size_t i = 0; i < r.series.size(); ++i) {
    const std::string* h = r.series[i].labels.find("host");
    chunk[i] = by_host.emplace(h ? *h : std::string(), static_cast<uint32_t>(by_host.size())).first->second;
  }
  *n = static_cast<uint32_t>(by_host.size());
  return chunk;
}

std::vector<std::vector<uint32_t>> chunk_members(const std::vector<uint32_t>& chunk_of, uint32_t n) {
  std::vector<std::vector<uint32_t>> m(n);
  for (size_t i = 0; i < chunk_of.size(); ++i) m[chunk_of[i]].push_back(static_cast<uint32_t>(i));
  return m;
}

Status decode_result_header(const uint8_t* z, size_t zn, size_t max_inflated, uint32_t version, Result* out,
                            uint32_t* qpb_out, std::vector<uint32_t>* chunks, uint32_t* nchunks) {
  *out = Result();
  chunks->clear();
  *nchunks = 1;
  std::vector<uint8_t> head;
  std::string err;
  if (!inflate_zlib(z, zn, max_inflated, &head, &err))
    return bad("header", err + (err.rfind("inflated size over", 0) == 0 ? kOverLimit : ""));
  In h(head.data(), head.size());
  const uint32_t flags = h.u32("flags");
  out->absolute_time = (flags & 1) != 0;
  out->quantum_ms = h.f64("quantum");
  const uint32_t frac = h.u32("fraction bits");
  const uint32_t qpb = h.u32("quanta per block");
  if (!h.ok()) return bad("header", h.what());
  if (!(out->quantum_ms > 0) || !std::isfinite(out->quantum_ms))
    return bad("header", "quantum is not a positive number of ms");
  if (frac != static_cast<uint32_t>(kResultFracBits))
    return bad("header", "counts with " + std::to_string(frac) + " fractional bits (this reader: " +
                             std::to_string(kResultFracBits) + ")");
  if (qpb == 0) return bad("header", "zero quanta per block");
  *qpb_out = qpb;
  const uint32_t nl = h.u32("layout count");
  if (!h.ok()) return bad("header", h.what());
  if (nl > kMaxLayouts) return bad("header", std::to_string(nl) + " layouts");
  std::vector<LayoutPtr> layouts(nl);
  for (uint32_t i = 0; i < nl; ++i) {
    std::string why;
    if (!get_layout(&h, &layouts[i], &why))
      return bad("header, layout " + std::to_string(i), h.ok() ? why : h.what());
  }
  const uint32_t ns = h.u32("series count");
  if (!h.ok()) return bad("header", h.what());
  if (static_cast<uint64_t>(ns) * 40 > h.left()) return bad("header", std::to_string(ns) + " series do not fit");
  out->series.resize(ns);
  for (uint32_t i = 0; i < ns; ++i) {
    ResultSeries& s = out->series[i];
    const uint32_t nlab = h.u32("label count");
    if (!h.ok() || static_cast<uint64_t>(nlab) * 8 > h.left()) return bad("series " + std::to_string(i), "bad labels");
    std::string prev;
    for (uint32_t k = 0; k < nlab; ++k) {
      std::string name = h.str("label name");
      std::string value = h.str("label value");
      if (!h.ok()) return bad("series " + std::to_string(i), h.what());
      if (name.empty() || value.empty() || (k && name <= prev))
        return bad("series " + std::to_string(i), "labels empty or not in order");
      prev = name;
      s.labels.set(name, value);
    }
    const uint32_t li = h.u32("series layout");
    s.span_start_ms = h.f64("coverage");
    s.span_end_ms = h.f64("coverage");
    s.full_start_ms = h.f64("coverage");
    s.full_end_ms = h.f64("coverage");
    if (!h.ok()) return bad("series " + std::to_string(i), h.what());
    if (li >= nl) return bad("series " + std::to_string(i), "layout " + std::to_string(li) + " not in the table");
    s.layout = layouts[li];
    for (double v : {s.span_start_ms, s.span_end_ms, s.full_start_ms, s.full_end_ms})
      if (!std::isfinite(v)) return bad("series " + std::to_string(i), "coverage is not finite");
    if (s.span_end_ms < s.span_start_ms) return bad("series " + std::to_string(i), "coverage ends before it starts");
  }
  chunks->assign(ns, 0);
  if (version == kResultHostBlocksVersion) {
    // Each series' chunk, numbered by their first series: every chunk has one.
    *nchunks = h.u32("chunk count");
    if (!h.ok()) return bad("header", h.what());
    if (*nchunks == 0 || *nchunks > ns || static_cast<uint64_t>(ns) * 4 > h.left())
      return bad("header", std::to_string(*nchunks) + " chunks for " + std::to_string(ns) + " series");
    uint32_t seen = 0;
    for (uint32_t i = 0; i < ns; ++i) {
      const uint32_t c = h.u32("series chunk");
      if (c > seen || c >= *nchunks)
        return bad("series " + std::to_string(i), "chunk " + std::to_string(c) + " out of order or not in the table");
      if (c == seen) ++seen;
      (*chunks)[i] = c;
    }
    if (seen != *nchunks) return bad("header", std::to_string(*nchunks - seen) + " chunks hold no series");
  }
  if (h.left()) return bad("header", std::to_string(h.left()) + " bytes after the series table");
  return Status::Ok();
}

Status decode_result_block(const uint8_t* z, size_t zn, const BlockContext& ctx, size_t block_no, Result* out,
                           uint64_t* decoded, std::vector<uint8_t>* block, BlockInfo* info) {
  const std::string where = "block " + std::to_string(block_no);
  std::string err;
  if (!inflate_zlib(z, zn, ctx.max_inflated, block, &err))
    return bad(where, err + (err.rfind("inflated size over", 0) == 0 ? kOverLimit : ""));
  In b(block->data(), block->size());
  const int64_t first = b.i64("block first quantum");
  const uint32_t nc = b.u32("cell count");
  if (!b.ok()) return bad(where, b.what());
  const uint32_t qpb = ctx.quanta_per_block;
  // Ascending time; in a time block, ascending chunk (version 5).
  const bool before = first < ctx.prev_first ||
                      (first == ctx.prev_first && (ctx.members == nullptr || ctx.chunk <= ctx.prev_chunk));
  if (first % static_cast<int64_t>(qpb) != 0 || before)
    return bad(where, "first quantum " + std::to_string(first) + " out of order or off the block grid");
  if (static_cast<uint64_t>(nc) * 3 > b.left()) return bad(where, std::to_string(nc) + " cells do not fit");
  const uint64_t ns = ctx.members ? ctx.members->size() : out->series.size();
  int64_t last = first;
  // Checked only: each series' last quantum in this block instead of its cells.
  std::vector<int64_t> seen_last(ctx.check_only ? static_cast<size_t>(ns) : 0, INT64_MIN);
  for (uint32_t c = 0; c < nc; ++c) {
    const uint64_t si = b.var("cell series");
    const uint64_t dq = b.var("cell quantum");
    const uint64_t nb = b.var("cell bins");
    if (!b.ok()) return bad(where, b.what());
    if (si >= ns) return bad(where, "cell " + std::to_string(c) + ": series " + std::to_string(si) + " not in the table");
    if (dq >= qpb) return bad(where, "cell " + std::to_string(c) + ": quantum outside its block");
    // si < ns: fits size_t; in a chunk, its si-th series.
    ResultSeries& s = out->series[ctx.members ? (*ctx.members)[static_cast<size_t>(si)] : static_cast<size_t>(si)];
    if (nb == 0 || nb > s.layout->size() || nb * 2 > b.left())
      return bad(where, "cell " + std::to_string(c) + ": " + std::to_string(nb) + " bins");
    // nb <= the layout's size (<= kMaxBins): no overflow.
    *decoded += kResultCellBytes + nb * kResultBinBytes;
    if (*decoded > ctx.max_inflated)
      return bad(where, "cell " + std::to_string(c) + ": the decoded result would take over " +
                            std::to_string(ctx.max_inflated >> 20) +
                            " MiB, the limit of memory for one result (docs/result-format.md, \"Memory\"); "
                            "nothing read: reduce it to a coarser quantum (latscope reduce) or fewer series");
    ResultCell cell;
    cell.quantum = first + static_cast<int64_t>(dq);
    last = std::max(last, cell.quantum);
    const bool ascending = ctx.check_only ? seen_last[static_cast<size_t>(si)] < cell.quantum
                                          : s.cells.empty() || s.cells.back().quantum < cell.quantum;
    if (!ascending) return bad(where, "cell " + std::to_string(c) + ": quanta of a series not ascending");
    if (ctx.check_only) seen_last[static_cast<size_t>(si)] = cell.quantum;
    uint64_t bin = 0;
    for (uint64_t k = 0; k < nb; ++k) {
      const uint64_t gap = b.var("bin");
      const uint64_t n = b.var("count");
      if (!b.ok()) return bad(where, b.what());
      bin = k == 0 ? gap : bin + 1 + gap;
      if (gap >= s.layout->size() || bin >= s.layout->size() || n == 0)
        return bad(where, "cell " + std::to_string(c) + ": bin beyond the layout or empty count");
      if (ctx.check_only) continue;
      cell.bins.push_back(static_cast<uint32_t>(bin));
      cell.counts.push_back(n);
    }
    if (ctx.version == 1 && !ctx.check_only) {  // migrated: every bin may hold an extreme, as version 1 read
      cell.extremes.add(cell.bins.front());
      cell.extremes.add(cell.bins.back());
    } else {  // 0: none; else lowest bin + 1, then highest - lowest
      const uint64_t lo1 = b.var("cell extremes");
      const uint64_t span = lo1 ? b.var("cell extremes") : 0;
      if (!b.ok()) return bad(where, b.what());
      if (lo1 > s.layout->size() || (lo1 && span > s.layout->size() - lo1))
        return bad(where, "cell " + std::to_string(c) + ": extreme bins beyond the layout");
      if (lo1) {
        cell.extremes.add(static_cast<uint32_t>(lo1 - 1));
        cell.extremes.add(static_cast<uint32_t>(lo1 - 1 + span));
      }
    }
    if (!ctx.check_only) s.cells.push_back(std::move(cell));
  }
  if (b.left()) return bad(where, std::to_string(b.left()) + " bytes after its cells");
  if (!std::isfinite(static_cast<double>(last) * out->quantum_ms) || std::fabs(static_cast<double>(last)) > 9e15)
    return bad(where, "quantum index out of range");
  *info = {first, last, nc};
  return Status::Ok();
}

namespace {

Status decode_single(In* in, size_t max_inflated, uint32_t version, Result* out) {
  // Header block.
  const uint32_t hz = in->u32("header length");
  if (!in->need(hz, "header")) return bad("header", in->what());
  BlockContext ctx;
  ctx.version = version;
  ctx.max_inflated = max_inflated;
  std::vector<uint32_t> chunk_of;
  uint32_t nchunks = 1;
  Status st = decode_result_header(in->here(), hz, max_inflated, version, out, &ctx.quanta_per_block, &chunk_of,
                                   &nchunks);
  if (!st.ok()) return st;
  in->skip(hz);
  const bool by_host = version == kResultHostBlocksVersion;
  const std::vector<std::vector<uint32_t>> members = chunk_members(chunk_of, nchunks);

  // Blocks, up to the index.
  struct Seen {
    uint64_t offset;
    uint32_t zlen, chunk;
    BlockInfo info;
  };
  std::vector<Seen> seen;
  std::vector<uint8_t> block;
  uint64_t decoded = 0;  // what the cells read so far cost (kResultCellBytes, kResultBinBytes)
  for (;;) {
    if (in->left() >= 4 && std::memcmp(in->here(), kIndexMagic, 4) == 0) break;
    const uint64_t offset = in->pos();
    const uint32_t z = in->u32("block length");
    if (by_host) {
      ctx.chunk = in->u32("block chunk");
      if (in->ok() && ctx.chunk >= nchunks)
        return bad("block " + std::to_string(seen.size()), "chunk " + std::to_string(ctx.chunk) + " not in the table");
      ctx.members = &members[ctx.chunk];
    }
    if (!in->need(z, "block data")) return bad("block " + std::to_string(seen.size()), in->what());
    BlockInfo info;
    st = decode_result_block(in->here(), z, ctx, seen.size(), out, &decoded, &block, &info);
    if (!st.ok()) return st;
    in->skip(z);
    ctx.prev_first = info.first;
    ctx.prev_chunk = ctx.chunk;
    seen.push_back({offset, z, ctx.chunk, info});
  }

  // Index: must describe exactly the blocks read.
  const uint64_t index_at = in->pos();
  in->skip(4);
  const uint32_t nb = in->u32("index block count");
  if (!in->ok()) return bad("index", in->what());
  if (nb != seen.size())
    return bad("index", "lists " + std::to_string(nb) + " blocks, the file has " + std::to_string(seen.size()));
  for (uint32_t i = 0; i < nb; ++i) {
    const int64_t first = in->i64("index");
    const int64_t last = in->i64("index");
    const uint64_t off = in->u64("index");
    const uint32_t z = in->u32("index");
    const uint32_t nc = in->u32("index");
    const uint32_t chunk = by_host ? in->u32("index") : 0;
    if (!in->ok()) return bad("index", in->what());
    const Seen& s = seen[i];
    if (first != s.info.first || last != s.info.last || off != s.offset || z != s.zlen || nc != s.info.cells ||
        chunk != s.chunk)
      return bad("index", "entry " + std::to_string(i) + " does not match block " + std::to_string(i));
  }
  const uint64_t back = in->u64("trailer");
  if (!in->need(8, "trailer")) return bad("trailer", in->what());
  if (back != index_at || std::memcmp(in->here(), kEndMagic, 8) != 0)
    return bad("trailer", "does not point at the index or lacks the end mark");
  in->skip(8);
  if (in->left()) return bad("trailer", std::to_string(in->left()) + " bytes after the end mark");
  return Status::Ok();
}

}  // namespace

WriteFn vector_writer(std::vector<uint8_t>* out) {
  return [out](const uint8_t* p, size_t n) {
    out->insert(out->end(), p, p + n);
    return true;
  };
}

bool is_result_file(const char* data, size_t n) {
  return n >= sizeof kResultMagic && std::memcmp(data, kResultMagic, sizeof kResultMagic) == 0;
}

ResultEncoder::ResultEncoder(DeflateFn deflate, WriteFn write, uint32_t quanta_per_block)
    : deflate_(deflate), write_(std::move(write)), qpb_(quanta_per_block ? quanta_per_block : 1) {}

Status ResultEncoder::emit(const std::vector<uint8_t>& bytes) {
  if (!write_(bytes.data(), bytes.size()))
    return Status::Error(ErrorCode::kInternal, "result: the output could not be written");
  pos_ += bytes.size();
  return Status::Ok();
}

Status ResultEncoder::begin(const Result& meta) {
  std::vector<uint8_t> buf;
  Out o(&buf);
  // Blocks by host when there are several (docs/result-format.md, "Blocks
  // by host (version 5)"); one host's series stay a version 2 file.
  chunk_of_ = result_series_chunks(meta, &nchunks_);
  version_ = nchunks_ > 1 ? kResultHostBlocksVersion : kResultVersion;
  pos_in_chunk_.assign(chunk_of_.size(), 0);
  {
    std::vector<uint32_t> fill(nchunks_, 0);
    for (size_t i = 0; i < chunk_of_.size(); ++i) pos_in_chunk_[i] = fill[chunk_of_[i]]++;
  }
  o.bytes(kResultMagic, sizeof kResultMagic);
  o.u32(version_);
  std::vector<uint8_t> head;
  Out h(&head);
  h.u32(meta.absolute_time ? 1 : 0);
  h.f64(meta.quantum_ms);
  h.u32(static_cast<uint32_t>(kResultFracBits));
  h.u32(qpb_);
  std::map<std::string, uint32_t> layout_index;
  std::vector<const BinLayout*> layouts;
  for (const ResultSeries& s : meta.series)
    if (layout_index.emplace(s.layout->id, static_cast<uint32_t>(layouts.size())).second)
      layouts.push_back(s.layout.get());
  h.u32(static_cast<uint32_t>(layouts.size()));
  for (const BinLayout* l : layouts) put_layout(&h, *l);
  h.u32(static_cast<uint32_t>(meta.series.size()));
  for (const ResultSeries& s : meta.series) {
    h.u32(static_cast<uint32_t>(s.labels.items().size()));
    for (const auto& kv : s.labels.items()) {
      h.str(kv.first);
      h.str(kv.second);
    }
    h.u32(layout_index[s.layout->id]);
    h.f64(s.span_start_ms);
    h.f64(s.span_end_ms);
    h.f64(s.full_start_ms);
    h.f64(s.full_end_ms);
  }
  if (version_ == kResultHostBlocksVersion) {
    h.u32(nchunks_);
    for (uint32_t c : chunk_of_) h.u32(c);
  }
  Status st = deflated(deflate_, head, &o, "header");
  return st.ok() ? emit(buf) : st;
}

Status ResultEncoder::add(const Result& part) {
  // Cells by block: (block, quantum, series) order.
  // Cells by block: (block, chunk, quantum, series) order.
  struct Ref {
    int64_t block;
    uint32_t chunk;
    int64_t quantum;
    uint32_t series;
    const ResultCell* cell;
  };
  if (part.series.size() != chunk_of_.size())
    return Status::Error(ErrorCode::kInternal, "result: cells of other series than the header's");
  std::vector<Ref> refs;
  for (size_t si = 0; si < part.series.size(); ++si)
    for (const ResultCell& c : part.series[si].cells)
      refs.push_back({floor_div(c.quantum, qpb_), chunk_of_[si], c.quantum, pos_in_chunk_[si], &c});
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    if (a.block != b.block) return a.block < b.block;
    if (a.chunk != b.chunk) return a.chunk < b.chunk;
    if (a.quantum != b.quantum) return a.quantum < b.quantum;
    return a.series < b.series;
  });
  for (size_t i = 0; i < refs.size();) {
    size_t j = i;
    while (j < refs.size() && refs[j].block == refs[i].block && refs[j].chunk == refs[i].chunk) ++j;
    std::vector<uint8_t> raw;
    Out b(&raw);
    const int64_t first = refs[i].block * static_cast<int64_t>(qpb_);
    b.i64(first);
    b.u32(static_cast<uint32_t>(j - i));
    for (size_t k = i; k < j; ++k) {
      const ResultCell& c = *refs[k].cell;
      b.var(refs[k].series);
      b.var(static_cast<uint64_t>(c.quantum - first));
      b.var(c.bins.size());
      for (size_t t = 0; t < c.bins.size(); ++t) {
        b.var(t == 0 ? c.bins[0] : c.bins[t] - c.bins[t - 1] - 1);
        b.var(c.counts[t]);
      }
      b.var(c.extremes.any() ? uint64_t{c.extremes.lo} + 1 : 0);
      if (c.extremes.any()) b.var(c.extremes.hi - c.extremes.lo);
    }
    std::vector<uint8_t> z;
    if (!deflate_(raw.data(), raw.size(), &z))
      return Status::Error(ErrorCode::kInternal, "result: deflate failed (block)");
    int64_t last = first;
    for (size_t k = i; k < j; ++k) last = std::max(last, refs[k].quantum);
    Status st = put_block(refs[i].chunk, first, last, static_cast<uint32_t>(j - i), z.data(), z.size());
    if (!st.ok()) return st;
    i = j;
  }
  return Status::Ok();
}

Status ResultEncoder::put_block(uint32_t chunk, int64_t first, int64_t last, uint32_t cells, const uint8_t* z,
                                size_t zn) {
  const int64_t block = floor_div(first, qpb_);
  if (chunk >= nchunks_ || block < last_block_ || (block == last_block_ && chunk <= last_chunk_))
    return Status::Error(ErrorCode::kInternal, "result: cells added out of block order");
  if (zn > UINT32_MAX) return Status::Error(ErrorCode::kInternal, "result: a block over 4 GiB");
  const uint64_t offset = pos_;
  std::vector<uint8_t> buf;
  Out o(&buf);
  o.u32(static_cast<uint32_t>(zn));
  if (version_ == kResultHostBlocksVersion) o.u32(chunk);
  o.bytes(z, zn);
  Status st = emit(buf);
  if (!st.ok()) return st;
  Out ix(&index_);
  ix.i64(first);
  ix.i64(last);
  ix.u64(offset);
  ix.u32(static_cast<uint32_t>(zn));
  ix.u32(cells);
  if (version_ == kResultHostBlocksVersion) ix.u32(chunk);
  ++nblocks_;
  cells_ += cells;
  last_block_ = block;
  last_chunk_ = chunk;
  return Status::Ok();
}

Status ResultEncoder::finish() {
  std::vector<uint8_t> buf;
  Out o(&buf);
  const uint64_t index_at = pos_;
  o.bytes(kIndexMagic, 4);
  o.u32(nblocks_);
  o.bytes(index_.data(), index_.size());
  o.u64(index_at);
  o.bytes(kEndMagic, sizeof kEndMagic);
  index_.clear();
  return emit(buf);
}

Status encode_result(const Result& r, DeflateFn deflate, std::vector<uint8_t>* out, uint32_t quanta_per_block) {
  out->clear();
  ResultEncoder enc(deflate, vector_writer(out), quanta_per_block);
  Status st = enc.begin(r);
  if (st.ok()) st = enc.add(r);
  if (st.ok()) st = enc.finish();
  return st;
}

Status decode_result(const uint8_t* data, size_t n, Result* out, size_t max_inflated, double level_quantum_ms) {
  *out = Result();
  In in(data, n);
  if (n < sizeof kResultMagic || std::memcmp(data, kResultMagic, sizeof kResultMagic) != 0)
    return bad("file", "no result magic (LSRESULT)");
  in.skip(sizeof kResultMagic);
  const uint32_t version = in.u32("version");
  if (!in.ok()) return bad("file", in.what());
  // Each version has its decoder; older ones migrate into the current Result
  // (docs/result-format.md, "Versions").
  Status st;
  switch (version) {
    case 1:
    case 2:
    case kResultHostBlocksVersion: st = decode_single(&in, max_inflated, version, out); break;
    case kResultLevelsVersion:  // several resolutions: one level, the others untouched
      st = decode_result_levels(data, n, out, max_inflated, level_quantum_ms);
      break;
    case kResultMatrixVersion: {  // histograms and a matrix: the histograms are a version 1-3 file
      uint64_t at = 0, len = 0;
      st = result_histograms(data, n, &at, &len);
      if (st.ok() && (len < 12 || get_u32(data + at + sizeof kResultMagic) == kResultMatrixVersion))
        st = bad("parts", "the histograms are not a version 1, 2, 3 or 5 result");
      if (st.ok()) return decode_result(data + at, static_cast<size_t>(len), out, max_inflated, level_quantum_ms);
      break;
    }
    default:
      return bad("file", "version " + std::to_string(version) + " (this latscope reads versions 1 to 5" +
                             (version > kResultHostBlocksVersion ? "; a newer latscope wrote it)" : ")"));
  }
  // A single-level file is its only level (docs/result-format.md, "Several resolutions").
  if (st.ok() && version != kResultLevelsVersion && level_quantum_ms != 0 && out->quantum_ms != level_quantum_ms)
    st = Status::Error(ErrorCode::kInvalidArgument, "result: no level of " + quantum_text(level_quantum_ms) +
                                                        " ms (the file has " + quantum_text(out->quantum_ms) + " ms)");
  if (!st.ok()) *out = Result();
  return st;
}

}  // namespace latscope
