// HdrHistogram interval logs (.hlog) in the registry: sniff, and a Reader
// that turns each interval into a model window (docs/formats-hdr.md).
//
//   Source  <- one .hlog file
//     Series per (tag, histogram configuration); label tag=NAME when tagged
//       windows (start, start + length] in ms: relative to the log's
//       StartTime, or epoch ms when the timestamps are absolute
//       bins: HdrHistogram indexes over a kHdr layout in ns, sized to the
//       highest non-empty index of that configuration in the file
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "formats/hdr/hdr_layout.h"
#include "formats/hdr/hdr_log.h"
#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/layout_budget.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

constexpr int64_t kYearNs = int64_t{365} * 24 * 3600 * 1000000000;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// ns -> ms without rounding whole milliseconds (epoch ns exceed 2^53).
double ms(int64_t ns) {
  const int64_t whole = ns / 1000000;
  return static_cast<double>(whole) + static_cast<double>(ns - whole * 1000000) / 1e6;
}

// Whether s holds a payload marker: ",HISTF", ",HISTI", ",HISTi", ",HISTE"
// or ",DHIST". Searched as "HIST", which no fio log line holds: anchoring on
// the comma made every sniff of a histogram log (lines of commas) stop at
// each of its hundreds of fields, five times over (docs/benchmarks.md,
// "The sniff").
bool has_payload_marker(std::string_view s) {
  for (size_t at = s.find("HIST"); at != std::string_view::npos; at = s.find("HIST", at + 1)) {
    if (at >= 2 && s[at - 1] == 'D' && s[at - 2] == ',') return true;
    if (at >= 1 && s[at - 1] == ',' && at + 4 < s.size()) {
      const char k = s[at + 4];
      if (k == 'F' || k == 'I' || k == 'i' || k == 'E') return true;
    }
  }
  return false;
}

// Markers of HistogramLogWriter's output, any of which decides:
//   #[Histogram log format version 1.3]     #[StartTime: 1441812279.474 ...
//   "StartTimestamp","Interval_Length",...  Tag=A,0.127,1.007,2.769,HISTF...
SniffResult sniff_hdr(const SniffInput& in) {
  SniffResult r{FileFormat::kHdrLog, 0, "HdrHistogram interval log"};
  const std::string_view b = sniffing::body(in);
  const std::string base = sniffing::base_name(in.name);
  const bool named = base.size() > 5 && base.compare(base.size() - 5, 5, ".hlog") == 0;
  for (std::string_view l : sniffing::lines(in, 64)) {
    if (l.substr(0, 30) == "#[Histogram log format version" || l.substr(0, 16) == "\"StartTimestamp\"") {
      r.confidence = 98;
      return r;
    }
    if (l.substr(0, 12) == "#[StartTime:" || l.substr(0, 11) == "#[BaseTime:") r.confidence = std::max(r.confidence, 90);
    const std::string_view head = l.substr(0, 4096);
    if (has_payload_marker(head))
      r.confidence = std::max(r.confidence, (head.substr(0, 4) == "Tag=" || named) ? 97 : 92);
  }
  // An interval line longer than the look-ahead: only the payload marker shows.
  if (!r.confidence && has_payload_marker(b.substr(0, 4096))) r.confidence = 80;
  if (!r.confidence && named && !b.empty()) r.confidence = 40;  // the name promises it; the reader says what is wrong
  return r;
}

// The bins of a window decoded again from its line (FileOptions::reread):
// the line parsed alone gives the interval's payload, as it did when the
// whole file was read (docs/quanta.md, "Memory: the fold by quanta").
class HdrBinsInFile : public BinsElsewhere {
 public:
  HdrBinsInFile(std::shared_ptr<LineReader> file, std::string name) : file_(std::move(file)), name_(std::move(name)) {}

