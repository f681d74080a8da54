// Every fast-path kernel of the fio histogram reader (line_scan.h: scalar,
// SSE2, AVX2, simd128, whichever this build and CPU have) against the scalar
// one: the same fields or the same refusal line by line, and the same model,
// diagnostics and messages for whole files in any chunking. ctest also runs
// the reader's other suites and the fuzz replay once per forced kernel
// (LATSCOPE_FIO_HIST_KERNEL, tests/CMakeLists.txt).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
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

using fio_hist::LineKernel;
using testing::feed;
using testing::hist_line;

std::vector<LineKernel> available() {
  std::vector<LineKernel> v;
  for (LineKernel k : fio_hist::kAllLineKernels)
    if (fio_hist::kernel_parser(k)) v.push_back(k);
  return v;
}

// Forces a kernel for readers opened in its scope.
class ForceKernel {
 public:
  explicit ForceKernel(LineKernel k) : old_(fio_hist::line_kernel()) { EXPECT_TRUE(fio_hist::set_line_kernel(k)); }
  ~ForceKernel() { fio_hist::set_line_kernel(old_); }
  ForceKernel(const ForceKernel&) = delete;
  ForceKernel& operator=(const ForceKernel&) = delete;

 private:
  LineKernel old_;
};

struct Parsed {
  bool ok = false;
  fio_hist::LineFields f;
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
};

// One line through one kernel, from a heap block of exactly its size, so
// that a read past its end is an AddressSanitizer error.
Parsed parse(fio_hist::LineParser parser, const std::string& line) {
  Parsed r;
  r.bins.assign(kFio3Bins, 0);
  r.counts.assign(kFio3Bins, 0);
  r.f.bins = r.bins.data();
  r.f.counts = r.counts.data();
  std::unique_ptr<char[]> exact(new char[line.size() + (line.empty() ? 1 : 0)]);
  std::memcpy(exact.get(), line.data(), line.size());
  r.ok = parser(exact.get(), exact.get() + line.size(), &r.f);
  if (r.ok) {
    r.bins.resize(r.f.nnz);
    r.counts.resize(r.f.nnz);
  }
  return r;
}

