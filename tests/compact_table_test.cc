// The compact table (docs/export-formats.md, "The compact table"): one row
// per cell with the bins as arrays of integer 2^-28 units.
//   * its text reads back to the same Result, bit for bit (counts and
//     extremes), in any chunking, and as ClickHouse's sumMap answer would
//     give it: several tables' rows of equal key add up, extremes unite;
//   * its RowBinary is the same rows (decoded here by a plain reader of
//     ClickHouse's RowBinary rules);
//   * bad rows are skipped and named by line and column; mixed headers fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "fixture_util.h"
#include "formats/tsv/tsv_table.h"
#include "table_test_util.h"
#include "latscope/export.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

using fixtures::files_of;
using fixtures::reduce_files;

Status parse(const std::string& text, Result* r, Diagnostics* diag = nullptr, size_t chunk = 0) {
  return testing::parse_table(text, r, diag, chunk);
}

std::string compact(const Result& r) {
  std::string text;
  EXPECT_TRUE(export_compact(r, CompactEncoding::kTsv, &text, nullptr).ok());
  return text;
}

// The compact table carries coverage: compared too.
void expect_same_cells(const Result& a, const Result& b) { testing::expect_same_cells(a, b, true); }

TEST(CompactTable, ReadsBackToTheSameResultInAnyChunking) {
  for (const char* set : {"fio-s1", "epoch", "coarse"}) {
    testing::expect_reads_back_in_any_chunking(reduce_files(files_of(set, "_clat_hist"), 1000, {"*"}), compact, true);
  }
}

TEST(CompactTable, OneRowPerCellWithIntegerUnits) {
  Result r;
  r.quantum_ms = 500;
  ResultSeries s;
  s.labels.set("host", "a\tb");
  s.labels.set("kind", "clat");
  s.layout = fio_layout(3, 0);
  s.span_start_ms = 1400.25, s.span_end_ms = 2500, s.full_start_ms = 1600, s.full_end_ms = 2400;
  ResultCell c{3, {100, 140}, {uint64_t{5} << 27, 1}, {}};
  c.extremes.add(100);
  c.extremes.add(140);
  s.cells.push_back(c);
  ResultCell no_extremes{4, {7}, {uint64_t{1} << 28}, {}};
  s.cells.push_back(no_extremes);
  r.series.push_back(s);
  std::vector<std::string> cols;
  std::string text;
  ASSERT_TRUE(export_compact(r, CompactEncoding::kTsv, &text, &cols).ok());
  EXPECT_EQ(text,
            "t_ms\tquantum_ms\thost\tkind\tlayout\tspan_start_ms\tspan_end_ms\tfull_start_ms\tfull_end_ms\t"
            "binsMap.bin\tbinsMap.units\textremesMap.bin\textremesMap.n\n"
            "1500\t500\ta\\tb\tclat\tfio3\t1400.25\t2500\t1600\t2400\t[100,140]\t[671088640,1]\t[100,140]\t[1,1]\n"
            "2000\t500\ta\\tb\tclat\tfio3\t1400.25\t2500\t1600\t2400\t[7]\t[268435456]\t[]\t[]\n");
  EXPECT_EQ(cols, (std::vector<std::string>{"t_ms", "quantum_ms", "host", "kind", "layout", "span_start_ms",
                                            "span_end_ms", "full_start_ms", "full_end_ms", "binsMap.bin",
                                            "binsMap.units", "extremesMap.bin", "extremesMap.n"}));
  Result back;
  ASSERT_TRUE(parse(text, &back).ok());
  expect_same_cells(r, back);
}

// What ClickHouse's sumMap answer over two hosts' tables is: the rows of
// equal key added bin by bin, the extremes' keys united. Here the tables are
// simply concatenated (the reader adds rows of equal key) and compared with
// merge() of the two results.
TEST(CompactTable, RowsOfEqualKeyAddUpAsMergeDoes) {
  const Result a = reduce_files(files_of("local", "_clat_hist"), 1000, {"dir"});
  const Result b = reduce_files(files_of("fio-s1", "_clat_hist"), 1000, {"dir"});
  Result merged = a;
  ASSERT_TRUE(merge(&merged, b).ok());
  Result back;
  ASSERT_TRUE(parse(compact(a) + compact(b), &back).ok());
  expect_same_cells(merged, back);
}

