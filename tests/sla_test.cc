// SLA gates (docs/ci-reports.md): the rule grammar, evaluation per group and
// quantum on real fio data, few-sample marking, the listing's cap, the
// Markdown verdict, and that the SLA's extra percentiles leave the CSV as a
// query without them gives it.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/sla.h"

namespace latscope {
namespace {

std::vector<SlaRule> rules_of(const std::string& spec) {
  std::vector<SlaRule> r;
  const Status st = parse_sla(spec, &r);
  EXPECT_TRUE(st.ok()) << st.message;
  return r;
}

std::string parse_error(const std::string& spec) {
  std::vector<SlaRule> r;
  const Status st = parse_sla(spec, &r);
  EXPECT_FALSE(st.ok()) << spec;
  return st.message;
}

TEST(SlaParse, RulesUnitsAndComparisons) {
  const auto r = rules_of("p99<=5ms, p99.9 < 20 ms,max<1s,p50<=250us,p100<=900ns");
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].text, "p99<=5ms");
  EXPECT_EQ(r[0].what, "p99");
  EXPECT_EQ(r[0].percentile, 99);
  EXPECT_FALSE(r[0].strict);
  EXPECT_EQ(r[0].threshold_ns, 5e6);
  EXPECT_EQ(r[1].text, "p99.9<20ms");
  EXPECT_EQ(r[1].percentile, 99.9);
  EXPECT_TRUE(r[1].strict);
  EXPECT_EQ(r[1].threshold_ns, 2e7);
  EXPECT_TRUE(r[2].is_max);
  EXPECT_EQ(r[2].threshold_ns, 1e9);
  EXPECT_EQ(r[3].threshold_ns, 250e3);
  EXPECT_EQ(r[3].unit, "us");
  EXPECT_EQ(r[4].percentile, 100);
  EXPECT_EQ(r[4].threshold_ns, 900);
}

TEST(SlaParse, ErrorsSayWhatIsWrong) {
  EXPECT_NE(parse_error("p99<=5").find("needs a unit: ns, us, ms or s"), std::string::npos);
  EXPECT_NE(parse_error("p99<=5m").find("unknown unit 'm'"), std::string::npos);
  EXPECT_NE(parse_error("p99>=5ms").find("needs a comparison"), std::string::npos);
  EXPECT_NE(parse_error("p101<=5ms").find("'p101' is not p<P>"), std::string::npos);
  EXPECT_NE(parse_error("q99<=5ms").find("'q99'"), std::string::npos);
  EXPECT_NE(parse_error("p99<=-5ms").find("not a number"), std::string::npos);
  EXPECT_NE(parse_error("p99<=5ms,").find("an empty rule"), std::string::npos);
  EXPECT_NE(parse_error("").find("an empty rule"), std::string::npos);
  EXPECT_NE(parse_error("p99<=1e3us").find("unknown unit 'e3us'"), std::string::npos);
}

TEST(SlaParse, AddsOnlyMissingPercentiles) {
  std::vector<double> ps{50, 99};
  std::vector<std::string> labels{"p50", "p99"};
  EXPECT_EQ(add_sla_percentiles(rules_of("p99<=5ms,p99.90<=20ms,max<1s"), &ps, &labels), 1u);
  EXPECT_EQ(ps, (std::vector<double>{50, 99, 99.9}));
  EXPECT_EQ(labels.back(), "p99.90");  // as the user spelled it
}

// The README's client/server run (tests/fixtures/fio-s1), writes per host:
// 800 I/Os per 1 s quantum, too few for p99.9 (docs/numbers.md, "Error
// bounds": few:pX).
QueryResult s1_writes_by_host(std::vector<double> ps) {
  Engine e;
  EXPECT_TRUE(fixtures::load(&e, fixtures::list(fixtures::path("fio-s1"), "s1_clat_hist."), FileOptions()));
  QueryOptions q;
  q.percentiles = std::move(ps);
  q.group_by = {"host"};
  q.sel.dirs = kDirWrite;
  QueryResult r;
  EXPECT_TRUE(e.query(q, &r).ok());
  return r;
}

