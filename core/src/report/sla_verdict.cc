// The SLA verdict for people (docs/ci-reports.md, "The Markdown verdict"):
// one set of tables, written as Markdown for a CI comment and as HTML for
// the report's static layer. The judging is evaluate_sla's (sla.cc); this
// file only words and lays out its counts.
#include <algorithm>
#include <cmath>

#include "latscope/report.h"
#include "latscope/sla.h"
#include "latscope/text.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

struct Cell {
  std::string text;
  bool code = false;  // a rule: a code span in Markdown, <code> in HTML
  // Our own words and numbers ("4 of 20 quanta (20%)"): no name in it, no
  // Markdown to escape, so the comment's source stays readable too.
  bool ours = false;
};

struct Table {
  std::string heading;  // "" for the first table
  std::vector<std::string> head;
  std::vector<bool> right;  // right-aligned columns (numbers)
  std::vector<std::vector<Cell>> rows;
  std::string note;  // a line below the table: our own words, no name
};

// A line chart of one rule: its value per bucket of quanta and its threshold.
struct Chart {
  std::string rule, title, unit;
  std::vector<std::string> x;
  std::vector<double> y;
  double threshold = 0;
};

struct Verdict {
  std::vector<Table> tables;
  std::vector<Chart> charts;
};

// "0:12" since run start, or "12:00:05 UTC" for epoch logs.
std::string when(const QueryResult& q, double t_ms) {
  return q.absolute_time ? utc_time_text(t_ms) + " UTC" : run_time_text(t_ms);
}

std::string where(const QueryResult& q, const Row& row) {
  return when(q, row.t_ms) + ", " + q.groups[row.group];
}

std::string worst_text(const SlaTally& t) {
  return t.has_worst ? latency_text(t.worst_ns) + (t.worst_few ? " (few samples)" : "") : "-";
}

std::string verdict_word(const SlaTally& t) {
  if (t.evaluated == 0) return "FAIL (no data)";
  return t.violated ? "FAIL" : "pass";
}

// A rule's value per bucket of at most o.chart_points, each the highest of
// its quanta over every group: the chart can only hide a violation's width,
// never its height.
Chart rule_chart(const QueryResult& q, const SlaRule& rule, const SlaRuleOutcome& out, size_t points) {
  Chart c;
  c.unit = rule.unit;
  c.threshold = rule.threshold_ns / rule.unit_ns;
  const uint64_t nq = sla_quanta(q);
  const uint64_t per = std::max<uint64_t>(1, (nq + points - 1) / std::max<size_t>(points, 1));
  c.rule = rule.text;
  c.title = rule.what + " per " +
            (per > 1 ? std::to_string(per) + " quanta (highest)" : std::string("quantum")) +
            (q.groups.size() > 1 ? ", worst of " + std::to_string(q.groups.size()) + " groups" : "") + ", " +
            rule.unit + "; flat line: the threshold";
  uint64_t qi = 0;
  double bucket_t = 0, best = -1;
  auto flush = [&]() {
    if (best >= 0) {
      c.x.push_back(when(q, bucket_t));
      c.y.push_back(best / rule.unit_ns);
    }
    best = -1;
  };
  for (size_t i = 0; i < q.rows.size(); ++i) {
    const Row& row = q.rows[i];
    if (i == 0 || row.t_ms != q.rows[i - 1].t_ms) {
      if (i > 0) ++qi;
      if (qi % per == 0) {
        flush();
        bucket_t = row.t_ms;
      }
    }
    double v = 0;
    bool few = false, sat = false;
    if (sla_row_value(row, rule.is_max, out.pi, &v, &few, &sat) && std::isfinite(v)) best = std::max(best, v);
  }
  flush();
  return c;
}

