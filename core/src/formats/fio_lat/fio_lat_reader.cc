// fio per-I/O latency logs: see fio_lat_reader.h and docs/formats-fio-lat.md.
#include "formats/fio_lat/fio_lat_reader.h"

#include "latscope/folder.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace latscope {
namespace {

constexpr size_t kMaxLine = 4096;  // 7 fields of 20 digits are < 200 bytes
constexpr size_t kMaxCols = 7;
// What FioLatReader::fast_line reads at most: 7 fields, each at most 19
// digits (or 0x and 15 hex digits), the byte after them and a space.
constexpr size_t kFastReach = 7 * (19 + 2) + 1;
// ms since the epoch: past ~3 years of run time the clock is absolute
// (log_unix_epoch=1), as for histogram logs.
constexpr uint64_t kEpochThresholdMs = 100000000000ull;
// fio's priorities fit 16 bits (ioprio class << 13 | level); larger values in
// a priority's place are offsets (fio 2) or issue times (fio master).
constexpr uint64_t kMaxPrio = 0xffff;
// Values this large (ns) cannot come from a clock: ~292 years.
constexpr uint64_t kMaxValue = uint64_t{1} << 63;

std::string what_column(size_t i) {
  static const char* const kNames[] = {"time_ms", "value", "ddir", "bs", "column 5", "column 6", "column 7"};
  return i < kMaxCols ? kNames[i] : "column";
}

// A hex digit's value, 16 for anything else (fast_line and parse_line).
inline unsigned hex_value(char c) {
  const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
  if (d < 10) return d;
  const unsigned l = (static_cast<unsigned>(static_cast<unsigned char>(c)) | 0x20u) - 'a';
  return l < 6 ? l + 10 : 16;
}

}  // namespace

uint32_t fio_value_to_bin(uint64_t v) {
  // fio stat.c plat_val_to_idx: values < 128 are their own bin; above, 64
  // bins per power of two, the last bin (1855) holds everything larger.
  if (v < 128) return static_cast<uint32_t>(v);
  const uint32_t msb = 63u - static_cast<uint32_t>(__builtin_clzll(v));
  const uint32_t error_bits = msb - kFioGroupBits;
  const uint32_t base = (error_bits + 1) << kFioGroupBits;
  const uint32_t idx = base + static_cast<uint32_t>((v >> error_bits) & 63u);
  return std::min(idx, kFio3Bins - 1);
}

FioLatReader::FioLatReader(Source* src, const FileOptions& opts) : src_(src), opts_(opts), carry_(kMaxLine) {
  src_->format = FileFormat::kFioLat;
  src_->layout = fio_layout(3, 0);
  keep_values_ = opts.max_per_io_samples > 0;
}

void FioLatReader::skip(Issue issue, uint32_t column, const std::string& what) {
  src_->diag.add(issue, line_no_, column, what);
}

void FioLatReader::append(const char* data, size_t n) {
  src_->bytes += n;
  const char* p = data;
  const char* end = data + n;
  while (p < end) {
    // Whole lines of the file's established shape take the fast path; it
    // reads at most kFastReach bytes, so it needs no end checks. The rest
    // (a chunk's last bytes, a line begun in an earlier append, anything the
    // fast path does not take) is read by parse_line below.
    if (ncols_ && static_cast<size_t>(end - p) >= kFastReach && carry_.idle()) {
      if (const char* next = fast_line(p)) {
        p = next;
        continue;
      }
    }
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const auto too_long = [this] {
      ++line_no_;
      skip(Issue::kBinaryGarbage, 1, "line longer than 4 KiB (not a per-I/O log line): skipped");
    };
    if (!nl) {
      carry_.keep(p, end, too_long);
      return;
    }
    if (!carry_.end_line(p, nl, [this](const char* b, const char* e) { parse_line(b, e, false); }, too_long))
      parse_line(p, nl, false);
    p = nl + 1;
  }
}

