// Which files form one run (latscope/runs.h, docs/runs.md): on the two real
// fio runs of tests/fixtures/ab and on names laid out as fio writes them.
#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/runs.h"

namespace latscope {
namespace {

const std::string kAb = std::string(LATSCOPE_FIXTURES) + "/ab";

RunFile log(const std::string& name) {
  RunFile f;
  f.name = name;
  f.id = parse_fio_file_name(name);
  return f;
}

RunFile json(const std::string& name, std::vector<std::string> prefixes) {
  RunFile f = log(name);
  f.json = true;
  f.prefixes = std::move(prefixes);
  return f;
}

// The json+ reader gives each job's log prefix from fio's own options.
TEST(Runs, JsonPlusNamesItsLogPrefix) {
  Engine e;
  ASSERT_TRUE(fixtures::load(&e, {kAb + "/a/a.json", kAb + "/b/b.json"}, {}));
  EXPECT_EQ(run_file_of(e.sources()[0]).prefixes, std::vector<std::string>{"a"});
  EXPECT_EQ(run_file_of(e.sources()[1]).prefixes, std::vector<std::string>{"b"});
  EXPECT_TRUE(run_file_of(e.sources()[0]).json);
}

// Two folders each with a json+ and its log: two runs, found by json+.
TEST(Runs, FoldersWithTheirJsonPlus) {
  Engine e;
  ASSERT_TRUE(fixtures::load(&e, {kAb + "/a/a_clat_hist.1.log", kAb + "/b/b.json", kAb + "/a/a.json",
                                  kAb + "/b/b_clat_hist.1.log"}, {}));
  const RunPlan plan = e.assign_runs({});
  ASSERT_EQ(plan.runs.size(), 2u);
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"a", "b", "a", "b"}));
  EXPECT_EQ(plan.runs[0].how, "json+ " + kAb + "/a/a.json");
  ASSERT_FALSE(plan.evidence.empty());
  EXPECT_NE(plan.evidence[0].find("fio writes one per run"), std::string::npos) << plan.evidence[0];
  for (const Source& s : e.sources()) EXPECT_NE(s.labels.find("run"), nullptr) << s.name;
}

// --group-by run: each run's rows equal a query on that run alone.
TEST(Runs, GroupByRunEqualsEachRunAlone) {
  Engine both;
  ASSERT_TRUE(fixtures::load(&both, {kAb + "/a/a.json", kAb + "/a/a_clat_hist.1.log", kAb + "/b/b.json",
                                     kAb + "/b/b_clat_hist.1.log"}, {}));
  both.assign_runs({});
  QueryOptions q;
  q.group_by = {"run"};
  QueryResult r;
  ASSERT_TRUE(both.query(q, &r).ok());
  ASSERT_EQ(r.groups, (std::vector<std::string>{"run=a", "run=b"}));
  for (uint32_t g = 0; g < 2; ++g) {
    const std::string run = g ? "b" : "a";
    Engine one;
    ASSERT_TRUE(fixtures::load(&one, {kAb + "/" + run + "/" + run + ".json",
                                      kAb + "/" + run + "/" + run + "_clat_hist.1.log"}, {}));
    QueryResult alone;
    ASSERT_TRUE(one.query(QueryOptions{}, &alone).ok());
    std::vector<const Row*> mine;
    for (const Row& row : r.rows)
      if (row.group == g) mine.push_back(&row);
    ASSERT_EQ(mine.size(), alone.rows.size()) << run;
    for (size_t i = 0; i < mine.size(); ++i) {
      EXPECT_EQ(mine[i]->t_ms, alone.rows[i].t_ms);
      EXPECT_EQ(mine[i]->stats.samples, alone.rows[i].stats.samples) << run << " row " << i;
      for (size_t k = 0; k < mine[i]->p.size(); ++k) EXPECT_EQ(mine[i]->p[k].value_ns, alone.rows[i].p[k].value_ns);
    }
  }
}

// One folder holding both runs: the json+ outputs' prefixes sort the logs.
TEST(Runs, OneFolderByJsonPrefixes) {
  const std::vector<RunFile> f = {json("x/a.json", {"a"}), log("x/a_clat_hist.1.log"), json("x/b.json", {"b"}),
                                  log("x/b_clat_hist.1.log"), log("x/b_clat.1.log")};
  const RunPlan plan = plan_runs(f, {});
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"a", "a", "b", "b", "b"}));
}

// A json that says nothing of logs (no prefix, no options listed) claims the
// logs of its folder; one whose jobs list their options and name no log
// wrote none, so the logs beside it are another run's (a folder where a
// later run without logs left its json+ beside an earlier run's logs).
TEST(Runs, AJsonWhoseRunWroteNoLogsClaimsNone) {
  const std::vector<RunFile> silent = {json("x/out.json", {""}), log("x/h_clat_hist.1.log")};
  EXPECT_EQ(plan_runs(silent, {}).runs.size(), 1u);
  RunFile none = json("x/out.json", {""});
  none.wrote_no_logs = true;
  const RunPlan plan = plan_runs({none, log("x/h_clat_hist.1.log")}, {});
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"out", "h"}));
  ASSERT_FALSE(plan.evidence.empty());
  EXPECT_NE(plan.evidence[0].find("x/out.json: its jobs' options name no log"), std::string::npos) << plan.evidence[0];
}