Verdict build(const QueryResult& q, const std::vector<SlaRule>& rules, const SlaReport& rep,
              const SlaVerdictOptions& o) {
  Verdict v;
  const size_t ng = q.groups.size();
  const uint64_t nq = sla_quanta(q);
  const std::string judged = ng > 1 ? "rows violated" : "quanta violated";
  Table t{"", {"rule", "verdict", judged, "worst", "when"}, {false, false, true, true, false}, {}, ""};
  for (size_t k = 0; k < rules.size(); ++k) {
    const SlaRuleOutcome& out = rep.rules[k];
    t.rows.push_back({{rules[k].text, true},
                      {verdict_word(out), false, true},
                      {sla_judged_text(out.violated, out.evaluated, ng, nq) + " (" +
                           sla_percent(out.violated, out.evaluated) + "%)",
                       false, true},
                      {worst_text(out), false, true},
                      {out.has_worst ? where(q, q.rows[out.worst_row]) : "no samples"}});
  }
  if (ng > 1)
    t.note = "A row is one group in one quantum: " + std::to_string(ng) + " groups x " + std::to_string(nq) +
             (nq == 1 ? " quantum." : " quanta.");
  v.tables.push_back(t);

  if (ng > 1) {
    Table g{"Per group",
            {"rule", "group", "quanta violated", "worst", "when"},
            {false, false, true, true, false},
            {},
            ""};
    for (size_t k = 0; k < rules.size(); ++k) {
      const SlaRuleOutcome& out = rep.rules[k];
      // The groups with violations first (most first), then the rest by name order.
      std::vector<size_t> order(out.groups.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return out.groups[a].violated > out.groups[b].violated; });
      for (size_t i = 0; i < order.size() && i < o.max_groups; ++i) {
        const SlaTally& gt = out.groups[order[i]];
        g.rows.push_back({{rules[k].text, true},
                          {q.groups[order[i]]},
                          {sla_judged_text(gt.violated, gt.evaluated, 1, 0) + " (" +
                               sla_percent(gt.violated, gt.evaluated) + "%)",
                           false, true},
                          {worst_text(gt), false, true},
                          {gt.has_worst ? when(q, q.rows[gt.worst_row].t_ms) : "no samples", false, true}});
      }
      if (order.size() > o.max_groups)
        g.rows.push_back({{rules[k].text, true},
                          {std::to_string(order.size() - o.max_groups) + " more groups"},
                          {""},
                          {""},
                          {""}});
    }
    v.tables.push_back(g);
  }

  // The worst violations: the furthest over their threshold first.
  std::vector<const SlaViolation*> bad;
  bad.reserve(rep.violations.size());
  for (const SlaViolation& x : rep.violations) bad.push_back(&x);
  const auto over = [&](const SlaViolation* x) { return x->value_ns / rules[x->rule].threshold_ns; };
  std::stable_sort(bad.begin(), bad.end(),
                   [&](const SlaViolation* a, const SlaViolation* b) { return over(a) > over(b); });
  if (!bad.empty()) {
    Table w{"Worst quanta",
            {"when", "group", "rule", "value", "of the threshold"},
            {false, false, false, true, true},
            {},
            ""};
    for (size_t i = 0; i < bad.size() && i < o.worst; ++i) {
      const SlaViolation& x = *bad[i];
      const Row& row = q.rows[x.row];
      std::string value = latency_text(x.value_ns);
      if (x.few) value += " (few samples)";
      if (x.saturated) value += " (lower bound)";
      w.rows.push_back({{when(q, row.t_ms), false, true},
                        {q.groups[row.group]},
                        {rules[x.rule].text, true},
                        {value, false, true},
                        {format_number(std::round(over(&x) * 100)) + "%", false, true}});
    }
    if (bad.size() > o.worst)
      w.note = std::to_string(bad.size() - o.worst) +
               (bad.size() - o.worst == 1 ? " more violation." : " more violations.");
    v.tables.push_back(w);
  }

  for (size_t k = 0; k < rules.size() && k < o.charts; ++k) {
    Chart c = rule_chart(q, rules[k], rep.rules[k], o.chart_points);
    if (!c.y.empty()) v.charts.push_back(c);
  }
  return v;
}

// A chart number: four significant digits are plenty for a picture.
std::string chart_number(double v) {
  if (!(v > 0)) return "0";
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(v)));
  return format_number(std::round(v * scale) / scale);
}

