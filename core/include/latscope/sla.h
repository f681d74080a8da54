// SLA gates over a percentiles query (docs/ci-reports.md):
//
//   "p99<=5ms,p99.9<=20ms,max<1s"  --parse_sla-->  SlaRule list
//   add_sla_percentiles: the percentiles the rules name join the query
//   evaluate_sla(QueryResult): every rule on every row (group x quantum)
//   sla_listing / sla_markdown: the verdict as text lines and as Markdown
//
// A rule holds when the row's value is <= (or <) the threshold. Rows without
// samples, and rows of fio log_avg_msec window averages (no latency
// distribution), are not evaluated. Rows flagged few for the rule's
// percentile are evaluated, counted and marked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/status.h"

namespace latscope {

struct SlaRule {
  std::string text;          // as given, blanks removed: "p99<=5ms"
  std::string what;          // "p99", "p99.9" (as spelled) or "max"
  bool is_max = false;       // the row's max instead of a percentile
  double percentile = 0;     // in [0, 100] unless is_max
  bool strict = false;       // '<' (else '<=')
  double threshold_ns = 0;
  std::string unit;          // the threshold's unit: "ns", "us", "ms" or "s"
  double unit_ns = 1;        // ns per that unit (the listing shows values in it)
};

// Parses a comma-separated list of rules "<what><op><number><unit>":
// what = p<P> (P in [0, 100]) or max; op = <= or <; unit = ns, us, ms or s
// (required). Errors name the rule and what is wrong.
Status parse_sla(const std::string& spec, std::vector<SlaRule>* out);

// Appends to *percentiles (and *labels, as the CLI spells columns) each
// percentile a rule names that is not there yet; returns how many were added.
size_t add_sla_percentiles(const std::vector<SlaRule>& rules, std::vector<double>* percentiles,
                           std::vector<std::string>* labels);

// Drops every percentile after the first n from the rows (the ones
// add_sla_percentiles added), recomputing the few and sat flags from what is
// kept: the output then equals that of a query without the SLA.
void keep_percentiles(QueryResult* r, size_t n);

struct SlaViolation {
  size_t rule = 0;     // index into the rules
  size_t row = 0;      // index into QueryResult::rows
  double value_ns = 0;
  bool few = false;    // too few samples for this percentile in this row
  bool saturated = false;  // the value is a lower bound (fio's last bin)
};

struct SlaRuleOutcome {
  uint64_t evaluated = 0;  // rows (group x quantum) with a value
  uint64_t violated = 0;
  uint64_t few = 0;        // evaluated rows flagged few for this percentile
  bool has_worst = false;  // worst_*: the evaluated row with the highest value
  double worst_ns = 0;
  size_t worst_row = 0;
  bool worst_few = false;  // that row has too few samples for the percentile
};

struct SlaReport {
  std::vector<SlaRuleOutcome> rules;        // parallel to the rules
  std::vector<SlaViolation> violations;     // by rule, then row order (time, group)
  bool unjudged = false;  // some rule had no row to judge: a gate that saw no data fails
  bool pass() const { return violations.empty() && !unjudged; }
};

// Whether a row is judged on a rule, and with what: rows without samples and
// rows of window averages (no distribution) are not, nor a percentile the
// row lacks (pi: its index in Row::p). *v in ns; *few: too few samples for
// the percentile; *saturated: a lower bound. The one row judgement of the
// CLI's rules and the page's field (sla_field.h).
bool sla_row_value(const Row& row, bool is_max, size_t pi, double* v, bool* few, bool* saturated);
// The comparison: a value violates a rule unless v < t ('<') or v <= t.
inline bool sla_violates(double v, bool strict, double threshold) {
  return strict ? !(v < threshold) : !(v <= threshold);
}

// percentiles: the query's QueryOptions::percentiles (rows' p parallel to it);
// every rule's percentile must be among them (add_sla_percentiles).
SlaReport evaluate_sla(const QueryResult& r, const std::vector<double>& percentiles,
                       const std::vector<SlaRule>& rules);

// Lines for stderr: per rule at most max_listed violations ("12000 ms all:
// p99 = 6.2 ms > 5 ms"), "... N more", then "p99<=5ms: 12 of 61 quanta
// violated (19.7%)". Numbers through format_number (report.h).
std::vector<std::string> sla_listing(const QueryResult& r, const std::vector<SlaRule>& rules,
                                     const SlaReport& rep, size_t max_listed = 10);

// A short Markdown verdict for a CI comment: title with pass/fail, the
// context line, a table with one row per rule (quanta violated / total,
// worst value, when and in which group). Every name is escaped for Markdown.
std::string sla_markdown(const QueryResult& r, const std::vector<SlaRule>& rules, const SlaReport& rep,
                         const std::string& context);

// Text for Markdown: characters with a Markdown or HTML meaning are
// backslash-escaped or written as entities; control bytes as \xNN.
std::string markdown_escape(const std::string& s);

}  // namespace latscope
