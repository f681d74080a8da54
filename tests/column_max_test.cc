// The worst quantum per pixel column (QueryOptions::columns, query/column_max.h;
// docs/page-views.md, "Worst quantum per column"), checked against a plain
// reference over the full query's rows: one row per group and column, each
// percentile, max and mean the highest of the column's quanta, min the
// lowest, and the quantum each value names holds exactly that value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "latscope/engine.h"
#include "fixture_util.h"
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

// Value i of a row in Row::value_t_ms's order: percentiles, max, min, mean.
double value(const Row& r, size_t i) {
  const size_t np = r.p.size();
  if (i < np) return r.p[i].value_ns;
  return i == np ? r.stats.max_ns : i == np + 1 ? r.stats.min_ns : r.stats.mean_ns;
}

// Checks cols (q with q.columns) against full (q without): per (group,
// column) of the full rows, one column row at the column's first quantum,
// each value the worst of the column's quanta with samples, named after a
// quantum whose full row holds exactly that value; flags their union (empty
// only when all are); rows in time, then group order.
void expect_column_max(const QueryResult& full, const QueryResult& cols, const QueryOptions& q) {
  ASSERT_EQ(full.groups, cols.groups);
  const double w = (q.sel.to_ms - q.sel.from_ms) / q.columns;
  const auto column = [&](double t) {
    const double c = std::floor((t - q.sel.from_ms) / w);
    return c > 0 ? std::min<int>(static_cast<int>(q.columns) - 1, static_cast<int>(c)) : 0;
  };
  std::map<std::pair<uint32_t, int>, std::vector<const Row*>> in;  // (group, column) -> full rows
  std::map<std::pair<uint32_t, double>, const Row*> at;            // (group, t_ms) -> full row
  for (const Row& r : full.rows) {
    in[{r.group, column(r.t_ms)}].push_back(&r);
    at[{r.group, r.t_ms}] = &r;
  }
  ASSERT_EQ(cols.rows.size(), in.size());
  size_t checked = 0;
  for (size_t k = 0; k < cols.rows.size(); ++k) {
    const Row& c = cols.rows[k];
    SCOPED_TRACE("group " + std::to_string(c.group) + " t " + std::to_string(c.t_ms));
    const std::vector<const Row*>& rows = in.at({c.group, column(c.t_ms)});
    EXPECT_EQ(c.t_ms, rows.front()->t_ms);
    const size_t values = c.p.size() + 3;
    ASSERT_EQ(c.value_t_ms.size(), values);
    uint32_t any = 0, all = ~0u;
    for (const Row* r : rows) {
      any |= r->flags;
      all &= r->flags;
    }
    EXPECT_EQ(c.flags, (any & ~kFlagEmpty) | (all & kFlagEmpty));
    for (size_t i = 0; i < values; ++i) {
      double want = std::nan("");
      for (const Row* r : rows) {
        if (!(r->stats.samples > 0) || std::isnan(value(*r, i))) continue;
        const double v = value(*r, i);
        if (std::isnan(want) || (i == c.p.size() + 1 ? v < want : v > want)) want = v;
      }
      if (std::isnan(want)) continue;  // a column of empty quanta
      EXPECT_EQ(value(c, i), want) << "value " << i;
      const Row* named = at.at({c.group, c.value_t_ms[i]});
      EXPECT_EQ(column(named->t_ms), column(c.t_ms));
      EXPECT_EQ(value(*named, i), want) << "value " << i << " named quantum " << c.value_t_ms[i];
      ++checked;
    }
    if (k) {
      const Row& before = cols.rows[k - 1];
      EXPECT_TRUE(before.t_ms < c.t_ms || (before.t_ms == c.t_ms && before.group < c.group));
    }
  }
  EXPECT_GT(checked, cols.rows.size());
}

TEST(ColumnMax, OneRowPerColumnAndGroupOfItsWorstValues) {
  Loaded d;
  QueryResult full, cols;
  ASSERT_TRUE(d.e.query(at_100ms(0), &full).ok());
  ASSERT_TRUE(d.e.query(at_100ms(10), &cols).ok());  // 10 columns of 1 s: 10 quanta each
  ASSERT_GT(full.rows.size(), 150u);
  EXPECT_EQ(cols.rows.size(), 10 * full.groups.size());
  expect_column_max(full, cols, at_100ms(10));
}

// Real fio logs: two hosts' histogram logs (cs) by host, and per-I/O logs
// (local), whose quanta differ one from the next, by file.
TEST(ColumnMax, OnRealFixtures) {
  struct Case {
    const char* set;
    const char* needle;
    GroupBy by;
  };
  for (const Case& k : {Case{"cs", "clat_hist", {"host"}}, Case{"local", "clat.", {"file"}}}) {
    SCOPED_TRACE(k.set);
    Engine e;
    ASSERT_TRUE(fixtures::load(&e, fixtures::files_of(k.set, k.needle), FileOptions()));
    QueryOptions q;
    q.quantum_ms = 100;
    q.group_by = k.by;
    q.percentiles = {50, 90, 99, 99.9, 100};
    q.sel.from_ms = 0;
    q.sel.to_ms = 8000;
    QueryResult full, cols;
    ASSERT_TRUE(e.query(q, &full).ok());
    ASSERT_GT(full.rows.size(), 100u);
    q.columns = 7;
    ASSERT_TRUE(e.query(q, &cols).ok());
    EXPECT_EQ(cols.rows.size(), 7 * full.groups.size());
    expect_column_max(full, cols, q);
  }
}

// The one-quantum spike of file a (window 57: 5.6-5.7 s) is drawn: its
// column's max is the spike's and names its quantum.
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
    if (r.group == 0 && r.stats.max_ns == spike) kept = r.value_t_ms.at(r.p.size()) == spike_t;
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

// The page asks the columns in two parts, one per worker, and joins their
// rows (web/src/engine/twin.js): each column must come from one part only,
// whatever quantum the cut falls on, so the joined rows are the whole
// query's (a cut inside a column gave that column two rows per group).
TEST(ColumnMax, PartsCutBetweenColumns) {
  Loaded d;
  for (const uint32_t columns : {7u, 13u, 33u, 64u}) {
    QueryOptions q = at_100ms(columns);
    QueryResult whole;
    ASSERT_TRUE(d.e.query(q, &whole).ok());
    std::vector<Row> joined;
    for (uint32_t k = 0; k < 2; ++k) {
      QueryOptions p = q;
      p.part_index = k;
      p.part_count = 2;
      QueryResult r;
      ASSERT_TRUE(d.e.query(p, &r).ok());
      joined.insert(joined.end(), r.rows.begin(), r.rows.end());
    }
    ASSERT_EQ(joined.size(), whole.rows.size()) << columns << " columns";
    for (size_t i = 0; i < joined.size(); ++i) {
      EXPECT_EQ(joined[i].t_ms, whole.rows[i].t_ms) << columns << " columns, row " << i;
      EXPECT_EQ(joined[i].group, whole.rows[i].group);
      EXPECT_EQ(joined[i].stats.samples, whole.rows[i].stats.samples);
      ASSERT_EQ(joined[i].p.size(), whole.rows[i].p.size());
      for (size_t j = 0; j < joined[i].p.size(); ++j) EXPECT_EQ(joined[i].p[j].value_ns, whole.rows[i].p[j].value_ns);
    }
  }
}

}  // namespace
}  // namespace latscope