// Column meaning from the first good line (docs/formats-fio-lat.md, "Columns").
void FioLatReader::decide_columns(size_t ncols, const uint64_t* f, const bool* hex) {
  ncols_ = ncols;
  version_ = opts_.fio_version ? opts_.fio_version : 3;
  offset_col_ = -1;
  // No priority column: fio 2 (us) or fio 3 before it wrote one (ns). The
  // columns cannot tell; values are kept as written and the folder's
  // evidence decides later (folder.h settle_units, docs/fio-versions.md).
  if (ncols == 4) {
    unit_pending_ = !opts_.fio_version;
  } else if (ncols == 5) {
    // fio 3: prio; fio 2 (or early fio 3) with log_offset=1: offset.
    if (opts_.fio_version == 2 || (!opts_.fio_version && !hex[4] && f[4] > kMaxPrio)) {
      unit_pending_ = !opts_.fio_version;
      offset_col_ = 4;
    }
  } else if (ncols == 6) {
    // fio 3 log_offset=1: offset, prio; fio master log_issue_time=1: prio, issue_time.
    if (!(hex[4] || (!hex[5] && f[5] > kMaxPrio))) offset_col_ = 4;
  } else {
    offset_col_ = 4;  // offset, prio, issue_time
  }
}

FioLatReader::Open& FioLatReader::open_for(Dir d, int base) {
  const size_t di = static_cast<size_t>(d);
  if (cur_[di] < open_.size() && open_[cur_[di]].segment == segment_ && open_[cur_[di]].base == base)
    return open_[cur_[di]];
  for (size_t i = 0; i < open_.size(); ++i)
    if (open_[i].segment == segment_ && open_[i].dir == d && open_[i].base == base) {
      cur_[di] = i;
      return open_[i];
    }
  cur_[di] = open_.size();
  open_.emplace_back();
  Open& o = open_.back();
  o.segment = segment_;
  o.base = base;
  o.dir = d;
  o.s.dir = d;
  o.s.job = src_->id.job;
  o.s.segment = segment_;
  o.s.layout = src_->layout;
  o.s.per_io = !averaged_;
  if (averaged_) o.s.role = Role::kWindowValues;  // log_avg_msec: window values (model.h)
  return o;
}

// The pending ms of a series becomes one instant window (t, t].
void FioLatReader::flush(Open& o) {
  if (!o.have_t || o.bins.empty()) return;
  if (o.bins.size() == 1) {  // one I/O in the ms, the usual case below ~1000 IOPS per direction
    const uint64_t one = 1;
    put_window(o, o.t, o.bins.data(), &one, 1, 1);
    o.bins.clear();
    return;
  }
  std::vector<uint32_t>& b = win_bins_;
  std::vector<uint64_t>& c = win_counts_;
  b.clear();
  c.clear();
  if (o.bins.size() > 1) std::sort(o.bins.begin(), o.bins.end());
  for (uint32_t x : o.bins) {
    if (!b.empty() && b.back() == x) ++c.back();
    else {
      b.push_back(x);
      c.push_back(1);
    }
  }
  put_window(o, o.t, b.data(), c.data(), static_cast<uint32_t>(b.size()), o.bins.size());
  o.bins.clear();
}

// An instant window (t, t], as Series::add_window would append it.
void FioLatReader::put_window(Open& o, uint64_t t, const uint32_t* bins, const uint64_t* counts, uint32_t n,
                              uint64_t total) {
  Window w;
  w.start_ms = static_cast<double>(t);
  w.end_ms = w.start_ms;
  w.total = total;
  fio_hist::append_window(w, bins, counts, n, &o.windows, &o.bytes);
}

// The segment of o is over: its blocks become the series' vectors.
void FioLatReader::settle(Open& o) {
  if (o.settled) return;
  flush(o);
  o.settled = true;
  o.s.windows = o.windows.take();
  o.s.data = o.bytes.take();
  o.s.io_ns = o.io_ns.take();
  o.s.io_bs = o.io_bs.take();
  o.s.io_offset = o.io_offset.take();
}

void FioLatReader::drop_values(const char* why) {
  if (!keep_values_) return;
  keep_values_ = false;
  for (Open& o : open_) {
    std::vector<uint64_t>().swap(o.s.io_ns);
    std::vector<uint32_t>().swap(o.s.io_bs);
    std::vector<uint64_t>().swap(o.s.io_offset);
    o.io_ns = {};
    o.io_bs = {};
    o.io_offset = {};
  }
  src_->diag.add(Issue::kPerIoBudget, line_no_, 0, why);
}

