// SLA rules: parsing, evaluation over query rows, and the verdict's text
// (docs/ci-reports.md).
#include "latscope/sla.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "latscope/report.h"

namespace latscope {
namespace {

Status bad(const std::string& rule, const std::string& why) {
  return Status::Error(ErrorCode::kInvalidArgument, "SLA rule '" + rule + "': " + why);
}

// A plain decimal: digits with at most one '.', nothing else (no sign, no
// exponent, no "inf"), so "5ms" and "99.9" are read the same everywhere.
bool parse_decimal(const std::string& s, double* out) {
  if (s.empty() || s == ".") return false;
  bool dot = false;
  for (char c : s) {
    if (c == '.') {
      if (dot) return false;
      dot = true;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  *out = std::strtod(s.c_str(), nullptr);
  return std::isfinite(*out);
}

Status parse_rule(const std::string& text, SlaRule* r) {
  r->text = text;
  const size_t op = text.find('<');
  if (op == std::string::npos)
    return bad(text, "needs a comparison: <= or < (a rule reads like p99<=5ms)");
  r->what = text.substr(0, op);
  r->strict = !(op + 1 < text.size() && text[op + 1] == '=');
  std::string rhs = text.substr(op + (r->strict ? 1 : 2));
  if (r->what == "max") {
    r->is_max = true;
  } else if (r->what.size() < 2 || r->what[0] != 'p' || !parse_decimal(r->what.substr(1), &r->percentile) ||
             r->percentile > 100) {
    return bad(text, "'" + r->what + "' is not p<P> with P in [0, 100] (p50, p99.9) or max");
  }
  size_t num_end = 0;
  while (num_end < rhs.size() && ((rhs[num_end] >= '0' && rhs[num_end] <= '9') || rhs[num_end] == '.')) ++num_end;
  const std::string number = rhs.substr(0, num_end);
  r->unit = rhs.substr(num_end);
  if (!parse_decimal(number, &r->threshold_ns))
    return bad(text, "the threshold '" + rhs + "' is not a number with a unit (5ms, 250us)");
  if (r->unit == "ns") r->unit_ns = 1;
  else if (r->unit == "us") r->unit_ns = 1e3;
  else if (r->unit == "ms") r->unit_ns = 1e6;
  else if (r->unit == "s") r->unit_ns = 1e9;
  else if (r->unit.empty()) return bad(text, "the threshold needs a unit: ns, us, ms or s");
  else return bad(text, "unknown unit '" + r->unit + "'; the units are ns, us, ms and s");
  r->threshold_ns *= r->unit_ns;
  return Status::Ok();
}

// The percentile's index in the query (exact match: add_sla_percentiles put
// the rule's own double there when the user had not asked for it).
size_t pct_index(const std::vector<double>& ps, double p) {
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps[i] == p) return i;
  return ps.size();
}

std::string in_unit(double ns, const SlaRule& rule) { return format_number(ns / rule.unit_ns) + " " + rule.unit; }

std::string quanta_word(uint64_t n) { return n == 1 ? "quantum" : "quanta"; }

void tally(SlaTally* o, size_t row, double v, bool few, bool bad) {
  ++o->evaluated;
  if (few) ++o->few;
  if (bad) ++o->violated;
  if (!o->has_worst || v > o->worst_ns) {
    o->has_worst = true;
    o->worst_ns = v;
    o->worst_row = row;
    o->worst_few = few;
  }
}

}  // namespace

uint64_t sla_quanta(const QueryResult& q) {
  uint64_t n = 0;
  for (size_t i = 0; i < q.rows.size(); ++i)
    if (i == 0 || q.rows[i].t_ms != q.rows[i - 1].t_ms) ++n;
  return n;
}

std::string sla_percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "0";
  return format_number(std::round(1000.0 * static_cast<double>(part) / static_cast<double>(whole)) / 10);
}

std::string sla_judged_text(uint64_t violated, uint64_t evaluated, size_t groups, uint64_t quanta,
                            const std::string& quantum) {
  const auto word = [&](uint64_t n) {
    const std::string w = quanta_word(n);
    return quantum == "adaptive" ? "adaptive " + w : quantum.empty() ? w : w + " " + quantum;
  };
  const std::string of = std::to_string(violated) + " of " + std::to_string(evaluated) + " ";
  if (groups <= 1) return of + word(evaluated);
  // "122 of 122 rows (2 groups x 61 quanta)", never "122 quanta" for 61.
  std::string s = of + (evaluated == 1 ? "row" : "rows") + " (" + std::to_string(groups) + " groups x " +
                  std::to_string(quanta) + " " + word(quanta);
  const uint64_t all = static_cast<uint64_t>(groups) * quanta;
  if (all > evaluated) s += ", " + std::to_string(all - evaluated) + " without a value to judge";
  return s + ")";
}

Status parse_sla(const std::string& spec, std::vector<SlaRule>* out) {
  out->clear();
  std::string cur;
  auto flush = [&]() -> Status {
    if (cur.empty()) return bad(spec, "an empty rule (rules are comma-separated, like p99<=5ms,p99.9<=20ms)");
    SlaRule r;
    Status st = parse_rule(cur, &r);
    if (st.ok()) out->push_back(r);
    cur.clear();
    return st;
  };
  for (char c : spec) {
    if (c == ' ' || c == '\t') continue;  // "p99 <= 5 ms" reads as p99<=5ms
    if (c == ',') {
      Status st = flush();
      if (!st.ok()) return st;
    } else {
      cur += c;
    }
  }
  return flush();
}

size_t add_sla_percentiles(const std::vector<SlaRule>& rules, std::vector<double>* percentiles,
                           std::vector<std::string>* labels) {
  size_t added = 0;
  for (const SlaRule& r : rules) {
    if (r.is_max || pct_index(*percentiles, r.percentile) < percentiles->size()) continue;
    percentiles->push_back(r.percentile);
    labels->push_back(r.what);
    ++added;
  }
  return added;
}

void keep_percentiles(QueryResult* r, size_t n) {
  for (Row& row : r->rows) {
    if (row.p.size() <= n) continue;
    row.p.resize(n);
    // As the query sets them (core/src/query/query.cc): from the kept values.
    row.flags &= ~(kFlagFewSamples | kFlagSaturated);
    for (const PercentileValue& v : row.p) {
      if (v.few_samples) row.flags |= kFlagFewSamples;
      if (v.saturated) row.flags |= kFlagSaturated;
    }
    if (row.stats.saturated) row.flags |= kFlagSaturated;
  }
}

bool sla_row_value(const Row& row, bool is_max, size_t pi, double* v, bool* few, bool* saturated) {
  // No samples, or window averages (no distribution): nothing to judge.
  if (row.flags & (kFlagEmpty | kFlagWindowValues)) return false;
  if (!is_max && pi >= row.p.size()) return false;
  *v = is_max ? row.stats.max_ns : row.p[pi].value_ns;
  *few = !is_max && row.p[pi].few_samples;
  *saturated = is_max ? row.stats.saturated : row.p[pi].saturated;
  return true;
}

SlaReport evaluate_sla(const QueryResult& q, const std::vector<double>& percentiles,
                       const std::vector<SlaRule>& rules) {
  SlaReport rep;
  rep.rules.resize(rules.size());
  for (size_t k = 0; k < rules.size(); ++k) {
    const SlaRule& rule = rules[k];
    const size_t pi = rule.is_max ? 0 : pct_index(percentiles, rule.percentile);
    SlaRuleOutcome& o = rep.rules[k];
    o.pi = pi;
    o.groups.resize(q.groups.size());
    for (size_t i = 0; i < q.rows.size(); ++i) {
      const Row& row = q.rows[i];
      double v = 0;
      bool few = false, sat = false;
      if (!sla_row_value(row, rule.is_max, pi, &v, &few, &sat)) continue;
      const bool bad = sla_violates(v, rule.strict, rule.threshold_ns);
      tally(&o, i, v, few, bad);
      if (row.group < o.groups.size()) tally(&o.groups[row.group], i, v, few, bad);
      if (bad) rep.violations.push_back({k, i, v, few, sat});
    }
    if (o.evaluated == 0) rep.unjudged = true;
  }
  return rep;
}

std::vector<std::string> sla_listing(const QueryResult& q, const std::vector<SlaRule>& rules,
                                     const SlaReport& rep, size_t max_listed) {
  std::vector<std::string> lines;
  const uint64_t nq = sla_quanta(q);
  size_t v = 0;
  for (size_t k = 0; k < rules.size(); ++k) {
    const SlaRule& rule = rules[k];
    size_t listed = 0;
    for (; v < rep.violations.size() && rep.violations[v].rule == k; ++v) {
      const SlaViolation& x = rep.violations[v];
      if (listed++ >= max_listed) continue;
      const Row& row = q.rows[x.row];
      std::string line = rule.text + " violated: " + format_number(row.t_ms) + " ms, " + q.groups[row.group] +
                         ": " + rule.what + " = " + in_unit(x.value_ns, rule) + (rule.strict ? " >= " : " > ") +
                         in_unit(rule.threshold_ns, rule);
      if (x.few) line += " (few samples for " + rule.what + ")";
      if (x.saturated) line += " (lower bound: saturated)";
      lines.push_back(line);
    }
    if (listed > max_listed) lines.push_back("... " + std::to_string(listed - max_listed) + " more");
    const SlaRuleOutcome& o = rep.rules[k];
    std::string sum = rule.text + ": " + sla_judged_text(o.violated, o.evaluated, q.groups.size(), nq) +
                      " violated (" + sla_percent(o.violated, o.evaluated) + "%)";
    if (o.few) sum += "; " + std::to_string(o.few) + " with few samples for " + rule.what;
    if (o.evaluated == 0) sum += "; no quantum has samples to judge: the rule fails";
    lines.push_back(sum);
  }
  return lines;
}

std::string markdown_escape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (const size_t bidi = bidi_control_len(s, i)) {  // shown, never obeyed (report.h)
      o += bidi_control_text(s, i, bidi);
      i += bidi - 1;
    } else if (c == '<') {
      o += "&lt;";
    } else if (c == '>') {
      o += "&gt;";
    } else if (c == '&') {
      o += "&amp;";
    } else if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '#' ||
               c == '~' || c == '!' || c == '(' || c == ')') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      o += b;
    } else {
      o += static_cast<char>(c);
    }
  }
  return o;
}

}  // namespace latscope
