// Per-host questions answered from the matrix (core matrix_answer.h,
// docs/page-views.md "Groups from the matrix"): the answer equals the query
// on the logs (every level, a subset of percentiles, a time range), only the
// blocks of the range and level are read, and a query the matrix does not
// hold (or hosts of different bin layouts) is refused with its reason.
#include "latscope/matrix_answer.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "matrix_fixture.h"
#include "latscope/layout.h"
#include "latscope/options_json.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;
using fixtures::host_query;
using fixtures::pctiles_of_files;
using fixtures::reader_of;
using fixtures::with_matrix;

const std::vector<std::string> kFiles = files_of("fio-s1", "_clat_hist.");
const std::vector<double> kLevels{1000, 5000, 10000};

// A version 4 file of the fixture's hosts, small blocks (several time blocks and group chunks).
std::vector<uint8_t> matrix_file() { return with_matrix(fixtures::reduce_files(kFiles, 500), kLevels); }

struct Opened {
  std::vector<uint8_t> bytes = matrix_file();
  MatrixReader m;
  Opened() {
    bool has = false;
    const Status st = m.open(reader_of(&bytes), bytes.size(), &has);
    EXPECT_TRUE(st.ok() && has) << st.message;
  }
};

std::string answer_csv(Opened* f, const QueryOptions& q, const std::vector<std::string>& labels, MatrixPlan* plan) {
  *plan = plan_matrix_answer(f->m, q, true, 1000);
  if (!plan->served) return plan->why;
  QueryResult r;
  const Status st = answer_from_matrix(&f->m, *plan, q, &r);
  return st.ok() ? pctiles_csv(r, labels, Unit::kUs) : st.message;
}

TEST(MatrixAnswer, EachLevelEqualsTheQueryOnTheLogs) {
  Opened f;
  for (double l : kLevels) {
    SCOPED_TRACE(l);
    MatrixPlan plan;
    const std::string want = pctiles_of_files(kFiles, host_query(l));
    ASSERT_GT(want.size(), 100u);
    EXPECT_EQ(answer_csv(&f, host_query(l), default_percentile_labels(), &plan), want);
  }
}

TEST(MatrixAnswer, OnePercentileIsThatColumn) {
  Opened f;
  QueryOptions q = host_query(1000);
  q.percentiles = {99.9};
  MatrixPlan plan;
  const std::string want = pctiles_of_files(kFiles, q, {"p99.9"});
  EXPECT_EQ(answer_csv(&f, q, {"p99.9"}, &plan), want);
  EXPECT_EQ(plan.pct, std::vector<size_t>{3});
}

TEST(MatrixAnswer, ARangeReadsOnlyItsBlocksAndGivesItsQuanta) {
  Opened f;
  QueryOptions q = host_query(1000);
  MatrixPlan all;
  answer_csv(&f, q, default_percentile_labels(), &all);
  q.sel.from_ms = 3000;
  q.sel.to_ms = 7000;
  MatrixPlan part;
  const std::string got = answer_csv(&f, q, default_percentile_labels(), &part);
  // The quanta overlapping [3 s, 7 s) are those of the query on the logs there.
  EXPECT_EQ(got, pctiles_of_files(kFiles, q));
  EXPECT_LE(part.blocks.size(), all.blocks.size());
  for (size_t b : part.blocks) EXPECT_EQ(f.m.blocks()[b].level, 0u);
}

