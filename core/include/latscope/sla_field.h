// The page's SLA field (docs/page-views.md "SLA"), judged by core as
// `latscope pctiles --sla` is (sla.h), so the page keeps only the drawing.
//
//   "p99 < 2 ms; 500us"  --parse_sla_field(text, shown unit)-->  SlaFieldRule list
//   SlaFieldJudge: a RowSink that judges every rule on every row of the
//     page's percentiles query, per group and summed over groups
//   sla_field_json: the rules and their verdicts with the sentences the page
//     shows ("host=a: p99 < 2 ms violated in 12 of 61 quanta of 1 s (19.7%)")
//
// The field's language is the CLI's rules (parse_sla) with defaults: WHAT
// may be left out (one rule per shown percentile), OP too (<=), and UNIT
// (the shown unit); "µs" reads as us, case does not matter, rules may be
// separated by ';' as well as ','. A row is judged as evaluate_sla judges
// it (sla_row_value), in ns; rows whose value is not a number are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/sla.h"
#include "latscope/status.h"

namespace latscope {

struct SlaFieldRule {
  std::string text;       // normalised: "p99<2ms", "max<=1s", "<=500us" (every shown percentile)
  std::string what;       // "p99", "p99.9", "max" or "" (every shown percentile)
  bool has_p = false;     // a percentile rule (not max, not every)
  double p = 0;
  bool strict = false;    // '<' (else '<=')
  std::string number;     // the threshold as typed: "2", ".5"
  double threshold = 0;   // in unit
  std::string unit;       // ns, us, ms or s
  double threshold_ns = 0;
};

// One rule; errors are the page's sentences naming the rule.
Status parse_sla_field_rule(const std::string& text, const std::string& default_unit, SlaFieldRule* out);
// A comma- or semicolon-separated list (blank entries skipped).
Status parse_sla_field(const std::string& text, const std::string& default_unit, std::vector<SlaFieldRule>* out);

// "p99 < 2 ms" (≤ for <=, µs for us): the label of the summary and the charts.
std::string sla_field_label(const SlaFieldRule& r);

struct SlaGroupOutcome {
  uint64_t evaluated = 0;  // quanta judged
  uint64_t violated = 0;
  uint64_t few = 0;        // judged quanta flagged few for the percentile
};

// A rule against the query's percentiles: a rule without WHAT stands for one
// per shown percentile (what "p<P>", max shown as p100); pi: its index into
// Row::p, -1 for max and for a percentile the query lacks (nothing judged).
struct SlaFieldVerdict {
  SlaFieldRule rule;
  int pi = -1;
  bool is_max = false;
  std::vector<SlaGroupOutcome> groups;  // by QueryResult::groups index
  SlaGroupOutcome total;
};

class SlaFieldJudge : public RowSink {
 public:
  // percentiles / labels: the query's (QueryOptions::percentiles, "p" + text).
  SlaFieldJudge(const std::vector<SlaFieldRule>& rules, const std::vector<double>& percentiles,
                const std::vector<std::string>& labels);
  void add(const Row& row) override;
  bool wants_bands() const override { return false; }
  // From here on each row added also leaves one byte per verdict (1: the row
  // breaks it, 0: it keeps it or has no value), in the order rows come: the
  // page's marks of violating quanta (docs/page-views.md, "SLA").
  void keep_marks() { marking_ = true; }
  const std::vector<uint8_t>& marks() const { return marks_; }
  // Verdicts per row of marks(); read it before take().
  size_t width() const { return v_.size(); }
  // The verdicts, groups sized to the query's groups, totals summed.
  std::vector<SlaFieldVerdict> take(size_t ngroups);
  // The quanta the rows came in (rows of several groups share a quantum).
  uint64_t quanta() const { return quanta_; }

 private:
  std::vector<SlaFieldVerdict> v_;
  uint64_t quanta_ = 0;
  double last_t_ = 0;
  bool marking_ = false;
  std::vector<uint8_t> marks_;
};

// One query's rows to two sinks: the page's columns or matrix and the judge
// that marks them, so marks and values are of the same rows, in the same
// order. Bands as the first sink wants them.
class RowTee : public RowSink {
 public:
  RowTee(RowSink* first, RowSink* second) : a_(first), b_(second) {}
  void expect(size_t rows) override {
    a_->expect(rows);
    b_->expect(rows);
  }
  void add(const Row& row) override {
    a_->add(row);
    b_->add(row);
  }
  bool wants_bands() const override { return a_->wants_bands(); }

 private:
  RowSink* a_;
  RowSink* b_;
};

// "host=a: p99 < 2 ms violated in 12 of 61 quanta of 1 s (19.7%)"; a rule
// with nothing to judge says so. quantum_ms 0: adaptive quanta. groups > 1
// (the sum over groups): the count is of rows, "7 of 40 rows (2 groups x 20
// quanta of 1 s)" (sla_judged_text, the CLI's wording), quanta: how many.
std::string sla_field_sentence(const SlaFieldVerdict& v, const std::string& group, const SlaGroupOutcome& o,
                               double quantum_ms, size_t groups = 1, uint64_t quanta = 0);

// {"rules":[{text, what, p, strict, threshold, unit, threshold_ns, label}]}
std::string sla_field_rules_json(const std::vector<SlaFieldRule>& rules);
// {"verdicts":[{rule: {...}, "pi", "max", "groups":[{group, evaluated,
// violated, few, sentence}], "total": {group: "all groups", ...}}]}
// quanta: SlaFieldJudge::quanta(), for the sum's sentence.
std::string sla_field_json(const std::vector<SlaFieldVerdict>& v, const std::vector<std::string>& groups,
                           double quantum_ms, uint64_t quanta);

// The page's number text (web/src/views/scales.js formatNumber): from 100
// up whole with thousands separators, below three significant digits, ties
// away from zero as JavaScript's toFixed / toPrecision round them.
std::string page_number(double v);

}  // namespace latscope