TEST(SlaEvaluate, ThresholdAtTheWorstValueSeparatesLeqFromLess) {
  const std::vector<double> ps{99};
  const QueryResult r = s1_writes_by_host(ps);
  ASSERT_EQ(r.groups.size(), 2u);
  double worst = 0;
  size_t at_worst = 0, evaluated = 0;
  for (const Row& row : r.rows)
    if (!(row.flags & kFlagEmpty)) {
      ++evaluated;
      worst = std::max(worst, row.p[0].value_ns);
    }
  for (const Row& row : r.rows)
    if (!(row.flags & kFlagEmpty) && row.p[0].value_ns == worst) ++at_worst;
  ASSERT_GT(evaluated, 30u);  // 2 hosts x ~20 quanta

  std::vector<SlaRule> leq = rules_of("p99<=1ms"), lt = rules_of("p99<1ms");
  leq[0].threshold_ns = lt[0].threshold_ns = worst;
  const SlaReport a = evaluate_sla(r, ps, leq), b = evaluate_sla(r, ps, lt);
  EXPECT_TRUE(a.pass());
  EXPECT_EQ(a.rules[0].evaluated, evaluated);
  EXPECT_EQ(a.rules[0].worst_ns, worst);
  EXPECT_FALSE(b.pass());
  EXPECT_EQ(b.rules[0].violated, at_worst);
  EXPECT_EQ(r.rows[b.violations[0].row].p[0].value_ns, worst);
}

