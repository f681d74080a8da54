// `latscope hdr`: HdrHistogram's HistogramLogProcessor (Java, Debian
// libhdrhistogram-java 2.1.11, run with TZ=UTC) reproduced byte for byte.
// Pure logic: bytes of an .hlog in, the texts Java would write out. The CLI
// (core/cli/cmd_hdr.cc) does the file I/O.
//
//   LogProcessor p(options);
//   p.append(bytes, n); ...          // any chunking
//   ProcessorResult r = p.finish();  // r.interval_log -> OUT, r.hgrm -> OUT.hgrm (or stdout)
//
// Java's behaviour is kept where it is surprising, because scripts compare
// against it: -correctLogWithKnownCoordinatedOmission drops every line's tag
// (the corrected copy has none), so with it -tag matches nothing and the
// default selects all tags; a DoubleHistogram corrected copy has no end time
// (its time column prints -StartTime); an empty selection produces only the
// files' first lines. Where Java would stop reading (a malformed line) this
// stops too and says so in warnings.
#pragma once

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace latscope::hdr_processor {

struct ProcessorOptions {
  bool csv = false;                 // -csv
  bool list_tags = false;           // -listtags
  bool has_output = false;          // -o given: interval log + .hgrm (+ .mwp)
  bool has_tag = false;             // -tag NAME
  std::string tag;
  double range_start_sec = 0.0;     // -start (seconds relative to StartTime)
  double range_end_sec = DBL_MAX;   // -end
  int32_t ticks_per_half = 5;       // -percentilesOutputTicksPerHalf (> 0)
  double unit_ratio = 1000000.0;    // -outputValueUnitRatio (ns -> ms by default)
  double co_interval = 0.0;         // -correctLogWithKnownCoordinatedOmission
  bool moving_window = false;       // -mwp / -mwpl given
  double mw_percentile = 99.0;      // -mwp
  int64_t mw_length_ms = 60000;     // -mwpl
};

// Java's command line (HistogramLogProcessorConfiguration): args after the
// command name. Sets *input / *output ("" when -i / -o are absent) and *help
// for -h. False with *err on an unknown option, a missing or malformed value.
bool parse_processor_args(const std::vector<std::string>& args, ProcessorOptions* o, std::string* input,
                          std::string* output, bool* help, std::string* err);

struct ProcessorResult {
  std::string interval_log;  // OUT (only with has_output)
  std::string hgrm;          // OUT.hgrm, or standard output without -o
  std::string mwp;           // OUT.mwp (only with has_output and moving_window)
  std::string listing;       // -listtags: standard output
  uint64_t intervals = 0;    // interval histograms processed
  std::vector<std::string> warnings;  // "line N: ..." (lines skipped, where Java stops)
  std::string error;         // non-empty: Java would fail here (outputs are what it wrote)
};

class LogProcessor {
 public:
  explicit LogProcessor(const ProcessorOptions& opts);
  ~LogProcessor();
  LogProcessor(const LogProcessor&) = delete;
  LogProcessor& operator=(const LogProcessor&) = delete;

  void append(const char* data, size_t n);
  ProcessorResult finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace latscope::hdr_processor
