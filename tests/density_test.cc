// The density of groups (docs/page-views.md, "Host density"): core's counts
// per (quantum, latency row) against a plain reference, the per-host
// percentiles of the ordinary per-host query binned by a straightforward
// loop on the density's row edges, which span those percentiles; and the
// groups of one cell.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

constexpr int kHosts = 12;
constexpr int kSeconds = 20;
constexpr int kSlowHost = 7;          // slowed in seconds (8, 12]: its bins x 8 in latency
constexpr int kShortHost = 3;         // logs stop at 15 s: fewer hosts with data after

std::string host_name(int h) { return "host" + std::string(h < 10 ? "0" : "") + std::to_string(h); }

// fio histogram logs of kHosts hosts, one-second windows whose counts are
// spread over ~40 bins around a host-dependent centre (a plain LCG: the same
// bytes every run).
void load_cluster(Engine* e) {
  uint64_t seed = 12345;
  const auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  for (int h = 1; h <= kHosts; ++h) {
    std::string text;
    for (int s = 1; s <= kSeconds; ++s) {
      if (h == kShortHost && s > 15) break;
      std::vector<std::pair<size_t, uint64_t>> bins;
      const size_t centre = 600 + static_cast<size_t>(h) * 3 + (h == kSlowHost && s > 8 && s <= 12 ? 192 : 0);
      for (int i = 0; i < 60; ++i) bins.emplace_back(centre + next() % 40, 1 + next() % 7);
      text += testing::hist_line(static_cast<uint64_t>(s) * 1000, 0, bins);
    }
    testing::feed(e, "den_clat_hist.1.log." + host_name(h), text);
  }
}

struct Reference {
  std::vector<double> counts;        // quanta x rows
  std::vector<uint32_t> with_data;   // groups with a value, per quantum
  std::map<std::pair<std::string, int64_t>, double> value;  // (group, quantum) -> ns
};

// The ordinary per-host query, each row's percentile put in its row by a loop
// over the edges (a value on the top edge belongs to the last row).
Reference reference(const Engine& e, const HeatmapResult& hm, double p, Method method) {
  QueryOptions q;
  q.quantum_ms = hm.quantum_ms;
  q.percentiles = {p};
  q.group_by = {"host"};
  q.method = method;
  QueryResult r;
  EXPECT_TRUE(e.query(q, &r).ok());
  Reference ref;
  ref.counts.assign(static_cast<size_t>(hm.quanta) * hm.rows, 0);
  ref.with_data.assign(hm.quanta, 0);
  for (const Row& row : r.rows) {
    if (row.flags & kFlagEmpty) continue;
    const auto j = static_cast<int64_t>((row.t_ms - hm.t0_ms) / hm.quantum_ms + 0.5);
    EXPECT_GE(j, 0);
    EXPECT_LT(j, hm.quanta);
    const double v = row.p[0].value_ns;
    ref.value[{r.groups[row.group], j}] = v;
    ++ref.with_data[static_cast<size_t>(j)];
    for (uint32_t k = 0; k < hm.rows; ++k) {
      const bool last = k + 1 == hm.rows;
      if (v >= hm.edges_ns[k] && (v < hm.edges_ns[k + 1] || (last && v <= hm.edges_ns[k + 1]))) {
        ref.counts[static_cast<size_t>(j) * hm.rows + k] += 1;
        break;
      }
    }
  }
  return ref;
}

HeatmapOptions density_options(double p, Method method = Method::kInterp) {
  HeatmapOptions o;
  o.rows = 160;  // the page's fixed rows (docs/page-views.md, "One colour scale")
  o.density_by = {"host"};
  o.density_percentile = p;
  o.density_method = method;
  return o;
}

TEST(Density, CountsEqualThePerHostQueryBinnedOnRowsSpanningItsValues) {
  Engine e;
  load_cluster(&e);
  for (const double p : {99.0, 50.0, 100.0})
    for (const Method m : {Method::kInterp, Method::kFio}) {
      SCOPED_TRACE("p" + std::to_string(p) + (m == Method::kFio ? " fio" : " interp"));
      HeatmapResult d, plain;
      ASSERT_TRUE(e.heatmap(density_options(p, m), &d).ok());
      HeatmapOptions io = density_options(p, m);
      io.density_by.clear();
      ASSERT_TRUE(e.heatmap(io, &plain).ok());
      // The heat map's grid, with rows spanning the groups' values, not every bin's.
      EXPECT_EQ(d.quanta, plain.quanta);
      EXPECT_EQ(d.t0_ms, plain.t0_ms);
      ASSERT_EQ(d.quanta, static_cast<uint32_t>(kSeconds));
      const Reference ref = reference(e, d, p, m);
      double lowest = HUGE_VAL, highest = 0;
      for (const auto& [at, v] : ref.value) {
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
      }
      EXPECT_EQ(d.edges_ns.front(), lowest);
      EXPECT_EQ(d.edges_ns.back(), highest);
      EXPECT_GT(d.edges_ns.front(), plain.edges_ns.front());
      EXPECT_LE(d.edges_ns.back(), plain.edges_ns.back());  // p100 reaches the top bin
      EXPECT_EQ(d.counts, ref.counts);
      EXPECT_EQ(d.groups, static_cast<uint32_t>(kHosts));
      EXPECT_EQ(d.below + d.above, 0);  // default bounds hold every value
      uint32_t most = 0;
      for (uint32_t j = 0; j < d.quanta; ++j) {
        double sum = 0;
        for (uint32_t r = 0; r < d.rows; ++r) sum += d.counts[static_cast<size_t>(j) * d.rows + r];
        EXPECT_EQ(sum, ref.with_data[j]) << "quantum " << j;
        EXPECT_EQ(sum, j >= 15 ? kHosts - 1 : kHosts) << "quantum " << j;
        most = std::max(most, ref.with_data[j]);
      }
      EXPECT_EQ(d.max_column, most);
    }
}

