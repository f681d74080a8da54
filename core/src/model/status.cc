#include "latscope/status.h"

namespace latscope {
namespace {

// The one table of issues: name (stable, shown to users), severity, meaning.
// Severity kError = the line was dropped; kWarning = data kept but changed or
// doubtful; kInfo = harmless, shown for completeness.
constexpr IssueInfo kIssueTable[] = {
    {"truncated-line", Severity::kError, "last line ends early (file cut off?): line skipped"},
    {"column-count", Severity::kError, "line has a different number of columns than the file's bin layout: line skipped"},
    {"not-a-number", Severity::kError, "a field is not an unsigned integer: line skipped"},
    {"negative-value", Severity::kError, "a field is negative: line skipped"},
    {"overflow", Severity::kError, "a count, a sum of counts in a line or series, or a time_ms is above 2^53 (or a field does not fit in 64 bits): line skipped"},
    {"bad-direction", Severity::kError, "ddir is not 0 (read), 1 (write) or 2 (trim): line skipped"},
    {"empty-line", Severity::kInfo, "blank line ignored"},
    {"crlf", Severity::kInfo, "CRLF line ending: carriage return ignored, line kept"},
    {"time-restart", Severity::kInfo, "timestamps restart: a new job begins (per_job_logs=0), kept as its own segment"},
    {"duplicate-timestamp", Severity::kInfo, "same time_ms twice in one direction: counts kept, merged into one window"},
    {"saturated", Severity::kWarning, "samples in fio's last bin (>= 17.05 s): their latency is a lower bound"},
    {"repaired", Severity::kWarning, "client/server accumulation defect detected and repaired (d[k] = r[k] - r[k-2])"},
    {"repair-inconsistent", Severity::kWarning, "repair forced but a repaired count went negative: clamped to 0"},
    {"mixed-layouts", Severity::kWarning, "inputs use different bin layouts: merged by re-binning onto a common layout"},
    {"mixed-time-bases", Severity::kWarning, "some selected logs have epoch timestamps (log_unix_epoch) and others relative ones: the time base most series have is shown, the other series are left out (named in a note)"},
    {"binary-garbage", Severity::kError, "control bytes or an over-long line (not a text log): line skipped"},
    {"json-noise", Severity::kInfo, "text lines outside the JSON documents (fio's normal output or notes, client-mode lines) ignored"},
    {"hdr-malformed-line", Severity::kError, "HdrHistogram log line is not [Tag=NAME,]start,length,max,payload: line skipped"},
    {"hdr-bad-payload", Severity::kError, "HdrHistogram payload does not decode (base64, cookie, zlib or counts): line skipped"},
    {"hdr-end-timestamps", Severity::kWarning, "the second column holds interval end times, not lengths: converted to lengths"},
    {"hdr-time-backwards", Severity::kWarning, "an interval starts before the previous interval of its tag: kept"},
    {"hdr-lenient", Severity::kInfo, "line read through a tolerance Java's HistogramLogReader lacks (it would stop here): kept"},
    {"per-io-budget", Severity::kWarning, "per-I/O values beyond the sample budget are not kept: --method exact and bs/offset heat maps fall back or refuse (bins kept)"},
    {"time-base-change", Severity::kError, "time_ms switches between epoch ms (log_unix_epoch) and ms since the job's start inside one file: lines on the clock fewer lines use are skipped"},
    {"time-gap", Severity::kWarning, "a window spans a gap of over 10 logging intervals: fio flushed it at the first completion after the gap, so its I/Os are placed in one interval after the window's start, not spread over the gap (counts kept)"},
    {"tsv-malformed-row", Severity::kError, "long-table (TSV) row whose fields do not parse (column count, t_ms, bin, count): row skipped"},
    {"unit-decided", Severity::kInfo, "fio per-I/O log without a priority column (fio 2 wrote us, fio 3 before its priority column ns): unit decided from the folder's evidence (docs/fio-versions.md)"},
    {"unit-guessed", Severity::kWarning, "fio per-I/O log without a priority column and no evidence of its fio version (json+ output, histogram logs of the run): unit guessed from the values' magnitudes; give --fio-version 2|3 or the run's json+ output"},
    {"segments-matched", Severity::kInfo, "per_job_logs=0: fio appends each job's log as the job ends, not in job order; the file's segments were matched to fio's jobs by the run's json+ bins (docs/folders.md)"},
    {"far-times", Severity::kError, "windows too far apart in time for one axis of at most 50 million quanta: the runs holding the fewest I/Os were left out and named (docs/input-robustness.md, \"Far times\")"},
    {"layout-budget", Severity::kError, "the bin layouts of the file would pass the limit of 16,777,216 bins held at once (docs/input-robustness.md, \"Layouts\"): interval or row skipped"},
    {"status-reports", Severity::kInfo, "fio json: reports fio --status-interval wrote before the last one of the same run, left out (each counts the run so far: kept, they counted its I/Os again)"},
    {"hdr-unit-from-writer", Severity::kInfo, "HdrHistogram values carry no unit; this log's header names a writer that records microseconds (YCSB's \"#[Logging for: ...]\"), so its values are read as us, not ns; --hdr-unit sets another (docs/formats-hdr.md, \"Units\")"},
};
static_assert(sizeof(kIssueTable) / sizeof(kIssueTable[0]) == static_cast<size_t>(Issue::kCount),
              "kIssueTable must have one entry per Issue");

}  // namespace

const IssueInfo& issue_info(Issue issue) { return kIssueTable[static_cast<size_t>(issue)]; }

void Diagnostics::add(Issue issue, uint64_t line, uint32_t column, std::string text) {
  const size_t i = static_cast<size_t>(issue);
  if (counts_[i] < kMaxExamples) examples_.push_back({issue, line, column, std::move(text)});
  ++counts_[i];
}

void Diagnostics::add_count(Issue issue, uint64_t n) { counts_[static_cast<size_t>(issue)] += n; }

uint64_t Diagnostics::skipped_lines() const {
  uint64_t n = 0;
  for (size_t i = 0; i < counts_.size(); ++i)
    if (kIssueTable[i].severity == Severity::kError) n += counts_[i];
  return n;
}

bool Diagnostics::empty() const {
  for (uint64_t c : counts_)
    if (c) return false;
  return true;
}

void Diagnostics::merge(const Diagnostics& other) {
  for (size_t i = 0; i < counts_.size(); ++i) {
    size_t have = 0;
    for (const auto& e : examples_)
      if (static_cast<size_t>(e.issue) == i) ++have;
    for (const auto& e : other.examples_)
      if (static_cast<size_t>(e.issue) == i && have < kMaxExamples) {
        examples_.push_back(e);
        ++have;
      }
    counts_[i] += other.counts_[i];
  }
}

}  // namespace latscope