void expect_same_line(const std::string& line) {
  const Parsed ref = parse(fio_hist::kernel_parser(LineKernel::kScalar), line);
  for (LineKernel k : available()) {
    const Parsed got = parse(fio_hist::kernel_parser(k), line);
    SCOPED_TRACE(std::string(fio_hist::kernel_name(k)) + " on '" + line.substr(0, 120) + "' (" +
                 std::to_string(line.size()) + " bytes)");
    ASSERT_EQ(got.ok, ref.ok);
    if (!ref.ok) continue;
    EXPECT_EQ(got.f.meta[0], ref.f.meta[0]);
    EXPECT_EQ(got.f.meta[1], ref.f.meta[1]);
    EXPECT_EQ(got.f.meta[2], ref.f.meta[2]);
    EXPECT_EQ(got.f.cols, ref.f.cols);
    EXPECT_EQ(got.bins, ref.bins);
    EXPECT_EQ(got.counts, ref.counts);
  }
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Model, diagnostics (messages included) and data of a file read by a kernel.
std::string read_with(LineKernel k, const std::string& name, const std::string& text, size_t chunk) {
  ForceKernel force(k);
  Engine e;
  const Source& s = feed(&e, name, text, chunk);
  std::string o = source_json(s);
  for (const Series& x : s.series) o += "\n" + std::string(x.data.begin(), x.data.end());
  return o;
}

void expect_same_file(const std::string& name, const std::string& text, std::initializer_list<size_t> chunks) {
  for (size_t chunk : chunks) {
    const std::string ref = read_with(LineKernel::kScalar, name, text, chunk);
    for (LineKernel k : available())
      EXPECT_EQ(read_with(k, name, text, chunk), ref)
          << fio_hist::kernel_name(k) << ", " << name << ", chunks of " << chunk;
  }
}

TEST(FioHistKernels, TheScalarKernelIsAlwaysThereAndTheForcedOneIsUsed) {
  EXPECT_NE(fio_hist::kernel_parser(LineKernel::kScalar), nullptr);
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  EXPECT_NE(fio_hist::kernel_parser(LineKernel::kSse2), nullptr);  // x86-64's baseline
#endif
#if defined(__EMSCRIPTEN__)
  EXPECT_NE(fio_hist::kernel_parser(LineKernel::kSimd128), nullptr);
#endif
  const char* forced = std::getenv("LATSCOPE_FIO_HIST_KERNEL");
  if (!forced) GTEST_SKIP() << "LATSCOPE_FIO_HIST_KERNEL not set";
  for (LineKernel k : fio_hist::kAllLineKernels)
    if (std::strcmp(forced, fio_hist::kernel_name(k)) == 0) {
      if (!fio_hist::kernel_parser(k)) GTEST_SKIP() << forced << " is not available on this build or CPU";
      EXPECT_EQ(fio_hist::line_kernel(), k);
      return;
    }
  ADD_FAILURE() << "LATSCOPE_FIO_HIST_KERNEL=" << forced << " names no kernel";
}

// Zero runs of every length ending at every offset from the line's end, and
// numbers of every length, so each vector width meets its tail.
TEST(FioHistKernels, ZeroRunsAndNumbersOfEveryLengthNearTheLineEnd) {
  for (size_t cols : {size_t{1}, size_t{2}, size_t{29}, size_t{58}, size_t{1856}}) {
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
      const std::string v = lead + digits;
      expect_same_line("1, 0, 4096, " + v);
      expect_same_line("1, 0, 4096, 0, 0, " + v + ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0");
      expect_same_line(v + ", 0, 4096, 0, 0, 0, " + v);
    }
  }
  expect_same_line("1, 0, 4096, 18446744073709551615");  // 20 digits: the general parser's
  expect_same_line("");
  expect_same_line("1, 0, 4096");
  expect_same_line("1, 0, 4096, ");
}

// fio's shape with one byte changed at every position of a line: separators,
// blanks, CR, signs, letters, NUL; each kernel must refuse or read alike.
// Coarseness 4: 116 bin columns, the last count 15 columns before the end.
TEST(FioHistKernels, EveryOneByteChangeOfALineIsReadAlike) {
  std::string line = hist_line(1002, 0, {{0, 3}, {5, 12}, {6, 1}, {40, 123456789}, {41, 9}, {100, 1}}, 4);
  line.pop_back();  // no '\n'
  const char subs[] = {',', ' ', '\t', '\r', '-', '+', 'x', '0', '9', '\0', '\x80'};
  for (size_t i = 0; i < line.size(); ++i)
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

// The line above once named bin 400 of 116 columns: hist_line added to 8
// bytes 2272 past its vector; the native suite passed, and in the
// WebAssembly suite it hit the cached fio layouts, which Layout.* and
// LayoutMerge.* then found changed (docs/formats.md, "Reading fio
// histogram lines fast"). It now refuses.
TEST(FioHistKernels, TheLineHelperRefusesBinsPastItsColumns) {
  EXPECT_NONFATAL_FAILURE(hist_line(1, 0, {{116, 1}}, 4), "bin 116 past the line's 116 columns");
  EXPECT_NONFATAL_FAILURE(hist_line(1, 0, {{1856, 1}}), "bin 1856 past the line's 1856 columns");
  const std::string last = hist_line(1, 0, {{115, 1}}, 4);
  EXPECT_EQ(last.substr(last.size() - 7), ", 0, 1\n");
}

TEST(FioHistKernels, RandomLinesAreReadAlike) {
  std::mt19937 rng(20261123);
  const char* const kSeps[] = {", ", ",", ",  ", " , ", ",\t"};
  for (int n = 0; n < 3000; ++n) {
    std::string line = std::to_string(rng() % 100000) + ", " + std::to_string(rng() % 4) + ", 4096";
    const size_t cols = (rng() % 4 == 0) ? 1856 : 1 + rng() % 300;
    const unsigned density = 1 + rng() % 20;
    for (size_t c = 0; c < cols; ++c) {
      line += rng() % 200 == 0 ? kSeps[rng() % 5] : ", ";
      if (rng() % density == 0) line += std::to_string(rng() >> (rng() % 32));
      else line += "0";
    }
    if (rng() % 10 == 0) line += rng() % 2 ? "," : "\r";
    expect_same_line(line);
  }
}

// Whole files: the fixtures as fio wrote them, with CRLF line ends, with
// damage, in chunks that split lines at every byte (1) and elsewhere.
TEST(FioHistKernels, FixturesInAnyChunkingGiveTheSameModelAndMessages) {
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

}  // namespace
}  // namespace latscope
