// The .hlog line grammar and Java's time rules (docs/formats-hdr.md).
//   #[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   Tag=A,0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnN...
#include "formats/hdr/hdr_log.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

#include "formats/hdr/hdr_decode.h"

namespace latscope::hdr {
namespace {

constexpr int64_t kYearNs = int64_t{365} * 24 * 3600 * 1000000000;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string shown(std::string_view s) {
  std::string r(s.substr(0, 40));
  for (char& c : r)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return s.size() > 40 ? r + "..." : r;
}

}  // namespace

bool parse_decimal_seconds(std::string_view t, int64_t* ns) {
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t whole = 0;
  size_t digits = 0;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits) {
    whole = whole * 10 + static_cast<uint64_t>(t[i] - '0');
    if (whole > kLimit / 1000000000) return false;
  }
  uint64_t frac = 0;
  size_t fdigits = 0;
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++fdigits)
      if (fdigits < 9) frac = frac * 10 + static_cast<uint64_t>(t[i] - '0');
  }
  if (i != t.size() || digits + fdigits == 0) return false;
  for (size_t k = fdigits; k < 9; ++k) frac *= 10;
  const uint64_t v = whole * 1000000000 + frac;
  // Below 2^62 ns (year 2116): sums and differences of two values stay in int64.
  if (v >= (kLimit >> 1) + 1) return false;
  *ns = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

std::string format_decimal_seconds(int64_t ns, int decimals) {
  decimals = std::clamp(decimals, 0, 9);
  const bool neg = ns < 0;
  uint64_t v = neg ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  uint64_t div = 1;
  for (int k = decimals; k < 9; ++k) div *= 10;
  v = (v + div / 2) / div;  // half away from zero
  uint64_t scale = 1;
  for (int k = 0; k < decimals; ++k) scale *= 10;
  std::string s = std::to_string(v / scale);
  if (decimals) {
    std::string f = std::to_string(v % scale);
    s += "." + std::string(static_cast<size_t>(decimals) - f.size(), '0') + f;
  }
  return neg && v ? "-" + s : s;
}

LogParser::LogParser(const LogOptions& opts) : opts_(opts) {}

void LogParser::append(const char* data, size_t n) {
  const char* p = data;
  const char* end = data + n;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    if (nl) {  // a line ends: where it started, and where the next starts
      line_at_ = next_line_at_;
      next_line_at_ = fed_ + static_cast<uint64_t>(nl - data) + 1;
    }
    if (!partial_too_long_) {
      if (partial_.size() + static_cast<size_t>(stop - p) > opts_.max_line_bytes) {
        partial_too_long_ = true;
        partial_.clear();
      } else if (nl && partial_.empty()) {
        line(std::string_view(p, static_cast<size_t>(nl - p)));
        p = nl + 1;
        continue;
      } else {
        partial_.append(p, static_cast<size_t>(stop - p));
      }
    }
    if (!nl) break;
    if (partial_too_long_) {
      ++line_no_;
      skip(Issue::kBinaryGarbage, 1, "line longer than " + std::to_string(opts_.max_line_bytes) + " bytes: skipped");
      partial_too_long_ = false;
    } else {
      const std::string l = std::move(partial_);
      partial_.clear();
      line(l);
    }
    p = nl + 1;
  }
  fed_ += n;
}

void LogParser::finish() {
  if (finished_) return;
  finished_ = true;
  line_at_ = next_line_at_;
  if (partial_too_long_) {
    ++line_no_;
    skip(Issue::kBinaryGarbage, 1, "line longer than " + std::to_string(opts_.max_line_bytes) + " bytes: skipped");
  } else if (!partial_.empty()) {
    const std::string l = std::move(partial_);
    partial_.clear();
    line(l);
  }
  decide_end_column(true);
  if (intervals_ == 0) {
    std::string why = first_error_.empty() ? "" : " (" + first_error_ + ")";
    status_ = Status::Error(ErrorCode::kUnusableFile, "no HdrHistogram interval could be read" + why);
  }
}

