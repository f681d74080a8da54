#include "formats/fio_hist/fio_hist_reader.h"

#include <algorithm>
#include <cstring>

#include "formats/fio_hist/line_scan.h"
#include "formats/fio_hist/repair.h"

namespace latscope {
namespace {

constexpr size_t kMaxLine = 1 << 20;  // 1856 columns x 20 digits is ~40 KB
// ms since the epoch: anything past ~3 years of run time is an absolute clock
// (log_unix_epoch=1); relative logs never get there.
constexpr double kEpochThresholdMs = 1e11;

std::string describe(const char* p, const char* e) {
  std::string s;
  for (; p < e && s.size() < 24; ++p) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == ',') break;
    if (c < 0x20 || c >= 0x7f) {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    } else {
      s += static_cast<char>(c);
    }
  }
  return "'" + s + "'";
}

std::string layout_hint() {
  return "a fio histogram line has time_ms, ddir, bs and 1856/928/464/232/116/58/29 "
         "(fio 3) or 1216/608/304/152/76/38/19 (fio 2) bin columns";
}

}  // namespace

FioHistReader::FioHistReader(Source* src, const FileOptions& opts)
    : src_(src), opts_(opts), fast_(fio_hist::fast_path()), carry_(kMaxLine) {
  src_->format = FileFormat::kFioHist;
  if (opts.fio_version || opts.coarseness >= 0) {
    src_->layout = fio_layout(opts.fio_version ? opts.fio_version : 3, std::max(0, opts.coarseness));
    if (src_->layout) bin_columns_ = src_->layout->size();
  }
  line_bins_.resize(kFio3Bins);
  line_counts_.resize(kFio3Bins);
  // Named as fio's client names a server's logs; a host given by the user
  // (FileOptions::host, --host) does not make a local log a client's.
  repair_candidate_ = opts.repair == RepairMode::kForce ||
                      (opts.repair == RepairMode::kAuto && !parse_fio_file_name(src_->name).host.empty());
}

void FioHistReader::append(const char* data, size_t n) {
  src_->bytes += n;
  const char* p = data;
  const char* end = data + n;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const auto too_long = [this] {
      ++line_no_;
      skip(Issue::kBinaryGarbage, 1, "line longer than 1 MiB (not a text log?)");
    };
    if (!nl) {
      carry_.keep(p, end, too_long);  // an incomplete line: for the next call
      return;
    }
    if (carry_.end_line(p, nl, [this](const char* b, const char* e) { parse_line(b, e, false); }, too_long)) {
      // a line begun in an earlier call, ended here
    } else if (nl == p && src_->diag.count(Issue::kEmptyLine) >= Diagnostics::kMaxExamples) {
      // A run of empty lines, counted at once once their examples are kept:
      // one by one, a 9.4 MB .gz of newlines took minutes
      // (docs/input-robustness.md, "Empty content").
      const char* q = nl;
      while (q < end && *q == '\n') ++q;
      const auto k = static_cast<uint64_t>(q - p);
      line_no_ += k;
      src_->lines += k;
      src_->diag.add_count(Issue::kEmptyLine, k);
      p = q;
      continue;
    } else {
      parse_line(p, nl, false);
    }
    p = nl + 1;
  }
}

void FioHistReader::skip(Issue issue, uint32_t column, const std::string& what) {
  src_->diag.add(issue, line_no_, column, what);
}

FioHistReader::Raw& FioHistReader::raw_for(int base, int segment, Dir dir) {
  const auto at = raw_index_.emplace(std::make_tuple(base, segment, static_cast<int>(dir)), raws_.size());
  if (!at.second) return raws_[at.first->second];
  raws_.emplace_back();
  raws_.back().base = base;
  raws_.back().segment = segment;
  raws_.back().dir = dir;
  raws_.back().repairing = repair_candidate_;
  return raws_.back();
}

