// The page's SLA field parsed and judged by core (sla_field.h), the page's
// only parser and judge (docs/page-views.md, "SLA"): its rule language, the
// page's number text and sentences, per-group counts that sum to `latscope
// pctiles --sla`'s, and the marks of the rows and groups-matrix cells that
// break a rule.
#include "latscope/sla_field.h"

#include "latscope/report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixture_util.h"

namespace latscope {
namespace {

SlaFieldRule rule(const std::string& text, const std::string& unit = "us") {
  SlaFieldRule r;
  const Status st = parse_sla_field_rule(text, unit, &r);
  EXPECT_TRUE(st.ok()) << text << ": " << st.message;
  return r;
}

std::string error(const std::string& text) {
  SlaFieldRule r;
  const Status st = parse_sla_field_rule(text, "us", &r);
  EXPECT_FALSE(st.ok()) << text;
  return st.message;
}

TEST(SlaField, PageNumbersRoundAsJavaScriptDoes) {
  const std::vector<std::pair<double, std::string>> cases = {
      {0, "0"},          {1.125, "1.13"},         {2.5, "2.5"},     {0.5, "0.5"},         {12.345, "12.3"},
      {99.95, "100"},    {99.949999, "99.9"},      {100.5, "101"},   {1234.5, "1,235"},    {1e6, "1,000,000"},
      {0.000123, "0.000123"}, {1e-7, "1e-7"},      {1.5e-7, "1.5e-7"}, {33.35, "33.4"},    {19.7, "19.7"},
      {100, "100"},      {0.0625, "0.0625"},       {999999.5, "1,000,000"}, {12345678.9, "12,345,679"}};
  for (const auto& [v, want] : cases) EXPECT_EQ(page_number(v), want) << v;
}

TEST(SlaField, RulesTakeThePagesDefaults) {
  EXPECT_EQ(rule("p99 < 2 ms").text, "p99<2ms");
  EXPECT_EQ(sla_field_label(rule("p99 < 2 ms")), "p99 < 2 ms");
  EXPECT_EQ(rule(" P99.9<=20MS ").text, "p99.9<=20ms");
  EXPECT_EQ(sla_field_label(rule(" P99.9<=20MS ")), "p99.9 \xe2\x89\xa4 20 ms");
  EXPECT_EQ(sla_field_label(rule("max<1s")), "max < 1 s");
  const SlaFieldRule every = rule("500");
  EXPECT_EQ(every.text, "<=500us");
  EXPECT_FALSE(every.has_p);
  EXPECT_EQ(sla_field_label(every), "\xe2\x89\xa4 500 \xc2\xb5s");
  EXPECT_EQ(rule("<.5\xc2\xb5s").text, "<.5us");
  EXPECT_EQ(sla_field_label(rule("<.5\xc2\xb5s")), "< 0.5 \xc2\xb5s");
  EXPECT_EQ(rule("p99<2").text, "p99<2us");
  EXPECT_EQ(rule("p99<2", "ms").threshold_ns, 2e6);
  EXPECT_EQ(error("p101<2ms"), "\"p101<2ms\": p101 is not a percentile between 0 and 100");
  EXPECT_EQ(error("p99<2 parsecs"), "\"p99<2 parsecs\" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s");
  EXPECT_EQ(error("p99<0ms"), "\"p99<0ms\": the threshold must be a positive number of ns, us, ms or s");
  std::vector<SlaFieldRule> list;
  ASSERT_TRUE(parse_sla_field("p99<2ms; ,max<1s,", "us", &list).ok());
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].text, "max<1s");
}