// Mermaid's xychart (https://mermaid.js.org/syntax/xyChart.html), which
// GitHub, GitLab and others render in Markdown: the value and a flat line at
// the threshold. Labels are quoted; they hold digits, ':' and "UTC" only.
std::string mermaid(const Chart& c) {
  double top = c.threshold;
  for (double y : c.y) top = std::max(top, y);
  if (!(top > 0)) top = 1;  // a rule at 0 over zeros: an axis still needs a span
  std::string o = "```mermaid\nxychart-beta\n  title \"" + c.title + "\"\n  x-axis [";
  for (size_t i = 0; i < c.x.size(); ++i) o += (i ? ", \"" : "\"") + c.x[i] + "\"";
  o += "]\n  y-axis \"" + c.unit + "\" 0 --> " + chart_number(top * 1.1) + "\n  line [";
  for (size_t i = 0; i < c.y.size(); ++i) o += (i ? ", " : "") + chart_number(c.y[i]);
  o += "]\n  line [";
  for (size_t i = 0; i < c.y.size(); ++i) o += (i ? ", " : "") + chart_number(c.threshold);
  return o + "]\n```\n";
}

std::string md_cell(const Cell& c) {
  // parse_sla admits only p<digits>, max, <, =, digits, '.' and a unit:
  // nothing in a rule can end a code span.
  return c.code ? "`" + c.text + "`" : c.ours ? c.text : markdown_escape(c.text);
}

std::string html_cell(const Cell& c) {
  return c.code ? "<code>" + svg::text(c.text) + "</code>" : svg::text(c.text);
}

}  // namespace

std::string sla_markdown(const QueryResult& q, const std::vector<SlaRule>& rules, const SlaReport& rep,
                         const SlaVerdictOptions& o) {
  const Verdict v = build(q, rules, rep, o);
  std::string s = std::string("## latscope SLA: ") + (rep.pass() ? "PASS" : "FAIL") + "\n\n";
  if (!o.context.empty()) s += markdown_escape(o.context) + "\n\n";
  for (const Table& t : v.tables) {
    if (!t.heading.empty()) s += "### " + markdown_escape(t.heading) + "\n\n";
    s += "|";
    for (const std::string& h : t.head) s += " " + markdown_escape(h) + " |";
    s += "\n|";
    for (bool r : t.right) s += r ? " ---: |" : " --- |";
    s += "\n";
    for (const std::vector<Cell>& row : t.rows) {
      s += "|";
      for (const Cell& c : row) s += " " + md_cell(c) + " |";
      s += "\n";
    }
    if (!t.note.empty()) s += "\n" + t.note + "\n";
    s += "\n";
  }
  bool few = false;
  for (const SlaRuleOutcome& out : rep.rules) few = few || out.few > 0;
  if (few)
    s += "Some quanta hold too few I/Os for the percentile they are judged on (counted all the same; "
         "see the listing on stderr).\n\n";
  for (const Chart& c : v.charts) s += "### `" + c.rule + "` over time\n\n" + mermaid(c) + "\n";
  if (!o.artifacts.empty()) {
    s += "### Artifacts\n\n";
    for (const auto& a : o.artifacts)
      s += "- " + markdown_escape(a.first) + ": " + markdown_escape(a.second) + "\n";
  }
  while (s.size() > 1 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  return s;
}

std::string sla_html(const QueryResult& q, const std::vector<SlaRule>& rules, const SlaReport& rep,
                     const SlaVerdictOptions& o) {
  const Verdict v = build(q, rules, rep, o);
  std::string s = std::string("<h2>SLA: ") + (rep.pass() ? "PASS" : "FAIL") + "</h2>\n";
  for (const Table& t : v.tables) {
    if (!t.heading.empty()) s += "<h3>" + svg::text(t.heading) + "</h3>\n";
    s += "<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n<tr>";
    for (size_t i = 0; i < t.head.size(); ++i)
      s += std::string(t.right[i] ? "<th align=\"right\">" : "<th align=\"left\">") + svg::text(t.head[i]) +
           "</th>";
    s += "</tr>\n";
    for (const std::vector<Cell>& row : t.rows) {
      s += "<tr>";
      for (size_t i = 0; i < row.size(); ++i)
        s += std::string(t.right[i] ? "<td align=\"right\">" : "<td>") + html_cell(row[i]) + "</td>";
      s += "</tr>\n";
    }
    s += "</table>\n";
    if (!t.note.empty()) s += "<p>" + svg::text(t.note) + "</p>\n";
  }
  if (!o.artifacts.empty()) {
    s += "<h3>Artifacts</h3>\n<ul>\n";
    for (const auto& a : o.artifacts)
      s += "<li><code>" + svg::text(a.first) + "</code>: " + svg::text(a.second) + "</li>\n";
    s += "</ul>\n";
  }
  return s;
}

}  // namespace latscope