// The general parser: blanks and tabs anywhere, one trailing comma, CRLF;
// names the column and byte of the first bad field.
bool FioHistReader::parse_fields(const char* b, const char* e, bool last_without_newline) {
  if (e > b && e[-1] == '\r') {
    --e;
    src_->diag.add(Issue::kCarriageReturn, line_no_, static_cast<uint32_t>(e - b + 1),
                   "carriage return before the newline ignored");
  }
  const char* q = b;
  while (q < e && (*q == ' ' || *q == '\t')) ++q;
  if (q == e) {
    src_->diag.add(Issue::kEmptyLine, line_no_, 1, "blank line ignored");
    return false;
  }
  size_t col = 0;
  uint32_t nnz = 0;
  const char* p = b;
  for (;;) {
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    const char* field = p;
    uint64_t v = 0;
    if (p < e && static_cast<unsigned>(*p - '0') < 10u) {
      const char* digits = p;
      while (p < e && static_cast<unsigned>(*p - '0') < 10u) {
        const uint64_t d = static_cast<uint64_t>(*p - '0');
        if (p - digits >= 19 && (v > (UINT64_MAX - d) / 10)) {
          skip(Issue::kOverflow, static_cast<uint32_t>(field - b + 1),
               "column " + std::to_string(col + 1) + ": " + describe(field, e) +
                   " does not fit in 64 bits; line skipped");
          return false;
        }
        v = v * 10 + d;
        ++p;
      }
      while (p < e && (*p == ' ' || *p == '\t')) ++p;
    } else if (p == e && col > 0) {
      break;  // one trailing comma (", \n"): tolerated, no extra column
    }
    if (p == field || (p < e && *p != ',')) {
      const char* bad = p == field ? field : p;
      const unsigned char c = bad < e ? static_cast<unsigned char>(*bad) : 0;
      Issue why = Issue::kNotANumber;
      if (bad < e && (c < 0x20 || c >= 0x7f) && c != '\t') why = Issue::kBinaryGarbage;
      else if (c == '-') why = Issue::kNegativeValue;
      if (bad == e && last_without_newline) why = Issue::kTruncatedLine;
      skip(why, static_cast<uint32_t>(bad - b + 1),
           "column " + std::to_string(col + 1) + ": " +
               (bad == e ? std::string("empty field") : describe(field, e)) +
               " is not an unsigned integer; line skipped");
      return false;
    }
    if (col < 3) {
      meta_[col] = v;
    } else if (v && nnz < kFio3Bins) {  // longer lines fail the column check below
      line_bins_[nnz] = static_cast<uint32_t>(col - 3);
      line_counts_[nnz] = v;
      ++nnz;
    }
    ++col;
    if (p == e) break;
    ++p;  // past ','
  }
  nnz_ = nnz;
  cols_ = col >= 3 ? col - 3 : 0;
  return true;
}

