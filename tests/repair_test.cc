// Client/server accumulation defect: detection and repair on synthetic
// series (real logs: repair_real_test.cc).
#include <gtest/gtest.h>

#include <random>

#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

// What fio's client writes for true per-window deltas d: r[k] = C[k] - r[k-1].
std::vector<std::vector<uint64_t>> accumulate(const std::vector<std::vector<uint64_t>>& d) {
  std::vector<std::vector<uint64_t>> r(d.size());
  std::vector<uint64_t> c(d[0].size(), 0), prev(d[0].size(), 0);
  for (size_t k = 0; k < d.size(); ++k) {
    r[k].resize(c.size());
    for (size_t b = 0; b < c.size(); ++b) {
      c[b] += d[k][b];
      r[k][b] = c[b] - prev[b];
    }
    prev = r[k];
  }
  return r;
}

std::string log_of(const std::vector<std::vector<uint64_t>>& w, int dir) {
  std::string t;
  for (size_t k = 0; k < w.size(); ++k) {
    std::vector<std::pair<size_t, uint64_t>> bins;
    for (size_t b = 0; b < w[k].size(); ++b)
      if (w[k][b]) bins.push_back({600 + b, w[k][b]});
    t += hist_line((k + 1) * 1000, dir, bins);
  }
  return t;
}

std::vector<std::vector<uint64_t>> random_deltas(int windows, uint64_t per_window, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<uint64_t>> d(windows, std::vector<uint64_t>(40, 0));
  for (auto& w : d)
    for (uint64_t i = 0; i < per_window; ++i) ++w[rng() % 40];
  return d;
}

TEST(Repair, DetectsAndUndoesTheDefect) {
  const auto d = random_deltas(20, 400, 1);
  Engine e;
  const Source& s = feed(&e, "cs_clat_hist.1.log.10.0.0.1", log_of(accumulate(d), 0));
  ASSERT_TRUE(s.status.ok());
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_TRUE(s.series[0].repaired);
  EXPECT_EQ(s.diag.count(Issue::kRepaired), 1u);
  // Every repaired window equals the true deltas, bin by bin.
  const Series& x = s.series[0];
  for (size_t k = 0; k < d.size(); ++k) {
    std::vector<uint64_t> got(40, 0);
    x.for_each_bin(x.windows[k], [&](uint32_t bin, uint64_t c) { got[bin - 600] = c; });
    EXPECT_EQ(got, d[k]) << "window " << k;
  }
}

TEST(Repair, LocalModeLogsAreNeverRepaired) {
  // Even a log whose counts would fit the signature (a steady ramp) is left
  // alone when its name says fio wrote it locally.
  std::vector<std::vector<uint64_t>> ramp(10, std::vector<uint64_t>(40, 0));
  for (size_t k = 0; k < ramp.size(); ++k)
    for (auto& b : ramp[k]) b = k + 1;
  Engine e;
  const Source& s = feed(&e, "local_clat_hist.1.log", log_of(ramp, 0));
  EXPECT_FALSE(s.series[0].repaired);
}

TEST(Repair, CleanClientLogsAreNotRepaired) {
  // A client-mode name with true deltas (a fixed fio): repaired counts would
  // go negative, so the signature is absent.
  Engine e;
  const Source& s = feed(&e, "cs_clat_hist.1.log.10.0.0.1", log_of(random_deltas(20, 400, 2), 1));
  EXPECT_FALSE(s.series[0].repaired);
  EXPECT_EQ(s.diag.count(Issue::kRepaired), 0u);
}

TEST(Repair, ModesOffAndForce) {
  const auto r = accumulate(random_deltas(12, 300, 3));
  FileOptions off;
  off.repair = RepairMode::kOff;
  Engine e1;
  EXPECT_FALSE(feed(&e1, "cs_clat_hist.1.log.h", log_of(r, 0), 0, off).series[0].repaired);
  FileOptions force;
  force.repair = RepairMode::kForce;
  Engine e2;
  EXPECT_TRUE(feed(&e2, "plain_clat_hist.1.log", log_of(r, 0), 0, force).series[0].repaired);
  // Forcing on clean data clamps negatives and says so.
  Engine e3;
  const Source& s = feed(&e3, "plain_clat_hist.1.log", log_of(random_deltas(12, 300, 4), 0), 0, force);
  EXPECT_GT(s.diag.count(Issue::kRepairInconsistent), 0u);
}

}  // namespace
}  // namespace latscope
