// Coordinated-omission correction (query/co.h, docs/coordinated-omission.md):
// the per-target-bin arithmetic equals HdrHistogram's loop over k, and the
// query shows corrected and recorded data side by side without changing the
// recorded numbers.
#include "../core/src/query/co.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "latscope/report.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

// HdrHistogram's own loop: v - k*i for k = 1, 2, ... while >= i, each placed
// in the bin that holds it.
std::map<uint32_t, uint64_t> brute(const BinLayout& l, uint32_t bin, double i) {
  std::map<uint32_t, uint64_t> out;
  for (double x = l.lo[bin] - i; x >= i; x -= i) {
    const size_t t = static_cast<size_t>(std::upper_bound(l.lo.begin(), l.lo.end(), x) - l.lo.begin()) - 1;
    ++out[static_cast<uint32_t>(t)];
  }
  return out;
}

uint32_t bin_of(const BinLayout& l, double v) {
  return static_cast<uint32_t>(std::upper_bound(l.lo.begin(), l.lo.end(), v) - l.lo.begin()) - 1;
}

TEST(Co, TargetsEqualHdrHistogramsLoopOnFioBins) {
  const LayoutPtr l = fio_layout(3, 0);
  for (double interval : {1.0, 7.0, 100.0, 1000.0, 4096.0, 12345.0}) {
    CoCorrector c(l, interval);
    // Bins up to ~1 ms keep the brute-force loop short.
    for (uint32_t b = 0; b < 900; b += 7) {
      std::map<uint32_t, uint64_t> got;
      for (const auto& [t, m] : c.targets(b)) got[t] = m;
      EXPECT_EQ(got, brute(*l, b, interval)) << "interval " << interval << " bin " << b;
    }
  }
}

TEST(Co, TargetsEqualTheLoopOnACoarseLayout) {
  const LayoutPtr l = fio_layout(3, 3);
  CoCorrector c(l, 300.0);
  for (uint32_t b = 0; b < 100; ++b) {
    std::map<uint32_t, uint64_t> got;
    for (const auto& [t, m] : c.targets(b)) got[t] = m;
    EXPECT_EQ(got, brute(*l, b, 300.0)) << b;
  }
}

TEST(Co, CorrectAddsCountTimesMultiplicity) {
  const LayoutPtr l = fio_layout(3, 0);
  CoCorrector c(l, 1000.0);
  const uint32_t b = bin_of(*l, 10240);  // a bin at ~10 us: 9 added values per sample
  std::vector<uint32_t> ob;
  std::vector<uint64_t> oc;
  c.correct({b}, {3}, &ob, &oc);
  uint64_t total = 0;
  for (uint64_t x : oc) total += x;
  const double v = l->lo[b];
  EXPECT_EQ(total, 3u * (1 + static_cast<uint64_t>(std::floor(v / 1000.0)) - 1));
  EXPECT_EQ(ob.back(), b);
}

TEST(Co, QueryShowsBothSideBySideAndKeepsTheRecordedNumbers) {
  Engine e;
  std::string log;
  // 1 s windows; a stall of ~5 ms in the second window.
  const uint32_t slow = bin_of(*fio_layout(3, 0), 5242880);
  log += testing::hist_line(1000, 0, {{800, 100}});
  log += testing::hist_line(2000, 0, {{800, 99}, {slow, 1}});
  testing::feed(&e, "co_clat_hist.1.log", log);
  QueryOptions plain;
  plain.percentiles = {50, 99, 100};
  QueryResult a, b;
  ASSERT_TRUE(e.query(plain, &a).ok());
  QueryOptions co = plain;
  co.sel.co_interval_ms = 1.0;
  ASSERT_TRUE(e.query(co, &b).ok());
  ASSERT_EQ(b.groups, (std::vector<std::string>{"co=corrected", "co=uncorrected"}));
  const std::vector<std::string> labels{"p50", "p99", "p100"};
  // The uncorrected rows equal the query without correction.
  std::string want, got;
  for (const Row& r : a.rows) want += format_number(r.stats.samples) + "," + format_number(r.p[1].value_ns) + ";";
  for (const Row& r : b.rows)
    if (b.groups[r.group] == "co=uncorrected")
      got += format_number(r.stats.samples) + "," + format_number(r.p[1].value_ns) + ";";
  EXPECT_EQ(got, want);
  // The corrected second window holds the stall's missing samples: about
  // 5 ms / 1 ms - 1 = 4 more, so its p99 moves up into the stall.
  for (const Row& r : b.rows)
    if (b.groups[r.group] == "co=corrected" && r.t_ms == 1000) {
      EXPECT_NEAR(r.stats.samples, 104, 0.5);
      EXPECT_GT(r.p[1].value_ns, 1e6);
    }
}

// Corrected samples are not I/Os: method exact falls back to bins, says so,
// and the stored query and the streaming fold agree.
TEST(Co, ExactMethodFallsBackWhenCorrecting) {
  std::string log;
  for (int t = 1; t <= 3000; t += 3) log += std::to_string(t) + ", " + std::to_string(50000 + 37 * t) + ", 0, 4096, 0\n";
  Engine e;
  const Source& s = testing::feed(&e, "x_clat.1.log", log);
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  QueryOptions q;
  q.method = Method::kExact;
  q.sel.co_interval_ms = 0.01;
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  bool said = false;
  for (const std::string& n : r.notes) said |= n.find("coordinated-omission") != std::string::npos;
  EXPECT_TRUE(said);
  StreamingQuery st(q);
  ASSERT_TRUE(st.add(s).ok());
  QueryResult r2;
  ASSERT_TRUE(st.finish(&r2).ok());
  const std::vector<std::string> labels{"p50", "p90", "p99", "p99.9", "p100"};
  EXPECT_EQ(pctiles_csv(r2, labels, Unit::kNs), pctiles_csv(r, labels, Unit::kNs));
  EXPECT_EQ(r2.notes, r.notes);
}

}  // namespace
}  // namespace latscope