void FioHistReader::parse_line(const char* b, const char* e, bool last_without_newline) {
  ++line_no_;
  ++src_->lines;
  // A UTF-8 byte-order mark before the first line (an editor's save) is no
  // part of it (docs/input-robustness.md, "Byte-order marks").
  if (line_no_ == 1 && e - b >= 3 && static_cast<unsigned char>(b[0]) == 0xEF &&
      static_cast<unsigned char>(b[1]) == 0xBB && static_cast<unsigned char>(b[2]) == 0xBF)
    b += 3;
  // fio's exact shape first (line_scan.h); anything else goes to
  // parse_fields, which reports what is wrong. Both agree on fio's shape.
  fio_hist::LineFields f;
  f.bins = line_bins_.data();
  f.counts = line_counts_.data();
  if (fast_ && fio_hist::scan_line(b, e, &f)) {
    std::copy(std::begin(f.meta), std::end(f.meta), meta_);
    nnz_ = f.nnz;
    cols_ = f.cols;
  } else if (!parse_fields(b, e, last_without_newline)) {
    return;
  }

  const size_t nbins = cols_;
  if (!bin_columns_) {
    LayoutPtr l = fio_layout_for_columns(nbins);
    if (!l) {
      skip(Issue::kColumnCount, 1,
           std::to_string(nbins) + " bin columns match no fio layout (" + layout_hint() +
               "); line skipped");
      return;
    }
    src_->layout = l;
    bin_columns_ = nbins;
  } else if (nbins != bin_columns_) {
    skip(last_without_newline && nbins < bin_columns_ ? Issue::kTruncatedLine : Issue::kColumnCount,
         1,
         std::to_string(nbins) + " bin columns where this file has " +
             std::to_string(bin_columns_) + " (" + src_->layout->id + "); line skipped");
    return;
  }
  if (meta_[1] > 2) {
    skip(Issue::kBadDirection, 1,
         "ddir " + std::to_string(meta_[1]) + " is not 0, 1 or 2; line skipped");
    return;
  }

  if (meta_[0] > kMaxTimeMs) {
    skip(Issue::kOverflow, 1, time_too_late(meta_[0]));
    return;
  }
  const double t = static_cast<double>(meta_[0]);
  const Dir dir = static_cast<Dir>(meta_[1]);
  const int d = static_cast<int>(meta_[1]);
  // Each clock (epoch ms or ms since the job's start) has its own segments:
  // a line on the other clock is no new job (finish keeps one clock).
  const int base = t >= kEpochThresholdMs ? 1 : 0;
  // Counts beyond kMaxCount, in a line or in its series, are refused before
  // anything is kept (docs/input-robustness.md, "Counts").
  uint64_t sum = 0;
  for (uint32_t i = 0; i < nnz_; ++i) {
    if (line_counts_[i] > kMaxCount - sum) {
      skip(Issue::kOverflow, 1,
           "column " + std::to_string(line_bins_[i] + 4) + ": count " + std::to_string(line_counts_[i]) +
               (sum ? " brings the line's sum past 2^53" : " is above 2^53") + "; line skipped");
      return;
    }
    sum += line_counts_[i];
  }
  // Within one job a direction's timestamps never go back; when they do, the
  // next job of a per_job_logs=0 file has begun.
  bool restart = false;
  if (have_t_[base][d] && t < last_t_[base][d]) restart = true;
  Raw& raw = raw_for(base, segment_[base] + (restart ? 1 : 0), dir);
  if (raw.total > kMaxCount - sum) {
    skip(Issue::kOverflow, 1,
         "the " + std::string(dir_name(dir)) + " counts of this job sum past 2^53 with this line's " +
             std::to_string(sum) + "; line skipped");
    return;
  }
  if (restart) {
    ++segment_[base];
    std::fill(std::begin(have_t_[base]), std::end(have_t_[base]), false);
    src_->diag.add(Issue::kTimeRestart, line_no_, 1,
                   "time_ms " + std::to_string(meta_[0]) + " after " +
                       std::to_string(static_cast<uint64_t>(last_t_[base][d])) + ": job segment " +
                       std::to_string(segment_[base] + 1) + " starts here");
  }
  have_t_[base][d] = true;
  last_t_[base][d] = t;
  clock_.see(base, line_no_);

  raw.total += sum;
  store_window(raw, t, sum);
  ++src_->records;
}

void FioHistReader::store_window(Raw& r, double t, uint64_t sum) {
  if (r.repairing) {
    // older[1] is r[k-2] (empty for k < 2: r[-1] = r[-2] = 0).
    const uint64_t negative = subtract_window(line_bins_.data(), line_counts_.data(), nnz_, r.older[1], &repaired_);
    if (negative && opts_.repair != RepairMode::kForce) {
      Series repaired;  // the windows so far
      repaired.windows = r.windows.take();
      repaired.data = r.bytes.take();
      unrepair(r, repaired);  // not the defect: kept as written from here on
    } else {
      if (negative) r.consistent = false;
      r.negative += negative;
      r.raw_totals.push_back(sum);
      uint64_t total = 0;
      for (size_t i = 0; i < repaired_.n; ++i) total += repaired_.c[i];
      put_window(r, t, repaired_.b.data(), repaired_.c.data(), static_cast<uint32_t>(repaired_.n), total);
      std::swap(r.older[0], r.older[1]);  // r[k-1] becomes the next line's r[k-2]
      SparseWindow& cur = r.older[0];
      cur.room(nnz_);
      std::copy(line_bins_.data(), line_bins_.data() + nnz_, cur.b.data());
      std::copy(line_counts_.data(), line_counts_.data() + nnz_, cur.c.data());
      cur.n = nnz_;
      return;
    }
  }
  put_window(r, t, line_bins_.data(), line_counts_.data(), nnz_, sum);
}

