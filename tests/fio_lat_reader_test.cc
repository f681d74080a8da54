// fio per-I/O logs: detection among the other formats, names, columns and
// the log_avg_msec refusal (docs/formats-fio-lat.md). Golden files:
// fio_lat_golden_test.cc.
#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/reader.h"
#include "test_util.h"

namespace latscope {

uint32_t fio_value_to_bin(uint64_t v);  // formats/fio_lat/fio_lat_reader.h

namespace {

std::string fx(const std::string& rel) { return std::string(LATSCOPE_FIXTURES) + "/" + rel; }

std::string text_of(const std::string& path) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(path, &t)) << path;
  return t;
}

SniffResult sniff_text(const std::string& name, const std::string& text) {
  return sniff({name, text.data(), std::min(text.size(), kSniffBytes), text.size() <= kSniffBytes});
}

TEST(FioLatReader, SniffTellsPerIoLogsFromEveryOtherInput) {
  const std::string io = "0, 87543, 0, 4096, 0\n0, 260707, 1, 4096, 0\n";
  EXPECT_EQ(sniff_text("x_clat.1.log", io).format, FileFormat::kFioLat);
  EXPECT_EQ(sniff_text("x_clat.1.log", io).confidence, 97);
  EXPECT_EQ(sniff_text("anything.txt", io).format, FileFormat::kFioLat);  // by content alone
  // fio's IOPS / bandwidth logs have the same shape: their names decide.
  EXPECT_EQ(sniff_text("x_iops.1.log", io).format, FileFormat::kIgnored);
  EXPECT_EQ(sniff_text("x_bw.1.log", io).format, FileFormat::kIgnored);
  // Real files of the other formats keep their readers.
  EXPECT_EQ(sniff_text("a", text_of(fx("local/local_clat_hist.1.log"))).format, FileFormat::kFioHist);
  EXPECT_EQ(sniff_text("a", text_of(fx("coarse/c4_clat_hist.1.log"))).format, FileFormat::kFioHist);
  EXPECT_EQ(sniff_text("a", text_of(fx("local/local.json"))).format, FileFormat::kFioJson);
  EXPECT_EQ(sniff_text("a", text_of(fx("local/local_clat.1.log"))).format, FileFormat::kFioLat);
  EXPECT_EQ(sniff_text("a", text_of(fx("fio_lat/fl_slat.1.log"))).format, FileFormat::kFioLat);
  // Lines that are not per-I/O lines: too wide, negative, text, a payload.
  EXPECT_NE(sniff_text("a", "1, 2, 3, 4, 5, 6, 7, 8\n").format, FileFormat::kFioLat);
  EXPECT_NE(sniff_text("a", "0, -5, 0, 4096, 0\n").format, FileFormat::kFioLat);
  EXPECT_NE(sniff_text("a", "0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCyj\n").format, FileFormat::kFioLat);
  EXPECT_NE(sniff_text("a", "0, 100, 3, 4096, 0\n").format, FileFormat::kFioLat);  // ddir 3
  EXPECT_EQ(name_claims_log("run_clat.1.log.host"), "a fio per-I/O latency log");
  EXPECT_EQ(name_claims_log("run_clat_hist.1.log"), "a fio histogram log");
}

TEST(FioLatReader, NamesGiveKindJobAndHost) {
  FileIdentity id = parse_fio_file_name("/a/s1_clat.2.log.127.0.0.1");
  EXPECT_EQ(id.kind, "clat");
  EXPECT_EQ(id.job, "2");
  EXPECT_EQ(id.host, "127.0.0.1");
  EXPECT_EQ(id.prefix, "s1");
  id = parse_fio_file_name("run_lat.3.log.gz");
  EXPECT_EQ(id.kind, "lat");
  EXPECT_EQ(id.job, "3");
  EXPECT_TRUE(id.gz);
  id = parse_fio_file_name("my_run_slat.log");  // per_job_logs=0
  EXPECT_EQ(id.kind, "slat");
  EXPECT_EQ(id.job, "");
  EXPECT_EQ(id.prefix, "my_run");
  id = parse_fio_file_name("s1_clat_hist.1.log");
  EXPECT_EQ(id.kind, "clat");
  id = parse_fio_file_name("x_lat.json");
  EXPECT_EQ(id.kind, "");
  Engine e;
  const Source& s = testing::feed(&e, "r_slat.4.log.h1", "0, 100, 0, 4096, 0\n");
  EXPECT_EQ(*s.labels.find("kind"), "slat");
  EXPECT_EQ(label_of(s, s.series[0], "job"), "4");
  EXPECT_EQ(label_of(s, s.series[0], "host"), "h1");
}