TEST(Density, TheSlowHostIsALoneCellAtTheTopAndItsCellListsIt) {
  Engine e;
  load_cluster(&e);
  const HeatmapOptions o = density_options(99);
  HeatmapResult d;
  ASSERT_TRUE(e.heatmap(o, &d).ok());
  const Reference ref = reference(e, d, 99, Method::kInterp);
  for (uint32_t j = 8; j < 12; ++j) {
    int top = -1;
    for (uint32_t r = 0; r < d.rows; ++r)
      if (d.counts[static_cast<size_t>(j) * d.rows + r] > 0) top = static_cast<int>(r);
    ASSERT_GE(top, 0);
    EXPECT_EQ(d.counts[static_cast<size_t>(j) * d.rows + top], 1) << "quantum " << j;
    std::vector<DensityMember> cell;
    ASSERT_TRUE(e.density_cell(o, j, static_cast<uint32_t>(top), &cell).ok());
    ASSERT_EQ(cell.size(), 1u);
    EXPECT_EQ(cell[0].group, "host=" + host_name(kSlowHost));
    EXPECT_EQ(cell[0].value_ns, (ref.value.at({cell[0].group, j})));
  }
  // Every cell of a calm quantum lists as many groups as it counts, each
  // with the per-host query's value, sorted by value.
  const uint32_t j = 3;
  size_t listed = 0;
  for (uint32_t r = 0; r < d.rows; ++r) {
    std::vector<DensityMember> cell;
    ASSERT_TRUE(e.density_cell(o, j, r, &cell).ok());
    EXPECT_EQ(cell.size(), d.counts[static_cast<size_t>(j) * d.rows + r]) << "row " << r;
    for (size_t i = 0; i < cell.size(); ++i) {
      EXPECT_EQ(cell[i].value_ns, (ref.value.at({cell[i].group, j})));
      if (i) { EXPECT_LE(cell[i - 1].value_ns, cell[i].value_ns); }
    }
    listed += cell.size();
  }
  EXPECT_EQ(listed, static_cast<size_t>(kHosts));
}

TEST(Density, BadAsksGetAMessage) {
  Engine e;
  load_cluster(&e);
  HeatmapOptions o = density_options(99);
  o.density_by = {"rack"};
  HeatmapResult d;
  Status st = e.heatmap(o, &d);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("rack"), std::string::npos) << st.message;
  o = density_options(99);
  std::vector<DensityMember> cell;
  st = e.density_cell(o, kSeconds, 0, &cell);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("20 quanta x 160 rows"), std::string::npos) << st.message;
  o.y = HeatmapOptions::Y::kBs;
  EXPECT_FALSE(e.heatmap(o, &d).ok());
  o = density_options(101);
  EXPECT_FALSE(e.heatmap(o, &d).ok());
  o = density_options(99);
  o.density_by.clear();
  EXPECT_FALSE(e.density_cell(o, 0, 0, &cell).ok());
}

// A time range counts on the whole run's rows, as the heat map's (the page
// zooms a whole-run grid; `--from/--to` must give its numbers).
TEST(Density, ATimeRangeCountsOnTheWholeRunsRows) {
  Engine e;
  load_cluster(&e);
  HeatmapResult full, part;
  ASSERT_TRUE(e.heatmap(density_options(99), &full).ok());
  HeatmapOptions o = density_options(99);
  o.sel.from_ms = 2000;  // calm seconds only: the slow host's values lie outside
  o.sel.to_ms = 6000;
  ASSERT_TRUE(e.heatmap(o, &part).ok());
  EXPECT_EQ(part.edges_ns, full.edges_ns);
  ASSERT_LT(part.quanta, full.quanta);
  // Its columns are the whole run's columns of those seconds.
  const auto at = static_cast<size_t>((part.t0_ms - full.t0_ms) / full.quantum_ms);
  ASSERT_LE(at + part.quanta, full.quanta);
  const std::vector<double> same(full.counts.begin() + static_cast<ptrdiff_t>(at * full.rows),
                                 full.counts.begin() + static_cast<ptrdiff_t>((at + part.quanta) * full.rows));
  EXPECT_EQ(part.counts, same);
}

TEST(Density, ZoomedBoundsCountTheRestBelowAndAbove) {
  Engine e;
  load_cluster(&e);
  HeatmapResult full;
  ASSERT_TRUE(e.heatmap(density_options(99), &full).ok());
  // Bounds inside the values' range: the values outside are counted apart.
  HeatmapOptions o = density_options(99);
  o.min_ns = full.edges_ns[40];
  o.max_ns = full.edges_ns[120];
  HeatmapResult d;
  ASSERT_TRUE(e.heatmap(o, &d).ok());
  const Reference ref = reference(e, d, 99, Method::kInterp);
  EXPECT_EQ(d.counts, ref.counts);
  double in = 0;
  for (double c : d.counts) in += c;
  double all = 0;
  for (uint32_t n : ref.with_data) all += n;
  EXPECT_EQ(in + d.below + d.above, all);
}

}  // namespace
}  // namespace latscope
