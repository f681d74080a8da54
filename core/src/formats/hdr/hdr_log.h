// Streaming parser for HdrHistogram interval logs (.hlog), as written by
// HdrHistogram's HistogramLogWriter (jHiccup, YCSB, cassandra-stress, ...).
// See docs/formats-hdr.md for the grammar, the time-base rules and the
// evidence behind each tolerance.
//
//   #[Histogram log format version 1.3]
//   #[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnNYMcC...
//   Tag=A,0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnN...
//
// Usage (the API is stable; `latscope hdr` and the model reader build on it):
//
//   hdr::LogParser p;                       // or LogParser(options)
//   p.append(bytes, n);  ...                // any chunking, lines split anywhere
//   hdr::Interval iv;
//   while (p.next(&iv)) use(iv);            // may be called after every append
//   p.finish();
//   while (p.next(&iv)) use(iv);            // the held-back rest
//   p.header(); p.diagnostics(); p.status();
//
// Results are identical for any chunking (1 byte, 100 bytes, whole file).
// No input crashes the parser; every skipped line is counted in diagnostics()
// under a named Issue (status.h) with its line number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/hdr/hdr_histogram.h"
#include "latscope/status.h"

namespace latscope::hdr {

// Seconds as exact decimal fixed point, in nanoseconds: "1441812279.474"
// -> 1441812279474000000. Never goes through double. Accepts an optional
// sign, digits, an optional '.' and up to 9 fraction digits (more digits are
// accepted and truncated toward zero); also "1e3"-free plain decimals only.
// False on anything else or when |value| >= 2^63 ns (~292 years).
bool parse_decimal_seconds(std::string_view text, int64_t* ns);
// "1441812279.474" for decimals = 3 (rounded half away from zero).
std::string format_decimal_seconds(int64_t ns, int decimals);

// The second column's title in the legend line. Older writers (V0 jHiccup,
// HdrHistogram_c) say "EndTimestamp" but still write a length there, so the
// legend alone never decides how the column is read (see end_in_length).
enum class Legend { kNone, kStartTimestamp, kEndTimestamp };

// How timestamps map to absolute time, decided at the first interval line
// exactly as Java's HistogramLogReader does (docs/formats-hdr.md, "Time"):
//   a #[BaseTime: seen before it      -> kBaseTime   (abs = ts + BaseTime)
//   else ts < StartTime - 365 days     -> kRelative   (abs = ts + StartTime)
//   else                               -> kAbsolute   (abs = ts)
// With no #[StartTime: line, StartTime is the first interval's timestamp
// (so such logs are kAbsolute, as in Java).
enum class TimeBase { kUndecided, kBaseTime, kRelative, kAbsolute };

// Header state. Values are the LAST of each kind seen so far (Java keeps the
// last one); after finish() they describe the whole file.
struct LogHeader {
  bool has_start_time = false;  // a "#[StartTime: <seconds>" line was seen
  int64_t start_time_ns = 0;    // its value (ns since epoch)
  bool has_base_time = false;   // a "#[BaseTime: <seconds>" line was seen
  int64_t base_time_ns = 0;
  std::string version;          // "1.3" from "#[Histogram log format version 1.3]"; "" if none
  Legend legend = Legend::kNone;
  uint64_t legend_line = 0;     // 1-based line of the legend; 0 if none
  std::vector<std::string> comments;  // other '#' lines, verbatim (first 16 kept)
};

// One interval line, decoded.
struct Interval {
  uint64_t line = 0;        // 1-based line number in the file
  uint64_t byte_at = 0;     // the line's first byte in the text
  std::string tag;          // "A" for "Tag=A,..."; "" when untagged
  int64_t timestamp_ns = 0; // first column as written (ns; relative or absolute, see base_ns)
  int64_t second_ns = 0;    // second column as written (ns)
  // The interval's length (ns): second_ns, or second_ns - timestamp_ns when
  // the parser decided the log writes interval END times in that column
  // (LogParser::end_in_length()). Never negative for an END-column log.
  int64_t length_ns = 0;
  // Java's time arithmetic, in exact fixed point:
  int64_t base_ns = 0;         // base added to timestamp_ns (per TimeBase)
  int64_t start_time_ns = 0;   // StartTime in effect at this line (Java's startTimeSec)
  int64_t abs_start_ns() const { return timestamp_ns + base_ns; }        // absolute start
  int64_t offset_start_ns() const { return abs_start_ns() - start_time_ns; }  // Java's -start/-end filter value
  std::string max_text;     // third column as written ("2.769"); informational, unit varies
  double max = 0;           // the same, parsed (NaN if unparsable but tolerated)
  int encoding = 2;         // payload encoding: 0 (V0), 1 (V1) or 2 (V2)
  Histogram hist;           // decoded counts (config.is_double for DHIST)
};

struct LogOptions {
  // Bound on one payload's inflated size (an inflation-bomb guard). 64 MiB
  // holds a V1 histogram with 8M 8-byte counts, far above any real writer.
  size_t max_inflated_bytes = size_t{64} << 20;
  // Bound on what a file's payloads inflate to in all: this floor plus
  // max_inflate_ratio times the log's bytes read so far. Zero counts
  // inflate a thousand times over: a 1.7 MB log of them took 9 s
  // (docs/input-robustness.md, "Empty content"); real logs, even V1 word
  // arrays of 3 digits, stay far below 256 times.
  size_t max_inflated_floor = size_t{256} << 20;
  uint64_t max_inflate_ratio = 256;
  // Decide whether the second column holds interval ends (hdrhistogram-go
  // before late 2025, scylla-bench, HdrHistogram_c's hdr_log_write). False
  // reads it as a length always, as Java's reader does.
  bool detect_end_timestamps = true;
  // Bytes a line may have before it is skipped as garbage (kBinaryGarbage).
  size_t max_line_bytes = size_t{256} << 20;
};

class LogParser {
 public:
  LogParser() : LogParser(LogOptions{}) {}
  explicit LogParser(const LogOptions& opts);

