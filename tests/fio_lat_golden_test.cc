// Golden files for fio per-I/O logs (tests/golden/fio_lat/README.md): y_* are
// read and dumped, n_* rejected with an exact message; sniffed == forced and
// any chunking gives the same text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fixture_util.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fs = std::filesystem;

std::string golden_dir() { return std::string(LATSCOPE_FIXTURES) + "/../golden/fio_lat"; }

std::string dump(const Source& s) {
  std::string o = "format " + std::string(format_name(s.format)) + "\n";
  o += "kind " + s.id.kind + " job " + s.id.job + " host " + s.id.host + " prefix " + s.id.prefix + "\n";
  o += "lines " + std::to_string(s.lines) + " records " + std::to_string(s.records) + " absolute " +
       (s.absolute_time ? "1" : "0") + "\n";
  if (!s.status.ok()) o += "status " + s.status.message + "\n";
  for (const Series& x : s.series) {
    o += "series " + std::string(dir_name(x.dir)) + " job " + x.job + " segment " + std::to_string(x.segment) +
         " per_io " + (x.per_io ? "1" : "0") + " saturated " + std::to_string(x.saturated) +
         (x.role == Role::kWindowValues ? " window_values" : "") + "\n ";
    for (const Window& w : x.windows) {
      o += " " + std::to_string(static_cast<long long>(w.end_ms)) + ":";
      x.for_each_bin(w, [&](uint32_t b, uint64_t c) { o += std::to_string(b) + "*" + std::to_string(c) + ","; });
    }
    o += fixtures::io_text(x, "  ");
  }
  return o + fixtures::diag_text(s.diag);
}

std::vector<std::string> golden(const char* prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(golden_dir())) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) == 0 && n.find(".expected") == std::string::npos) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const std::string& path) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(path, &t)) << path;
  return t;
}

void check(const std::string& path, const std::string& got) {
  const std::string exp = path + ".expected";
  if (std::getenv("LATSCOPE_UPDATE_GOLDEN")) {
    std::ofstream(exp, std::ios::binary) << got;
    return;
  }
  EXPECT_EQ(read(exp), got) << path;
}

// The same text whole, in 1-byte and 100-byte chunks, sniffed and forced.
std::string read_all_ways(const std::string& path, bool accepted) {
  const std::string text = read(path);
  const std::string name = fs::path(path).filename().string();
  std::string first;
  for (bool forced : {false, true}) {
    for (size_t chunk : {size_t{0}, size_t{1}, size_t{100}}) {
      if (forced && !accepted) continue;  // a rejected file may be rejected by the sniff
      Engine e;
      FileOptions o;
      if (forced) o.format = FileFormat::kFioLat;
      const std::string got = dump(testing::feed(&e, name, text, chunk, o));
      if (first.empty()) first = got;
      EXPECT_EQ(first, got) << name << (forced ? " forced" : " sniffed") << " chunk " << chunk;
    }
  }
  return first;
}

TEST(FioLatGolden, AcceptedFilesDumpAsExpected) {
  const std::vector<std::string> files = golden("y_");
  ASSERT_GE(files.size(), 10u);
  for (const std::string& f : files) {
    const std::string got = read_all_ways(f, true);
    EXPECT_NE(got.find("format fio-lat"), std::string::npos) << f;
    EXPECT_EQ(got.find("status "), std::string::npos) << f;
    check(f, got);
  }
}

TEST(FioLatGolden, RejectedFilesSayWhy) {
  const std::vector<std::string> files = golden("n_");
  ASSERT_GE(files.size(), 3u);
  for (const std::string& f : files) {
    read_all_ways(f, false);
    Engine e;
    const Source& s = testing::feed(&e, fs::path(f).filename().string(), read(f));
    ASSERT_FALSE(s.status.ok()) << f;
    check(f, s.status.message + "\n");
  }
}

}  // namespace
}  // namespace latscope