void FioHistReader::put_window(Raw& r, double t, const uint32_t* bins, const uint64_t* counts, uint32_t n,
                               uint64_t total) {
  Window w;
  w.end_ms = t;  // start_ms: set by finish()
  w.total = total;
  fio_hist::append_window(w, bins, counts, n, &r.windows, &r.bytes);
  // fio's last bin holds everything above ~17.05 s (finish() flags it).
  if (n && bins[n - 1] + 1 == bin_columns_) r.last_bin += counts[n - 1];
}

void FioHistReader::unrepair(Raw& r, const Series& d) {
  r.repairing = false;
  r.last_bin = 0;
  r.raw_totals = {};
  r.older[0] = {};
  r.older[1] = {};
  SparseWindow diff, ring[3];  // ring[k % 3]: r[k]; ring[(k + 1) % 3]: r[k-2]
  for (size_t k = 0; k < d.windows.size(); ++k) {
    d.decode(d.windows[k], &diff.b, &diff.c);
    diff.n = diff.b.size();
    SparseWindow& cur = ring[k % 3];
    add_window(diff, ring[(k + 1) % 3], &cur);
    uint64_t total = 0;
    for (size_t i = 0; i < cur.n; ++i) total += cur.c[i];
    put_window(r, d.windows[k].end_ms, cur.b.data(), cur.c.data(), static_cast<uint32_t>(cur.n), total);
  }
}

void FioHistReader::settle(Raw& r) {
  r.s.windows = r.windows.take();
  r.s.data = r.bytes.take();
  if (!r.repairing) return;
  // Judged on the windows exactly as written (their totals), as
  // detect_accumulation_defect would on the whole series (repair.h).
  const RepairVerdict v = judge_accumulation_defect(r.consistent, r.raw_totals, r.s.windows);
  if (opts_.repair == RepairMode::kForce || (v.defect && v.consistent)) {
    r.verdict = v.explain;
    return;
  }
  // Never negative, but not far flatter: kept as written.
  const Series repaired = std::move(r.s);
  unrepair(r, repaired);
  r.s.windows = r.windows.take();
  r.s.data = r.bytes.take();
}

// One file, one clock: the time base most records have (ties: the first
// record's) is the file's; the other clock's lines are skipped and counted
// as kTimeBaseChange. Epoch timestamps that turn relative (or back) are a
// damaged or concatenated log, not a new job.
void FioHistReader::keep_one_time_base() {
  const int drop = keep_fio_clock(clock_, src_, "line(s)");
  if (drop < 0) return;
  raws_.erase(std::remove_if(raws_.begin(), raws_.end(), [drop](const Raw& r) { return r.base == drop; }),
              raws_.end());
  raw_index_.clear();
  for (size_t i = 0; i < raws_.size(); ++i)
    raw_index_[std::make_tuple(raws_[i].base, raws_[i].segment, static_cast<int>(raws_[i].dir))] = i;
}

namespace {

// Median spacing of a series' timestamps: fio's log_hist_msec as observed.
double median_spacing(const std::vector<double>& t) {
  std::vector<double> d;
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i] > t[i - 1]) d.push_back(t[i] - t[i - 1]);
  if (d.empty()) return 0;
  std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