TEST(SlaEvaluate, FewSampleQuantaCountAndAreMarked) {
  const std::vector<double> ps{99.9};
  const QueryResult r = s1_writes_by_host(ps);
  const std::vector<SlaRule> rules = rules_of("p99.9<=100us");
  const SlaReport rep = evaluate_sla(r, ps, rules);
  ASSERT_FALSE(rep.pass());
  // Every quantum holds <= ~800 writes per host: all few for p99.9, all judged.
  EXPECT_EQ(rep.rules[0].few, rep.rules[0].evaluated);
  EXPECT_GT(rep.rules[0].violated, 0u);
  for (const SlaViolation& v : rep.violations) EXPECT_TRUE(v.few);
  const std::vector<std::string> lines = sla_listing(r, rules, rep, 3);
  ASSERT_GE(lines.size(), 5u);
  EXPECT_NE(lines[0].find("(few samples for p99.9)"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(" ms, host="), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(" > 100 us"), std::string::npos) << lines[0];
  if (rep.rules[0].violated > 3) {
    EXPECT_EQ(lines[3], "... " + std::to_string(rep.rules[0].violated - 3) + " more");
  }
  // Two hosts: the judged rows are counted as rows, with the quanta they span.
  size_t quanta = 0;
  for (size_t i = 0; i < r.rows.size(); ++i) quanta += i == 0 || r.rows[i].t_ms != r.rows[i - 1].t_ms;
  EXPECT_EQ(lines.back().rfind("p99.9<=100us: " + std::to_string(rep.rules[0].violated) + " of " +
                                   std::to_string(rep.rules[0].evaluated) + " rows (2 groups x " +
                                   std::to_string(quanta) + " quanta",
                               0),
            0u)
      << lines.back();
}

TEST(SlaEvaluate, CountsSayRowsGroupsAndQuantaInTheRightNumber) {
  EXPECT_EQ(sla_judged_text(12, 61, 1, 61), "12 of 61 quanta");
  EXPECT_EQ(sla_judged_text(0, 1, 1, 1), "0 of 1 quantum");
  EXPECT_EQ(sla_judged_text(1, 1, 1, 1, "of 1 s"), "1 of 1 quantum of 1 s");
  EXPECT_EQ(sla_judged_text(1, 8, 1, 8, "adaptive"), "1 of 8 adaptive quanta");
  EXPECT_EQ(sla_judged_text(122, 122, 2, 61), "122 of 122 rows (2 groups x 61 quanta)");
  EXPECT_EQ(sla_judged_text(5, 118, 2, 61, "of 1 s"), "5 of 118 rows (2 groups x 61 quanta of 1 s, 4 without a value to judge)");
  EXPECT_EQ(sla_judged_text(1, 1, 2, 1), "1 of 1 row (2 groups x 1 quantum, 1 without a value to judge)");
}

TEST(SlaEvaluate, MaxRuleJudgesTheRowsMax) {
  const std::vector<double> ps{50};
  const QueryResult r = s1_writes_by_host(ps);
  double worst = 0;
  for (const Row& row : r.rows)
    if (!(row.flags & kFlagEmpty)) worst = std::max(worst, row.stats.max_ns);
  std::vector<SlaRule> rules = rules_of("max<=1s");
  rules[0].threshold_ns = worst;
  EXPECT_TRUE(evaluate_sla(r, ps, rules).pass());
  rules[0].strict = true;
  EXPECT_FALSE(evaluate_sla(r, ps, rules).pass());
}

TEST(SlaEvaluate, ExtraPercentilesLeaveTheCsvUnchanged) {
  const std::vector<std::string> labels{"p50", "p99"};
  const QueryResult plain = s1_writes_by_host({50, 99});
  QueryResult more = s1_writes_by_host({50, 99, 99.9});
  // With p99.9 every row is flagged few; without it none of these is.
  EXPECT_NE(pctiles_csv(more, {"p50", "p99", "p99.9"}, Unit::kUs).find("few:p99.9"), std::string::npos);
  keep_percentiles(&more, 2);
  EXPECT_EQ(pctiles_csv(more, labels, Unit::kUs), pctiles_csv(plain, labels, Unit::kUs));
}

TEST(SlaEvaluate, NothingToJudgeFails) {
  QueryResult r;
  r.groups = {"all"};
  Row row;
  row.flags = kFlagEmpty;
  row.p = {PercentileValue{}};
  r.rows = {row};
  const SlaReport rep = evaluate_sla(r, {99}, rules_of("p99<=5ms"));
  EXPECT_TRUE(rep.violations.empty());
  EXPECT_EQ(rep.rules[0].evaluated, 0u);
  EXPECT_FALSE(rep.pass());
}

TEST(SlaMarkdown, VerdictTableAndEscaping) {
  QueryResult r;
  r.quantum_ms = 1000;
  r.groups = {"file=<img src=x onerror=alert(1)>|x"};
  for (int i = 0; i < 4; ++i) {
    Row row;
    row.t_ms = 1000.0 * i;
    row.p = {PercentileValue{}};
    row.p[0].value_ns = (i == 2) ? 7e6 : 1e6;
    row.stats.samples = 5000;
    r.rows.push_back(row);
  }
  const std::vector<double> ps{99};
  const std::vector<SlaRule> rules = rules_of("p99<=5ms");
  const SlaReport rep = evaluate_sla(r, ps, rules);
  SlaVerdictOptions vo;
  vo.context = "1 input (a_b.log)";
  const std::string md = sla_markdown(r, rules, rep, vo);
  EXPECT_EQ(md.rfind("## latscope SLA: FAIL\n", 0), 0u) << md;
  EXPECT_NE(md.find("1 input \\(a\\_b.log\\)"), std::string::npos) << md;
  EXPECT_NE(md.find("| `p99<=5ms` | FAIL | 1 of 4 quanta (25%) | 7 ms | 0:02, file=&lt;img src=x onerror=alert\\(1\\)&gt;\\|x |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("<img"), std::string::npos);
  EXPECT_EQ(markdown_escape(std::string("a\x1b[2Jb")), "a\\x1b\\[2Jb");
  const std::vector<SlaRule> loose = rules_of("p99<=10ms");
  EXPECT_EQ(sla_markdown(r, loose, evaluate_sla(r, ps, loose), {}).rfind("## latscope SLA: PASS\n", 0), 0u);
}

}  // namespace
}  // namespace latscope