bool LogParser::next(Interval* out) {
  if (ready_.empty()) return false;
  *out = std::move(ready_.front());
  ready_.pop_front();
  return true;
}

void LogParser::skip(Issue issue, uint32_t column, std::string text) {
  if (first_error_.empty() && issue_info(issue).severity == Severity::kError)
    first_error_ = "line " + std::to_string(line_no_) + ": " + text;
  if (!java_stop_line_ && issue != Issue::kEmptyLine && issue != Issue::kCarriageReturn) java_stop_line_ = line_no_;
  diag_.add(issue, line_no_, column, std::move(text));
}

void LogParser::line(std::string_view text) {
  ++line_no_;
  text_bytes_ += text.size() + 1;
  if (line_no_ == 1 && starts_with(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!text.empty() && text.back() == '\r') {
    text.remove_suffix(1);
    diag_.add(Issue::kCarriageReturn, line_no_, static_cast<uint32_t>(text.size() + 1), "carriage return ignored");
  }
  text = trim(text);
  if (text.empty()) {
    diag_.add(Issue::kEmptyLine, line_no_, 1, "blank line ignored");
    return;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t') {
      skip(Issue::kBinaryGarbage, static_cast<uint32_t>(i + 1), "control byte in line: skipped");
      return;
    }
  }
  if (text.front() == '#') return comment_line(text);
  if (starts_with(text, "\"StartTimestamp\"")) {
    // Older writers title the second column "EndTimestamp" (a length all the same).
    const bool end = text.find("\"EndTimestamp\"") != std::string_view::npos;
    header_.legend = end ? Legend::kEndTimestamp : Legend::kStartTimestamp;
    header_.legend_line = line_no_;
    return;
  }
  interval_line(text);
}

void LogParser::comment_line(std::string_view text) {
  auto number_after = [&](std::string_view key, int64_t* v) {
    std::string_view r = trim(text.substr(key.size()));
    size_t e = 0;
    while (e < r.size() && r[e] != ' ' && r[e] != ',' && r[e] != ']' && r[e] != '(' && r[e] != '\t') ++e;
    return parse_decimal_seconds(r.substr(0, e), v);
  };
  int64_t v = 0;
  if (starts_with(text, "#[StartTime:")) {
    if (!number_after("#[StartTime:", &v)) {
      skip(Issue::kHdrMalformedLine, 13, "#[StartTime: without a decimal number of seconds: ignored");
      return;
    }
    header_.has_start_time = true;
    header_.start_time_ns = v;
    start_time_ns_ = v;
    start_time_set_ = true;
  } else if (starts_with(text, "#[BaseTime:")) {
    if (!number_after("#[BaseTime:", &v)) {
      skip(Issue::kHdrMalformedLine, 12, "#[BaseTime: without a decimal number of seconds: ignored");
      return;
    }
    header_.has_base_time = true;
    header_.base_time_ns = v;
    base_ns_ = v;
    base_seen_ = true;
  } else if (starts_with(text, "#[Histogram log format version")) {
    std::string_view r = trim(text.substr(30));
    if (!r.empty() && r.back() == ']') r.remove_suffix(1);
    header_.version = std::string(trim(r));
  } else if (header_.comments.size() < 16) {
    header_.comments.emplace_back(text);
  }
}

