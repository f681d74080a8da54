// The SLA verdict for people and the report's static layer
// (docs/ci-reports.md, "The Markdown verdict" and "The static layer"): on
// the README's client/server run by host, the Markdown's tables parse (every
// row has its header's cells), its numbers are readable, its Mermaid chart
// is well formed and draws the judged values; the HTML needs no script and
// no style.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/report_page.h"
#include "latscope/sla.h"
#include "latscope/svg.h"
#include "latscope/text.h"

namespace latscope {
namespace {

struct JudgedRun {
  QueryResult r;
  std::vector<double> ps{50, 99};
  std::vector<SlaRule> rules;
  SlaReport rep;
};

JudgedRun s1_by_host(const std::string& spec) {
  JudgedRun run;
  Engine e;
  EXPECT_TRUE(fixtures::load(&e, fixtures::list(fixtures::path("fio-s1"), "s1_clat_hist."), FileOptions()));
  EXPECT_TRUE(parse_sla(spec, &run.rules).ok());
  std::vector<std::string> labels{"p50", "p99"};
  add_sla_percentiles(run.rules, &run.ps, &labels);
  QueryOptions q;
  q.percentiles = run.ps;
  q.group_by = {"host"};
  EXPECT_TRUE(e.query(q, &run.r).ok());
  run.rep = evaluate_sla(run.r, run.ps, run.rules);
  return run;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A GitHub-flavoured Markdown table row's cells: split at '|' that is neither
// backslash-escaped nor inside a code span (GFM, "Tables").
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool code = false;
  for (size_t i = 1; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      cur += line.substr(i, 2);
      ++i;
    } else if (c == '`') {
      code = !code;
      cur += c;
    } else if (c == '|' && !code) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

struct MdTable {
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
};

// Every table of the document; fails the test when a row's cell count
// differs from its header's or the delimiter row is not one.
std::vector<MdTable> tables(const std::string& md) {
  std::vector<MdTable> out;
  const std::vector<std::string> ls = lines_of(md);
  for (size_t i = 0; i < ls.size(); ++i) {
    if (ls[i].empty() || ls[i][0] != '|') continue;
    MdTable t;
    t.head = cells(ls[i]);
    EXPECT_LT(i + 1, ls.size());
    const std::vector<std::string> delim = cells(ls[i + 1]);
    EXPECT_EQ(delim.size(), t.head.size()) << ls[i + 1];
    for (const std::string& d : delim) EXPECT_TRUE(d == " --- " || d == " ---: ") << d;
    for (i += 2; i < ls.size() && !ls[i].empty() && ls[i][0] == '|'; ++i) {
      t.rows.push_back(cells(ls[i]));
      EXPECT_EQ(t.rows.back().size(), t.head.size()) << ls[i];
    }
    out.push_back(t);
  }
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

TEST(Readable, LatenciesAndTimes) {
  EXPECT_EQ(latency_text(13.9612e6), "13.96 ms");
  EXPECT_EQ(latency_text(2.437903119e6), "2.438 ms");
  EXPECT_EQ(latency_text(250e3), "250 us");
  EXPECT_EQ(latency_text(999.96e3), "1 ms");  // rounding carries into the next unit
  EXPECT_EQ(latency_text(58.57624543e6, 3), "58.6 ms");
  EXPECT_EQ(latency_text(0), "0 ns");
  EXPECT_EQ(latency_text(1.5e9), "1.5 s");
  EXPECT_EQ(latency_text(3600e9), "3600 s");
  EXPECT_EQ(run_time_text(60000), "1:00");
  EXPECT_EQ(run_time_text(5000), "0:05");
  EXPECT_EQ(run_time_text(0), "0:00");
  EXPECT_EQ(run_time_text(3723000), "1:02:03");
  EXPECT_EQ(run_time_text(250), "0:00.25");
  EXPECT_EQ(run_time_text(-1000), "-0:01");
  EXPECT_EQ(utc_time_text(1700000000000.0), "22:13:20");
  EXPECT_EQ(utc_time_text(1700000000999.0, true), "2023-11-14 22:13:20");
}

TEST(SlaVerdict, MarkdownTablesParseAndSayRowsGroupsAndQuanta) {
  const JudgedRun run = s1_by_host("p99<=2ms,p99.9<=20ms");
  ASSERT_EQ(run.r.groups.size(), 2u);
  SlaVerdictOptions vo;
  vo.context = "4 inputs";
  vo.artifacts = {{"latency report.html", "the report"}, {"svg/pctiles.svg", "a chart"}};
  const std::string md = sla_markdown(run.r, run.rules, run.rep, vo);
  const std::vector<MdTable> ts = tables(md);
  ASSERT_EQ(ts.size(), 3u) << md;  // rules, per group, worst quanta
  const uint64_t nq = sla_quanta(run.r);
  // The rules: rows judged, spelled as rows of 2 groups x N quanta.
  ASSERT_EQ(ts[0].rows.size(), 2u);
  const SlaRuleOutcome& o = run.rep.rules[0];
  EXPECT_EQ(trim(ts[0].rows[0][2]), std::to_string(o.violated) + " of " + std::to_string(o.evaluated) +
                                        " rows (2 groups x " + std::to_string(nq) + " quanta" +
                                        (o.evaluated < 2 * nq ? ", " + std::to_string(2 * nq - o.evaluated) +
                                                                    " without a value to judge)"
                                                              : ")") +
                                        " (" + sla_percent(o.violated, o.evaluated) + "%)");
  EXPECT_EQ(trim(ts[0].rows[0][1]), "FAIL");
  // Per group: both hosts for both rules, counts adding up to the total.
  ASSERT_EQ(ts[1].rows.size(), 4u);
  uint64_t violated = 0;
  for (size_t g = 0; g < 2; ++g) {
    const std::string c = trim(ts[1].rows[g][2]);
    violated += std::stoull(c.substr(0, c.find(' ')));
    EXPECT_NE(c.find(" quanta ("), std::string::npos) << c;
  }
  EXPECT_EQ(violated, o.violated);
  // Readable numbers: every latency to at most 4 significant digits.
  const std::regex latency(R"((\d+)(\.(\d+))? (ns|us|ms|s)( \(few samples\))?)");
  for (const MdTable& t : ts)
    for (const std::vector<std::string>& row : t.rows)
      for (const std::string& c : row) {
        std::smatch m;
        const std::string v = trim(c);
        if (!std::regex_match(v, m, latency)) continue;
        const std::string digits = m[1].str() + m[3].str();
        EXPECT_LE(digits.size() - std::min(digits.find_first_not_of('0'), digits.size()), 4u) << v;
      }
  // The worst quanta: the furthest over its threshold first.
  double worst = 0;
  for (const SlaViolation& v : run.rep.violations)
    worst = std::max(worst, v.value_ns / run.rules[v.rule].threshold_ns);
  EXPECT_EQ(trim(ts[2].rows[0][4]), format_number(std::round(worst * 100)) + "%");
  EXPECT_LE(ts[2].rows.size(), 5u);
  // The artifacts, names escaped.
  EXPECT_NE(md.find("- latency report.html: the report\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- svg/pctiles.svg: a chart"), std::string::npos) << md;
}

TEST(SlaVerdict, MermaidChartIsWellFormedAndDrawsTheWorstGroupsValues) {
  const JudgedRun run = s1_by_host("p99<=2ms");
  SlaVerdictOptions vo;
  vo.chart_points = 8;  // 20 quanta: buckets of 3, each drawn at its highest value
  const std::string md = sla_markdown(run.r, run.rules, run.rep, vo);
  const size_t a = md.find("```mermaid\n");
  ASSERT_NE(a, std::string::npos) << md;
  const size_t b = md.find("\n```\n", a);
  ASSERT_NE(b, std::string::npos);
  const std::vector<std::string> ls = lines_of(md.substr(a, b - a));
  ASSERT_EQ(ls.size(), 7u) << md.substr(a, b - a);
  EXPECT_EQ(ls[1], "xychart-beta");
  EXPECT_TRUE(std::regex_match(ls[2], std::regex(R"(  title "[^"]+")"))) << ls[2];
  const std::regex xaxis(R"re(  x-axis \[("[0-9:.]+")(, "[0-9:.]+")*\])re");
  EXPECT_TRUE(std::regex_match(ls[3], xaxis)) << ls[3];
  std::smatch m;
  ASSERT_TRUE(std::regex_match(ls[4], m, std::regex(R"(  y-axis "ms" 0 --> ([0-9.]+))"))) << ls[4];
  const double top = std::stod(m[1]);
  const auto numbers = [](const std::string& line) {
    std::vector<double> v;
    EXPECT_TRUE(std::regex_match(line, std::regex(R"(  line \[[0-9.]+(, [0-9.]+)*\])"))) << line;
    std::string s = line.substr(line.find('[') + 1);
    std::replace(s.begin(), s.end(), ',', ' ');
    std::istringstream in(s);
    for (double x; in >> x;) v.push_back(x);
    return v;
  };
  const std::vector<double> value = numbers(ls[5]), threshold = numbers(ls[6]);
  const size_t labels = static_cast<size_t>(std::count(ls[3].begin(), ls[3].end(), '"')) / 2;
  EXPECT_EQ(value.size(), labels);
  EXPECT_EQ(threshold.size(), labels);
  EXPECT_LE(labels, 8u);
  for (double t : threshold) EXPECT_EQ(t, 2);
  // The chart's highest point is the worst judged p99 (rounded to 4 digits),
  // and the axis holds it.
  double worst = 0;
  for (const Row& row : run.r.rows)
    if (!(row.flags & (kFlagEmpty | kFlagWindowValues)))
      worst = std::max(worst, row.p[run.rep.rules[0].pi].value_ns / 1e6);
  EXPECT_NEAR(*std::max_element(value.begin(), value.end()), worst, worst * 1e-3);
  EXPECT_GE(top, worst);
}

TEST(SlaVerdict, HtmlAndStaticLayerNeedNoScriptNorStyle) {
  JudgedRun run = s1_by_host("p99<=2ms");
  run.r.groups[0] = "<img src=x onerror=alert(1)>";
  SlaVerdictOptions vo;
  vo.artifacts = {{"r.html", "the report"}};
  ReportStatic s;
  s.title = "latscope report: SLA FAIL";
  s.context = "1 input (<b>x</b>)";
  s.verdict_html = sla_html(run.r, run.rules, run.rep, vo);
  SvgContext ctx;
  ctx.inputs = {"a.log"};
  s.pctiles_svg = pctiles_svg(run.r, {"p50", "p99"}, ctx, run.rules, &run.rep);
  s.links = {{"svg dir/pctiles.svg", "pctiles.svg"}};
  const std::string h = report_static_html(s);
  for (const char* banned : {"style", "<script", "<img", "<b>", "<?xml", "javascript:", "onerror=\""})
    EXPECT_EQ(h.find(banned), std::string::npos) << banned;
  EXPECT_EQ(h.rfind("<div id=\"latscope-static\"", 0), 0u);
  EXPECT_NE(h.find("<svg xmlns="), std::string::npos);
  EXPECT_NE(h.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(h.find("<a href=\"svg%20dir/pctiles.svg\">pctiles.svg</a>"), std::string::npos);
  EXPECT_NE(h.find("<td align=\"right\">"), std::string::npos);
  EXPECT_EQ(url_path("a b/\xc3\xbc\"<.svg"), "a%20b/%C3%BC%22%3C.svg");
}

TEST(SlaVerdict, StaticLayerTakesItsMarkerOnce) {
  const std::string data = kReportDataMarker;
  const std::string mark = kReportStaticMarker;
  const uint8_t bytes[] = {'L'};
  std::string out;
  ASSERT_TRUE(embed_report("<body>" + mark + data + "</body>", "n", bytes, 1, &out, "", "",
                           "<div id=\"latscope-static\">V</div>")
                  .ok());
  EXPECT_EQ(out.rfind("<body><div id=\"latscope-static\">V</div><script", 0), 0u) << out;
  const Status none = embed_report("<body>" + data + "</body>", "n", bytes, 1, &out, "", "", "<div>V</div>");
  EXPECT_NE(none.message.find("the template has no " + mark), std::string::npos) << none.message;
  const Status two = embed_report(mark + mark + data, "n", bytes, 1, &out, "", "", "<div>V</div>");
  EXPECT_NE(two.message.find("more than once"), std::string::npos) << two.message;
  // Without a static layer the marker is left as it is (an empty element).
  ASSERT_TRUE(embed_report(mark + data, "n", bytes, 1, &out).ok());
  EXPECT_EQ(out.rfind(mark, 0), 0u);
}

}  // namespace
}  // namespace latscope