// The percentiles chart by host over many quanta (QueryOptions::columns):
// the matrix's column rows equal the engine's on the logs, value for value
// and each value's quantum (whose rows tests/column_max_test.cc checks
// against the worst of every quantum in the column).
TEST(MatrixAnswer, PixelColumnsEqualTheColumnsOfTheLogs) {
  Opened f;
  Engine e;
  for (const std::string& file : kFiles) {
    std::string text;
    ASSERT_TRUE(fixtures::read_file(file, &text)) << file;
    testing::feed(&e, file, text);
  }
  QueryOptions q = host_query(1000);
  QueryResult every;
  ASSERT_TRUE(e.query(q, &every).ok());
  ASSERT_GT(every.rows.size(), 20u);
  q.sel.from_ms = 0;
  q.sel.to_ms = every.rows.back().t_ms + 1000;
  for (uint32_t columns : {3u, 7u}) {
    SCOPED_TRACE(columns);
    q.columns = columns;
    QueryResult want, got;
    ASSERT_TRUE(e.query(q, &want).ok());
    const MatrixPlan plan = plan_matrix_answer(f.m, q, true, columns);
    ASSERT_TRUE(plan.served) << plan.why;
    ASSERT_TRUE(answer_from_matrix(&f.m, plan, q, &got).ok());
    EXPECT_EQ(got.rows.size(), columns * every.groups.size());
    EXPECT_LT(got.rows.size(), every.rows.size());
    EXPECT_EQ(pctiles_csv(got, default_percentile_labels(), Unit::kUs),
              pctiles_csv(want, default_percentile_labels(), Unit::kUs));
    ASSERT_EQ(got.rows.size(), want.rows.size());
    for (size_t i = 0; i < got.rows.size(); ++i) EXPECT_EQ(got.rows[i].value_t_ms, want.rows[i].value_t_ms) << i;
  }
  // Without a range there are no columns to cut.
  q.sel.to_ms = std::numeric_limits<double>::infinity();
  EXPECT_EQ(plan_matrix_answer(f.m, q, true, 3).why, "pixel columns without a finite range");
}

TEST(MatrixAnswer, TheLevelFollowsTheQuantumOrTheColumns) {
  Opened f;
  EXPECT_EQ(plan_matrix_answer(f.m, host_query(5000), true, 1000).level, 1u);
  // A chosen quantum the matrix has no level of: the histograms answer.
  const MatrixPlan chosen = plan_matrix_answer(f.m, host_query(3000), true, 1000);
  EXPECT_FALSE(chosen.served);
  EXPECT_NE(chosen.why.find("no level"), std::string::npos) << chosen.why;
  // Not chosen: the finest level with at most two quanta a pixel column (200 columns at least).
  const MatrixPlan free = plan_matrix_answer(f.m, host_query(3000), false, 10);
  EXPECT_TRUE(free.served) << free.why;
  EXPECT_EQ(free.level, 0u);
}

TEST(MatrixAnswer, WhatTheMatrixDoesNotHoldIsRefusedWithItsReason) {
  Opened f;
  QueryOptions q = host_query(1000);
  q.group_by = {"job"};
  EXPECT_EQ(plan_matrix_answer(f.m, q, true, 1000).why, "not grouped by host");
  q = host_query(1000);
  q.method = Method::kFio;
  EXPECT_NE(plan_matrix_answer(f.m, q, true, 1000).why.find("method"), std::string::npos);
  q = host_query(1000);
  q.sel.exclude_hosts = {"x"};
  EXPECT_NE(plan_matrix_answer(f.m, q, true, 1000).why.find("selection"), std::string::npos);
  q = host_query(1000);
  q.percentiles = {42};
  EXPECT_NE(plan_matrix_answer(f.m, q, true, 1000).why.find("not in the matrix"), std::string::npos);
  QueryResult r;
  EXPECT_FALSE(answer_from_matrix(&f.m, plan_matrix_answer(f.m, q, true, 1000), q, &r).ok());
}

TEST(MatrixAnswer, HostsOfOtherBinLayoutsAreAnsweredFromTheHistograms) {
  Result r;
  r.series.resize(2);
  r.series[0].layout = fio_layout(3, 0);
  r.series[1].layout = fio_layout(3, 0);
  EXPECT_EQ(matrix_layouts_differ(r), "");
  r.series[1].layout = fio_layout(3, 4);
  const std::string why = matrix_layouts_differ(r);
  EXPECT_NE(why.find("bin layouts differ"), std::string::npos) << why;
  EXPECT_NE(why.find(r.series[1].layout->id), std::string::npos) << why;
}

}  // namespace
}  // namespace latscope
