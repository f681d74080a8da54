#include "latscope/hdr_processor.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <map>

#include "formats/hdr/hdr_decode.h"
#include "formats/hdr/hdr_log.h"
#include "hdr_processor/java_format.h"
#include "hdr_processor/java_histogram.h"

namespace latscope::hdr_processor {

namespace {

constexpr size_t kLineHeadBytes = size_t{1} << 20;

std::string line_prefix(uint64_t line) { return "line " + std::to_string(line) + ": "; }

// "#[<title> between 0.000 and <Infinite> seconds (relative to StartTime)]"
std::string time_range_header(const ProcessorOptions& o, const std::string& title) {
  std::string s = "#[" + title + " between " + java_fixed(o.range_start_sec, 3) + " and";
  s += o.range_end_sec < DBL_MAX ? " " + java_fixed(o.range_end_sec, 3) : std::string(" <Infinite>");
  s += " seconds (relative to StartTime)]\n";
  return s;
}

double ns_to_java_double(int64_t ns) {
  const uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", mag / 1000000000U,
                mag % 1000000000U);
  return std::strtod(buf, nullptr);
}

struct Accumulated {
  bool is_double = false;
  JHistogram regular;
  JDoubleHistogram dbl;
};

}  // namespace

struct LogProcessor::Impl {
  explicit Impl(const ProcessorOptions& opts);
  void append(const char* data, size_t n);
  ProcessorResult finish();
  void scan_lines(const char* data, size_t n);
  void drain();
  void process(hdr::Interval&& iv);
  void output_start_time(double start_time_sec);

  ProcessorOptions o_;
  hdr::LogParser parser_;
  ProcessorResult r_;
  bool halted_ = false;
  // DoubleHistogram lines: the DHIST header's highest-to-lowest ratio by line
  // (the decoder does not keep it; Java's accumulator copies it).
  std::map<uint64_t, int64_t> dhist_ratio_;
  std::string line_head_;  // the current line's first bytes (for the DHIST ratio)
  uint64_t line_no_ = 0;
  bool line_long_ = false;
  // Blank lines, as Java's Scanner (delimiters [ ,\r\n], one skipped per
  // token) meets them: one "" line between two lines is stepped over; a second
  // one in a row, or a "\r" line, ends the reading there; a single "" line
  // at the very end makes Java fail ("line appears to be malformed") before it
  // writes the distribution.
  uint64_t blank_run_ = 0;
  uint64_t blank_stop_line_ = 0;
  bool ends_with_single_blank_ = false;
  uint64_t stop_line() const {
    const uint64_t a = parser_.java_stop_line();
    if (a == 0) return blank_stop_line_;
    return blank_stop_line_ == 0 ? a : std::min(a, blank_stop_line_);
  }
  // Processing state (HistogramLogProcessor.run()).
  std::unique_ptr<Accumulated> acc_;
  double first_start_time_ = 0.0;
  bool legend_written_ = false;
  bool null_tag_found_ = false;
  std::vector<std::string> tags_;
};

bool parse_processor_args(const std::vector<std::string>& args, ProcessorOptions* o, std::string* input,
                          std::string* output, bool* help, std::string* err) {
  *help = false;
  input->clear();
  output->clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      *help = true;
      return true;
    }
    if (a == "-csv") {
      o->csv = true;
      continue;
    }
    if (a == "-v" || a == "-alltags") continue;  // Java: -v prints stack traces; -alltags does nothing in 2.1.11
    if (a == "-listtags") {
      o->list_tags = true;
      continue;
    }
    const bool takes_value = a == "-i" || a == "-o" || a == "-tag" || a == "-start" || a == "-end" ||
                             a == "-mwp" || a == "-mwpl" || a == "-percentilesOutputTicksPerHalf" ||
                             a == "-outputValueUnitRatio" || a == "-correctLogWithKnownCoordinatedOmission";
    if (!takes_value) {
      *err = "invalid argument '" + a + "'";
      return false;
    }
    if (i + 1 >= args.size()) {
      *err = a + " needs a value";
      return false;
    }
    const std::string& v = args[++i];
    if (a == "-i") {
      *input = v;
    } else if (a == "-o") {
      *output = v;
      o->has_output = true;
    } else if (a == "-tag") {
      o->tag = v;
      o->has_tag = true;
    } else if (a == "-percentilesOutputTicksPerHalf" || a == "-mwpl") {
      int32_t t = 0;
      if (!java_parse_int(v, &t)) {
        *err = a;
        *err += ": '" + v + "' is not an integer";
        return false;
      }
      if (a == "-mwpl") {
        o->mw_length_ms = t;
        o->moving_window = true;
      } else if (t <= 0) {
        *err = a;
        *err += " must be at least 1 (Java loops forever or fails with " + v + ")";
        return false;
      } else {
        o->ticks_per_half = t;
      }
    } else {
      double d = 0;
      if (!java_parse_double(v, &d)) {
        *err = a;
        *err += ": '" + v + "' is not a number";
        return false;
      }
      if (a == "-start") o->range_start_sec = d;
      if (a == "-end") o->range_end_sec = d;
      if (a == "-outputValueUnitRatio") o->unit_ratio = d;
      if (a == "-correctLogWithKnownCoordinatedOmission") o->co_interval = d;
      if (a == "-mwp") {
        o->mw_percentile = d;
        o->moving_window = true;
      }
    }
  }
  return true;
}

