#include "formats/fio_hist/fio_hist_reader.h"

#include <algorithm>
#include <cstring>

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

FioHistReader::FioHistReader(Source* src, const FileOptions& opts) : src_(src), opts_(opts) {
  src_->format = FileFormat::kFioHist;
  if (opts.fio_version || opts.coarseness >= 0) {
    src_->layout = fio_layout(opts.fio_version ? opts.fio_version : 3, std::max(0, opts.coarseness));
    if (src_->layout) bin_columns_ = src_->layout->size();
  }
  line_bins_.reserve(kFio3Bins);
  line_counts_.reserve(kFio3Bins);
}

void FioHistReader::append(const char* data, size_t n) {
  src_->bytes += n;
  const char* p = data;
  const char* end = data + n;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (!nl) {
      // Incomplete line: keep it for the next call (bounded: see kMaxLine).
      if (!discarding_) {
        partial_.append(p, static_cast<size_t>(end - p));
        if (partial_.size() > kMaxLine) {
          ++line_no_;
          skip(Issue::kBinaryGarbage, 1, "line longer than 1 MiB (not a text log?)");
          partial_.clear();
          discarding_ = true;
        }
      }
      return;
    }
    if (discarding_) {
      discarding_ = false;  // the over-long line ends here; already counted
    } else if (!partial_.empty()) {
      partial_.append(p, static_cast<size_t>(nl - p));
      if (partial_.size() > kMaxLine) {
        ++line_no_;
        skip(Issue::kBinaryGarbage, 1, "line longer than 1 MiB (not a text log?)");
      } else {
        parse_line(partial_.data(), partial_.data() + partial_.size(), false);
      }
      partial_.clear();
    } else {
      parse_line(p, nl, false);
    }
    p = nl + 1;
  }
}

void FioHistReader::skip(Issue issue, uint32_t column, const std::string& what) {
  src_->diag.add(issue, line_no_, column, what);
}

FioHistReader::Raw& FioHistReader::raw_for(int segment, Dir dir) {
  for (auto& r : raws_)
    if (r.segment == segment && r.dir == dir) return r;
  raws_.emplace_back();
  raws_.back().segment = segment;
  raws_.back().dir = dir;
  return raws_.back();
}

void FioHistReader::parse_line(const char* b, const char* e, bool last_without_newline) {
  ++line_no_;
  ++src_->lines;
  if (e > b && e[-1] == '\r') {
    --e;
    src_->diag.add(Issue::kCarriageReturn, line_no_, static_cast<uint32_t>(e - b + 1),
                   "carriage return before the newline ignored");
  }
  const char* q = b;
  while (q < e && (*q == ' ' || *q == '\t')) ++q;
  if (q == e) {
    src_->diag.add(Issue::kEmptyLine, line_no_, 1, "blank line ignored");
    return;
  }

  // Fields: unsigned decimal integers separated by ',' with optional blanks.
  uint64_t meta[3] = {0, 0, 0};
  size_t col = 0;
  line_bins_.clear();
  line_counts_.clear();
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
          return;
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
      return;
    }
    if (col < 3) {
      meta[col] = v;
    } else if (v) {
      line_bins_.push_back(static_cast<uint32_t>(col - 3));
      line_counts_.push_back(v);
    }
    ++col;
    if (p == e) break;
    ++p;  // past ','
  }

  const size_t nbins = col >= 3 ? col - 3 : 0;
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
  if (meta[1] > 2) {
    skip(Issue::kBadDirection, 1,
         "ddir " + std::to_string(meta[1]) + " is not 0, 1 or 2; line skipped");
    return;
  }

  const double t = static_cast<double>(meta[0]);
  const Dir dir = static_cast<Dir>(meta[1]);
  const int d = static_cast<int>(meta[1]);
  if (first_record_) {
    src_->absolute_time = t >= kEpochThresholdMs;
    first_record_ = false;
  }
  // Within one job a direction's timestamps never go back; when they do, the
  // next job of a per_job_logs=0 file has begun.
  if (have_t_[d] && t < last_t_[d]) {
    ++segment_;
    std::fill(std::begin(have_t_), std::end(have_t_), false);
    src_->diag.add(Issue::kTimeRestart, line_no_, 1,
                   "time_ms " + std::to_string(meta[0]) + " after " +
                       std::to_string(static_cast<uint64_t>(last_t_[d])) + ": job segment " +
                       std::to_string(segment_ + 1) + " starts here");
  }
  have_t_[d] = true;
  last_t_[d] = t;

  Raw& r = raw_for(segment_, dir);
  r.t.push_back(t);
  r.first.push_back(static_cast<uint32_t>(r.bins.size()));
  r.n.push_back(static_cast<uint32_t>(line_bins_.size()));
  r.bins.insert(r.bins.end(), line_bins_.begin(), line_bins_.end());
  r.counts.insert(r.counts.end(), line_counts_.begin(), line_counts_.end());
  ++src_->records;
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

}  // namespace

