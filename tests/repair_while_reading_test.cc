// The fio histogram reader judges and repairs the client/server defect while
// it reads (fio_hist_reader.h) and counts the last bin as it stores windows.
// Here its output is held to the path it replaced: the log read as written
// (--repair off), then detect_accumulation_defect and
// repair_accumulation_defect on the whole series, and the last bin counted
// by decoding every window.
#include <gtest/gtest.h>

#include <random>

#include "formats/fio_hist/repair.h"
#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

constexpr size_t kBins = 1856;  // fio 3, no coarseness
using Counts = std::vector<std::vector<uint64_t>>;  // per window, per bin (sparse use)

// What fio's client writes for true per-window deltas d: r[k] = C[k] - r[k-1].
Counts accumulate(const Counts& d) {
  Counts r(d.size());
  std::vector<uint64_t> c(kBins, 0), prev(kBins, 0);
  for (size_t k = 0; k < d.size(); ++k) {
    r[k].resize(kBins);
    for (size_t b = 0; b < kBins; ++b) {
      c[b] += d[k][b];
      r[k][b] = c[b] - prev[b];
    }
    prev = r[k];
  }
  return r;
}

// Deltas over bins 600..639 and, now and then, the last bin (saturation).
Counts random_deltas(int windows, uint64_t per_window, std::mt19937* rng) {
  Counts d(windows, std::vector<uint64_t>(kBins, 0));
  for (auto& w : d) {
    for (uint64_t i = 0; i < per_window; ++i) ++w[600 + (*rng)() % 40];
    if ((*rng)() % 3 == 0) w[kBins - 1] += 1 + (*rng)() % 5;
  }
  return d;
}

std::string log_of(const Counts& w, int dir) {
  std::string t;
  for (size_t k = 0; k < w.size(); ++k) {
    std::vector<std::pair<size_t, uint64_t>> bins;
    for (size_t b = 0; b < w[k].size(); ++b)
      if (w[k][b]) bins.push_back({b, w[k][b]});
    t += hist_line((k + 1) * 1000, dir, bins);
  }
  return t;
}

uint64_t last_bin_by_decoding(const Series& s) {
  uint64_t n = 0;
  for (const Window& w : s.windows)
    s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
      if (b + 1 == kBins) n += c;
    });
  return n;
}

// One log through the reader, against the old path on the same bytes.
void expect_same_as_whole_series_repair(const std::string& text, RepairMode mode, const std::string& what) {
  SCOPED_TRACE(what);
  const std::string name = "cs_clat_hist.1.log.10.0.0.1";  // a client's name: a candidate
  FileOptions opts;
  opts.repair = mode;
  FileOptions off;
  off.repair = RepairMode::kOff;
  Engine e, e_off;
  const Source& got = feed(&e, name, text, 0, opts);
  const Source& as_written = feed(&e_off, name, text, 0, off);
  ASSERT_TRUE(got.status.ok());
  ASSERT_EQ(got.series.size(), as_written.series.size());
  uint64_t clamped_all = 0;
  for (size_t i = 0; i < got.series.size(); ++i) {
    const Series& raw = as_written.series[i];
    const Series& s = got.series[i];
    Series want = raw;
    bool repair = false;
    if (mode != RepairMode::kOff) {
      const RepairVerdict v = detect_accumulation_defect(raw);
      repair = mode == RepairMode::kForce || (v.defect && v.consistent);
    }
    if (repair) {
      uint64_t clamped = 0;
      want = repair_accumulation_defect(raw, &clamped);  // keeps the windows' starts and ends
      clamped_all += clamped;
    }
    EXPECT_EQ(s.repaired, repair);
    ASSERT_EQ(s.windows.size(), want.windows.size());
    for (size_t k = 0; k < s.windows.size(); ++k) {
      const Window& a = s.windows[k];
      const Window& b = want.windows[k];
      EXPECT_TRUE(a.start_ms == b.start_ms && a.end_ms == b.end_ms && a.total == b.total && a.offset == b.offset &&
                  a.n == b.n)
          << "window " << k;
    }
    EXPECT_EQ(s.data, want.data);
    EXPECT_EQ(s.saturated, last_bin_by_decoding(want));
  }
  EXPECT_EQ(got.diag.count(Issue::kRepairInconsistent) > 0, clamped_all > 0);
}