TEST(FioLatReader, RealRunsReadEveryLine) {
  for (const char* f : {"local/local_clat.1.log", "fio_lat/fl_clat.1.log", "fio_lat/fl_lat.1.log",
                        "fio_lat/fl_slat.1.log", "fio-s1/s1_clat.1.log.127.0.0.1"}) {
    Engine e;
    const std::string t = text_of(fx(f));
    const Source& s = testing::feed(&e, fx(f), t);
    ASSERT_TRUE(s.status.ok()) << f << ": " << s.status.message;
    EXPECT_EQ(s.format, FileFormat::kFioLat);
    const uint64_t lines = static_cast<uint64_t>(std::count(t.begin(), t.end(), '\n'));
    EXPECT_EQ(s.records, lines) << f;
    EXPECT_TRUE(s.diag.empty()) << f;
    uint64_t ios = 0;
    for (const Series& x : s.series) {
      ios += x.total();
      EXPECT_EQ(x.io_ns.size(), x.total());
      for (const Window& w : x.windows) EXPECT_EQ(w.start_ms, w.end_ms);
    }
    EXPECT_EQ(ios, lines) << f;
  }
}

TEST(FioLatReader, OffsetsAreReadWhenLogged) {
  Engine e;
  const Source& s = testing::feed(&e, "fl_clat.1.log", text_of(fx("fio_lat/fl_clat.1.log")));
  for (const Series& x : s.series) EXPECT_EQ(x.io_offset.size(), x.io_ns.size());  // log_offset=1
  Engine f;
  const Source& l = testing::feed(&f, "local_clat.1.log", text_of(fx("local/local_clat.1.log")));
  for (const Series& x : l.series) EXPECT_TRUE(x.io_offset.empty());  // column 5 is the priority
}

TEST(FioLatReader, AveragedLogsAreReadAsWindowValues) {
  // Percentiles are refused by the query (fio_lat_avg_test.cc), not the file.
  for (const char* f : {"fio_lat/avg_clat.1.log", "fio_lat/avg_lat.1.log", "fio_lat/avg_slat.1.log"}) {
    Engine e;
    const Source& s = testing::feed(&e, fx(f), text_of(fx(f)));
    EXPECT_EQ(s.format, FileFormat::kFioLat);
    ASSERT_TRUE(s.status.ok()) << f << ": " << s.status.message;
    ASSERT_EQ(s.series.size(), 2u) << f;  // read, write
    for (const Series& x : s.series) {
      EXPECT_EQ(x.role, Role::kWindowValues);
      EXPECT_EQ(x.windows.size(), 8u);
      EXPECT_EQ(x.io_ns.size(), 8u);
      EXPECT_TRUE(x.valid(x.layout->size()));
    }
  }
  Engine e;  // an I/O line (bs > 0) in an averaged log is skipped
  const Source& s = testing::feed(&e, "a_clat.1.log", "250, 1000, 0, 0, 0\n251, 5, 0, 4096, 0\n500, 3000, 0, 0, 0\n");
  ASSERT_TRUE(s.status.ok());
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].io_ns, (std::vector<uint64_t>{1000, 3000}));
  EXPECT_EQ(s.diag.count(Issue::kNotANumber), 1u);
}

TEST(FioLatReader, FioTwoValuesAreMicroseconds) {
  Engine e;
  const Source& s = testing::feed(&e, "a_clat.1.log", "0, 87, 0, 4096\n");
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].io_ns[0], 87000u);
  FileOptions o;
  o.fio_version = 3;
  Engine f;
  const Source& t = testing::feed(&f, "a_clat.1.log", "0, 87, 0, 4096\n", 0, o);
  EXPECT_EQ(t.series[0].io_ns[0], 87u);
}

TEST(FioLatReader, ValuesGoToFiosOwnBins) {
  // plat_val_to_idx: < 128 is its own bin; 128..255 step 2; the last bin saturates.
  EXPECT_EQ(fio_value_to_bin(0), 0u);
  EXPECT_EQ(fio_value_to_bin(127), 127u);
  EXPECT_EQ(fio_value_to_bin(128), 128u);
  EXPECT_EQ(fio_value_to_bin(129), 128u);
  EXPECT_EQ(fio_value_to_bin(130), 129u);
  EXPECT_EQ(fio_value_to_bin(~0ull), kFio3Bins - 1);
  const BinLayout& L = *fio_layout(3, 0);
  for (uint64_t v : {200ull, 1000ull, 87543ull, 123456789ull, 5000000000ull}) {
    const uint32_t b = fio_value_to_bin(v);
    EXPECT_LE(L.lo[b], static_cast<double>(v));
    EXPECT_GT(L.hi[b], static_cast<double>(v));
  }
}

}  // namespace
}  // namespace latscope