void FioHistReader::finish() {
  if (discarding_) {
    partial_.clear();
  } else if (!partial_.empty()) {
    parse_line(partial_.data(), partial_.data() + partial_.size(), true);
    partial_.clear();
  }
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

  const size_t nb = src_->layout->size();
  // Spacing used for the first window of absolute logs (no job start time).
  double file_spacing = 0;
  for (const Raw& r : raws_) file_spacing = std::max(file_spacing, median_spacing(r.t));
  if (file_spacing <= 0) file_spacing = 1000;

  std::sort(raws_.begin(), raws_.end(), [](const Raw& a, const Raw& b) {
    return a.segment != b.segment ? a.segment < b.segment : a.dir < b.dir;
  });
  const int segments = raws_.empty() ? 0 : raws_.back().segment + 1;
  std::vector<uint64_t> scratch(nb);
  for (Raw& r : raws_) {
    Series s;
    s.dir = r.dir;
    s.segment = r.segment;
    s.layout = src_->layout;
    const std::string& job = opts_.job.empty() ? src_->id.job : opts_.job;
    if (job.empty()) s.job = std::to_string(r.segment + 1);
    else s.job = segments > 1 ? job + "#" + std::to_string(r.segment + 1) : job;

    // 1. The client/server defect, on the windows exactly as written.
    const bool client_name = !src_->id.host.empty();
    if (opts_.repair != RepairMode::kOff) {
      RepairVerdict v = detect_accumulation_defect(r, nb);
      const bool do_repair =
          opts_.repair == RepairMode::kForce || (v.defect && v.consistent && client_name);
      if (do_repair) {
        uint64_t clamped = 0;
        repair_accumulation_defect(&r, nb, &clamped);
        s.repaired = true;
        src_->diag.add(Issue::kRepaired, 0, 0,
                       std::string(dir_name(r.dir)) + " (job " + s.job + "): " + v.explain);
        if (clamped)
          src_->diag.add(Issue::kRepairInconsistent, 0, 0,
                         std::string(dir_name(r.dir)) + " (job " + s.job + "): " +
                             std::to_string(clamped) + " negative bin counts clamped to 0");
      }
    }

    // 2. Windows (t[k-1], t[k]]; repeated timestamps merge into one window.
    const double spacing = median_spacing(r.t) > 0 ? median_spacing(r.t) : file_spacing;
    for (size_t k = 0; k < r.t.size(); ++k) {
      const bool dup = !s.windows.empty() && r.t[k] == s.windows.back().end_ms;
      if (dup) {
        src_->diag.add(Issue::kDuplicateTimestamp, 0, 0,
                       std::string(dir_name(r.dir)) + ": time_ms " +
                           std::to_string(static_cast<uint64_t>(r.t[k])) +
                           " repeated; counts added to the window ending there");
        // Merge sparse bins of this record into the previous window.
        Window& w = s.windows.back();
        for (uint32_t i = 0; i < w.n; ++i) scratch[s.bins[w.first + i]] += s.counts[w.first + i];
        for (uint32_t i = 0; i < r.n[k]; ++i) scratch[r.bins[r.first[k] + i]] += r.counts[r.first[k] + i];
        s.bins.resize(w.first);
        s.counts.resize(w.first);
        w.n = 0;
        for (size_t b = 0; b < nb; ++b)
          if (scratch[b]) {
            s.bins.push_back(static_cast<uint32_t>(b));
            s.counts.push_back(scratch[b]);
            scratch[b] = 0;
            ++w.n;
          }
        continue;
      }
      Window w;
      w.end_ms = r.t[k];
      if (s.windows.empty()) {
        w.start_ms = (!src_->absolute_time && r.t[k] > 0) ? 0 : r.t[k] - spacing;
      } else {
        w.start_ms = s.windows.back().end_ms;
      }
      w.first = static_cast<uint32_t>(s.bins.size());
      w.n = r.n[k];
      s.bins.insert(s.bins.end(), r.bins.begin() + r.first[k], r.bins.begin() + r.first[k] + r.n[k]);
      s.counts.insert(s.counts.end(), r.counts.begin() + r.first[k],
                      r.counts.begin() + r.first[k] + r.n[k]);
      s.windows.push_back(w);
    }
    // 3. fio's last bin holds everything above ~17.05 s: flag it.
    for (size_t i = 0; i < s.bins.size(); ++i)
      if (s.bins[i] + 1 == nb) s.saturated += s.counts[i];
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