// The cases the page's own JS parser was held to (web/test/unit/groups.test.js
// before core became the page's parser).
TEST(SlaField, ParsesWhatThePageTypes) {
  const SlaFieldRule a = rule("p99 < 2 ms");
  EXPECT_EQ(a.what, "p99");
  EXPECT_TRUE(a.has_p);
  EXPECT_EQ(a.p, 99);
  EXPECT_TRUE(a.strict);
  EXPECT_EQ(a.threshold_ns, 2e6);
  const SlaFieldRule b = rule("p99.9<=20ms");
  EXPECT_EQ(b.text, "p99.9<=20ms");
  EXPECT_FALSE(b.strict);
  EXPECT_EQ(b.threshold_ns, 20e6);
  const SlaFieldRule m = rule("max<1s");
  EXPECT_EQ(m.what, "max");
  EXPECT_FALSE(m.has_p);
  EXPECT_EQ(m.threshold_ns, 1e9);
  const SlaFieldRule u = rule("p50<500\xc2\xb5s", "ms");
  EXPECT_EQ(u.text, "p50<500us");
  EXPECT_EQ(u.threshold_ns, 500e3);
  EXPECT_EQ(rule("p99<2", "ms").text, "p99<2ms");
  const SlaFieldRule every = rule("500");
  EXPECT_EQ(every.text, "<=500us");
  EXPECT_EQ(every.what, "");
  EXPECT_FALSE(every.has_p);
  std::vector<SlaFieldRule> list;
  ASSERT_TRUE(parse_sla_field("p99 < 2ms; p99.9<=20ms, ", "us", &list).ok());
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].text, "p99<2ms");
  EXPECT_EQ(list[1].text, "p99.9<=20ms");
  EXPECT_EQ(sla_field_label(rule("p99<=2000us")), "p99 \xe2\x89\xa4 2,000 \xc2\xb5s");
  for (const char* bad : {"p101<2ms", "p99>2ms", "p99<2 parsecs", "q99<2ms", "p99<0ms", "p99<-1ms"}) {
    const std::string msg = error(bad);
    EXPECT_TRUE(msg.find("rule") != std::string::npos || msg.find("percentile") != std::string::npos ||
                msg.find("positive") != std::string::npos)
        << bad << ": " << msg;
  }
  // A list stops at its first bad rule, with that rule's sentence.
  Status st = parse_sla_field("p99<2ms, p99>2ms", "us", &list);
  EXPECT_EQ(st.message, "\"p99>2ms\" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s");
}

// A rule without WHAT stands for one per shown percentile; a percentile the
// query lacks and max have no index into the row's percentiles.
TEST(SlaField, ExpandsRulesOverTheShownPercentiles) {
  std::vector<SlaFieldRule> rules;
  ASSERT_TRUE(parse_sla_field("2ms, p99.95<5ms, max<1s", "us", &rules).ok());
  SlaFieldJudge judge(rules, {50, 99}, {"p50", "p99"});
  const std::vector<SlaFieldVerdict> v = judge.take(1);
  ASSERT_EQ(v.size(), 4u);
  const std::vector<std::pair<std::string, int>> want = {{"p50", 0}, {"p99", 1}, {"p99.95", -1}, {"max", -1}};
  for (size_t k = 0; k < v.size(); ++k) EXPECT_EQ(std::make_pair(v[k].rule.what, v[k].pi), want[k]) << k;
  EXPECT_TRUE(v[3].is_max);
}

TEST(SlaField, SentencesAreThePages) {
  SlaFieldVerdict v;
  v.rule = rule("p99<2ms");
  EXPECT_EQ(sla_field_sentence(v, "host=a", {61, 12, 3}, 1000),
            "host=a: p99 < 2 ms violated in 12 of 61 quanta of 1 s (19.7%); 3 with few samples for p99");
  EXPECT_EQ(sla_field_sentence(v, "host=a", {3, 1, 0}, 250), "host=a: p99 < 2 ms violated in 1 of 3 quanta of 250 ms (33.3%)");
  EXPECT_EQ(sla_field_sentence(v, "host=a", {0, 0, 0}, 0), "host=a: p99 < 2 ms: no quantum has samples to judge");
  EXPECT_EQ(sla_field_sentence(v, "all groups", {8, 1, 0}, 0), "all groups: p99 < 2 ms violated in 1 of 8 adaptive quanta (12.5%)");
  EXPECT_EQ(sla_field_sentence(v, "x", {16, 1, 0}, 1500), "x: p99 < 2 ms violated in 1 of 16 quanta of 1.5 s (6.3%)");
}

// The rows web/test/unit/groups.test.js judged in JS before the page asked
// core (values in us there, ns here): p99 per group and quantum, h2 slow at
// 1 s, h10 at 2 s, h1 at 1999.999 us with few samples at 2 s; then an empty
// quantum and a window-average row, neither judged.
std::vector<Row> judged_rows() {
  std::vector<Row> rows;
  const std::vector<std::vector<double>> p99 = {{100, 150, 5000}, {90, 3000, 80}, {70, 75, 1999.999}};  // h10, h2, h1
  for (int k = 0; k < 3; ++k)
    for (uint32_t g = 0; g < 3; ++g) {
      Row r;
      r.t_ms = 1000.0 * k;
      r.group = g;
      r.stats.samples = 1000 + k;
      r.stats.max_ns = 9000e3;
      r.p.resize(2);
      r.p[0].value_ns = 50e3;
      r.p[1].value_ns = p99[g][static_cast<size_t>(k)] * 1e3;
      if (g == 2 && k == 2) {
        r.p[1].few_samples = true;
        r.flags |= kFlagFewSamples;
      }
      rows.push_back(r);
    }
  Row empty;
  empty.t_ms = 3000;
  empty.group = 2;
  empty.p.resize(2);
  empty.flags = kFlagEmpty;
  rows.push_back(empty);
  Row avg;
  avg.t_ms = 3000;
  avg.group = 1;
  avg.stats.samples = 10;
  avg.stats.max_ns = 20000e3;
  avg.p.resize(2);
  avg.flags = kFlagWindowValues;
  rows.push_back(avg);
  return rows;
}