// Two json+ outputs named alike in two folders: named by folder; a log goes
// to the json+ of its own folder when both name its prefix.
TEST(Runs, SamePrefixTwoFolders) {
  const std::vector<RunFile> f = {json("r1/out.json", {"t"}), log("r1/t_clat_hist.1.log"),
                                  json("r2/out.json", {"t"}), log("r2/t_clat_hist.1.log")};
  const RunPlan plan = plan_runs(f, {});
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"r1", "r1", "r2", "r2"}));
}

// Logs alone: the same log name (job 1) under two prefixes is two runs...
TEST(Runs, CollidingLogNamesAreTwoRuns) {
  const RunPlan plan = plan_runs({log("d/c2_clat_hist.1.log"), log("d/c2_clat_hist.2.log"),
                                  log("d/c4_clat_hist.1.log"), log("d/c4_clat_hist.2.log")},
                                 {});
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"c2", "c2", "c4", "c4"}));
  ASSERT_EQ(plan.evidence.size(), 1u);
  EXPECT_NE(plan.evidence[0].find("one fio run writes it once"), std::string::npos);
}

// ... and in two folders named alike, the folders name them.
TEST(Runs, CollidingNamesInTwoFolders) {
  const RunPlan plan = plan_runs({log("a/t_clat_hist.1.log"), log("b/t_clat_hist.1.log")}, {});
  EXPECT_EQ(plan.run_of, (std::vector<std::string>{"a", "b"}));
}

// ... but one run may log under several prefixes (one per job) and, in
// client mode, each server in its own folder: no clash, one run, no label
// needed.
TEST(Runs, OneRunAcrossPrefixesAndFolders) {
  RunPlan plan = plan_runs({log("d/x_clat_hist.1.log"), log("d/y_clat_hist.2.log")}, {});
  EXPECT_EQ(plan.runs.size(), 1u);
  EXPECT_TRUE(plan.evidence.empty());
  plan = plan_runs({log("h1/cs_clat_hist.1.log.127.0.0.1"), log("h2/cs_clat_hist.1.log.127.0.0.2")}, {});
  EXPECT_EQ(plan.runs.size(), 1u);
  // A log next to a json+ that does not name its prefix is not that run's.
  plan = plan_runs({json("d/a.json", {"a"}), log("d/a_clat_hist.1.log"), log("d/z_clat_hist.7.log")}, {});
  EXPECT_EQ(plan.runs.size(), 2u);
  EXPECT_EQ(plan.run_of[2], "z");
}

TEST(Runs, UserChoice) {
  const std::vector<RunFile> f = {log("a/t_clat_hist.1.log"), log("b/t_clat_hist.2.log"), log("b/u_clat_hist.3.log")};
  RunOptions o;
  o.by = RunBy::kFolder;
  EXPECT_EQ(plan_runs(f, o).run_of, (std::vector<std::string>{"a", "b", "b"}));
  o.by = RunBy::kPrefix;
  EXPECT_EQ(plan_runs(f, o).run_of, (std::vector<std::string>{"t", "t", "u"}));
  o.by = RunBy::kNone;
  EXPECT_EQ(plan_runs(f, o).runs.size(), 1u);
  o.by = RunBy::kAuto;
  o.patterns = {{"old", "a/*"}, {"new", "*.log"}};
  EXPECT_EQ(plan_runs(f, o).run_of, (std::vector<std::string>{"old", "new", "new"}));
  RunFile given = log("c/t_clat_hist.1.log");
  given.given = "mine";
  EXPECT_EQ(plan_runs({given}, o).run_of[0], "mine");
}

TEST(Runs, ParseAndGlob) {
  RunPattern p;
  EXPECT_TRUE(parse_run_pattern("b=runs/b/*", &p));
  EXPECT_EQ(p.name, "b");
  EXPECT_EQ(p.glob, "runs/b/*");
  EXPECT_FALSE(parse_run_pattern("=x", &p));
  EXPECT_FALSE(parse_run_pattern("x=", &p));
  EXPECT_FALSE(parse_run_pattern("x", &p));
  EXPECT_TRUE(run_glob_matches("b/*", "/data/b/x.log"));
  EXPECT_TRUE(run_glob_matches("*_clat_hist.1.log", "d/a_clat_hist.1.log"));
  EXPECT_FALSE(run_glob_matches("b/*", "/data/ab/x.log"));
  RunBy by;
  EXPECT_TRUE(parse_run_by("json", &by));
  EXPECT_EQ(by, RunBy::kJson);
  EXPECT_FALSE(parse_run_by("dir", &by));
}

// Engine::assign_runs again with other options replaces its own labels but
// never one the caller gave with the file.
TEST(Runs, AssignRunsKeepsGivenLabels) {
  Engine e;
  FileOptions mine;
  mine.run = "given";
  ASSERT_TRUE(fixtures::load(&e, {kAb + "/a/a_clat_hist.1.log"}, mine));
  ASSERT_TRUE(fixtures::load(&e, {kAb + "/b/b_clat_hist.1.log"}, {}));
  RunOptions o;
  o.by = RunBy::kFolder;
  e.assign_runs(o);
  EXPECT_EQ(*e.sources()[0].labels.find("run"), "given");
  EXPECT_EQ(*e.sources()[1].labels.find("run"), "b");
  o.by = RunBy::kPrefix;
  e.assign_runs(o);
  EXPECT_EQ(*e.sources()[1].labels.find("run"), "b");
  o.patterns = {{"other", "*"}};
  e.assign_runs(o);
  EXPECT_EQ(*e.sources()[0].labels.find("run"), "given");
  EXPECT_EQ(*e.sources()[1].labels.find("run"), "other");
}

}  // namespace
}  // namespace latscope
