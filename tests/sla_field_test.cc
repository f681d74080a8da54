// The page's SLA field judged by core (sla_field.h): its rule language, the
// page's number text and sentences (expected texts are what
// web/src/app/sla.js and web/src/views/scales.js wrote for the same input),
// and per-group counts that sum to `latscope pctiles --sla`'s.
#include "latscope/sla_field.h"

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