  Status bins(uint64_t at, uint32_t n, uint64_t total, std::vector<uint32_t>* bins,
              std::vector<uint64_t>* counts) const override {
    if (!file_->line(at, &line_))
      return Status::Error(ErrorCode::kUnusableFile, name_ + ": byte " + std::to_string(at) +
                                                         ": cannot be read again for its interval's bins");
    line_ += '\n';
    hdr::LogParser p;
    p.append(line_.data(), line_.size());
    p.finish();
    hdr::Interval iv;
    bool read = p.next(&iv);
    uint64_t sum = 0;
    if (read)
      for (const uint64_t c : iv.hist.count) sum += c;
    if (!read || iv.hist.index.size() != n || sum != total)
      return Status::Error(ErrorCode::kUnusableFile,
                           name_ + ": byte " + std::to_string(at) +
                               ": the line no longer holds the interval read there (the file changed while it was read)");
    bins->assign(iv.hist.index.begin(), iv.hist.index.end());
    counts->assign(iv.hist.count.begin(), iv.hist.count.end());
    return Status::Ok();
  }

 private:
  std::shared_ptr<LineReader> file_;
  std::string name_;
  mutable std::string line_;  // scratch
};

class HdrFormatReader : public Reader {
 public:
  HdrFormatReader(Source src, const FileOptions& opts)
      : src_(std::move(src)),
        unit_given_(opts.hdr_unit_ns > 0 && std::isfinite(opts.hdr_unit_ns)),
        unit_ns_(unit_given_ ? opts.hdr_unit_ns : 1) {
    if (opts.reread) elsewhere_ = std::make_shared<HdrBinsInFile>(opts.reread, src_.name);
    if (opts.reread) hand_on_ = opts.hand_on;
  }

  void append(const char* data, size_t n) override {
    src_.bytes += n;
    // In slices, each drained before the next: the parser decodes every
    // line it is given before the reader takes them, and a page's 16 MiB
    // chunk holds about 30,000 intervals, which held at once took 200 MiB
    // of WebAssembly memory that never shrinks (docs/formats-hdr.md,
    // "Counts kept sparse").
    constexpr size_t kSlice = size_t{64} << 10;
    for (size_t at = 0; at < n; at += kSlice) {
      parser_.append(data + at, std::min(kSlice, n - at));
      drain();
    }
  }

  Source finish() override {
    parser_.finish();
    drain();
    src_.format = FileFormat::kHdrLog;
    src_.lines = parser_.lines();
    src_.diag.merge(parser_.diagnostics());
    if (!parser_.status().ok()) {
      src_.status = parser_.status();
      return std::move(src_);
    }
    if (src_.records == 0) {
      src_.status = Status::Error(ErrorCode::kUnusableFile, "no HdrHistogram interval with a usable time range");
      return std::move(src_);
    }
    build_layouts();
    src_.absolute_time = absolute_;
    for (Pending& p : series_) {
      pass_on(p);
      if (elsewhere_) p.s.elsewhere = elsewhere_;
      src_.series.push_back(std::move(p.s));
    }
    if (hand_on_) hand_on_->finish(&src_);
    return std::move(src_);
  }

 private:
  struct Pending {
    Series s;
    std::string key;       // config key
    int64_t last_end_ns = 0;
    bool any = false;
    uint64_t total = 0;    // counts kept so far (at most kMaxCount)
    // FileOptions::reread: the last window's bins, which a later interval
    // ending before it merges into (add).
    std::vector<uint32_t> last_bins;
    std::vector<uint64_t> last_counts;
  };

  // A window of p: its bins kept, or with FileOptions::reread where its line
  // starts (Series::line_at), 8 bytes instead of its bins.
  void window(Pending& p, double start_ms, double end_ms, const uint32_t* bins, const uint64_t* counts, uint32_t n,
              uint64_t sum, uint64_t byte_at) {
    pass_on(p);  // the window before this one is final
    if (!elsewhere_ || byte_at == Series::kBinsInData) {
      p.s.add_window(start_ms, end_ms, bins, counts, n);
      if (elsewhere_) p.s.line_at.push_back(Series::kBinsInData);
      return;
    }
    Window w;
    w.start_ms = start_ms;
    w.end_ms = end_ms;
    w.total = sum;
    w.offset = static_cast<uint32_t>(p.s.data.size());
    w.n = n;
    p.s.windows.push_back(w);
    p.s.line_at.push_back(byte_at);
    p.last_bins.assign(bins, bins + n);
    p.last_counts.assign(counts, counts + n);
  }

