// Byte layout (all integers little-endian, doubles as IEEE-754 bits):
//
//   "LSRC" u32 version
//   u32 nlayouts, layouts[]         shared by the source and its series
//     u8 kind, str id, i32 coarseness, u8 last_saturates,
//     fio kinds: nothing more (rebuilt with fio_layout(), id checked)
//     others:    u32 nbins, f64 lo[], f64 hi[], f64 rep[]
//   str name, identity (str prefix, kind, job, host, u8 gz), labels, str ignored
//   u8 format, i32 layout (-1: none), u8 absolute_time,
//   u64 lines, records, bytes
//   status: u8 code, str message
//   diagnostics: u32 nissues, u64 count[]; u32 nexamples, (u32 issue, u64 line,
//                u32 column, str text)[]
//   u32 nseries, series[]: u8 dir, u8 role, labels, str job, i32 segment, i32 layout,
//     u8 repaired, u64 saturated, u8 count_frac_bits, f64 full_start, f64 full_end, u32 nwindows, (f64 start, f64 end, u64 total,
//     u32 offset, u32 n)[], u32 ndata, u8 data[ndata] (model.h's varint bins),
//     u8 per_io, u32 n, u64 io_ns[n], u32 n, u32 io_bs[n], u32 n, u64 io_offset[n],
//     u32 n, u64 window_max_ns[n],
//     u32 n, (u32 lo, u32 hi)[n] extremes
//   u32 nfio, fio figures[]: str host, i32 job, u8 aggregate, u8 dir, u64 n, u64 min, u64 max,
//     f64 mean, u32 n, (f64 p, u64 value)[n], u8 has_bins, u32 n, u32 series[n],
//     u32 n, (u32 bin, u64 count)[n]
//
// str = u32 length + bytes; labels = u32 n, (str name, str value)[n]. Pointers to layouts become indices into the
// layout table, so a series that shares its source's layout still shares it
// after decoding.
#include "latscope/model_io.h"

#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace latscope {
namespace {

constexpr char kMagic[4] = {'L', 'S', 'R', 'C'};

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void reserve(size_t n) { out_.reserve(n); }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

// Every read checks the remaining length first; after the first failure all
// reads return zero/empty and failed() stays true, so decoding code can read a
// whole record and check once.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}

  bool failed() const { return failed_; }
  size_t offset() const { return off_; }
  size_t remaining() const { return failed_ ? 0 : n_ - off_; }
  const char* error() const { return error_; }

