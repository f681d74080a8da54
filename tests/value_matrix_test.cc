// ValueMatrixBuilder (latscope/report.h), what the page's groups view reads,
// holds the same values as the percentiles view's columns
// (PctilesColumnsBuilder) on real fio logs: every row's percentiles and
// samples at its (group, time) cell, NaN where the columns have NaN, and
// NaN / 0 in the cells no row fills. It skips the sampling bands
// (RowSink::wants_bands); the values must not change for that.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/options_json.h"
#include "latscope/report.h"

namespace latscope {
namespace {

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Cells the rows filled; returns how many rows had a NaN value.
size_t expect_matrix_of_columns(const Engine& engine, const std::string& options_json) {
  SCOPED_TRACE(options_json);
  QueryOptions opts;
  std::vector<std::string> labels;
  Unit unit = Unit::kUs;
  EXPECT_TRUE(parse_query_options_json(options_json, &opts, &labels, &unit).ok());
  PctilesColumnsBuilder cb(labels, unit);
  QueryResult rc;
  EXPECT_TRUE(engine.query(opts, &rc, &cb).ok());
  const PctilesColumns c = cb.take(rc.adaptive);
  ValueMatrixBuilder mb(labels.size(), unit);
  QueryResult rm;
  EXPECT_TRUE(engine.query(opts, &rm, &mb).ok());
  EXPECT_EQ(rm.groups, rc.groups);
  const ValueMatrix m = mb.take(rm.groups.size());

  const size_t n = c.t_ms.size(), np = labels.size(), G = rm.groups.size(), T = m.times.size();
  EXPECT_GT(n, 0u);
  EXPECT_EQ(m.values.size(), G * T * np);
  EXPECT_EQ(m.samples.size(), G * T);
  for (size_t t = 1; t < T; ++t) EXPECT_LT(m.times[t - 1], m.times[t]);
  std::vector<bool> filled(G * T, false);
  size_t nan_rows = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t t = 0;
    while (t < T && m.times[t] != c.t_ms[i]) ++t;
    if (t == T) {
      ADD_FAILURE() << "row " << i << ": time " << c.t_ms[i] << " is not among the matrix's times";
      continue;
    }
    const size_t k = c.group[i] * T + t;
    EXPECT_FALSE(filled[k]) << "two rows in one cell";
    filled[k] = true;
    EXPECT_TRUE(same(m.samples[k], c.samples[i])) << "row " << i;
    bool nan = false;
    for (size_t j = 0; j < np; ++j) {
      EXPECT_TRUE(same(m.values[k * np + j], c.p[i * np + j])) << "row " << i << " p[" << j << "]";
      nan = nan || std::isnan(c.p[i * np + j]);
    }
    nan_rows += nan;
  }
  // Every time is some row's; cells no row filled have no value.
  for (size_t k = 0; k < G * T; ++k)
    if (!filled[k]) {
      EXPECT_EQ(m.samples[k], 0);
      for (size_t j = 0; j < np; ++j) EXPECT_TRUE(std::isnan(m.values[k * np + j]));
    }
  return nan_rows;
}

TEST(ValueMatrix, HoldsThePercentilesViewsValuesOnRealLogs) {
  Engine engine;
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("local", "_clat_hist"), FileOptions{}));
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("cs", "_clat_hist"), FileOptions{}));
  size_t nan_rows = 0;
  nan_rows += expect_matrix_of_columns(engine, R"({"percentiles":[99],"unit":"us","group_by":["host"]})");
  nan_rows += expect_matrix_of_columns(engine, R"({"percentiles":[50,99.9,100],"unit":"ms","quantum_ms":250,"group_by":["host","job"]})");
  nan_rows += expect_matrix_of_columns(engine, R"({"percentiles":[90],"unit":"ns","quantum_ms":5000,"group_by":["file"]})");
  // Adaptive quanta: each group has its own times, the matrix their union.
  nan_rows += expect_matrix_of_columns(engine, R"({"percentiles":[50,99],"adaptive_accuracy":0.5,"group_by":["host"]})");
  EXPECT_GT(nan_rows, 0u);  // empty quanta were among them
}

TEST(ValueMatrix, WindowAveragesHaveNoValue) {
  Engine engine;
  ASSERT_TRUE(fixtures::load(&engine, {fixtures::path("fio_lat/avg_clat.1.log")}, FileOptions{}));
  EXPECT_GT(expect_matrix_of_columns(engine, R"({"percentiles":[50,99]})"), 0u);
}

}  // namespace
}  // namespace latscope