  // FileOptions::hand_on: p's window, with its bins, handed on and not kept
  // (model.h WindowSink). Only when the next one comes (or at the end): an
  // interval ending before a window merges into it (add).
  void pass_on(Pending& p) {
    if (!hand_on_ || p.s.windows.empty()) return;
    const size_t index = static_cast<size_t>(&p - series_.data());
    // One window is pending at a time (this is called before each new one):
    // its bins are last_bins, or in data when counts were merged into it.
    const Window& w = p.s.windows.back();
    const uint64_t at = p.s.line_at.back();
    if (at == Series::kBinsInData) {
      p.s.decode(w, &passed_bins_, &passed_counts_);
      hand_on_->window(index, w, at, passed_bins_.data(), passed_counts_.data());
    } else {
      hand_on_->window(index, w, at, p.last_bins.data(), p.last_counts.data());
    }
    p.s.windows.clear();
    p.s.line_at.clear();
  }

  void origin(const hdr::Interval& iv) {
    if (origin_set_) return;
    origin_set_ = true;
    const hdr::LogHeader& h = parser_.header();
    writer_unit(h, iv.line);
    switch (parser_.time_base()) {
      case hdr::TimeBase::kRelative: origin_ns_ = iv.start_time_ns; break;
      case hdr::TimeBase::kBaseTime:
        if (h.has_start_time) origin_ns_ = iv.start_time_ns;
        else absolute_ = true;
        break;
      default:
        // Absolute (Java: base 0). Epoch-looking values stay epoch ms; small
        // ones (a log without any header) are read as written.
        absolute_ = iv.abs_start_ns() >= kYearNs;
        break;
    }
  }

  // HdrHistogram values carry no unit and ns is the default, but YCSB
  // records microseconds (OneMeasurementHdrHistogram: "measure(int
  // latencyInMicros)"), and its logs say so by the comment it writes first,
  // "#[Logging for: READ]": read as ns, its latencies were 1000 times too
  // small (docs/formats-hdr.md, "Units"). Decided before the first
  // interval, whose layout the unit scales; --hdr-unit wins.
  void writer_unit(const hdr::LogHeader& h, uint64_t line) {
    if (unit_given_) return;
    for (const std::string& c : h.comments) {
      if (c.rfind("#[Logging for: ", 0) != 0) continue;
      unit_ns_ = 1000;
      src_.diag.add(Issue::kHdrUnitFromWriter, line, 0,
                    "\"" + c + "\": a YCSB log, whose values are microseconds: read as us (--hdr-unit sets another)");
      return;
    }
  }

  void drain() {
    hdr::Interval iv;
    while (parser_.next(&iv)) add(iv);
  }

