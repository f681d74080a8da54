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
#include <utility>
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

// A rule's counts over some rows (all of them, or one group's).
struct SlaTally {
  uint64_t evaluated = 0;  // rows (group x quantum) with a value
  uint64_t violated = 0;
  uint64_t few = 0;        // evaluated rows flagged few for this percentile
  bool has_worst = false;  // worst_*: the evaluated row with the highest value
  double worst_ns = 0;
  size_t worst_row = 0;
  bool worst_few = false;  // that row has too few samples for the percentile
};

struct SlaRuleOutcome : SlaTally {
  size_t pi = 0;                  // the percentile's index in Row::p (0 for max)
  std::vector<SlaTally> groups;   // by QueryResult::groups index
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

// "12 of 61 quanta" for one group; with several, the judged rows and what
// they are: "122 of 122 rows (2 groups x 61 quanta)", plus ", 3 without a
// value to judge" when rows of groups x quanta were not judged (empty,
// window averages). quantum: "" (the CLI's listing), "of 1 s" (the page's
// sentence: "quanta of 1 s") or "adaptive" ("adaptive quanta"). "1 quantum",
// "1 row" in the singular. The one wording of the CLI and the page.
std::string sla_judged_text(uint64_t violated, uint64_t evaluated, size_t groups, uint64_t quanta,
                            const std::string& quantum = std::string());
// part/whole in percent to a tenth ("19.7"; "0" when whole is 0).
std::string sla_percent(uint64_t part, uint64_t whole);
// The quanta a query's rows span (rows come by time, then group).
uint64_t sla_quanta(const QueryResult& q);

// percentiles: the query's QueryOptions::percentiles (rows' p parallel to it);
// every rule's percentile must be among them (add_sla_percentiles).
SlaReport evaluate_sla(const QueryResult& r, const std::vector<double>& percentiles,
                       const std::vector<SlaRule>& rules);

// Lines for stderr: per rule at most max_listed violations ("12000 ms all:
// p99 = 6.2 ms > 5 ms"), "... N more", then "p99<=5ms: 12 of 61 quanta
// violated (19.7%)". Numbers through format_number (report.h).
std::vector<std::string> sla_listing(const QueryResult& r, const std::vector<SlaRule>& rules,
                                     const SlaReport& rep, size_t max_listed = 10);

// What a verdict says besides the counts (docs/ci-reports.md, "The
// Markdown verdict").
struct SlaVerdictOptions {
  std::string context;  // "4 inputs (a, ...), quantum 1 s, 0:00 ... 0:20, 1 group (all)"
  // The files a CI job archives beside the verdict: name, what it is.
  std::vector<std::pair<std::string, std::string>> artifacts;
  size_t max_groups = 20;    // per-group rows shown per rule, then "N more groups"
  size_t worst = 5;          // the worst violating rows listed
  size_t chart_points = 60;  // Mermaid chart points: longer runs take each bucket's highest value
  size_t charts = 3;         // Mermaid charts: one per rule, the first ones
};

// The verdict for a CI comment: title with pass/fail, the context, a table
// with one row per rule (rows judged and violated, worst value, when and in
// which group), per group with several, the worst violating rows, a Mermaid
// xychart per rule (the rule's value per quantum, the worst group's, and the
// threshold) and the artifacts. Numbers readable (latency_text,
// run_time_text: "13.96 ms", "1:00"); every name escaped for Markdown.
std::string sla_markdown(const QueryResult& r, const std::vector<SlaRule>& rules, const SlaReport& rep,
                         const SlaVerdictOptions& o);
// The same tables as HTML that needs no style (the report's static layer,
// report_page.h): attributes only, every text escaped; no chart (the report
// draws its SVG charts).
std::string sla_html(const QueryResult& r, const std::vector<SlaRule>& rules, const SlaReport& rep,
                     const SlaVerdictOptions& o);

// Text for Markdown: characters with a Markdown or HTML meaning are
// backslash-escaped or written as entities; control bytes as \xNN.
std::string markdown_escape(const std::string& s);

}  // namespace latscope