std::vector<SlaFieldVerdict> judge_rows(const std::string& field) {
  std::vector<SlaFieldRule> rules;
  EXPECT_TRUE(parse_sla_field(field, "us", &rules).ok());
  SlaFieldJudge judge(rules, {50, 99}, {"p50", "p99"});
  for (const Row& r : judged_rows()) judge.add(r);
  return judge.take(3);
}

TEST(SlaField, JudgesRowsAsTheCliLessVersusAtMostEmptyAndAvgSkippedFewCounted) {
  const std::vector<SlaFieldVerdict> v = judge_rows("p99<2ms, p99<=1999.999us, max<=9ms");
  ASSERT_EQ(v.size(), 3u);
  const auto by = [](const SlaFieldVerdict& x, size_t g) { return std::make_pair(x.groups[g].violated, x.groups[g].evaluated); };
  // h10: 5000 breaks; h2: 3000 breaks; h1: 1999.999 < 2000 holds.
  EXPECT_EQ(by(v[0], 0), std::make_pair(uint64_t{1}, uint64_t{3}));
  EXPECT_EQ(by(v[0], 1), std::make_pair(uint64_t{1}, uint64_t{3}));
  EXPECT_EQ(by(v[0], 2), std::make_pair(uint64_t{0}, uint64_t{3}));
  EXPECT_EQ(v[0].total.violated, 2u);
  EXPECT_EQ(v[0].total.evaluated, 9u);
  // <= 1999.999: h1's 1999.999 holds (equal), the CLI's !(v <= t).
  EXPECT_EQ(by(v[1], 2), std::make_pair(uint64_t{0}, uint64_t{3}));
  EXPECT_EQ(v[1].groups[2].few, 1u);
  // max judges the row's max: 9000 <= 9 ms holds everywhere; the avg row (max 20000) is skipped.
  EXPECT_EQ(v[2].total.violated, 0u);
  EXPECT_EQ(v[2].total.evaluated, 9u);
}

TEST(SlaField, SaysItInOneSentencePerGroupWithTheCliPercentage) {
  const std::vector<SlaFieldVerdict> v = judge_rows("p99<2ms");
  ASSERT_EQ(v.size(), 1u);
  // Summed over 3 groups the count is of rows: 9 judged of 3 groups x 4
  // quanta (the 4th holds an empty row and a window average).
  std::vector<SlaFieldRule> rules;
  ASSERT_TRUE(parse_sla_field("p99<2ms", "us", &rules).ok());
  SlaFieldJudge judge(rules, {50, 99}, {"p50", "p99"});
  for (const Row& r : judged_rows()) judge.add(r);
  EXPECT_EQ(judge.quanta(), 4u);
  EXPECT_EQ(sla_field_sentence(v[0], "all groups", v[0].total, 1000, 3, judge.quanta()),
            "all groups: p99 < 2 ms violated in 2 of 9 rows (3 groups x 4 quanta of 1 s, 3 without a value to judge) "
            "(22.2%); 1 with few samples for p99");
  EXPECT_EQ(sla_field_sentence(v[0], "h1", {1, 1, 0}, 1000), "h1: p99 < 2 ms violated in 1 of 1 quantum of 1 s (100%)");
  SlaFieldVerdict x;
  x.rule = rule("p99<2ms");
  EXPECT_EQ(sla_field_sentence(x, "g", {20, 4, 0}, 1000), "g: p99 < 2 ms violated in 4 of 20 quanta of 1 s (20%)");
  EXPECT_EQ(sla_field_sentence(x, "g", {3, 1, 0}, 1000), "g: p99 < 2 ms violated in 1 of 3 quanta of 1 s (33.3%)");
}

