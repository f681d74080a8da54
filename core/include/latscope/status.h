// Errors are values. Two tiers:
//  * Status: a whole file (or request) is unusable -> one message naming
//    file:line:column and what was wrong.
//  * Diagnostics: a line was skipped or a value adjusted -> counted under a
//    named reason from one table (kIssueTable) with severity and description,
//    with the first few examples kept for display. Nothing is dropped silently.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace latscope {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,  // bad option or request
  kUnusableFile,     // no usable record, unknown format, empty file
  kInternal,
};

struct Status {
  ErrorCode code = ErrorCode::kOk;
  std::string message;  // "file:line:column: what was wrong; what was done"

  bool ok() const { return code == ErrorCode::kOk; }
  static Status Ok() { return {}; }
  static Status Error(ErrorCode c, std::string msg) { return {c, std::move(msg)}; }
};

enum class Severity { kInfo, kWarning, kError };

// Every reason a line can be skipped or a value adjusted. Append only: the
// numeric values are part of the JSON the UI reads by name, not by number.
enum class Issue : int {
  kTruncatedLine = 0,    // last line had no newline and too few columns
  kColumnCount,          // line's column count differs from the file's layout
  kNotANumber,           // a field is not an unsigned integer
  kNegativeValue,        // a field is negative
  kOverflow,             // a field does not fit in 64 bits, or counts sum above kMaxCount (2^53)
  kBadDirection,         // ddir not 0, 1 or 2
  kEmptyLine,            // blank line (info only)
  kCarriageReturn,       // CRLF line endings (info only, line kept)
  kTimeRestart,          // timestamps restarted: new job segment (per_job_logs=0)
  kDuplicateTimestamp,   // same time_ms twice in a direction: counts kept, windows merged
  kSaturated,            // samples in fio's last bin (>= ~17.18 s): lower bound only
  kRepaired,             // client/server accumulation defect repaired (per series)
  kRepairInconsistent,   // repair chosen but a repaired count went negative (clamped)
  kMixedLayouts,         // files with different bin layouts merged by re-binning
  kMixedTimeBases,       // epoch and relative logs selected together: the minority left out
  kBinaryGarbage,        // NUL or other control bytes in a line
  kJsonNoise,            // json+: text lines outside the JSON documents (normal output, notes, client mode)
  kHdrMalformedLine,     // .hlog: line is not [Tag=NAME,]start,length,max,payload (tag with spaces, bad number)
  kHdrBadPayload,        // .hlog: payload does not decode (base64, cookie, zlib, counts)
  kHdrEndTimestamps,     // .hlog: second column holds interval ends: converted to lengths (per file)
  kHdrTimeBackwards,     // .hlog: an interval starts before the previous one of its tag (kept)
  kHdrLenient,           // .hlog: line read through a tolerance Java's reader lacks (kept)
  kPerIoBudget,          // per-I/O log: exact values beyond the sample budget not kept (bins kept)
  kTimeBaseChange,       // fio log: a line on the other clock (epoch vs relative) than most lines: skipped
  kTimeGap,              // fio log: a window over 10 logging intervals long: placed in one interval (docs/time-gaps.md)
  kTsvMalformedRow,      // long table (TSV): a row with bad fields (count, bin, time, columns): skipped
  kUnitDecided,          // fio per-I/O log without a priority column: unit (us/ns) decided from the folder's evidence
  kUnitGuessed,          // the same with no evidence but the values' magnitudes (or evidence that disagrees)
  kSegmentsMatched,      // per_job_logs=0: the file's job segments matched to fio's jobs by the json+ bins
  kFarTimes,             // a query's windows too far apart for one time axis: the fewest I/Os left out, named
  kLayoutBudget,         // an interval or row whose bin layout would pass kMaxLayoutBins (layout_budget.h): skipped
  kStatusReports,        // fio json: an earlier --status-interval report of the run replaced by a later one
  kHdrUnitFromWriter,    // .hlog: no --hdr-unit, and the header names a writer that records microseconds (YCSB)
  kCount
};

struct IssueInfo {
  const char* name;  // stable identifier shown in CLI and UI
  Severity severity;
  const char* description;
};

const IssueInfo& issue_info(Issue issue);

struct IssueExample {
  Issue issue;
  uint64_t line = 0;    // 1-based; 0 when not tied to a line
  uint32_t column = 0;  // 1-based byte column; 0 when not tied to a column
  std::string text;     // what was wrong and what was done
};

// Per-file counters plus the first kMaxExamples examples of each issue.
class Diagnostics {
 public:
  static constexpr size_t kMaxExamples = 3;

  void add(Issue issue, uint64_t line, uint32_t column, std::string text);
  void add_count(Issue issue, uint64_t n);  // count without example
  uint64_t count(Issue issue) const { return counts_[static_cast<size_t>(issue)]; }
  const std::vector<IssueExample>& examples() const { return examples_; }
  // Lines that were dropped (issues of severity error), for the exit code.
  uint64_t skipped_lines() const;
  bool empty() const;
  void merge(const Diagnostics& other);

 private:
  std::array<uint64_t, static_cast<size_t>(Issue::kCount)> counts_{};
  std::vector<IssueExample> examples_;
};

}  // namespace latscope