LogProcessor::LogProcessor(const ProcessorOptions& opts) : impl_(std::make_unique<Impl>(opts)) {}
LogProcessor::~LogProcessor() = default;
void LogProcessor::append(const char* data, size_t n) { impl_->append(data, n); }
ProcessorResult LogProcessor::finish() { return impl_->finish(); }

LogProcessor::Impl::Impl(const ProcessorOptions& opts)
    : o_(opts), parser_([] {
        hdr::LogOptions lo;
        lo.detect_end_timestamps = false;  // Java reads the second column as a length, always
        return lo;
      }()) {
  if (o_.has_output && !o_.list_tags) {
    r_.interval_log = time_range_header(o_, "Interval percentile log");
    r_.hgrm = time_range_header(o_, "Overall percentile distribution");
    if (o_.moving_window) {
      r_.mwp = time_range_header(o_, "Moving window log for " + java_double_to_string(o_.mw_percentile) +
                                         " percentile");
    }
  }
}

void LogProcessor::Impl::scan_lines(const char* data, size_t n) {
  size_t i = 0;
  while (i < n) {
    const char* nl = static_cast<const char*>(std::memchr(data + i, '\n', n - i));
    const size_t end = nl ? static_cast<size_t>(nl - data) : n;
    if (!line_long_) {
      const size_t take = std::min(end - i, kLineHeadBytes - std::min(kLineHeadBytes, line_head_.size()));
      line_head_.append(data + i, take);
      if (line_head_.size() >= kLineHeadBytes) line_long_ = true;
    }
    if (!nl) {
      ends_with_single_blank_ = false;
      return;
    }
    ++line_no_;
    const bool empty = line_head_.empty();
    if (empty || line_head_ == "\r") {
      if ((!empty && blank_run_ == 0) || blank_run_ == 1) {
        if (blank_stop_line_ == 0) blank_stop_line_ = line_no_;
      }
      ++blank_run_;
      ends_with_single_blank_ = empty && blank_run_ == 1;
    } else {
      blank_run_ = 0;
      ends_with_single_blank_ = false;
    }
    const size_t d = line_head_.find("DHIST");
    if (d != std::string::npos) {
      const size_t sep = line_head_.find_last_of(", ", d);
      const size_t start = sep == std::string::npos ? 0 : sep + 1;
      std::vector<uint8_t> bytes;
      std::string err;
      if (line_head_.size() >= start + 24 && hdr::decode_base64(std::string_view(line_head_).substr(start, 24), &bytes, &err) &&
          bytes.size() >= 16) {
        uint64_t v = 0;
        for (int k = 8; k < 16; ++k) v = (v << 8) | bytes[static_cast<size_t>(k)];
        dhist_ratio_[line_no_] = static_cast<int64_t>(v);
      }
    }
    line_head_.clear();
    line_long_ = false;
    i = end + 1;
  }
}

void LogProcessor::Impl::append(const char* data, size_t n) {
  if (halted_) return;
  scan_lines(data, n);
  parser_.append(data, n);
  drain();
}

void LogProcessor::Impl::drain() {
  hdr::Interval iv;
  while (!halted_ && parser_.next(&iv)) process(std::move(iv));
}

void LogProcessor::Impl::output_start_time(double start_time_sec) {
  const std::string line = "#[StartTime: " + java_fixed(start_time_sec, 3) + " (seconds since epoch), " +
                           java_date_utc(java_d2l(start_time_sec * 1000)) + "]\n";
  r_.hgrm += line;
  if (o_.has_output) r_.interval_log += line;
}