  void add(const hdr::Interval& iv) {
    origin(iv);
    if (iv.length_ns <= 0) {
      src_.diag.add(Issue::kHdrMalformedLine, iv.line, 0,
                    "interval length " + hdr::format_decimal_seconds(iv.length_ns, 3) + " s is not positive: skipped");
      return;
    }
    int64_t start_ns = 0, end_ns = 0;
    if (__builtin_sub_overflow(iv.abs_start_ns(), origin_ns_, &start_ns) ||
        __builtin_add_overflow(start_ns, iv.length_ns, &end_ns)) {
      src_.diag.add(Issue::kHdrMalformedLine, iv.line, 0, "interval time out of range: skipped");
      return;
    }
    // Counts above 2^53, in an interval or in its series, are refused as in
    // fio's logs (model.h kMaxCount, docs/input-robustness.md "Counts"):
    // a double no longer holds them exactly and totals wrapped.
    uint64_t sum = 0;
    for (uint64_t c : iv.hist.count) {
      if (c > kMaxCount - sum) {
        src_.diag.add(Issue::kOverflow, iv.line, 0, "the interval's counts sum past 2^53: interval skipped");
        return;
      }
      sum += c;
    }
    const std::string key = hdr::config_key(iv.hist.config);
    if (!fits_layouts(iv, key)) return;
    configs_.emplace(key, iv.hist.config);
    Pending& p = series_for(iv.tag, key);
    if (sum > kMaxCount - p.total) {
      src_.diag.add(Issue::kOverflow, iv.line, 0, "the series' counts would sum past 2^53: interval skipped");
      return;
    }
    p.total += sum;
    grow_layout(iv, key);
    // The payload's non-zero counts are the window's bins as they are
    // (fits_layouts has grown the layout to hold them).
    const hdr::Histogram& h = iv.hist;
    const uint32_t* bins = h.index.data();
    const uint64_t* counts = h.count.data();
    const auto n = static_cast<uint32_t>(h.index.size());
    ++src_.records;
    if (!p.any || start_ns >= p.last_end_ns) {
      window(p, ms(start_ns), ms(end_ns), bins, counts, n, sum, iv.byte_at);
      p.last_end_ns = end_ns;
      p.any = true;
      return;
    }
    if (end_ns > p.last_end_ns) {  // overlaps the previous window: keep its counts, start at that window's end
      src_.diag.add(Issue::kHdrTimeBackwards, iv.line, 0,
                    "overlaps the previous interval by " + hdr::format_decimal_seconds(p.last_end_ns - start_ns, 3) +
                        " s: window starts at the previous end");
      window(p, ms(p.last_end_ns), ms(end_ns), bins, counts, n, sum, iv.byte_at);
      p.last_end_ns = end_ns;
      return;
    }
    // Entirely before the previous window's end: its counts join that window.
    src_.diag.add(Issue::kHdrTimeBackwards, iv.line, 0, "ends before the previous interval: counts merged into it");
    const Window last = p.s.windows.back();
    std::vector<uint32_t> b;
    std::vector<uint64_t> c;
    if (elsewhere_ && p.s.line_at.back() != Series::kBinsInData) {
      b = p.last_bins;
      c = p.last_counts;
    } else {
      p.s.decode(last, &b, &c);
    }
    std::map<uint32_t, uint64_t> merged;
    for (size_t i = 0; i < b.size(); ++i) merged[b[i]] += c[i];
    for (uint32_t i = 0; i < n; ++i) merged[bins[i]] += counts[i];
    p.s.windows.pop_back();
    if (elsewhere_) p.s.line_at.pop_back();
    p.s.data.resize(last.offset);
    b.clear();
    c.clear();
    for (const auto& kv : merged) {
      b.push_back(kv.first);
      c.push_back(kv.second);
    }
    window(p, last.start_ms, last.end_ms, b.data(), c.data(), static_cast<uint32_t>(b.size()), 0, Series::kBinsInData);
  }

  // Whether the layout of iv's configuration, grown to hold iv's highest
  // index, stays within range: bucket edges within kMaxEdgeNs (a
  // DoubleHistogram's value ratio may put them past any double), and the
  // file's layouts within kMaxLayoutBins in all (a 3 KB log of 40
  // 5-digit configurations asked for 5 GB; docs/input-robustness.md,
  // "Layouts"). An interval that does not fit is skipped and counted.
  bool fits_layouts(const hdr::Interval& iv, const std::string& key) {
    const auto held = max_index_.find(key);
    const uint64_t have = held == max_index_.end() ? 0 : held->second + 1;
    const uint64_t want = std::max<uint64_t>(iv.hist.length(), 1);
    if (want <= have) return true;
    if (!(hdr::upper_edge_ns(iv.hist.config, unit_ns_, static_cast<int64_t>(want - 1)) <= hdr::kMaxEdgeNs)) {
      src_.diag.add(Issue::kHdrBadPayload, iv.line, 0,
                    "bucket " + std::to_string(want - 1) + " ends past 1e30 ns (the value ratio, " +
                        number(iv.hist.config.ratio) + ", times the unit is too large): interval skipped");
      return false;
    }
    if (want - have > kMaxLayoutBins - layout_bins_) {
      src_.diag.add(Issue::kLayoutBudget, iv.line, 0,
                    "configuration " + key + " would need " + with_commas(want) + " bins, and the file's layouts " +
                        with_commas(layout_bins_ - have + want) + " in all, past the limit of " +
                        with_commas(kMaxLayoutBins) +
                        " (docs/input-robustness.md, \"Layouts\"): interval skipped; a log per configuration, or "
                        "fewer significant digits, keeps it");
      return false;
    }
    return true;
  }

