// Result files compared by what they hold, not by their bytes: blocks
// copied as stored keep the deflate of the writer that made them (native
// zlib), while a reference written again under WebAssembly deflates with
// another library (docs/result-format.md, "Byte layout").
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "latscope/result.h"

namespace latscope {

inline void expect_same_contents(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  Result x, y;
  ASSERT_TRUE(decode_result(a.data(), a.size(), &x).ok());
  ASSERT_TRUE(decode_result(b.data(), b.size(), &y).ok());
  EXPECT_EQ(x.quantum_ms, y.quantum_ms);
  ASSERT_EQ(x.series.size(), y.series.size());
  for (size_t k = 0; k < x.series.size(); ++k) {
    const ResultSeries &s = x.series[k], &t = y.series[k];
    EXPECT_EQ(labels_text(s.labels), labels_text(t.labels));
    EXPECT_EQ(s.layout ? s.layout->id : "", t.layout ? t.layout->id : "");
    EXPECT_EQ(s.span_start_ms, t.span_start_ms);
    EXPECT_EQ(s.span_end_ms, t.span_end_ms);
    EXPECT_EQ(s.full_start_ms, t.full_start_ms);
    EXPECT_EQ(s.full_end_ms, t.full_end_ms);
    ASSERT_EQ(s.cells.size(), t.cells.size());
    for (size_t c = 0; c < s.cells.size(); ++c) {
      EXPECT_EQ(s.cells[c].quantum, t.cells[c].quantum);
      EXPECT_EQ(s.cells[c].bins, t.cells[c].bins);
      EXPECT_EQ(s.cells[c].counts, t.cells[c].counts);
      EXPECT_EQ(s.cells[c].extremes.lo, t.cells[c].extremes.lo);
      EXPECT_EQ(s.cells[c].extremes.hi, t.cells[c].extremes.hi);
    }
  }
}

}  // namespace latscope