// ClickHouse's RowBinary rules, read plainly: little-endian integers,
// LEB128 lengths before strings and arrays.
struct RowBinaryReader {
  const std::string& s;
  size_t i = 0;
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto b = static_cast<uint8_t>(s.at(i++));
      v |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return v;
    }
  }
  uint64_t le(size_t n) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k) v |= uint64_t{static_cast<uint8_t>(s.at(i++))} << (8 * k);
    return v;
  }
  std::string str() {
    const auto n = static_cast<size_t>(varint());
    std::string o = s.substr(i, n);
    i += n;
    return o;
  }
  std::string array(size_t width) {
    const uint64_t n = varint();
    std::string o = "[";
    for (uint64_t k = 0; k < n; ++k) o += (k ? "," : "") + std::to_string(le(width));
    return o + "]";
  }
};

TEST(CompactTable, RowBinaryHoldsTheSameRows) {
  const Result r = reduce_files(files_of("cs", "_clat_hist"), 1000, {"host", "dir"});
  const std::string text = compact(r);
  std::string bin;
  std::vector<std::string> cols;
  ASSERT_TRUE(export_compact(r, CompactEncoding::kRowBinary, &bin, &cols).ok());
  // Rebuild the text from the binary with the column list (labels are
  // Strings, between quantum_ms and layout), escaping as the text does.
  std::string rebuilt;
  for (size_t c = 0; c < cols.size(); ++c) rebuilt += (c ? "\t" : "") + cols[c];
  rebuilt += '\n';
  RowBinaryReader rd{bin};
  const size_t nlabels = cols.size() - 11;
  while (rd.i < bin.size()) {
    const auto t_ms = static_cast<int64_t>(rd.le(8));
    const auto quantum_ms = static_cast<int64_t>(rd.le(8));
    rebuilt += std::to_string(t_ms) + '\t' + std::to_string(quantum_ms);
    for (size_t k = 0; k <= nlabels; ++k) rebuilt += '\t' + rd.str();  // labels, then layout
    for (int k = 0; k < 4; ++k) {  // coverage, Float64 (whole ms in these logs)
      const uint64_t bits = rd.le(8);
      double v = 0;
      std::memcpy(&v, &bits, sizeof v);
      ASSERT_EQ(v, std::floor(v));
      rebuilt += '\t' + std::to_string(static_cast<int64_t>(v));
    }
    rebuilt += '\t' + rd.array(4);
    rebuilt += '\t' + rd.array(8);
    rebuilt += '\t' + rd.array(4);
    rebuilt += '\t' + rd.array(8);
    rebuilt += '\n';
  }
  // (not EXPECT_EQ: the texts are long; say where they part)
  const auto diff = std::mismatch(rebuilt.begin(), rebuilt.end(), text.begin(), text.end());
  EXPECT_TRUE(rebuilt == text) << "first difference at byte " << (diff.first - rebuilt.begin()) << " of "
                               << text.size();
  // A quantum of fractional ms has no Int64 t_ms.
  const Result half = reduce_files(files_of("cs", "_clat_hist"), 0.5 * 1000 + 0.5, {"dir"});
  const Status st = export_compact(half, CompactEncoding::kRowBinary, &bin, nullptr);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("500.5 ms is not whole ms"), std::string::npos) << st.message;
}

