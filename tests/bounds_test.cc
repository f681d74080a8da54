// Bounded on any input (docs/input-robustness.md, docs/result-format.md
// "Memory"): result files whose cells inflate past the memory bound; the
// sniff's look-ahead past a long first line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/reader.h"
#include "latscope/result.h"
#include "test_util.h"

namespace latscope {
namespace {

// A result of `cells` cells of every fio3 bin, count 1.
std::vector<uint8_t> repeated_cells(int cells, uint32_t quanta_per_block = 600) {
  Result r;
  r.quantum_ms = 1000;
  ResultSeries s;
  s.layout = fio_layout(3, 0);
  for (int q = 0; q < cells; ++q) {
    ResultCell c;
    c.quantum = q;
    for (uint32_t b = 0; b < s.layout->size(); ++b) {
      c.bins.push_back(b);
      c.counts.push_back(kResultOne);
    }
    s.cells.push_back(std::move(c));
  }
  s.span_start_ms = s.full_start_ms = 0;
  s.span_end_ms = s.full_end_ms = cells * 1000.0;
  r.series.push_back(std::move(s));
  std::vector<uint8_t> out;
  EXPECT_TRUE(encode_result(r, deflate_zlib, &out, quanta_per_block).ok());
  return out;
}

TEST(ResultBounds, DecodedSizeIsBoundedBeforeItIsTaken) {
  const std::vector<uint8_t> file = repeated_cells(100);
  const size_t one = kResultCellBytes + 1856 * kResultBinBytes;
  Result r;
  EXPECT_TRUE(decode_result(file.data(), file.size(), &r, 100 * one).ok());
  EXPECT_EQ(r.series.at(0).cells.size(), 100u);
  const Status st = decode_result(file.data(), file.size(), &r, 100 * one - 1);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("cell 99: the decoded result would take over"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("docs/result-format.md, \"Memory\""), std::string::npos) << st.message;
  EXPECT_TRUE(r.series.empty());
}

TEST(ResultBounds, TheEngineAppliesTheFileOptionsBound) {
  const std::vector<uint8_t> file = repeated_cells(50, 4);  // blocks within the bound, cells past it
  std::string bytes(file.begin(), file.end());
  Engine e;
  FileOptions small;
  small.max_result_bytes = 10 * (kResultCellBytes + 1856 * kResultBinBytes);
  const Source& s = testing::feed(&e, "cells.lsr", bytes, 0, small);
  EXPECT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message.find("cells.lsr: result: block 2: cell 2: the decoded result would take over"),
            std::string::npos) << s.status.message;
  Engine e2;
  EXPECT_TRUE(testing::feed(&e2, "cells.lsr", bytes).status.ok());  // within the default 1 GiB
}

// A junk first line as long as the sniff's 64 KiB look-ahead, or longer,
// before a valid log: the log is read whatever the chunking
// (docs/input-robustness.md, "A damaged first line").
TEST(SniffBounds, AJunkFirstLineOfAnyLengthKeepsTheLog) {
  std::string log;
  for (int k = 0; k < 5; ++k) log += testing::hist_line(1000 * (k + 1), 0, {{150, 10}});
  for (size_t n : {size_t{60000}, size_t{65535}, size_t{65536}, size_t{70000}, size_t{1000000}}) {
    const std::string text = std::string(n, 'x') + "\n" + log;
    for (size_t chunk : {size_t{0}, size_t{4096}, size_t{65536}}) {
      Engine e;
      const Source& s = testing::feed(&e, "a.log", text, chunk);
      EXPECT_EQ(s.format, FileFormat::kFioHist) << n << " " << chunk << " " << s.ignored;
      EXPECT_EQ(s.records, 5u) << n << " " << chunk;
      EXPECT_EQ(s.diag.count(Issue::kNotANumber) + s.diag.count(Issue::kBinaryGarbage), 1u) << n << " " << chunk;
    }
  }
}

TEST(SniffBounds, NoLineEndInTheLookAheadIsNamed) {
  Engine e;
  const Source& s = testing::feed(&e, "a.log", std::string(kMaxSniffBytes + 10, 'x') + "\n1,0,4096,1\n");
  EXPECT_EQ(s.format, FileFormat::kIgnored);
  EXPECT_NE(s.ignored.find("no line end in its first 1024 KiB"), std::string::npos) << s.ignored;
}

}  // namespace
}  // namespace latscope
