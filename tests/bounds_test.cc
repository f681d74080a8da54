// Bounded on any input (docs/input-robustness.md, docs/result-format.md
// "Memory"): result files whose cells inflate past the memory bound; the
// sniff's look-ahead past a long first line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec/base64.h"
#include "formats/hdr/hdr_log.h"
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
      c.counts.push_back(uint64_t{1} << kResultFracBits);  // one I/O
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

// A V2 payload of n explicit zero counts (Java writes runs), compressed:
// ~n/1000 bytes that inflate to n.
std::string zero_payload(size_t n) {
  std::vector<uint8_t> inner = {0x1c, 0x84, 0x93, 0x13};
  const auto be32 = [&](uint32_t v) {
    for (int k = 3; k >= 0; --k) inner.push_back(static_cast<uint8_t>(v >> (8 * k)));
  };
  be32(static_cast<uint32_t>(n));
  be32(0);  // normalizing offset
  be32(3);  // digits
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{0}, uint64_t{1000000}, uint64_t{0x3ff00000}, uint64_t{0}})
    be32(static_cast<uint32_t>(v));  // lowest 1, highest 10^6, ratio 1.0 as two words each
  inner.resize(inner.size() + n, 0);
  std::vector<uint8_t> z;
  EXPECT_TRUE(deflate_zlib(inner.data(), inner.size(), &z));
  std::vector<uint8_t> outer = {0x1c, 0x84, 0x93, 0x14};
  for (int k = 3; k >= 0; --k) outer.push_back(static_cast<uint8_t>(z.size() >> (8 * k)));
  outer.insert(outer.end(), z.begin(), z.end());
  return base64_encode(outer.data(), outer.size());
}

// Zero counts inflate a thousand times over: a file's payloads inflate to at
// most max_inflate_ratio times its bytes plus a floor; past it intervals are
// skipped and counted, not inflated (docs/input-robustness.md, "Empty content").
TEST(InflateBounds, ALogsPayloadsInflateWithinItsBound) {
  hdr::LogOptions opts;
  opts.max_inflated_floor = 1 << 20;
  opts.max_inflate_ratio = 16;
  const std::string p = zero_payload(size_t{1} << 20);
  std::string log = "#[StartTime: 1441812279.474 (seconds since epoch)]\n";
  for (int k = 0; k < 20; ++k) log += std::to_string(k) + ".000,1.000,0.000," + p + "\n";
  hdr::LogParser parser(opts);
  parser.append(log.data(), log.size());
  parser.finish();
  hdr::Interval iv;
  int read = 0;
  while (parser.next(&iv)) ++read;
  const uint64_t skipped = parser.diagnostics().count(Issue::kHdrBadPayload);
  EXPECT_EQ(read + skipped, 20u);
  // 1 MiB + 16 x the ~1 KB lines read: the first interval and hardly more.
  EXPECT_GE(read, 1);
  EXPECT_LE(read, 2);
  bool said = false;
  for (const IssueExample& x : parser.diagnostics().examples())
    said = said || x.text.find("the file's payloads would inflate past 16 times its") != std::string::npos;
  EXPECT_TRUE(said);
}

// A run of empty lines in a fio log is counted, not parsed line by line;
// the count and the line numbers after it are the same.
TEST(InflateBounds, EmptyLinesAreCountedInRuns) {
  const std::string line = testing::hist_line(1000, 0, {{150, 10}});
  const std::string text = std::string(10, '\n') + line + std::string(100000, '\n') + "x\n";
  Engine e;
  const Source& s = testing::feed(&e, "a_clat_hist.1.log", text, 4096);
  EXPECT_EQ(s.diag.count(Issue::kEmptyLine), 100010u);
  EXPECT_EQ(s.lines, 100012u);
  bool at = false;
  for (const IssueExample& x : s.diag.examples()) at = at || x.line == 100012;
  EXPECT_TRUE(at) << "the bad line after the run keeps its number";
}

}  // namespace
}  // namespace latscope