void LogParser::interval_line(std::string_view text) {
  std::string tag;
  size_t col = 1;
  bool lenient = false;
  if (starts_with(text, "Tag=")) {
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos) {
      skip(Issue::kHdrMalformedLine, 1, "Tag= without the columns after it: skipped");
      return;
    }
    tag = std::string(text.substr(4, comma - 4));
    if (tag.find_first_of(" \t") != std::string::npos) {
      skip(Issue::kHdrMalformedLine, 5, "tag \"" + shown(tag) + "\" contains a space (Java's reader cannot read it): skipped");
      return;
    }
    text.remove_prefix(comma + 1);
    col += comma + 1;
  }
  std::string_view f[4];
  size_t nf = 0;
  size_t extra_nonempty = 0;
  size_t pos = 0;
  while (true) {
    const size_t c = text.find(',', pos);
    const std::string_view raw = text.substr(pos, c == std::string_view::npos ? std::string_view::npos : c - pos);
    const std::string_view t = trim(raw);
    if (t.size() != raw.size()) lenient = true;
    if (nf < 4) f[nf] = t;
    else if (!t.empty()) ++extra_nonempty;
    else lenient = true;
    ++nf;
    if (c == std::string_view::npos) break;
    pos = c + 1;
  }
  if (nf < 4 || extra_nonempty) {
    skip(Issue::kHdrMalformedLine, static_cast<uint32_t>(col),
         std::to_string(nf) + " columns after the tag, want 4 (start,length,max,payload): skipped");
    return;
  }
  Interval iv;
  iv.line = line_no_;
  iv.byte_at = line_at_;
  iv.tag = std::move(tag);
  if (!parse_decimal_seconds(f[0], &iv.timestamp_ns)) {
    skip(Issue::kHdrMalformedLine, static_cast<uint32_t>(col),
         "start timestamp \"" + shown(f[0]) + "\" is not a decimal number of seconds: skipped");
    return;
  }
  if (!parse_decimal_seconds(f[1], &iv.second_ns)) {
    skip(Issue::kHdrMalformedLine, static_cast<uint32_t>(col),
         "interval length \"" + shown(f[1]) + "\" is not a decimal number of seconds: skipped");
    return;
  }
  iv.max_text = std::string(f[2]);
  {
    char* e = nullptr;
    const std::string m(f[2]);
    iv.max = std::strtod(m.c_str(), &e);
    if (m.empty() || e != m.c_str() + m.size()) {
      iv.max = std::numeric_limits<double>::quiet_NaN();
      lenient = true;
    }
  }
  // Java decides the time base at its first interval line, before decoding.
  if (!start_time_set_) {
    start_time_ns_ = iv.timestamp_ns;
    start_time_set_ = true;
  }
  if (time_base_ == TimeBase::kUndecided) {
    if (base_seen_) {
      time_base_ = TimeBase::kBaseTime;
    } else if (iv.timestamp_ns < start_time_ns_ - kYearNs) {
      time_base_ = TimeBase::kRelative;
      base_ns_ = start_time_ns_;
    } else {
      time_base_ = TimeBase::kAbsolute;
      base_ns_ = 0;
    }
  }
  iv.base_ns = base_ns_;
  iv.start_time_ns = start_time_ns_;
  int64_t abs = 0, off = 0;
  if (__builtin_add_overflow(iv.timestamp_ns, iv.base_ns, &abs) || __builtin_sub_overflow(abs, iv.start_time_ns, &off) ||
      __builtin_add_overflow(abs, iv.second_ns, &off)) {
    skip(Issue::kHdrMalformedLine, static_cast<uint32_t>(col), "timestamps out of range (beyond +-292 years): skipped");
    return;
  }
  std::string err;
  const uint64_t allowed = opts_.max_inflated_floor + opts_.max_inflate_ratio * text_bytes_;
  const auto file_budget = [&] {
    return "the file's payloads would inflate past " + std::to_string(opts_.max_inflate_ratio) + " times its " +
           std::to_string(text_bytes_ >> 10) + " KiB read, plus " + std::to_string(opts_.max_inflated_floor >> 20) +
           " MiB (docs/input-robustness.md, \"Empty content\"): skipped";
  };
  if (inflated_bytes_ >= allowed) {
    skip(Issue::kHdrBadPayload, static_cast<uint32_t>(col), file_budget());
    return;
  }
  size_t inflated = 0;
  const uint64_t left = allowed - inflated_bytes_;
  const size_t room = static_cast<size_t>(std::min<uint64_t>(opts_.max_inflated_bytes, left));
  const bool decoded = decode_payload(f[3], room, &iv.hist, &iv.encoding, &err, &inflated);
  inflated_bytes_ += inflated;
  if (!decoded && left < opts_.max_inflated_bytes && err.rfind("inflated size over", 0) == 0) {
    skip(Issue::kHdrBadPayload, static_cast<uint32_t>(col), file_budget());
    return;
  }
  if (!decoded) {
    skip(Issue::kHdrBadPayload, static_cast<uint32_t>(col), err + ": skipped");
    return;
  }
  if (lenient) {
    if (!java_stop_line_) java_stop_line_ = line_no_;
    diag_.add(Issue::kHdrLenient, line_no_, static_cast<uint32_t>(col),
              "spaces around columns, an empty extra column or an unreadable max column: kept");
  }
  auto it = last_ts_.find(iv.tag);
  if (it != last_ts_.end() && iv.timestamp_ns < it->second)
    diag_.add(Issue::kHdrTimeBackwards, line_no_, static_cast<uint32_t>(col),
              "starts " + format_decimal_seconds(it->second - iv.timestamp_ns, 3) +
                  " s before the previous interval" + (iv.tag.empty() ? "" : " of tag " + iv.tag) + ": kept");
  last_ts_[iv.tag] = iv.timestamp_ns;
  ++intervals_;
  iv.length_ns = iv.second_ns;
  if (decided_) {
    release(std::move(iv));
  } else {
    held_.push_back(std::move(iv));
    decide_end_column(false);
  }
}

