// Helpers for the table tests (export_test.cc, compact_table_test.cc): a
// table parsed in chunks, and two Results compared in what a table carries.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "formats/tsv/tsv_table.h"
#include "latscope/result.h"

namespace latscope::testing {

// The long or compact table in `text`, fed `chunk` bytes at a time (0: whole).
inline Status parse_table(const std::string& text, Result* r, Diagnostics* diag = nullptr, size_t chunk = 0) {
  tsv::TableParser p;
  if (chunk == 0) chunk = std::max<size_t>(text.size(), 1);
  for (size_t i = 0; i < text.size(); i += chunk) p.append(text.data() + i, std::min(chunk, text.size() - i));
  Status st = p.finish(r);
  if (diag) *diag = p.diagnostics();
  return st;
}

// Equal in every count, bin, extreme and label; with_coverage: the series'
// coverage too (the compact table carries it, the long table does not).
inline void expect_same_cells(const Result& a, const Result& b, bool with_coverage) {
  EXPECT_EQ(a.quantum_ms, b.quantum_ms);
  EXPECT_EQ(a.absolute_time, b.absolute_time);
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    const ResultSeries& x = a.series[i];
    const ResultSeries& y = b.series[i];
    EXPECT_EQ(labels_text(x.labels), labels_text(y.labels));
    EXPECT_EQ(x.layout->id, y.layout->id);
    EXPECT_EQ(x.layout->lo, y.layout->lo);
    if (with_coverage) {
      EXPECT_EQ(x.span_start_ms, y.span_start_ms);
      EXPECT_EQ(x.span_end_ms, y.span_end_ms);
      EXPECT_EQ(x.full_start_ms, y.full_start_ms);
      EXPECT_EQ(x.full_end_ms, y.full_end_ms);
    }
    ASSERT_EQ(x.cells.size(), y.cells.size());
    for (size_t j = 0; j < x.cells.size(); ++j) {
      EXPECT_EQ(x.cells[j].quantum, y.cells[j].quantum);
      EXPECT_EQ(x.cells[j].bins, y.cells[j].bins);
      EXPECT_EQ(x.cells[j].counts, y.cells[j].counts);
      EXPECT_TRUE(x.cells[j].extremes == y.cells[j].extremes) << "series " << i << ", cell " << j;
    }
  }
}

// A table written by `write` reads back to the same result whole, a byte at
// a time and 100 bytes at a time (any chunking gives the same table).
inline void expect_reads_back_in_any_chunking(const Result& r, const std::function<std::string(const Result&)>& write,
                                              bool with_coverage) {
  const std::string text = write(r);
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{100}}) {
    Result back;
    const Status st = parse_table(text, &back, nullptr, chunk);
    ASSERT_TRUE(st.ok()) << st.message;
    expect_same_cells(r, back, with_coverage);
  }
}

}  // namespace latscope::testing