void FioLatReader::parse_line(const char* b, const char* e, bool last_without_newline) {
  ++line_no_;
  ++src_->lines;
  if (e > b && e[-1] == '\r') {
    --e;
    src_->diag.add_count(Issue::kCarriageReturn, 1);
  }
  uint64_t f[kMaxCols] = {0, 0, 0, 0, 0, 0, 0};
  bool hex[kMaxCols] = {false, false, false, false, false, false, false};
  size_t n = 0;
  const char* p = b;
  while (p < e && (*p == ' ' || *p == '\t')) ++p;
  if (p == e) {
    src_->diag.add_count(Issue::kEmptyLine, 1);
    return;
  }
  for (;;) {
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    const uint32_t col = static_cast<uint32_t>(p - b) + 1;
    if (n == kMaxCols) {
      skip(Issue::kColumnCount, col, "more than 7 columns: not a per-I/O log line; skipped");
      return;
    }
    if (p < e && *p == '-') {
      skip(Issue::kNegativeValue, col, what_column(n) + " is negative; line skipped");
      return;
    }
    uint64_t v = 0;
    const char* d = p;
    if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {  // fio's 0x%04x priority
      p += 2;
      d = p;
      while (p < e && std::isxdigit(static_cast<unsigned char>(*p))) {
        if (v >> 60) {
          skip(Issue::kOverflow, col, what_column(n) + " does not fit in 64 bits; line skipped");
          return;
        }
        v = v * 16 + hex_value(*p++);
      }
      hex[n] = true;
    } else {
      while (p < e && static_cast<unsigned>(*p - '0') < 10u) {
        const uint64_t digit = static_cast<uint64_t>(*p - '0');
        if (v > (UINT64_MAX - digit) / 10) {
          skip(Issue::kOverflow, col, what_column(n) + " does not fit in 64 bits; line skipped");
          return;
        }
        v = v * 10 + digit;
        ++p;
      }
    }
    if (p == d) {
      bool control = false;
      for (const char* q = b; q < e; ++q)
        if (static_cast<unsigned char>(*q) < 0x20 && *q != '\t') control = true;
      if (control) skip(Issue::kBinaryGarbage, col, "control bytes in the line (not a text log); skipped");
      else if (last_without_newline) skip(Issue::kTruncatedLine, col, "last line ends early (file cut off?); skipped");
      else skip(Issue::kNotANumber, col, what_column(n) + " is not an unsigned integer; line skipped");
      return;
    }
    f[n++] = v;
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    if (p == e) break;
    if (*p != ',') {
      skip(Issue::kNotANumber, static_cast<uint32_t>(p - b) + 1,
           what_column(n - 1) + " is not an unsigned integer; line skipped");
      return;
    }
    ++p;
  }
  if (n < 4 || (ncols_ && n != ncols_)) {
    if (last_without_newline && (n < ncols_ || n < 4)) {
      skip(Issue::kTruncatedLine, static_cast<uint32_t>(e - b) + 1,
           "last line has " + std::to_string(n) + " columns (file cut off?); skipped");
    } else {
      skip(Issue::kColumnCount, 1,
           std::to_string(n) + " columns where " + (ncols_ ? "the file's lines have " + std::to_string(ncols_)
                                                            : std::string("a per-I/O log line has 4 to 7")) +
               "; skipped");
    }
    return;
  }
  take(n, f, hex);
}