TEST(RepairWhileReading, SameWindowsAsTheWholeSeriesRepair) {
  std::mt19937 rng(7);
  for (int round = 0; round < 6; ++round) {
    const int n = 3 + static_cast<int>(rng() % 30);
    const Counts d = random_deltas(n, 50 + rng() % 400, &rng);
    const Counts defect = accumulate(d);
    // The defect until window m, then the counts of a fixed fio: repaired
    // counts go negative there, and the reader goes back to the counts as
    // written from the first window.
    Counts switched = defect;
    const size_t m = 2 + rng() % (n - 2);
    for (size_t k = m; k < switched.size(); ++k) switched[k] = d[k];
    for (RepairMode mode : {RepairMode::kAuto, RepairMode::kForce}) {
      const std::string how = std::string(mode == RepairMode::kAuto ? "auto" : "force") + ", round " +
                              std::to_string(round);
      expect_same_as_whole_series_repair(log_of(defect, 0) + log_of(d, 1), mode, "defect / clean, " + how);
      expect_same_as_whole_series_repair(log_of(switched, 0), mode, "clean from window " + std::to_string(m) + ", " + how);
    }
  }
}

TEST(RepairWhileReading, NeverNegativeButNotTheDefect) {
  // Every window the same: repaired counts are never negative (d[k] = 0 for
  // k >= 2, bins left out) but the raw totals do not grow, so the log is
  // kept as written, rebuilt from d[k] + r[k-2] at finish.
  Counts flat(12, std::vector<uint64_t>(kBins, 0));
  for (auto& w : flat) {
    w[610] = 5;
    w[620] = 9;
    w[kBins - 1] = 2;
  }
  expect_same_as_whole_series_repair(log_of(flat, 0), RepairMode::kAuto, "flat");
  expect_same_as_whole_series_repair(log_of(flat, 0), RepairMode::kForce, "flat, forced");
  // A ramp that only grows: consistent, and totals climb; repaired totals
  // climb too, so not flatter either.
  Counts ramp(10, std::vector<uint64_t>(kBins, 0));
  for (size_t k = 0; k < ramp.size(); ++k) ramp[k][600 + k % 3] = (k + 1) * (k + 1) * 10;
  for (size_t k = 0; k < ramp.size(); ++k)
    for (size_t j = 0; j < k; ++j) ramp[k][600 + j % 3] = std::max(ramp[k][600 + j % 3], ramp[j][600 + j % 3]);
  expect_same_as_whole_series_repair(log_of(ramp, 0), RepairMode::kAuto, "ramp");
}

TEST(RepairWhileReading, ShortLogsAndRestarts) {
  std::mt19937 rng(11);
  for (int n = 1; n <= 3; ++n) {
    const Counts r = accumulate(random_deltas(n, 100, &rng));
    expect_same_as_whole_series_repair(log_of(r, 0), RepairMode::kAuto, "windows: " + std::to_string(n));
    expect_same_as_whole_series_repair(log_of(r, 0), RepairMode::kForce, "forced, windows: " + std::to_string(n));
  }
  // per_job_logs=0: time goes back, a second job segment, repaired apart.
  const Counts a = accumulate(random_deltas(8, 300, &rng));
  const Counts b = random_deltas(8, 300, &rng);
  expect_same_as_whole_series_repair(log_of(a, 0) + log_of(b, 0), RepairMode::kAuto, "two segments");
}

TEST(RepairWhileReading, AnyChunkingGivesTheSameModel) {
  std::mt19937 rng(5);
  const Counts d = random_deltas(15, 200, &rng);
  const Counts r = accumulate(d);
  Counts switched = r;
  for (size_t k = 9; k < switched.size(); ++k) switched[k] = d[k];
  const std::string text = log_of(r, 0) + log_of(switched, 1);
  Engine whole, small;
  const Source& a = feed(&whole, "cs_clat_hist.1.log.10.0.0.1", text, 0);
  const Source& b = feed(&small, "cs_clat_hist.1.log.10.0.0.1", text, 97);
  ASSERT_EQ(a.series.size(), 2u);
  ASSERT_EQ(b.series.size(), 2u);
  EXPECT_TRUE(a.series[0].repaired);
  EXPECT_FALSE(a.series[1].repaired);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.series[i].data, b.series[i].data);
    EXPECT_EQ(a.series[i].saturated, b.series[i].saturated);
    EXPECT_EQ(a.series[i].windows.size(), b.series[i].windows.size());
  }
}

}  // namespace
}  // namespace latscope