TEST(CompactTable, BadRowsAreSkippedAndNamedByLineAndColumn) {
  const std::string text =
      "t_ms\tquantum_ms\tdir\tlayout\tbinsMap.bin\tbinsMap.units\textremesMap.bin\textremesMap.n\n"
      "0\t1000\tread\tfio3\t[100,101]\t[3,4]\t[100]\t[1]\n"
      "0\t1000\tread\tfio3\t[100,1856]\t[3,4]\t[]\t[]\n"                 // line 3: no such bin
      "0\t1000\tread\tfio3\t[100,101]\t[3]\t[]\t[]\n"                    // line 4: arrays differ
      "0\t1000\tread\tfio3\t[100]\t[-3]\t[]\t[]\n"                       // line 5: negative
      "0\t1000\tread\tfio3\t[100]\t[18446744073709551616]\t[]\t[]\n"     // line 6: past 2^64
      "0\t1000\tread\tfio3\t100\t3\t[]\t[]\n"                            // line 7: not arrays
      "0\t1000\tread\tfio3\t[100]\t[18446744073709551615]\t[]\t[]\n"     // line 8: the sum overflows
      "1000\t1000\tread\tfio3\t[]\t[]\t[5]\t[1]\n";                       // line 9: extremes only: no count
  Result r;
  Diagnostics d;
  const Status st = parse(text, &r, &d);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(d.count(Issue::kTsvMalformedRow), 6u);
  std::vector<std::pair<uint64_t, uint32_t>> where;
  for (const IssueExample& e : d.examples())
    if (e.issue == Issue::kTsvMalformedRow) where.emplace_back(e.line, e.column);
  ASSERT_GE(where.size(), 3u);
  EXPECT_EQ(where[0], (std::pair<uint64_t, uint32_t>{3, 18}));
  EXPECT_EQ(where[1], (std::pair<uint64_t, uint32_t>{4, 28}));
  EXPECT_EQ(where[2], (std::pair<uint64_t, uint32_t>{5, 24}));
  ASSERT_EQ(r.series.size(), 1u);
  ASSERT_EQ(r.series[0].cells.size(), 1u);  // line 8 added nothing; line 9 has no bin
  EXPECT_EQ(r.series[0].cells[0].counts, (std::vector<uint64_t>{3, 4}));
  EXPECT_EQ(r.series[0].cells[0].extremes.lo, 100u);
  EXPECT_EQ(r.series[0].cells[0].extremes.hi, 100u);
}

TEST(CompactTable, CoverageUnitesAndIntersectsAndBadCoverageIsNamed) {
  const std::string head =
      "t_ms\tquantum_ms\tlayout\tspan_start_ms\tspan_end_ms\tfull_start_ms\tfull_end_ms\tbinsMap.bin\tbinsMap.units\n";
  Result r;
  Diagnostics d;
  ASSERT_TRUE(parse(head + "0\t1000\tfio3\t0\t5000\t1000\t5000\t[1]\t[1]\n"
                           "1000\t1000\tfio3\t500\t7000\t1500\t6000\t[1]\t[1]\n"
                           "2000\t1000\tfio3\tx\t7000\t0\t0\t[1]\t[1]\n"            // line 4: no number
                           "2000\t1000\tfio3\t9000\t7000\t0\t0\t[1]\t[1]\n"         // line 5: ends first
                           "2000\t1000\tfio3\t-9000\t9000\t0\t9000\t[1]\t[x]\n",    // line 6: bad units
                    &r, &d)
                  .ok());
  EXPECT_EQ(d.count(Issue::kTsvMalformedRow), 3u);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].span_start_ms, 0);   // union
  EXPECT_EQ(r.series[0].span_end_ms, 7000);
  EXPECT_EQ(r.series[0].full_start_ms, 1500);  // intersection
  EXPECT_EQ(r.series[0].full_end_ms, 5000);    // line 6's coverage not taken: its row was skipped
  const Status st = parse("t_ms\tquantum_ms\tlayout\tspan_start_ms\tbinsMap.bin\tbinsMap.units\n0\t1000\tfio3\t0\t[1]\t[1]\n", &r);
  EXPECT_EQ(st.message.substr(0, 46), "line 1:1: the header names 1 of the coverage c");
}

TEST(CompactTable, AHeaderOfBothFormsFails) {
  Result r;
  const Status st = parse("t_ms\tquantum_ms\tlayout\tbin\tcount\tbinsMap.bin\tbinsMap.units\n0\t1000\tfio3\t1\t1\t[]\t[]\n", &r);
  EXPECT_EQ(st.message.substr(0, 50), "line 1:1: the header names both the long table's c");
}

TEST(CompactTable, TheRegistryDetectsItByItsHeader) {
  const Result r = reduce_files(files_of("local", "_clat_hist"), 1000, {"dir"});
  const std::string text = compact(r);
  SniffInput in;
  in.name = "answer.txt";
  in.data = text.data();
  in.n = std::min(text.size(), kSniffBytes);
  EXPECT_EQ(sniff(in).format, FileFormat::kTsv);
}

}  // namespace
}  // namespace latscope