// Writers that put the interval END in the second column (docs/formats-hdr.md,
// "Interval ends in the length column"): on most sampled lines second >= start, and second - start
// matches the spacing of consecutive starts of the same tag better than the
// second column itself does.
void LogParser::decide_end_column(bool final) {
  if (decided_) return;
  if (!final && held_.size() < kDetectIntervals) return;
  decided_ = true;
  if (opts_.detect_end_timestamps && held_.size() >= 2) {
    size_t ge = 0, pairs = 0, end_match = 0, len_match = 0;
    std::map<std::string, const Interval*> prev;
    for (const Interval& iv : held_) {
      if (iv.second_ns >= iv.timestamp_ns) ++ge;
      auto it = prev.find(iv.tag);
      if (it != prev.end()) {
        const Interval& a = *it->second;
        const int64_t spacing = iv.timestamp_ns - a.timestamp_ns;
        if (spacing > 0) {
          const int64_t tol = std::max<int64_t>(2000000, spacing / 20);
          ++pairs;
          // In double: a difference of differences may leave int64.
          const double sp = static_cast<double>(spacing), t = static_cast<double>(tol);
          if (std::fabs(static_cast<double>(a.second_ns - a.timestamp_ns) - sp) <= t) ++end_match;
          if (std::fabs(static_cast<double>(a.second_ns) - sp) <= t) ++len_match;
        }
      }
      prev[iv.tag] = &iv;
    }
    if (pairs && ge * 4 >= held_.size() * 3 && end_match * 2 > pairs && end_match > len_match) {
      end_in_length_ = true;
      diag_.add(Issue::kHdrEndTimestamps, held_.front().line, 0,
                "second column >= start on " + std::to_string(ge) + " of " + std::to_string(held_.size()) +
                    " sampled lines and end - start matches the spacing of starts on " + std::to_string(end_match) +
                    " of " + std::to_string(pairs) + ": read as interval end times, length = end - start");
    }
  }
  for (Interval& iv : held_) release(std::move(iv));
  held_.clear();
}

void LogParser::release(Interval&& iv) {
  iv.length_ns = end_in_length_ ? iv.second_ns - iv.timestamp_ns : iv.second_ns;
  ready_.push_back(std::move(iv));
}

}  // namespace latscope::hdr