void LogProcessor::Impl::process(hdr::Interval&& iv) {
  const uint64_t stop = stop_line();
  if (stop != 0 && iv.line >= stop) {
    halted_ = true;
    r_.warnings.push_back(line_prefix(stop) + "Java's HistogramLogReader stops reading at this line; so does latscope hdr");
    return;
  }
  // HistogramLogReader.onHistogram: Java's double arithmetic.
  const double ts = ns_to_java_double(iv.timestamp_ns);
  const double length = ns_to_java_double(iv.second_ns);
  const double base = ns_to_java_double(iv.base_ns);
  const double start_time = ns_to_java_double(iv.start_time_ns);
  const double abs_start = ts + base;
  const double offset_start = abs_start - start_time;
  const double abs_end = abs_start + length;
  if (offset_start < o_.range_start_sec) return;
  if (offset_start > o_.range_end_sec) {
    halted_ = true;  // Java stops at the first line past -end
    return;
  }
  const int64_t end_ms = java_d2l(abs_end * 1000.0);
  bool has_tag = !iv.tag.empty();

  // Decode as Java would (its constructors' checks included).
  const bool is_double = iv.hist.config.is_double;
  JHistogram reg;
  JDoubleHistogram dbl;
  std::string err;
  if (is_double) {
    const auto it = dhist_ratio_.find(iv.line);
    int64_t configured = 0;
    if (it != dhist_ratio_.end()) {
      configured = it->second;
    } else {  // not found (cannot happen for a well-formed line): the smallest ratio with this range
      const int64_t internal = (iv.hist.config.highest + 1) / std::max<int64_t>(1, JHistogram(1, 2, iv.hist.config.digits).sub_bucket_half_count());
      configured = std::max<int64_t>(1, internal / 4);
    }
    dbl = JDoubleHistogram::decoded(iv.hist, configured);
    if (!dbl.ok()) err = dbl.error();
    dbl.end_timestamp_ms = end_ms;
  } else {
    reg = JHistogram::decoded(iv.hist);
    if (!reg.ok()) err = reg.error();
    reg.end_timestamp_ms = end_ms;
    reg.start_timestamp_ms = java_d2l(abs_start * 1000.0);
  }
  if (!err.empty()) {
    halted_ = true;
    r_.error = line_prefix(iv.line) + "Java's HistogramLogProcessor fails here (\"line appears to be malformed\"): " + err;
    return;
  }
  if (o_.co_interval > 0.0) {
    // copyCorrectedForCoordinatedOmission; the copy carries no tag.
    if (is_double) {
      dbl = dbl.copy_corrected(o_.co_interval);
      if (!dbl.ok()) err = dbl.error();
    } else {
      const int64_t expected = java_d2l(o_.co_interval);
      if (expected > 0) {
        reg = reg.copy_corrected(expected);
        if (!reg.ok()) err = reg.error();
      }
    }
    has_tag = false;
    if (!err.empty()) {
      halted_ = true;
      r_.error = line_prefix(iv.line) + "coordinated-omission correction fails: " + err;
      return;
    }
  }

  if (o_.list_tags) {
    if (has_tag) {
      if (std::find(tags_.begin(), tags_.end(), iv.tag) == tags_.end()) tags_.push_back(iv.tag);
    } else {
      null_tag_found_ = true;
    }
    return;
  }
  if (o_.has_tag ? (!has_tag || iv.tag != o_.tag) : has_tag) return;

  ++r_.intervals;
  if (!acc_) {
    acc_ = std::make_unique<Accumulated>();
    acc_->is_double = is_double;
    if (is_double) {
      acc_->dbl = dbl.empty_copy();
      acc_->dbl.set_auto_resize(true);
    } else {
      acc_->regular = reg.empty_copy();
      acc_->regular.reset();
      acc_->regular.set_auto_resize(true);
    }
  }
  Accumulated& a = *acc_;
  if (is_double != a.is_double) {
    halted_ = true;
    r_.error = line_prefix(iv.line) +
               (is_double ? "a DoubleHistogram line in a log of Histograms (Java stops with IllegalStateException)"
                          : "a Histogram line in a log of DoubleHistograms (Java stops with IllegalStateException)");
    return;
  }
  const bool added = is_double ? a.dbl.add(dbl) : a.regular.add(reg);
  if (!added) {
    halted_ = true;
    r_.error = line_prefix(iv.line) + "cannot add the interval: " + (is_double ? a.dbl.error() : a.regular.error());
    return;
  }
  if (first_start_time_ == 0.0 && start_time != 0.0) {
    first_start_time_ = start_time;
    output_start_time(first_start_time_);
  }
  if (o_.has_output) {
    std::string& out = r_.interval_log;
    if (!legend_written_) {
      legend_written_ = true;
      out += o_.csv ? "\"Timestamp\",\"Int_Count\",\"Int_50%\",\"Int_90%\",\"Int_Max\",\"Total_Count\","
                      "\"Total_50%\",\"Total_90%\",\"Total_99%\",\"Total_99.9%\",\"Total_99.99%\",\"Total_Max\"\n"
                    : "Time: IntervalPercentiles:count ( 50% 90% Max ) TotalPercentiles:count ( 50% 90% 99% 99.9% "
                      "99.99% Max )\n";
    }
    const int64_t iv_end_ms = is_double ? dbl.end_timestamp_ms : reg.end_timestamp_ms;
    const double t = (static_cast<double>(iv_end_ms) / 1000.0) - start_time;
    const double u = o_.unit_ratio;
    double v[10];
    int64_t n_iv = 0;
    int64_t n_acc = 0;
    if (is_double) {
      n_iv = dbl.total();
      v[0] = dbl.value_at_percentile(50.0) / u;
      v[1] = dbl.value_at_percentile(90.0) / u;
      v[2] = dbl.max_value() / u;
      n_acc = a.dbl.total();
      v[3] = a.dbl.value_at_percentile(50.0) / u;
      v[4] = a.dbl.value_at_percentile(90.0) / u;
      v[5] = a.dbl.value_at_percentile(99.0) / u;
      v[6] = a.dbl.value_at_percentile(99.9) / u;
      v[7] = a.dbl.value_at_percentile(99.99) / u;
      v[8] = a.dbl.max_value() / u;
    } else {
      const auto d = [](int64_t x) { return static_cast<double>(x); };
      n_iv = reg.total();
      v[0] = d(reg.value_at_percentile(50.0)) / u;
      v[1] = d(reg.value_at_percentile(90.0)) / u;
      v[2] = d(reg.max_value()) / u;
      n_acc = a.regular.total();
      v[3] = d(a.regular.value_at_percentile(50.0)) / u;
      v[4] = d(a.regular.value_at_percentile(90.0)) / u;
      v[5] = d(a.regular.value_at_percentile(99.0)) / u;
      v[6] = d(a.regular.value_at_percentile(99.9)) / u;
      v[7] = d(a.regular.value_at_percentile(99.99)) / u;
      v[8] = d(a.regular.max_value()) / u;
    }
    if (o_.csv) {
      out += java_fixed(t, 3) + "," + java_int(n_iv);
      for (int k = 0; k < 3; ++k) out += "," + java_fixed(v[k], 3);
      out += "," + java_int(n_acc);
      for (int k = 3; k < 9; ++k) out += "," + java_fixed(v[k], 3);
      out += "\n";
    } else {
      out += java_fixed(t, 3, 4) + ": I:" + java_int(n_iv) + " (";
      for (int k = 0; k < 3; ++k) out += " " + java_fixed(v[k], 3, 7);
      out += " ) T:" + java_int(n_acc) + " (";
      for (int k = 3; k < 9; ++k) out += " " + java_fixed(v[k], 3, 7);
      out += " )\n";
    }
  }
}