  void fail(const char* why) {
    if (!failed_) {
      failed_ = true;
      error_ = why;
    }
  }
  // True when `count` items of `size` bytes each can still be read; used
  // before any allocation so a corrupt count cannot request gigabytes.
  bool can_read(uint64_t count, size_t size) {
    if (failed_) return false;
    if (count > (n_ - off_) / size) {
      fail("length exceeds the remaining bytes");
      return false;
    }
    return true;
  }
  uint8_t u8() {
    if (!can_read(1, 1)) return 0;
    return p_[off_++];
  }
  uint32_t u32() {
    if (!can_read(1, 4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(p_[off_ + i]) << (8 * i);
    off_ += 4;
    return v;
  }
  uint64_t u64() {
    if (!can_read(1, 8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p_[off_ + i]) << (8 * i);
    off_ += 8;
    return v;
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  double f64() {
    uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  // n bytes (caller checked can_read) into v.
  void bytes(std::vector<uint8_t>* v, size_t n) {
    v->assign(p_ + off_, p_ + off_ + n);
    off_ += n;
  }
  std::string str() {
    uint32_t len = u32();
    if (!can_read(len, 1)) return {};
    std::string s(reinterpret_cast<const char*>(p_ + off_), len);
    off_ += len;
    return s;
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t off_ = 0;
  bool failed_ = false;
  const char* error_ = "";
};

bool is_fio_kind(LayoutKind k) { return k == LayoutKind::kFio3 || k == LayoutKind::kFio2; }

void write_layout(Writer& w, const BinLayout& l) {
  w.u8(static_cast<uint8_t>(l.kind));
  w.str(l.id);
  w.i32(l.coarseness);
  w.u8(l.last_saturates ? 1 : 0);
  if (is_fio_kind(l.kind)) return;
  w.u32(static_cast<uint32_t>(l.size()));
  for (double v : l.lo) w.f64(v);
  for (double v : l.hi) w.f64(v);
  for (double v : l.rep) w.f64(v);
}

LayoutPtr read_layout(Reader& r) {
  uint8_t kind = r.u8();
  std::string id = r.str();
  int32_t coarseness = r.i32();
  uint8_t saturates = r.u8();
  if (r.failed()) return nullptr;
  if (kind > static_cast<uint8_t>(LayoutKind::kCustom) || saturates > 1) {
    r.fail("bad layout kind or flag");
    return nullptr;
  }
  auto k = static_cast<LayoutKind>(kind);
  if (is_fio_kind(k)) {
    if (coarseness < 0 || coarseness > 6) {
      r.fail("fio layout coarseness out of range");
      return nullptr;
    }
    LayoutPtr l = fio_layout(k == LayoutKind::kFio3 ? 3 : 2, coarseness);
    if (!l || l->id != id) {
      r.fail("fio layout id does not match its version and coarseness");
      return nullptr;
    }
    return l;
  }
  uint32_t nbins = r.u32();
  if (!r.can_read(nbins, 3 * sizeof(double))) return nullptr;
  auto l = std::make_shared<BinLayout>();
  l->kind = k;
  l->id = std::move(id);
  l->coarseness = coarseness;
  l->last_saturates = saturates != 0;
  for (auto* v : {&l->lo, &l->hi, &l->rep}) {
    v->resize(nbins);
    for (double& x : *v) x = r.f64();
  }
  return l;
}

// Assigns each distinct layout pointer an index, in first-seen order.
class LayoutTable {
 public:
  int32_t index(const LayoutPtr& l) {
    if (!l) return -1;
    auto it = index_.find(l.get());
    if (it != index_.end()) return it->second;
    auto i = static_cast<int32_t>(list_.size());
    index_.emplace(l.get(), i);
    list_.push_back(l);
    return i;
  }
  const std::vector<LayoutPtr>& list() const { return list_; }

 private:
  std::map<const BinLayout*, int32_t> index_;
  std::vector<LayoutPtr> list_;
};

void write_labels(Writer& w, const Labels& l) {
  w.u32(static_cast<uint32_t>(l.items().size()));
  for (const auto& kv : l.items()) {
    w.str(kv.first);
    w.str(kv.second);
  }
}

bool read_labels(Reader& r, Labels* l) {
  const uint32_t n = r.u32();
  if (!r.can_read(n, 8)) return false;
  for (uint32_t i = 0; i < n; ++i) {
    std::string name = r.str();
    std::string value = r.str();
    if (r.failed()) return false;
    l->set(name, value);
  }
  return true;
}

void write_series(Writer& w, const Series& s, int32_t layout) {
  w.u8(static_cast<uint8_t>(s.dir));
  w.u8(static_cast<uint8_t>(s.role));
  write_labels(w, s.labels);
  w.str(s.job);
  w.i32(s.segment);
  w.i32(layout);
  w.u8(s.repaired ? 1 : 0);
  w.u64(s.saturated);
  w.u8(s.count_frac_bits);
  w.f64(s.full_start_ms);
  w.f64(s.full_end_ms);
  w.u32(static_cast<uint32_t>(s.windows.size()));
  for (const Window& win : s.windows) {
    w.f64(win.start_ms);
    w.f64(win.end_ms);
    w.u64(win.total);
    w.u32(win.offset);
    w.u32(win.n);
  }
  // The windows' bins are already a compact byte string (model.h varints).
  w.u32(static_cast<uint32_t>(s.data.size()));
  w.raw(s.data.data(), s.data.size());
  // Per-I/O values (fio per-I/O logs, docs/formats-fio-lat.md).
  w.u8(s.per_io ? 1 : 0);
  w.u32(static_cast<uint32_t>(s.io_ns.size()));
  for (uint64_t v : s.io_ns) w.u64(v);
  w.u32(static_cast<uint32_t>(s.io_bs.size()));
  for (uint32_t v : s.io_bs) w.u32(v);
  w.u32(static_cast<uint32_t>(s.io_offset.size()));
  for (uint64_t v : s.io_offset) w.u64(v);
  w.u32(static_cast<uint32_t>(s.window_max_ns.size()));
  for (uint64_t v : s.window_max_ns) w.u64(v);
  w.u32(static_cast<uint32_t>(s.extremes.size()));
  for (const ExtremeBins& x : s.extremes) {
    w.u32(x.lo);
    w.u32(x.hi);
  }
}

bool read_series(Reader& r, const std::vector<LayoutPtr>& layouts, Series* s) {
  uint8_t dir = r.u8();
  const uint8_t role = r.u8();
  if (role > static_cast<uint8_t>(Role::kWindowValues)) {
    r.fail("bad series role");
    return false;
  }
  s->role = static_cast<Role>(role);
  if (!read_labels(r, &s->labels)) return false;
  s->job = r.str();
  s->segment = r.i32();
  int32_t layout = r.i32();
  uint8_t repaired = r.u8();
  s->saturated = r.u64();
  s->count_frac_bits = r.u8();
  s->full_start_ms = r.f64();
  s->full_end_ms = r.f64();
  if (r.failed()) return false;
  if (s->count_frac_bits > 62) {
    r.fail("bad count scale");
    return false;
  }
  if (dir >= kDirCount || repaired > 1) {
    r.fail("bad series direction or flag");
    return false;
  }
  s->dir = static_cast<Dir>(dir);
  s->repaired = repaired != 0;
  if (layout < -1 || layout >= static_cast<int32_t>(layouts.size())) {
    r.fail("series layout index out of range");
    return false;
  }
  if (layout >= 0) s->layout = layouts[static_cast<size_t>(layout)];

  uint32_t nwin = r.u32();
  if (!r.can_read(nwin, 32)) return false;
  s->windows.resize(nwin);
  for (Window& win : s->windows) {
    win.start_ms = r.f64();
    win.end_ms = r.f64();
    win.total = r.u64();
    win.offset = r.u32();
    win.n = r.u32();
  }
  uint32_t nbytes = r.u32();
  if (!r.can_read(nbytes, 1)) return false;
  r.bytes(&s->data, nbytes);
  if (r.failed()) return false;
  const uint8_t per_io = r.u8();
  if (per_io > 1) {
    r.fail("bad per-I/O flag");
    return false;
  }
  s->per_io = per_io != 0;
  const uint32_t nns = r.u32();
  if (!r.can_read(nns, 8)) return false;
  s->io_ns.resize(nns);
  for (uint64_t& v : s->io_ns) v = r.u64();
  const uint32_t nbs = r.u32();
  if (!r.can_read(nbs, 4)) return false;
  s->io_bs.resize(nbs);
  for (uint32_t& v : s->io_bs) v = r.u32();
  const uint32_t noff = r.u32();
  if (!r.can_read(noff, 8)) return false;
  s->io_offset.resize(noff);
  for (uint64_t& v : s->io_offset) v = r.u64();
  const uint32_t nmax = r.u32();
  if (!r.can_read(nmax, 8)) return false;
  s->window_max_ns.resize(nmax);
  for (uint64_t& v : s->window_max_ns) v = r.u64();
  const uint32_t next = r.u32();
  if (!r.can_read(next, 8)) return false;
  s->extremes.resize(next);
  for (ExtremeBins& x : s->extremes) {
    x.lo = r.u32();
    x.hi = r.u32();
  }
  if (r.failed()) return false;

  // Every window's varints must stay inside data, decode to ascending bins
  // below the layout's size and add up to the window's total: the engine
  // reads them unchecked afterwards.
  if (!s->valid(s->layout ? s->layout->size() : 0)) {
    r.fail("series bins are inconsistent (offsets, bin indices or totals)");
    return false;
  }
  return true;
}

void write_diagnostics(Writer& w, const Diagnostics& d) {
  constexpr auto n = static_cast<uint32_t>(Issue::kCount);
  w.u32(n);
  for (uint32_t i = 0; i < n; ++i) w.u64(d.count(static_cast<Issue>(i)));
  w.u32(static_cast<uint32_t>(d.examples().size()));
  for (const IssueExample& e : d.examples()) {
    w.u32(static_cast<uint32_t>(e.issue));
    w.u64(e.line);
    w.u32(e.column);
    w.str(e.text);
  }
}

// Diagnostics exposes add() (counts one and keeps the example) and
// add_count(); replaying the examples first and then the rest of each count
// rebuilds the same counters and example list.
bool read_diagnostics(Reader& r, Diagnostics* d) {
  constexpr auto kIssues = static_cast<uint32_t>(Issue::kCount);
  uint32_t nissues = r.u32();
  if (r.failed()) return false;
  if (nissues != kIssues) {
    r.fail("issue table size differs from this build's");
    return false;
  }
  std::vector<uint64_t> counts(kIssues);
  for (uint64_t& c : counts) c = r.u64();
  uint32_t nex = r.u32();
  // Each example takes at least 20 bytes.
  if (!r.can_read(nex, 20)) return false;
  std::vector<uint64_t> replayed(kIssues, 0);
  for (uint32_t i = 0; i < nex; ++i) {
    uint32_t issue = r.u32();
    uint64_t line = r.u64();
    uint32_t column = r.u32();
    std::string text = r.str();
    if (r.failed()) return false;
    if (issue >= kIssues || ++replayed[issue] > counts[issue]) {
      r.fail("diagnostic example without a matching count");
      return false;
    }
    d->add(static_cast<Issue>(issue), line, column, std::move(text));
  }
  for (uint32_t i = 0; i < kIssues; ++i) {
    if (counts[i] > replayed[i]) d->add_count(static_cast<Issue>(i), counts[i] - replayed[i]);
  }
  return true;
}

void write_fio_figures(Writer& w, const std::vector<FioFigures>& fio) {
  w.u32(static_cast<uint32_t>(fio.size()));
  for (const FioFigures& f : fio) {
    w.str(f.host);
    w.i32(f.job);
    w.u8(f.aggregate ? 1 : 0);
    w.u8(static_cast<uint8_t>(f.dir));
    w.u32(static_cast<uint32_t>(f.log_prefixes.size()));
    for (const std::string& p : f.log_prefixes) w.str(p);
    w.u8(f.options_listed ? 1 : 0);
    w.u64(f.n);
    w.u64(f.min_ns);
    w.u64(f.max_ns);
    w.f64(f.mean_ns);
    w.u32(static_cast<uint32_t>(f.percentiles.size()));
    for (const auto& [p, v] : f.percentiles) {
      w.f64(p);
      w.u64(v);
    }
    w.u8(f.has_bins ? 1 : 0);
    w.u32(static_cast<uint32_t>(f.series.size()));
    for (uint32_t i : f.series) w.u32(i);
    w.u32(static_cast<uint32_t>(f.bin_index.size()));
    for (size_t i = 0; i < f.bin_index.size(); ++i) {
      w.u32(f.bin_index[i]);
      w.u64(f.bin_count[i]);
    }
  }
}

// Series indices must name a series of the source, bins lie in the source's
// layout: what the summary reads is checked here, once.
bool read_fio_figures(Reader& r, const Source& src, std::vector<FioFigures>* fio) {
  const uint32_t n = r.u32();
  // A record takes at least 60 bytes.
  if (!r.can_read(n, 60)) return false;
  fio->resize(n);
  for (FioFigures& f : *fio) {
    f.host = r.str();
    f.job = r.i32();
    const uint8_t aggregate = r.u8();
    const uint8_t dir = r.u8();
    const uint32_t nprefix = r.u32();
    if (!r.can_read(nprefix, 4)) return false;
    f.log_prefixes.resize(nprefix);
    for (std::string& p : f.log_prefixes) p = r.str();
    f.options_listed = r.u8() != 0;
    f.n = r.u64();
    f.min_ns = r.u64();
    f.max_ns = r.u64();
    f.mean_ns = r.f64();
    const uint32_t np = r.u32();
    if (!r.can_read(np, 16)) return false;
    f.percentiles.resize(np);
    for (auto& [p, v] : f.percentiles) {
      p = r.f64();
      v = r.u64();
    }
    const uint8_t has_bins = r.u8();
    const uint32_t ns = r.u32();
    if (!r.can_read(ns, 4)) return false;
    f.series.resize(ns);
    for (uint32_t& i : f.series) i = r.u32();
    const uint32_t nb = r.u32();
    if (!r.can_read(nb, 12)) return false;
    f.bin_index.resize(nb);
    f.bin_count.resize(nb);
    for (uint32_t i = 0; i < nb; ++i) {
      f.bin_index[i] = r.u32();
      f.bin_count[i] = r.u64();
    }
    if (r.failed()) return false;
    if (aggregate > 1 || has_bins > 1 || dir >= kDirCount) {
      r.fail("bad fio figures flag");
      return false;
    }
    f.aggregate = aggregate != 0;
    f.has_bins = has_bins != 0;
    f.dir = static_cast<Dir>(dir);
    for (uint32_t i : f.series)
      if (i >= src.series.size()) {
        r.fail("fio figures name a series the source lacks");
        return false;
      }
    const size_t nbins = src.layout ? src.layout->size() : 0;
    for (uint32_t b : f.bin_index)
      if (b >= nbins) {
        r.fail("fio figures bin beyond the source's layout");
        return false;
      }
  }
  return true;
}

}  // namespace

std::vector<uint8_t> encode_source(const Source& src) {
  LayoutTable table;
  table.index(src.layout);
  for (const Series& s : src.series) table.index(s.layout);

  Writer w;
  size_t estimate = 4096;
  for (const Series& s : src.series)
    estimate += 64 + s.windows.size() * 32 + s.data.size() + s.io_ns.size() * 20;
  w.reserve(estimate);
  w.raw(kMagic, sizeof kMagic);
  w.u32(kSourceEncodingVersion);
  w.u32(static_cast<uint32_t>(table.list().size()));
  for (const LayoutPtr& l : table.list()) write_layout(w, *l);

  w.str(src.name);
  w.str(src.id.prefix);
  w.str(src.id.kind);
  w.str(src.id.job);
  w.str(src.id.host);
  w.u8(src.id.gz ? 1 : 0);
  write_labels(w, src.labels);
  w.str(src.ignored);
  w.u8(static_cast<uint8_t>(src.format));
  w.i32(table.index(src.layout));
  w.u8(src.absolute_time ? 1 : 0);
  w.u64(src.lines);
  w.u64(src.records);
  w.u64(src.bytes);
  w.u64(src.head_hash);
  w.u8(static_cast<uint8_t>(src.status.code));
  w.str(src.status.message);
  write_diagnostics(w, src.diag);
  w.u32(static_cast<uint32_t>(src.series.size()));
  for (const Series& s : src.series) write_series(w, s, table.index(s.layout));
  write_fio_figures(w, src.fio);
  return w.take();
}

Status decode_source(const uint8_t* data, size_t n, Source* out) {
  *out = Source{};
  Reader r(data, n);
  Source src;
  auto fail = [&](const char* why) {
    *out = Source{};
    return Status::Error(ErrorCode::kInvalidArgument,
                         "encoded source, byte " + std::to_string(r.offset()) + ": " + why);
  };

  if (n < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0) {
    return fail("not an encoded source (bad magic)");
  }
  for (size_t i = 0; i < sizeof kMagic; ++i) r.u8();
  uint32_t version = r.u32();
  if (r.failed()) return fail(r.error());
  if (version != kSourceEncodingVersion) return fail("unsupported encoding version");

  uint32_t nlayouts = r.u32();
  // A layout record takes at least 10 bytes.
  if (!r.can_read(nlayouts, 10)) return fail(r.error());
  std::vector<LayoutPtr> layouts;
  layouts.reserve(nlayouts);
  for (uint32_t i = 0; i < nlayouts; ++i) {
    LayoutPtr l = read_layout(r);
    if (!l) return fail(r.error());
    layouts.push_back(std::move(l));
  }

  src.name = r.str();
  src.id.prefix = r.str();
  src.id.kind = r.str();
  src.id.job = r.str();
  src.id.host = r.str();
  uint8_t gz = r.u8();
  if (!read_labels(r, &src.labels)) return fail(r.error());
  src.ignored = r.str();
  uint8_t format = r.u8();
  int32_t layout = r.i32();
  uint8_t absolute = r.u8();
  src.lines = r.u64();
  src.records = r.u64();
  src.bytes = r.u64();
  src.head_hash = r.u64();
  uint8_t code = r.u8();
  src.status.message = r.str();
  if (r.failed()) return fail(r.error());
  if (gz > 1 || absolute > 1) return fail("bad flag");
  if (format > static_cast<uint8_t>(FileFormat::kTsv)) return fail("bad file format");
  if (code > static_cast<uint8_t>(ErrorCode::kInternal)) return fail("bad status code");
  if (layout < -1 || layout >= static_cast<int32_t>(layouts.size())) {
    return fail("source layout index out of range");
  }
  src.id.gz = gz != 0;
  src.format = static_cast<FileFormat>(format);
  if (layout >= 0) src.layout = layouts[static_cast<size_t>(layout)];
  src.absolute_time = absolute != 0;
  src.status.code = static_cast<ErrorCode>(code);

  if (!read_diagnostics(r, &src.diag)) return fail(r.error());

  uint32_t nseries = r.u32();
  // A series record takes at least 30 bytes.
  if (!r.can_read(nseries, 30)) return fail(r.error());
  src.series.resize(nseries);
  for (Series& s : src.series) {
    if (!read_series(r, layouts, &s)) return fail(r.error());
  }
  if (!read_fio_figures(r, src, &src.fio)) return fail(r.error());
  if (r.remaining() != 0) return fail("trailing bytes after the source");
  *out = std::move(src);
  return Status::Ok();
}

}  // namespace latscope