  // Grows the layout of key to hold iv (after fits_layouts).
  void grow_layout(const hdr::Interval& iv, const std::string& key) {
    const uint64_t want = std::max<uint64_t>(iv.hist.length(), 1);
    const auto held = max_index_.find(key);
    const uint64_t have = held == max_index_.end() ? 0 : held->second + 1;
    if (want <= have) return;
    layout_bins_ += want - have;
    max_index_[key] = want - 1;
  }

  // Found by a hash of (configuration, tag): a log of 100,000 tags was
  // 100,000 linear scans per interval (minutes; one series per tag and
  // configuration: docs/formats-hdr.md "Model").
  Pending& series_for(const std::string& tag, const std::string& key) {
    std::string id = key;
    id += '\0';
    id += tag;
    const auto found = index_.find(id);
    if (found != index_.end()) return series_[found->second];
    index_.emplace(std::move(id), series_.size());
    series_.emplace_back();
    Pending& p = series_.back();
    p.key = key;
    p.s.labels.set("tag", tag);
    // HdrHistogram logs have no I/O direction. Tags named like one (fio data
    // logged as Tag=read / Tag=write) say it; otherwise the label says so
    // rather than letting the model's default claim "read".
    if (tag == "read" || tag == "write" || tag == "trim") {
      p.s.dir = tag == "read" ? Dir::kRead : tag == "write" ? Dir::kWrite : Dir::kTrim;
      p.s.labels.set("dir", tag);
    } else {
      p.s.labels.set("dir", "unknown");
    }
    return p;
  }

  // One layout per configuration, sized to the highest non-empty index any
  // interval of that configuration uses (never to the header's highest value).
  void build_layouts() {
    std::map<std::string, LayoutPtr> made;
    for (auto& kv : configs_)
      made[kv.first] = hdr::make_layout(kv.second, unit_ns_, static_cast<size_t>(max_index_[kv.first]) + 1);
    for (Pending& p : series_) p.s.layout = made[p.key];
    if (made.size() == 1) src_.layout = made.begin()->second;
  }

  Source src_;
  bool unit_given_ = false;  // FileOptions::hdr_unit_ns set: no writer's unit is taken
  double unit_ns_ = 1;
  hdr::LogParser parser_;
  bool origin_set_ = false;
  bool absolute_ = false;
  int64_t origin_ns_ = 0;
  std::shared_ptr<const BinsElsewhere> elsewhere_;  // FileOptions::reread
  std::vector<Pending> series_;
  std::shared_ptr<WindowSink> hand_on_;
  std::vector<uint32_t> passed_bins_;
  std::vector<uint64_t> passed_counts_;
  std::unordered_map<std::string, size_t> index_;  // (configuration, tag) -> series_ index
  std::map<std::string, hdr::Config> configs_;
  std::map<std::string, uint64_t> max_index_;  // config key -> highest index its layout holds
  uint64_t layout_bins_ = 0;                     // the file's layouts' bins: max_index_ + 1 summed
};

std::unique_ptr<Reader> create_hdr(Source src, const FileOptions& opts) {
  return std::make_unique<HdrFormatReader>(std::move(src), opts);
}

}  // namespace

FormatEntry hdr_log_format() { return {FileFormat::kHdrLog, &sniff_hdr, &create_hdr}; }

}  // namespace latscope
