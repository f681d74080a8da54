// Archives are named, not read as logs (core/src/formats/archive_sniff.cc,
// docs/input-robustness.md "Archives"): a tarball of a results folder,
// read as text, looked like one per-I/O log of every member's lines.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

// tests/fixtures/archives/fio_lat.tar: GNU tar of the fio_lat set, as
// users pass a results folder on.
std::string tar_of_fio_lat() {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/archives/fio_lat.tar", &t));
  return t;
}

uint64_t samples_of(const Engine& e) {
  QueryOptions o;
  o.quantum_ms = 1e9;
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  double n = 0;
  for (const Row& row : r.rows) n += row.stats.samples;
  return static_cast<uint64_t>(std::llround(n));
}

TEST(Archives, ATarballIsNamedNotReadAsALog) {
  const std::string tar = tar_of_fio_lat();
  ASSERT_GT(tar.size(), 100000u);
  // As the CLI and the page see it: a .tar, and a .tar.gz once gunzipped.
  for (const char* name : {"results.tar", "results.tar.gz"}) {
    Engine e;
    const Source& s = testing::feed(&e, name, tar);
    EXPECT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.format, FileFormat::kIgnored) << name;
    EXPECT_TRUE(s.series.empty());
    EXPECT_EQ(s.ignored, std::string("tar archive: latscope reads the files in it, not the archive; extract it (tar -xf ") +
                             name + ") and give its folder");
  }
  // Beside the files it holds (a folder with its own tarball), it adds nothing.
  Engine folder, with_tar;
  for (const std::string& f : fixtures::files_of("fio_lat", "fl")) {
    std::string t;
    ASSERT_TRUE(fixtures::read_file(f, &t));
    testing::feed(&folder, f, t);
    testing::feed(&with_tar, f, t);
  }
  testing::feed(&with_tar, "fio_lat.tar.gz", tar);
  EXPECT_GT(samples_of(folder), 0u);
  EXPECT_EQ(samples_of(with_tar), samples_of(folder));
}

TEST(Archives, OtherArchivesAndCompressorsSayWhatToRun) {
  const std::string log = "1000, 0, 4096, 0\n";  // what the member would start with
  const struct {
    std::string magic, name, what;
  } cases[] = {
      {"PK\x03\x04", "r.zip", "zip archive: latscope reads the files in it, not the archive; extract it (unzip r.zip)"},
      {std::string("7z\xBC\xAF\x27\x1C", 6), "r.7z", "7-Zip archive: latscope reads the files in it"},
      {std::string("\xFD" "7zXZ\0", 6), "r.tar.xz", "xz-compressed data: latscope reads plain and gzip files; decompress it (xz -dk r.tar.xz)"},
      {"\x28\xB5\x2F\xFD", "a_clat.1.log.zst", "zstd-compressed data"},
      {"BZh91AY&SY", "a_clat_hist.1.log.bz2", "bzip2-compressed data"},
  };
  for (const auto& c : cases) {
    Engine e;
    const Source& s = testing::feed(&e, c.name, c.magic + std::string(64, '\0') + log);
    EXPECT_EQ(s.format, FileFormat::kIgnored) << c.name;
    EXPECT_EQ(s.ignored.rfind(c.what, 0), 0u) << s.ignored;
  }
  // Text that merely mentions a magic is still text.
  Engine e;
  EXPECT_EQ(testing::feed(&e, "notes.txt", "PK is not at the start\nustar\n").ignored, "text");
}

}  // namespace
}  // namespace latscope