// The page's marks: one byte per row and verdict, 1 where the row breaks
// the rule, in the order rows come; their count is the verdict's.
TEST(SlaField, MarksTheRowsThatBreakARule) {
  std::vector<SlaFieldRule> rules;
  // max first: p99's marks are the second byte of each row's.
  ASSERT_TRUE(parse_sla_field("max<=9ms, p99<2ms", "us", &rules).ok());
  SlaFieldJudge judge(rules, {50, 99}, {"p50", "p99"});
  judge.keep_marks();
  const std::vector<Row> rows = judged_rows();
  for (const Row& r : rows) judge.add(r);
  ASSERT_EQ(judge.width(), 2u);
  const std::vector<uint8_t>& m = judge.marks();
  ASSERT_EQ(m.size(), rows.size() * 2);
  // Rows by time then group (h10, h2, h1): h2 at 1 s, h10 at 2 s break p99 < 2 ms.
  std::vector<uint8_t> p99(rows.size()), max(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    max[i] = m[i * 2];
    p99[i] = m[i * 2 + 1];
  }
  EXPECT_EQ(p99, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(max, std::vector<uint8_t>(rows.size(), 0));  // the avg row's 20 ms max is not judged
  const std::vector<SlaFieldVerdict> v = judge.take(3);
  EXPECT_EQ(v[1].total.violated, 2u);
}

// The groups view's matrix carries the marks in its cells: (group, quantum)
// as its values, from one query's rows through RowTee.
TEST(SlaField, MatrixCellsCarryTheMarks) {
  std::vector<SlaFieldRule> rules;
  ASSERT_TRUE(parse_sla_field("p99<2ms", "us", &rules).ok());
  SlaFieldJudge judge(rules, {50, 99}, {"p50", "p99"});
  judge.keep_marks();
  ValueMatrixBuilder b(2, Unit::kUs);
  RowTee tee(&b, &judge);
  for (const Row& r : judged_rows()) tee.add(r);
  const ValueMatrix m = b.take(3, &judge.marks(), judge.width());
  const size_t T = m.times.size();
  ASSERT_EQ(T, 4u);
  ASSERT_EQ(m.marks.size(), 3 * T);
  // group 0 (h10) breaks at 2 s, group 1 (h2) at 1 s, group 2 (h1) never.
  EXPECT_EQ(m.marks, (std::vector<uint8_t>{0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
  // Each mark sits on the value that breaks the rule.
  EXPECT_EQ(m.values[(0 * T + 2) * 2 + 1], 5000);
  EXPECT_EQ(m.values[(1 * T + 1) * 2 + 1], 3000);
}

TEST(SlaField, GroupsSumToTheCliVerdict) {
  Engine e;
  ASSERT_TRUE(fixtures::load(&e, fixtures::list(fixtures::path("fio-s1"), "s1_clat_hist."), FileOptions()));
  QueryOptions q;
  q.percentiles = {50, 99};
  q.group_by = {"host"};
  std::vector<SlaFieldRule> field;
  ASSERT_TRUE(parse_sla_field("p99<2ms,max<=20ms,1ms,p99.9<1s", "us", &field).ok());
  SlaFieldJudge judge(field, q.percentiles, {"p50", "p99"});
  QueryResult streamed, kept;
  ASSERT_TRUE(e.query(q, &streamed, &judge).ok());
  ASSERT_TRUE(e.query(q, &kept).ok());
  const std::vector<SlaFieldVerdict> v = judge.take(streamed.groups.size());
  // "1ms" is one rule per shown percentile: p50 and p99.
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[2].rule.what, "p50");
  EXPECT_EQ(v[3].rule.what, "p99");
  EXPECT_EQ(v[4].pi, -1);  // p99.9 is not shown: nothing to judge
  EXPECT_EQ(v[4].total.evaluated, 0u);
  std::vector<SlaRule> cli;
  ASSERT_TRUE(parse_sla("p99<2ms,max<=20ms,p50<=1ms,p99<=1ms", &cli).ok());
  const SlaReport rep = evaluate_sla(kept, q.percentiles, cli);
  for (size_t k = 0; k < cli.size(); ++k) {
    ASSERT_EQ(v[k].groups.size(), 2u);
    EXPECT_EQ(v[k].total.evaluated, rep.rules[k].evaluated) << cli[k].text;
    EXPECT_EQ(v[k].total.violated, rep.rules[k].violated) << cli[k].text;
    EXPECT_EQ(v[k].total.few, rep.rules[k].few) << cli[k].text;
    EXPECT_EQ(v[k].groups[0].evaluated + v[k].groups[1].evaluated, v[k].total.evaluated);
  }
  EXPECT_GT(v[0].total.evaluated, 30u);
  EXPECT_GT(v[0].total.violated, 0u);
}

}  // namespace
}  // namespace latscope
