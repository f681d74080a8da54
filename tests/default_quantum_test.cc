// The default quantum (latscope/quanta.h; docs/page-views.md, "Default
// quantum"): the longest logging interval among the loaded time series,
// rounded to the nearest preset on a log scale; 0 (none) without one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "latscope/engine.h"
#include "latscope/quanta.h"

namespace latscope {
namespace {

// A fio histogram log (v3 layout: 1856 bins) of windows `every` ms apart.
std::string hist_log(int every_ms, int windows) {
  std::string bins;
  for (int i = 0; i < 1856; ++i) bins += i == 300 ? ", 5" : ", 0";
  std::string text;
  for (int w = 1; w <= windows; ++w) text += std::to_string(w * every_ms) + ", 0, 4096" + bins + "\n";
  return text;
}

double engine_default(const std::vector<std::pair<std::string, std::string>>& files) {
  Engine e;
  for (const auto& [name, text] : files) {
    const int h = e.open_file(name);
    e.append(h, text.data(), text.size());
    const Source& s = e.finish(h);
    EXPECT_TRUE(s.status.ok()) << name << ": " << s.status.message;
  }
  return e.default_quantum_ms();
}

TEST(DefaultQuantum, IsTheLogsIntervalAsAPreset) {
  EXPECT_EQ(engine_default({{"a_clat_hist.1.log", hist_log(100, 20)}}), 100);
  EXPECT_EQ(engine_default({{"a_clat_hist.1.log", hist_log(500, 20)}}), 500);
  EXPECT_EQ(engine_default({{"a_clat_hist.1.log", hist_log(1000, 20)}}), 1000);
  EXPECT_EQ(engine_default({{"a_clat_hist.1.log", hist_log(10000, 20)}}), 10000);
}

// No log is cut finer than it was written: 500 ms and 1 s logs open at 1 s.
TEST(DefaultQuantum, TheLongestIntervalWins) {
  EXPECT_EQ(engine_default({{"a_clat_hist.1.log", hist_log(500, 20)}, {"b_clat_hist.1.log", hist_log(1000, 20)}}),
            1000);
}

TEST(DefaultQuantum, NoneWithoutAnInterval) {
  EXPECT_EQ(Engine().default_quantum_ms(), 0);
  // A per-I/O log (fio lat log: instants, no interval).
  EXPECT_EQ(engine_default({{"a_clat.1.log", "1, 1200, 0, 4096, 0\n2, 900, 0, 4096, 0\n3, 1500, 1, 4096, 0\n"}}), 0);
  // A file that is no latency log.
  EXPECT_EQ(engine_default({{"README.txt", "notes about the run\n"}}), 0);
}

// fio stamps windows a little late: 1,002 ms logs are 1 s ones. 1,400 ms is
// nearer 1 s than 2 s on a log scale (sqrt(2e6) = 1,414), 1,500 ms is not.
TEST(DefaultQuantum, RoundsToTheNearestPresetOnALogScale) {
  EXPECT_EQ(preset_for_interval_ms(1001.5), 1000);
  EXPECT_EQ(preset_for_interval_ms(505), 500);
  EXPECT_EQ(preset_for_interval_ms(1400), 1000);
  EXPECT_EQ(preset_for_interval_ms(1500), 2000);
  EXPECT_EQ(preset_for_interval_ms(30), 100);
  EXPECT_EQ(preset_for_interval_ms(3.6e6), 600000);
  EXPECT_EQ(preset_for_interval_ms(0), 0);
}

// Quantum follows the zoom (docs/page-views.md, "Quantum follows the zoom"):
// the finest preset giving each pixel column at most two quanta (the two
// points the chart draws of a line per column), never finer than the logs'
// interval.
TEST(ZoomQuantum, TheFinestPresetAColumnHolds) {
  // 1 h over 1,400 columns: 1,286 ms a point -> 2 s.
  EXPECT_EQ(zoom_quantum_ms(1000, 3600e3, 1400), 2000);
  // 2 h over 1,000 columns: 3.6 s a point -> 5 s.
  EXPECT_EQ(zoom_quantum_ms(1000, 7200e3, 1000), 5000);
  // Exactly two of a preset a column: that preset.
  EXPECT_EQ(zoom_quantum_ms(100, 4000e3, 1000), 2000);
  // 10 min over 1,400 columns: 214 ms -> 500 ms, above a 100 ms floor.
  EXPECT_EQ(zoom_quantum_ms(100, 600e3, 1400), 500);
  // A fraction of a column counts as none (1,000.9 px is 1,000 columns).
  EXPECT_EQ(zoom_quantum_ms(100, 2000e3, 1000.9), 1000);
}

TEST(ZoomQuantum, NeverFinerThanTheLogs) {
  // 1 min over 1,400 columns wants 21 ms a point; the 1 s logs keep 1 s.
  EXPECT_EQ(zoom_quantum_ms(1000, 60e3, 1400), 1000);
  EXPECT_EQ(zoom_quantum_ms(500, 60e3, 1400), 500);
  // No interval (per-I/O logs): the CLI's 1 s.
  EXPECT_EQ(zoom_quantum_ms(0, 60e3, 1400), 1000);
}

TEST(ZoomQuantum, CoarsestPastThePresets) {
  // A week over 100 columns wants 50 min a point: 10 min, the coarsest.
  EXPECT_EQ(zoom_quantum_ms(1000, 7 * 86400e3, 100), 600000);
}

TEST(ZoomQuantum, TheFloorWithoutARangeOrWidth) {
  EXPECT_EQ(zoom_quantum_ms(500, 0, 1400), 500);
  EXPECT_EQ(zoom_quantum_ms(500, 60e3, 0), 500);
  EXPECT_EQ(zoom_quantum_ms(500, std::numeric_limits<double>::infinity(), 1400), 500);
  EXPECT_EQ(zoom_quantum_ms(0, std::nan(""), 1400), 1000);
}

// The engine's floor is its logs' interval.
TEST(ZoomQuantum, EngineFloorsAtTheLogsInterval) {
  Engine e;
  const std::string text = hist_log(500, 20);
  const int h = e.open_file("a_clat_hist.1.log");
  e.append(h, text.data(), text.size());
  ASSERT_TRUE(e.finish(h).status.ok());
  EXPECT_EQ(e.default_quantum_ms(60e3, 1400), 500);
  EXPECT_EQ(e.default_quantum_ms(3600e3, 1400), 2000);
}

}  // namespace
}  // namespace latscope
