// The fio histogram reader's fast path (line_scan.h) against the general
// parser alone: the same model, diagnostics, messages and bins for lines of
// fio's exact shape, for lines one byte off it, for random lines with other
// separators, and for whole fixtures in any chunking (docs/formats.md,
// "Reading fio histogram lines fast"). The fuzz target checks the same.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>

#include "formats/fio_hist/line_scan.h"
#include "latscope/engine.h"
#include "latscope/layout.h"
#include "latscope/report.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

// Readers opened in its scope use the general parser alone.
class GeneralParserOnly {
 public:
  GeneralParserOnly() { fio_hist::set_fast_path(false); }
  ~GeneralParserOnly() { fio_hist::set_fast_path(true); }
  GeneralParserOnly(const GeneralParserOnly&) = delete;
  GeneralParserOnly& operator=(const GeneralParserOnly&) = delete;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Model, diagnostics (messages included) and bins of a file as read.
std::string read_text(const std::string& name, const std::string& text, size_t chunk) {
  Engine e;
  const Source& s = feed(&e, name, text, chunk);
  std::string o = source_json(s);
  for (const Series& x : s.series) o += "\n" + std::string(x.data.begin(), x.data.end());
  return o;
}

std::string read_general(const std::string& name, const std::string& text, size_t chunk) {
  GeneralParserOnly general;
  return read_text(name, text, chunk);
}

void expect_same_file(const std::string& name, const std::string& text, std::initializer_list<size_t> chunks) {
  for (size_t chunk : chunks)
    EXPECT_EQ(read_text(name, text, chunk), read_general(name, text, chunk)) << name << ", chunks of " << chunk;
}

// One line as a file of its own, after a line that fixes the layout (a
// line alone of another column count would be refused by both alike).
void expect_same_line(const std::string& line) {
  SCOPED_TRACE("'" + line.substr(0, 120) + "' (" + std::to_string(line.size()) + " bytes)");
  const std::string text = line + "\n";
  expect_same_file("f_clat_hist.1.log", text, {0});
}

// The fast path itself: fields of fio's shape, refusals of anything else,
// and no byte read at or past the line's end (a heap block of exactly the
// line's size, so that AddressSanitizer sees an overrun).
TEST(FioHistFastPath, ReadsFiosShapeAndRefusesTheRest) {
  std::vector<uint32_t> bins(kFio3Bins);
  std::vector<uint64_t> counts(kFio3Bins);
  const auto scan = [&](const std::string& line, fio_hist::LineFields* f) {
    std::unique_ptr<char[]> exact(new char[line.size() + 1]);
    std::memcpy(exact.get(), line.data(), line.size());
    f->bins = bins.data();
    f->counts = counts.data();
    return fio_hist::scan_line(exact.get(), exact.get() + line.size(), f);
  };
  fio_hist::LineFields f;
  ASSERT_TRUE(scan("1002, 1, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 12", &f));
  EXPECT_EQ(f.meta[0], 1002u);
  EXPECT_EQ(f.meta[1], 1u);
  EXPECT_EQ(f.meta[2], 4096u);
  EXPECT_EQ(f.cols, 12u);
  ASSERT_EQ(f.nnz, 2u);
  EXPECT_EQ(bins[0], 9u);
  EXPECT_EQ(counts[0], 7u);
  EXPECT_EQ(bins[1], 11u);
  EXPECT_EQ(counts[1], 12u);
  for (const char* refused : {"", "1, 0, 4096", "1, 0, 4096, ", "1, 0, 4096,0", "1, 0, 4096, 1 ", "1, 0, 4096, 0,",
                              " 1, 0, 4096, 1", "1, 0, 4096, 18446744073709551615", "1, 0, 4096, -1"})
    EXPECT_FALSE(scan(refused, &f)) << "'" << refused << "'";
}

// Zero runs of every length ending at every offset from the line's end, and
// numbers of every length.
TEST(FioHistFastPath, ZeroRunsAndNumbersOfEveryLengthNearTheLineEnd) {
  for (size_t cols : {size_t{29}, size_t{58}, size_t{1856}}) {
    for (size_t nz = 0; nz <= cols && nz < 40; ++nz) {
      std::string line = "1002, 1, 4096";
      for (size_t c = 0; c < cols; ++c) line += c + 1 == cols - nz ? ", 7" : ", 0";
      expect_same_line(line);
    }
  }
  std::string digits;
  for (int n = 1; n <= 22; ++n) {
    digits += static_cast<char>('0' + (n * 7) % 10);
    for (const char* lead : {"", "0", "00"}) {
      std::string line = "1, 0, 4096, 0, 0, " + (lead + digits);
      for (int c = 3; c < 29; ++c) line += ", 0";
      expect_same_line(line);
    }
  }
}

// fio's shape with one byte changed at every position of a line:
// separators, blanks, CR, signs, letters, NUL; read alike either way.
// Coarseness 4: 116 bin columns, the last count 15 columns before the end.
TEST(FioHistFastPath, EveryOneByteChangeOfALineIsReadAlike) {
  std::string line = hist_line(1002, 0, {{0, 3}, {5, 12}, {6, 1}, {40, 123456789}, {41, 9}, {100, 1}}, 4);
  line.pop_back();  // no '\n'
  const char subs[] = {',', ' ', '\t', '\r', '-', '+', 'x', '0', '9', '\0', '\x80'};
  for (size_t i = 0; i < line.size(); i += 3)
    for (char c : subs) {
      std::string m = line;
      m[i] = c;
      expect_same_line(m);
      m = line;
      m.insert(i, 1, c);
      expect_same_line(m);
      m = line;
      m.erase(i, 1);
      expect_same_line(m);
    }
}

// The line helper once named bin 400 of 116 columns and wrote past its
// vector (docs/formats.md, "Reading fio histogram lines fast"): it refuses.
TEST(FioHistFastPath, TheLineHelperRefusesBinsPastItsColumns) {
  EXPECT_NONFATAL_FAILURE(hist_line(1, 0, {{116, 1}}, 4), "bin 116 past the line's 116 columns");
  EXPECT_NONFATAL_FAILURE(hist_line(1, 0, {{1856, 1}}), "bin 1856 past the line's 1856 columns");
  const std::string last = hist_line(1, 0, {{115, 1}}, 4);
  EXPECT_EQ(last.substr(last.size() - 7), ", 0, 1\n");
}

// Random files of lines in fio's shape with, now and then, another
// separator, a trailing comma or a CR.
TEST(FioHistFastPath, RandomLinesAreReadAlike) {
  std::mt19937 rng(20261123);
  const char* const kSeps[] = {", ", ",", ",  ", " , ", ",\t"};
  for (int file = 0; file < 60; ++file) {
    std::string text;
    const size_t cols = file % 4 == 0 ? 1856 : 116;
    for (int n = 0; n < 40; ++n) {
      std::string line = std::to_string(1000 * (n + 1) + rng() % 10) + ", " + std::to_string(rng() % 3) + ", 4096";
      const unsigned density = 1 + rng() % 20;
      for (size_t c = 0; c < cols; ++c) {
        line += rng() % 200 == 0 ? kSeps[rng() % 5] : ", ";
        if (rng() % density == 0) line += std::to_string(rng() >> (rng() % 32));
        else line += "0";
      }
      if (rng() % 10 == 0) line += rng() % 2 ? "," : "\r";
      text += line + "\n";
    }
    expect_same_file("r_clat_hist.1.log", text, {0, 977});
  }
}

// Whole files: the fixtures as fio wrote them, with CRLF line ends, with
// damage, in chunks that split lines at every byte (1) and elsewhere.
TEST(FioHistFastPath, FixturesInAnyChunkingGiveTheSameModelAndMessages) {
  const std::string dir = LATSCOPE_FIXTURES;
  const char* const kFiles[] = {"fio-s1/s1_clat_hist.1.log.127.0.0.2", "coarse/c2_clat_hist.1.log",
                                "coarse/c4_clat_hist.2.log", "epoch/epoch_clat_hist.1.log",
                                "cs/cs_clat_hist.2.log.127.0.0.1"};
  std::mt19937 rng(7);
  for (const char* f : kFiles) {
    std::string text = slurp(dir + "/" + f);
    ASSERT_FALSE(text.empty()) << f;
    if (text.size() > 400000) text.resize(400000);  // a cut last line, too
    const std::string name = std::string(f).substr(std::string(f).find('/') + 1);
    expect_same_file(name, text, {0, 1, 7, 4096});
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    expect_same_file(name, crlf, {0, 13});
    std::string damaged = text;
    for (int i = 0; i < 200; ++i) damaged[rng() % damaged.size()] = "0 ,\n\r-x9"[rng() % 8];
    expect_same_file(name, damaged, {0, 1, 61});
  }
}

// Readers use the fast path unless a test turns it off (the comparisons
// above would pass, vacuously, with it off everywhere).
TEST(FioHistFastPath, TheSwitchDefaultsToOn) {
  EXPECT_TRUE(fio_hist::fast_path());
  {
    GeneralParserOnly general;
    EXPECT_FALSE(fio_hist::fast_path());
  }
  EXPECT_TRUE(fio_hist::fast_path());
}

}  // namespace
}  // namespace latscope
