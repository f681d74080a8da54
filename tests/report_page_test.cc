// `latscope report`'s pieces (docs/ci-reports.md): base64 (RFC 4648's test
// vectors), the data block's escaping inside <script>, the template marker,
// and the SVG charts' contents and escaping (XML validity itself is checked
// with a real XML parser in tests/report_test.sh).
#include <gtest/gtest.h>

#include <set>

#include "codec/base64.h"
#include "fixture_util.h"
#include "latscope/report_page.h"
#include "latscope/svg.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

std::string b64(const std::string& s) { return base64_encode(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

TEST(ReportPage, Base64Rfc4648Vectors) {
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  EXPECT_EQ(b64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(b64(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(ReportPage, NamesCannotLeaveTheScriptElement) {
  const std::string s = script_json_string("</script><img src=x onerror=alert(1)><!--\"\n");
  EXPECT_EQ(s, "\"<\\/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\u003c!--\\\"\\n\"");
  EXPECT_EQ(s.find("</"), std::string::npos);
  EXPECT_EQ(s.find("<!--"), std::string::npos);
}

TEST(ReportPage, MarkerReplacedExactlyOnce) {
  const std::string m = kReportDataMarker;
  const uint8_t bytes[] = {'L', 'S', 'R'};
  std::string out;
  ASSERT_TRUE(embed_report("<p>a</p>" + m + "<p>b</p>", "x</y", bytes, 3, &out).ok());
  EXPECT_EQ(out,
            "<p>a</p><script type=\"application/json\" id=\"latscope-data\">"
            "{\"version\":1,\"name\":\"x<\\/y\",\"result\":\"TFNS\",\"view\":{}}</script><p>b</p>");
  Status st = embed_report("<html></html>", "x", bytes, 3, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("has no <script type=\"application/json\" id=\"latscope-data\">null</script>"),
            std::string::npos);
  st = embed_report(m + m, "x", bytes, 3, &out);
  EXPECT_NE(st.message.find("more than once"), std::string::npos);
  // --sla rules go to the page's view, escaped for the script element.
  ASSERT_TRUE(embed_report(m, "x", bytes, 3, &out, "p99<=5ms,max<1s").ok());
  EXPECT_EQ(out,
            "<script type=\"application/json\" id=\"latscope-data\">"
            "{\"version\":1,\"name\":\"x\",\"result\":\"TFNS\",\"view\":{\"sla\":\"p99\\u003c=5ms,max\\u003c1s\"}}</script>");
}

TEST(ReportSvg, TextIsEscapedAndValidUtf8) {
  EXPECT_EQ(svg::text("<img src=x onerror=\"alert(1)\">&'"),
            "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;");
  EXPECT_EQ(svg::text(std::string("a\x1b[2J\x07")), "a\\x1b[2J\\x07");
  EXPECT_EQ(svg::text("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // valid UTF-8 kept
  EXPECT_EQ(svg::text("\xc3(\xed\xa0\x80\xc0\xaf"), "\\xc3(\\xed\\xa0\\x80\\xc0\\xaf");  // cut, surrogate, overlong
}

TEST(ReportSvg, AxisHelpers) {
  EXPECT_EQ(svg::latency_label(250e3), "250 us");
  EXPECT_EQ(svg::latency_label(1.5e6), "1.5 ms");
  EXPECT_EQ(svg::latency_label(2e9), "2 s");
  EXPECT_EQ(svg::log_ticks(1e3, 1e5), (std::vector<double>{1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5}));
  EXPECT_EQ(svg::log_ticks(1, 1e6).size(), 7u);  // decades only beyond 4 decades
  EXPECT_EQ(svg::linear_ticks(0, 20), (std::vector<double>{0, 5, 10, 15, 20}));
  EXPECT_EQ(svg::time_label(1700000000000.0, true), "22:13:20");
}

// Charts of a real run: one path per percentile x group, one cell per
// non-empty heat-map count, hostile names escaped.
TEST(ReportSvg, SeriesAndCellsOfARealRun) {
  Engine e;
  ASSERT_TRUE(fixtures::load(&e, fixtures::list(fixtures::path("fio-s1"), "s1_clat_hist."), FileOptions()));
  QueryOptions q;
  q.percentiles = {50, 99, 99.9};
  q.group_by = {"host"};
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  ASSERT_EQ(r.groups.size(), 2u);
  SvgContext ctx;
  ctx.inputs = {"<img src=x onerror=alert(1)>_clat_hist.1.log"};
  std::vector<SlaRule> rules;
  ASSERT_TRUE(parse_sla("p99<=2ms", &rules).ok());
  const SlaReport rep = evaluate_sla(r, q.percentiles, rules);
  const std::string p = pctiles_svg(r, {"p50", "p99", "p99.9"}, ctx, rules, &rep);
  EXPECT_EQ(count(p, "class=\"series\""), 6u);
  EXPECT_EQ(count(p, "class=\"threshold\""), 1u);
  std::set<double> bad;
  for (const SlaViolation& v : rep.violations) bad.insert(r.rows[v.row].t_ms);
  EXPECT_GT(bad.size(), 0u);
  EXPECT_EQ(count(p, "class=\"violation\""), bad.size());
  EXPECT_EQ(p.find("<img"), std::string::npos);
  EXPECT_NE(p.find("&lt;img src=x onerror=alert(1)&gt;_clat_hist.1.log"), std::string::npos);
  EXPECT_EQ(p.find("<script"), std::string::npos);

  HeatmapOptions h;
  HeatmapResult hr;
  ASSERT_TRUE(e.heatmap(h, &hr).ok());
  size_t nonzero = 0;
  for (double c : hr.counts) nonzero += c > 0;
  const std::string hm = heatmap_svg(hr, ctx);
  EXPECT_EQ(count(hm, "class=\"cell\""), nonzero);
  EXPECT_EQ(hm.find("<img"), std::string::npos);
  EXPECT_EQ(hm.find("<script"), std::string::npos);
}

}  // namespace
}  // namespace latscope