// A window far longer than the logging interval spans a time gap: fio
// flushes a histogram at the first completion at least log_hist_msec after
// the previous flush, so the I/Os of such a window completed within one
// interval after the window's start (all but the one that flushed it).
// Spreading them over the gap would smear them and, for hostile gaps,
// make a query visit every empty quantum in between (docs/time-gaps.md).
// `interval`: the file's logging interval (gap_interval).
void place_gap_windows(Series* s, double interval, Source* src) {
  if (!(interval > 0)) return;
  uint64_t moved = 0;
  double longest = 0, at = 0;
  for (size_t k = 0; k < s->windows.size(); ++k) {
    Window& w = s->windows[k];
    const double l = w.end_ms - w.start_ms;
    if (!(l > 10 * interval)) continue;
    if (l > longest) {
      longest = l;
      at = w.end_ms;
    }
    ++moved;
    // The first window of a relative log starts at the job's start, which a
    // late first flush (ramp, a stalled first I/O) says nothing about: its
    // I/Os are placed in the interval before its end instead.
    if (k == 0) w.start_ms = w.end_ms - interval;
    else w.end_ms = w.start_ms + interval;
  }
  if (moved)
    src->diag.add(Issue::kTimeGap, 0, 0,
                  std::string(dir_name(s->dir)) + " (job " + s->job + "): " + std::to_string(moved) +
                      " window(s) over 10 logging intervals (" + std::to_string(static_cast<uint64_t>(interval)) +
                      " ms) long, the longest " + std::to_string(static_cast<uint64_t>(longest)) +
                      " ms ending at time_ms " + std::to_string(static_cast<uint64_t>(at)) +
                      ": their I/Os placed in one logging interval (after the window's start; for a first window, before its end)");
}

// The file's logging interval for gap detection: the lower median of every
// window length of every series, a relative log's first window (from the
// job's start) included, so even one line per direction gives one.
double gap_interval(const std::vector<std::vector<double>>& times, bool absolute_time) {
  std::vector<double> len;
  for (const std::vector<double>& t : times)
    for (size_t i = 0; i < t.size(); ++i) {
      const double l = i ? t[i] - t[i - 1] : (absolute_time ? 0 : t[0]);
      if (l > 0) len.push_back(l);
    }
  if (len.empty()) return 0;
  const auto mid = len.begin() + static_cast<std::ptrdiff_t>((len.size() - 1) / 2);
  std::nth_element(len.begin(), mid, len.end());
  return *mid;
}

}  // namespace