ProcessorResult LogProcessor::Impl::finish() {
  if (!halted_) {
    // Lines still partial at the end: count them for the DHIST ratio scan.
    if (!line_head_.empty()) {
      const std::string nl = "\n";
      scan_lines(nl.data(), nl.size());
    }
    parser_.finish();
    drain();
  }
  for (const auto& ex : parser_.diagnostics().examples()) {
    if (stop_line() != 0 && ex.line > stop_line()) continue;
    r_.warnings.push_back(line_prefix(ex.line) + ex.text);
  }
  if (!halted_ && r_.error.empty() && ends_with_single_blank_ && stop_line() == 0) {
    r_.error = line_prefix(line_no_) +
               "Java's HistogramLogProcessor fails at this blank last line (\"Log file parsing error ...: line "
               "appears to be malformed\") and writes no distribution; latscope hdr writes what Java writes";
    r_.listing.clear();
    return std::move(r_);
  }
  if (o_.list_tags) {
    std::sort(tags_.begin(), tags_.end());
    r_.listing = "Tags found in input file:\n";
    if (null_tag_found_) r_.listing += "[NO TAG (default)]\n";
    for (const auto& t : tags_) r_.listing += t + "\n";
    return std::move(r_);
  }
  if (!r_.error.empty()) return std::move(r_);
  if (!acc_) {
    // Java dies with a NullPointerException before writing anything else.
    const Status& st = parser_.status();
    r_.error = !st.ok() ? st.message
                        : std::string("no interval histogram") +
                              (o_.has_tag ? " with tag '" + o_.tag + "'" : std::string(" without a tag")) +
                              (o_.co_interval > 0 && o_.has_tag
                                   ? " (with -correctLogWithKnownCoordinatedOmission Java's corrected copies lose "
                                     "their tags, so -tag never matches)"
                                   : std::string()) +
                              " in the selected time range";
    return std::move(r_);
  }
  const bool ok = acc_->is_double
                      ? acc_->dbl.output_percentile_distribution(&r_.hgrm, o_.ticks_per_half, o_.unit_ratio, o_.csv)
                      : acc_->regular.output_percentile_distribution(&r_.hgrm, o_.ticks_per_half, o_.unit_ratio,
                                                                     o_.csv);
  if (!ok) r_.error = "the percentile iteration fails (Java's PercentileIterator throws here)";
  return std::move(r_);
}

}  // namespace latscope::hdr_processor