  // Feeds the next bytes of the (already decompressed) log.
  void append(const char* data, size_t n);
  // Ends the input: a last line without '\n' is parsed, held-back intervals
  // are released, and status() is final.
  void finish();

  // Moves the next parsed interval (file order) into *out; false when none is
  // ready. While the END-column decision is open the first
  // kDetectIntervals intervals are held back; after that each interval is
  // available as soon as its line ends.
  bool next(Interval* out);

  const LogHeader& header() const { return header_; }
  TimeBase time_base() const { return time_base_; }
  // True when the second column was found to hold interval END timestamps
  // and lengths were converted (a kHdrEndTimestamps diagnostic says so).
  bool end_in_length() const { return end_in_length_; }
  // Every line counted: total, accepted interval lines.
  uint64_t lines() const { return line_no_; }
  uint64_t intervals() const { return intervals_; }
  // First line (1-based) that Java's HistogramLogReader would stop at (a line
  // this parser skipped, or read only through a tolerance Java lacks, such as
  // ", " separators); 0 when Java would read the whole file.
  uint64_t java_stop_line() const { return java_stop_line_; }
  const Diagnostics& diagnostics() const { return diag_; }
  // Not ok after finish() when the file has no interval line at all
  // ("no interval line in ...") or is not an .hlog; skipped lines alone never
  // fail the file.
  const Status& status() const { return status_; }

  static constexpr size_t kDetectIntervals = 16;

 private:
  void line(std::string_view text);
  void interval_line(std::string_view text);
  void comment_line(std::string_view text);
  void skip(Issue issue, uint32_t column, std::string text);
  void decide_end_column(bool final);
  void release(Interval&& iv);

  LogOptions opts_;
  LogHeader header_;
  TimeBase time_base_ = TimeBase::kUndecided;
  int64_t base_ns_ = 0;
  int64_t start_time_ns_ = 0;  // Java's startTimeSec (first timestamp if no header)
  bool start_time_set_ = false;
  bool base_seen_ = false;     // a #[BaseTime: line was read
  std::map<std::string, int64_t> last_ts_;  // per tag, for kHdrTimeBackwards
  std::string first_error_;    // "line N: ..." of the first skipped line
  std::string partial_;        // an unterminated line kept for the next append
  bool partial_too_long_ = false;
  uint64_t line_no_ = 0;
  uint64_t intervals_ = 0;
  uint64_t text_bytes_ = 0;     // of the lines read so far
  uint64_t fed_ = 0;            // bytes appended before this append
  uint64_t line_at_ = 0;        // where the line being read starts (Interval::byte_at)
  uint64_t next_line_at_ = 0;
  uint64_t inflated_bytes_ = 0;  // what their payloads inflated to
  uint64_t java_stop_line_ = 0;
  bool decided_ = false;
  bool end_in_length_ = false;
  std::vector<Interval> held_;  // waiting for the END-column decision
  std::deque<Interval> ready_;
  Diagnostics diag_;
  Status status_;
  bool finished_ = false;
};

}  // namespace latscope::hdr
