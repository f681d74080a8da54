// The worst quantum per pixel column (QueryOptions::columns, query/column_max.h;
// docs/page-views.md, "Worst quantum per column"), checked against a plain
// reference over the full query's rows: per group and column, exactly the
// rows where a percentile or max is highest (the first on a tie), unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "latscope/engine.h"
#include "latscope/options_json.h"

namespace latscope {
namespace {

// A fio histogram log (v3 layout, 1856 bins) of 100 ms windows whose latency
// wanders with the window; window `spike` holds one I/O in a far bin.
std::string log_100ms(int windows, int seed, int spike) {
  std::string text;
  for (int w = 1; w <= windows; ++w) {
    std::string line = std::to_string(w * 100) + ", 0, 4096";
    const int at = 300 + (w * 37 + seed * 11) % 400;
    for (int i = 0; i < 1856; ++i) {
      int n = i == at ? 20 : i == at + 3 ? 5 : 0;
      if (w == spike && i == 1500) n = 1;
      line += ", " + std::to_string(n);
    }
    text += line + "\n";
  }
  return text;
}

struct Loaded {
  Engine e;
  Loaded() {
    const std::pair<const char*, std::string> files[] = {{"a_clat_hist.1.log", log_100ms(100, 1, 57)},
                                                          {"b_clat_hist.1.log", log_100ms(100, 2, 0)}};
    for (const auto& [name, text] : files) {
      const int h = e.open_file(name);
      e.append(h, text.data(), text.size());
      EXPECT_TRUE(e.finish(h).status.ok()) << name;
    }
  }
};

QueryOptions at_100ms(uint32_t columns) {
  QueryOptions q;
  q.quantum_ms = 100;
  q.group_by = {"file"};
  q.sel.from_ms = 0;
  q.sel.to_ms = 10000;
  q.columns = columns;
  return q;
}

double value(const Row& r, size_t i) { return i < r.p.size() ? r.p[i].value_ns : r.stats.max_ns; }

TEST(ColumnMax, KeepsEachColumnsWorstQuantumPerPercentile) {
  Loaded d;
  QueryResult full, cols;
  ASSERT_TRUE(d.e.query(at_100ms(0), &full).ok());
  ASSERT_TRUE(d.e.query(at_100ms(10), &cols).ok());  // 10 columns of 1 s: 10 quanta each
  ASSERT_EQ(full.groups, cols.groups);
  ASSERT_GT(full.rows.size(), 150u);
  // The reference: per (group, column), the first row where each value is highest.
  std::set<std::pair<uint32_t, double>> want;
  std::map<std::pair<uint32_t, int>, std::vector<const Row*>> best;
  for (const Row& r : full.rows) {
    if (!(r.stats.samples > 0)) continue;
    const int c = std::min(9, std::max(0, static_cast<int>(std::floor(r.t_ms / 1000))));
    std::vector<const Row*>& b = best[{r.group, c}];
    b.resize(r.p.size() + 1, nullptr);
    for (size_t i = 0; i < b.size(); ++i)
      if (!b[i] || value(r, i) > value(*b[i], i)) b[i] = &r;
  }
  for (const auto& kv : best)
    for (const Row* r : kv.second) want.insert({r->group, r->t_ms});
  std::set<std::pair<uint32_t, double>> got;
  for (const Row& r : cols.rows) got.insert({r.group, r.t_ms});
  EXPECT_EQ(got, want);
  EXPECT_LT(cols.rows.size(), full.rows.size() / 2);
  // Kept rows are the full query's, value for value, in time then group order.
  std::map<std::pair<uint32_t, double>, const Row*> by;
  for (const Row& r : full.rows) by[{r.group, r.t_ms}] = &r;
  for (size_t k = 0; k < cols.rows.size(); ++k) {
    const Row& r = cols.rows[k];
    const Row& f = *by.at({r.group, r.t_ms});
    for (size_t i = 0; i <= r.p.size(); ++i) EXPECT_EQ(value(r, i), value(f, i));
    if (k) {
      const Row& before = cols.rows[k - 1];
      EXPECT_TRUE(before.t_ms < r.t_ms || (before.t_ms == r.t_ms && before.group < r.group));
    }
  }
}

// The one-quantum spike of file a (window 57: 5.6-5.7 s) is drawn: its
// column keeps that quantum, with the max the full query gives it.
TEST(ColumnMax, AOneQuantumSpikeSurvives) {
  Loaded d;
  QueryResult full, cols;
  ASSERT_TRUE(d.e.query(at_100ms(0), &full).ok());
  ASSERT_TRUE(d.e.query(at_100ms(4), &cols).ok());  // 25 quanta per column
  double spike = 0, spike_t = -1;
  for (const Row& r : full.rows)
    if (r.group == 0 && r.stats.max_ns > spike) {
      spike = r.stats.max_ns;
      spike_t = r.t_ms;
    }
  ASSERT_GE(spike_t, 5500);
  ASSERT_LE(spike_t, 5700);
  bool kept = false;
  for (const Row& r : cols.rows)
    if (r.group == 0 && r.t_ms == spike_t) kept = r.stats.max_ns == spike;
  EXPECT_TRUE(kept);
}

// The page asks with the options JSON (options_json.h).
TEST(ColumnMax, IsAJsonOption) {
  QueryOptions q;
  std::vector<std::string> labels;
  Unit unit = Unit::kUs;
  ASSERT_TRUE(parse_query_options_json(R"({"columns": 800, "from_ms": 0, "to_ms": 3600000})", &q, &labels, &unit).ok());
  EXPECT_EQ(q.columns, 800u);
  EXPECT_EQ(QueryOptions().columns, 0u);
}

TEST(ColumnMax, NeedsAFiniteRange) {
  Loaded d;
  QueryOptions q = at_100ms(10);
  q.sel.to_ms = std::numeric_limits<double>::infinity();
  QueryResult r;
  const Status st = d.e.query(q, &r);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("from_ms < to_ms"), std::string::npos) << st.message;
}

}  // namespace
}  // namespace latscope