void FioHistReader::finish() {
  carry_.finish([this](const char* b, const char* e) { parse_line(b, e, true); });
  keep_one_time_base();
  if (src_->records == 0) {
    std::string why;
    if (src_->bytes == 0) {
      why = src_->name + ": empty file (0 bytes); nothing to read";
    } else if (!src_->diag.examples().empty()) {
      const IssueExample& ex = src_->diag.examples().front();
      why = src_->name + ":" + std::to_string(ex.line) + ":" + std::to_string(ex.column) +
            ": not a fio histogram log: " + ex.text + " (" + std::to_string(src_->lines) +
            " lines, none usable)";
    } else {
      why = src_->name + ": no histogram lines (" + std::to_string(src_->lines) + " lines)";
    }
    src_->status = Status::Error(ErrorCode::kUnusableFile, why);
    return;
  }

  // Spacing used for the first window of absolute logs (no job start time).
  double file_spacing = 0;
  std::vector<std::vector<double>> times;
  for (Raw& r : raws_) {
    settle(r);
    std::vector<double>& t = times.emplace_back();
    for (const Window& w : r.s.windows) t.push_back(w.end_ms);
    r.spacing = median_spacing(t);
    file_spacing = std::max(file_spacing, r.spacing);
  }
  const double interval = gap_interval(times, src_->absolute_time);
  times.clear();
  if (file_spacing <= 0) file_spacing = 1000;

  std::sort(raws_.begin(), raws_.end(), [](const Raw& a, const Raw& b) {
    return a.segment != b.segment ? a.segment < b.segment : a.dir < b.dir;
  });
  const int segments = raws_.empty() ? 0 : raws_.back().segment + 1;
  std::vector<uint32_t> pb, mb;
  std::vector<uint64_t> pc, mc;
  for (Raw& r : raws_) {
    Series& raw = r.s;
    std::string job = opts_.job.empty() ? src_->id.job : opts_.job;
    if (job.empty()) job = std::to_string(r.segment + 1);
    else if (segments > 1) job += "#" + std::to_string(r.segment + 1);

    // 1. The client/server defect, judged and repaired by settle().
    const bool repaired = r.repairing;
    if (repaired) {
      src_->diag.add(Issue::kRepaired, 0, 0, std::string(dir_name(r.dir)) + " (job " + job + "): " + r.verdict);
      if (r.negative)
        src_->diag.add(Issue::kRepairInconsistent, 0, 0,
                       std::string(dir_name(r.dir)) + " (job " + job + "): " + std::to_string(r.negative) +
                           " negative bin counts clamped to 0");
    }

    // 2. Windows (t[k-1], t[k]]; repeated timestamps merge into one window.
    std::vector<double> t(raw.windows.size());
    for (size_t k = 0; k < t.size(); ++k) t[k] = raw.windows[k].end_ms;
    const double spacing = r.spacing > 0 ? r.spacing : file_spacing;
    const double first_start = (!src_->absolute_time && t[0] > 0) ? 0 : t[0] - spacing;
    bool dups = false;
    for (size_t k = 1; k < t.size(); ++k) dups |= t[k] == t[k - 1];
    Series s;
    if (!dups) {  // the usual case: keep the encoded bins, set the starts
      s = std::move(raw);
      for (size_t k = 0; k < s.windows.size(); ++k) s.windows[k].start_ms = k ? t[k - 1] : first_start;
    } else {
      for (size_t k = 0; k < t.size(); ++k) {
        raw.decode(raw.windows[k], &pb, &pc);
        if (k && t[k] == t[k - 1]) {
          src_->diag.add(Issue::kDuplicateTimestamp, 0, 0,
                         std::string(dir_name(r.dir)) + ": time_ms " +
                             std::to_string(static_cast<uint64_t>(t[k])) +
                             " repeated; counts added to the window ending there");
          const Window prev = s.windows.back();
          s.decode(prev, &mb, &mc);
          s.windows.pop_back();
          s.data.resize(prev.offset);
          // Merge two ascending sparse lists.
          std::vector<uint32_t> ob;
          std::vector<uint64_t> oc;
          size_t i = 0, j = 0;
          while (i < mb.size() || j < pb.size()) {
            if (j == pb.size() || (i < mb.size() && mb[i] < pb[j])) { ob.push_back(mb[i]); oc.push_back(mc[i++]); }
            else if (i == mb.size() || pb[j] < mb[i]) { ob.push_back(pb[j]); oc.push_back(pc[j++]); }
            else { ob.push_back(mb[i]); oc.push_back(mc[i++] + pc[j++]); }
          }
          s.add_window(prev.start_ms, prev.end_ms, ob.data(), oc.data(), static_cast<uint32_t>(ob.size()));
        } else {
          s.add_window(k ? t[k - 1] : first_start, t[k], pb.data(), pc.data(), static_cast<uint32_t>(pb.size()));
        }
      }
    }
    s.dir = r.dir;
    s.segment = r.segment;
    s.job = job;
    place_gap_windows(&s, interval, src_);
    s.layout = src_->layout;
    s.repaired = repaired;
    s.data.shrink_to_fit();
    s.windows.shrink_to_fit();
    // 3. fio's last bin holds everything above ~17.05 s: flag it (counted
    //    as the windows were stored; merging repeated timestamps adds them).
    s.saturated = r.last_bin;
    if (s.saturated)
      src_->diag.add(Issue::kSaturated, 0, 0,
                     std::string(dir_name(s.dir)) + " (job " + s.job + "): " +
                         std::to_string(s.saturated) +
                         " samples in the last bin; their latency is at least " +
                         std::to_string(static_cast<uint64_t>(src_->layout->lo.back())) + " ns");
    src_->series.push_back(std::move(s));
    r = Raw();  // free the raw copy
  }
  raws_.clear();
}

}  // namespace latscope