// The fast path of append(): one line as fio writes it (iolog.c
// flush_samples: ", " between the fields, "\n" at the end; docs/formats-fio-
// lat.md, "Columns"), with as many fields as the file's lines (ncols_).
// Returns the start of the next line, or nullptr for anything else (other
// blanks, CR, '-', a number of 20 digits or more, another field count, ...),
// which parse_line then reads with every check and message. A number it
// takes is the value parse_line reads: 19 decimal or 15 hex digits cannot
// overflow 64 bits. Reads at most kFastReach bytes from p.
const char* FioLatReader::fast_line(const char* p) {
  uint64_t f[kMaxCols];
  bool hex[kMaxCols] = {false, false, false, false, false, false, false};
  size_t n = 0;
  for (;;) {
    uint64_t v = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {  // fio's 0x%04x priority
      const char* q = p + 2;
      const char* const lim = q + 15;
      for (unsigned x; q < lim && (x = hex_value(*q)) < 16; ++q) v = v * 16 + x;
      if (q == p + 2 || hex_value(*q) < 16) return nullptr;
      hex[n] = true;
      p = q;
    } else {
      const char* const start = p;
      const char* const lim = p + 19;
      unsigned d;
      while (p < lim && (d = static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0') < 10) {
        v = v * 10 + d;
        ++p;
      }
      if (p == start || static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0' < 10) return nullptr;
    }
    f[n++] = v;
    if (*p == '\n') break;
    if (*p != ',' || n == ncols_) return nullptr;
    ++p;
    if (*p == ' ') ++p;
  }
  if (n != ncols_) return nullptr;
  ++line_no_;
  ++src_->lines;
  take(n, f, hex);
  return p + 1;
}

// A log_avg_msec log written with log_window_value=both (fio >= 3.37,
// iolog.c flush_samples; docs/formats-fio-lat.md "log_avg_msec logs"):
// "time, avg, max, ddir, bs[, offset], prio", 6 or 7 columns, bs 0. Where
// an I/O line has its direction, this one has the window's maximum (ns,
// never 0 to 2), and the direction follows; the bs after it is 0.
namespace {
bool window_value_both_shape(size_t n, const uint64_t* f, const bool* hex) {
  return (n == 6 || n == 7) && !hex[2] && !hex[3] && f[2] > 2 && f[2] >= f[1] && f[3] <= 2 && f[4] == 0;
}
}  // namespace

// A line's fields (n of them, 4 to 7; ncols_ once decided) into the model.
void FioLatReader::take(size_t n, const uint64_t* f_in, const bool* hex_in) {
  // log_window_value=both: the maximum taken out, the rest read as the
  // columns of an average-only log (decide_columns sees n - 1 of them).
  uint64_t shifted[kMaxCols] = {};
  bool shifted_hex[kMaxCols] = {};
  const uint64_t* f = f_in;
  const bool* hex = hex_in;
  uint64_t window_max = 0;
  if (ncols_ ? both_ : window_value_both_shape(n, f_in, hex_in)) {
    window_max = f_in[2];
    for (size_t i = 0, j = 0; i < n; ++i)
      if (i != 2) {
        shifted[j] = f_in[i];
        shifted_hex[j++] = hex_in[i];
      }
    f = shifted;
    hex = shifted_hex;
    if (!ncols_) {
      decide_columns(n - 1, f, hex);
      ncols_ = n;  // the lines' own count, which parse_line and fast_line hold them to
      both_ = true;
      averaged_ = true;
    }
    if (window_max < f[1]) {
      skip(Issue::kNotANumber, 3, "the window's maximum " + std::to_string(window_max) + " is below its average " +
                                      std::to_string(f[1]) + " (log_window_value=both); line skipped");
      return;
    }
  }
  if (f[2] > 2) {
    skip(Issue::kBadDirection, 1, "ddir " + std::to_string(f[2]) + " is not 0, 1 or 2; line skipped");
    return;
  }
  if (f[0] > kMaxTimeMs) {
    skip(Issue::kOverflow, 1, time_too_late(f[0]));
    return;
  }
  if (!ncols_) {
    decide_columns(n, f, hex);
    // fio's log_avg_msec windows are written with bs 0 (stat.c
    // __add_stat_to_log): no real I/O has a zero block size.
    averaged_ = f[3] == 0;
  }
  const uint64_t t = f[0];
  const int base = t >= kEpochThresholdMs ? 1 : 0;  // docs/input-robustness.md, "Time bases"
  const Dir dir = static_cast<Dir>(f[2]);
  const int di = static_cast<int>(f[2]);
  if (averaged_ && f[3] != 0) {
    skip(Issue::kNotANumber, 1, "bs is not 0 in a log_avg_msec log (an I/O line among window lines?); line skipped");
    return;
  }
  if (!averaged_ && f[3] == 0) {
    skip(Issue::kNotANumber, 1, "bs is 0 (a log_avg_msec window line among I/O lines?); line skipped");
    return;
  }
  if (f[3] > UINT32_MAX) {
    skip(Issue::kOverflow, 1, "bs " + std::to_string(f[3]) + " is larger than 4 GiB; line skipped");
    return;
  }
  uint64_t ns = f[1];
  if (version_ == 2) {
    if (ns > kMaxValue / 1000) {
      skip(Issue::kOverflow, 1, "value does not fit in 64 bits in ns; line skipped");
      return;
    }
    ns *= 1000;
  } else if (ns > kMaxValue) {
    skip(Issue::kOverflow, 1, "value larger than 2^63 ns; line skipped");
    return;
  }
  // log_window_value=both: the maximum in the same unit, held to the same bound.
  uint64_t max_ns = window_max;
  if (both_ && (version_ == 2 ? window_max > kMaxValue / 1000 : window_max > kMaxValue)) {
    skip(Issue::kOverflow, 3, "the window's maximum is larger than 2^63 ns; line skipped");
    return;
  }
  if (both_ && version_ == 2) max_ns *= 1000;
  if (have_last_[base][di] && t < last_t_[base][di]) {
    // Timestamps restart: per_job_logs=0 appends the next job's log; the
    // segment's series get no more I/Os.
    for (Open& o : open_) settle(o);
    ++segment_;
    for (bool* h : have_last_) std::fill(h, h + kDirCount, false);
    src_->diag.add(Issue::kTimeRestart, line_no_, 1,
                   "time_ms " + std::to_string(t) + " after " + std::to_string(last_t_[base][di]) + ": job segment " +
                       std::to_string(segment_ + 1) + " starts here");
  }
  last_t_[base][di] = t;
  have_last_[base][di] = true;
  clock_.see(base, line_no_);
  Open& o = open_for(dir, base);
  if (averaged_) {  // one window value: an instant (t, t] of its own (model.h, Role::kWindowValues)
    const uint32_t bin = fio_value_to_bin(ns);
    const uint64_t one = 1;
    put_window(o, t, &bin, &one, 1, 1);
    o.io_ns.push_back(ns);
    if (both_) o.s.window_max_ns.push_back(max_ns);
    ++src_->records;
    return;
  }
  if (o.have_t && o.t != t) flush(o);
  o.t = t;
  o.have_t = true;
  const uint32_t bin = fio_value_to_bin(ns);
  o.bins.push_back(bin);
  if (bin == kFio3Bins - 1) ++o.s.saturated;
  ++src_->records;
  if (keep_values_) {
    if (kept_ >= opts_.max_per_io_samples) {
      drop_values(("more than " + std::to_string(opts_.max_per_io_samples) +
                   " I/Os: exact values, bs and offsets are not kept beyond the per-I/O budget; "
                   "--method exact and bs/offset heat maps are unavailable for this file (bins are kept)")
                      .c_str());
    } else {
      ++kept_;
      o.io_ns.push_back(ns);
      o.io_bs.push_back(static_cast<uint32_t>(f[3]));
      if (offset_col_ >= 0) o.io_offset.push_back(f[offset_col_]);
    }
  }
}

// One file, one clock, as for histogram logs (FioHistReader::keep_one_time_base):
// the clock most I/O lines use (a tie: the first line's) is the file's; the
// other clock's lines are left out and counted as kTimeBaseChange. Without
// this one epoch stamp among relative ones stretched the file over decades.
void FioLatReader::keep_one_time_base() {
  const int drop = keep_fio_clock(clock_, src_, "I/O line(s)");
  if (drop < 0) return;
  open_.erase(std::remove_if(open_.begin(), open_.end(), [drop](const Open& o) { return o.base == drop; }),
              open_.end());
}

void FioLatReader::finish() {
  carry_.finish([this](const char* b, const char* e) { parse_line(b, e, true); });
  std::sort(open_.begin(), open_.end(), [](const Open& a, const Open& b) {
    return a.segment != b.segment ? a.segment < b.segment : a.dir < b.dir;
  });
  keep_one_time_base();
  for (Open& o : open_) {
    settle(o);
    if (o.s.windows.empty()) continue;
    if (o.s.saturated)
      src_->diag.add(Issue::kSaturated, 0, 0,
                     std::to_string(o.s.saturated) + " I/Os of " + dir_name(o.dir) +
                         " in fio's last bin (>= 17.05 s): exact values kept, binned views show a lower bound");
    // As for histogram logs: per_job_logs=0 segments are jobs 1, 2, ...
    if (o.s.job.empty()) o.s.job = std::to_string(o.segment + 1);
    else if (segment_ > 0) o.s.job += "#" + std::to_string(o.segment + 1);
    src_->series.push_back(std::move(o.s));
  }
  open_.clear();
  if (unit_pending_ && src_->records) src_->labels.set(kUnitLabel, "pending");
  if (src_->records == 0 && src_->status.ok())
    src_->status = Status::Error(ErrorCode::kUnusableFile,
                                 src_->name + ":" + std::to_string(line_no_) +
                                     ": no usable I/O line (time_ms, value, ddir, bs[, offset], prio); not read");
}

}  // namespace latscope
