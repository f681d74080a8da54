// The heat map's CSV (report.h heatmap_csv): what `latscope heatmap` prints
// and what the page exports (docs/page-views.md, "Exports"), one writer.
#include <gtest/gtest.h>

#include "latscope/report.h"

namespace latscope {
namespace {

// Two quanta of 500 ms from 1 s, three latency rows (1-10-100-1000 us).
HeatmapResult grid() {
  HeatmapResult h;
  h.t0_ms = 1000;
  h.quantum_ms = 500;
  h.quanta = 2;
  h.rows = 3;
  h.edges_ns = {1e3, 1e4, 1e5, 1e6};
  h.counts = {30, 10, 0, 0, 5, 15};
  return h;
}

TEST(HeatmapCsv, NonEmptyCellsInTheUnit) {
  EXPECT_EQ(heatmap_csv(grid(), Unit::kUs),
            "time_ms,lat_lo,lat_hi,count\n1000,1,10,30\n1000,10,100,10\n1500,10,100,5\n1500,100,1000,15\n");
}

TEST(HeatmapCsv, HeaderUnitsNameTheUnitOrBytes) {
  HeatmapCsvOptions o;
  o.header_units = true;
  const std::string head = "time_ms,lat_lo_ms,lat_hi_ms,count\n1000,0.001,0.01,30\n";
  EXPECT_EQ(heatmap_csv(grid(), Unit::kMs, o).substr(0, head.size()), head);
  HeatmapResult b = grid();
  b.y = "bs";
  b.edges_ns = {4096, 8192, 16384, 32768};
  // Rows by block size are bytes whatever the unit.
  EXPECT_EQ(heatmap_csv(b, Unit::kMs, o),
            "time_ms,bs_lo_bytes,bs_hi_bytes,count\n1000,4096,8192,30\n1000,8192,16384,10\n1500,8192,16384,5\n"
            "1500,16384,32768,15\n");
}

TEST(HeatmapCsv, ARangeKeepsTheQuantaOverlappingIt) {
  HeatmapCsvOptions o;
  o.from_ms = 1500;
  o.to_ms = 2000;
  EXPECT_EQ(heatmap_csv(grid(), Unit::kUs, o), "time_ms,lat_lo,lat_hi,count\n1500,10,100,5\n1500,100,1000,15\n");
  o.from_ms = 1499;  // overlaps the first quantum's last millisecond
  EXPECT_EQ(heatmap_csv(grid(), Unit::kUs, o).size(), heatmap_csv(grid(), Unit::kUs).size());
  o.from_ms = 2000;
  o.to_ms = 3000;
  EXPECT_EQ(heatmap_csv(grid(), Unit::kUs, o), "time_ms,lat_lo,lat_hi,count\n");
}

// A share of a window's I/Os spread over quanta can be tiny: the page's
// export once wrote JavaScript's 1e-9 where the CLI writes C's 1e-09.
TEST(HeatmapCsv, SmallCountsAreWrittenAsTheCliWritesThem) {
  HeatmapResult h = grid();
  h.counts = {1e-9, 0, 0, 0, 0, 0};
  EXPECT_EQ(heatmap_csv(h, Unit::kUs), "time_ms,lat_lo,lat_hi,count\n1000,1,10,1e-09\n");
}

}  // namespace
}  // namespace latscope
