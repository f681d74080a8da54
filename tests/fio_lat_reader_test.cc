// fio per-I/O logs: detection among the other formats, names, columns and
// the log_avg_msec refusal (docs/formats-fio-lat.md). Golden files:
// fio_lat_golden_test.cc.
#include <gtest/gtest.h>

#include "fixture_util.h"
#include "formats/fio_lat/fio_lat_reader.h"
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
  // No priority column: fio 2 (us) or early fio 3 (ns); kept as written
  // until the folder's evidence decides (folder_test.cc, Units.*).
  Engine e;
  const Source& s = testing::feed(&e, "a_clat.1.log", "0, 87, 0, 4096\n");
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].io_ns[0], 87u);
  EXPECT_TRUE(unit_pending(s));
  e.assign_runs({});  // no evidence but the magnitude: 87 ns is no storage I/O
  EXPECT_EQ(e.sources()[0].series[0].io_ns[0], 87000u);
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

// Everything a read leaves in a Source, as text: two reads agree when their
// descriptions do.
std::string describe(const Source& s) {
  std::string o = "lines " + std::to_string(s.lines) + " records " + std::to_string(s.records) + " bytes " +
                  std::to_string(s.bytes) + " absolute " + std::to_string(s.absolute_time) + " status " +
                  s.status.message + "\n";
  for (const Series& x : s.series) {
    o += "series " + std::string(dir_name(x.dir)) + " job " + x.job + " segment " + std::to_string(x.segment) +
         " per_io " + std::to_string(x.per_io) + " role " + std::to_string(static_cast<int>(x.role)) +
         " saturated " + std::to_string(x.saturated) + " valid " + std::to_string(x.valid(x.layout->size())) +
         "\n windows";
    for (const Window& w : x.windows)
      o += " " + std::to_string(w.start_ms) + "/" + std::to_string(w.end_ms) + "/" + std::to_string(w.total) + "/" +
           std::to_string(w.offset) + "/" + std::to_string(w.n);
    o += "\n data";
    for (uint8_t b : x.data) o += " " + std::to_string(b);
    o += fixtures::io_text(x, " ");
  }
  return o + fixtures::diag_text(s.diag);
}

// Straight to the reader: the Engine holds a file's first 64 KiB for the
// sniff and passes them on in one piece, whatever the appends were.
// `cuts`: where appends end (ascending).
std::string read_cut(const std::string& text, const std::vector<size_t>& cuts, const FileOptions& opts = {}) {
  Source src;
  src.name = "t_clat.1.log";
  FioLatReader r(&src, opts);
  size_t at = 0;
  for (size_t c : cuts) {
    r.append(text.data() + at, c - at);
    at = c;
  }
  r.append(text.data() + at, text.size() - at);
  r.finish();
  return describe(src);
}

std::string read_in_bytes(const std::string& text, const FileOptions& opts = {}) {
  std::vector<size_t> cuts;
  for (size_t i = 1; i < text.size(); ++i) cuts.push_back(i);
  return read_cut(text, cuts, opts);
}

// Good lines of each shape the fast path takes: fio 3 (prio), with offset,
// with a hex priority, fio master's 7 columns.
const char* const kShapes[] = {
    "20001, 535936, 0, 4096, 0\n",
    "20001, 535936, 1, 4096, 1011712, 0\n",
    "20001, 535936, 0, 4096, 0x2003, 88172\n",
    "20001, 535936, 2, 65536, 1011712, 0x0000, 123456789\n",
};

// The line `odd` among good lines of the same shape: enough after it for
// append()'s fast path to look at it when the text comes in one piece.
std::string among_good_lines(const std::string& good, const std::string& odd) {
  std::string t = good + good + odd;
  for (int i = 0; i < 12; ++i) t += good;
  return t;
}

// Lines the fast path must leave to parse_line, or take with exactly the
// values parse_line reads (written with 5 columns).
const char* const kOddLines[] = {
    "20002, 1, 0, 4096",                           // a column short
    "20002, 1, 0, 4096, 0, 0, 0, 0",               // too many
    "20002,535936,0,4096,0",                       // no blanks
    "20002,535936, 0, 4096, 0",                    // one comma without a blank
    "20002 , 1 , 0 , 4096 , 0",                    // blanks before commas
    "20002,\t1,\t0,\t4096,\t0",                    // tabs
    "20002,  1,  0,  4096,  0",                    // two blanks
    " 20002, 1, 0, 4096, 0",                       // leading blank
    "20002, 1, 0, 4096, 0 ",                       // trailing blank
    "20002, 1, 0, 4096, 0,",                       // trailing comma
    "20002, 1, 0, 4096, 0\r",                      // CR
    "",                                            // empty
    "20002, -1, 0, 4096, 0",                       // negative
    "20002, 1, 3, 4096, 0",                        // ddir 3
    "20002, 1, 0, 0, 0",                           // bs 0 among I/O lines
    "20002, 1, 0, 4294967295, 0",                  // largest bs
    "20002, 1, 0, 4294967296, 0",                  // bs over 4 GiB
    "20002, 9223372036854775808, 0, 4096, 0",      // 2^63 ns: kept, last bin
    "20002, 9223372036854775809, 0, 4096, 0",      // over 2^63 ns
    "20002, 9999999999999999999, 0, 4096, 0",      // 19 digits, over 2^63
    "20002, 18446744073709551615, 0, 4096, 0",     // 20 digits, UINT64_MAX
    "20002, 18446744073709551616, 0, 4096, 0",     // 2^64: overflow
    "20002, 0000000000000000000001, 0, 4096, 0",   // 22 digits, value 1
    "00000000000000020002, 1, 0, 4096, 0",         // 20 digits, leading zeros
    "0000000000000020002, 1, 0, 4096, 0",          // 19 digits, leading zeros
    "20002, 1, 0, 4096, 0x",                       // 0x and no digit
    "20002, 1, 0, 4096, 0xfffffffffffffff",        // 15 hex digits
    "20002, 1, 0, 4096, 0xFFFFFFFFFFFFFFFF",       // 16 hex digits
    "20002, 1, 0, 4096, 0x10000000000000000",      // 17 hex digits: overflow
    "20002, 1, 0, 4096, 0xg",                      // not hex
    "20002, 1, 0x0, 4096, 0",                      // hex ddir
    "20002, 1, 0, 4096, 0x2003x",                  // junk after hex
    "20002, 1, 0, 4096, 12ab",                     // junk after digits
    "20002, 1, 0, 4096, 0\x01",                    // control byte
    "19000, 1, 0, 4096, 0",                        // time restart
    "20002, 1, 0, 4096, 1.5",                      // not an integer
    "20002, 1, , 4096, 0",                         // empty field
    "20002, 1, 0, 4096, 18446744073709551615",     // 20 digits in column 5
    "20002, 1, 0, 4096, 9999999999999999999",      // 19 digits in column 5
};

// The fast path (whole lines well inside one append) must read every line
// exactly as parse_line does (1-byte appends never leave room for it):
// values, windows, diagnostics and their line and column.
TEST(FioLatReader, FastPathReadsEveryLineAsTheGeneralPathDoes) {
  FileOptions small_budget;
  small_budget.max_per_io_samples = 9;  // runs out after the odd line
  for (const std::string good : kShapes) {
    // The shape's columns after bs, to give each odd line the shape's width
    // too (its first four columns and this).
    size_t fourth = 0;
    for (int i = 0; i < 4; ++i) fourth = good.find(',', fourth + 1);
    const std::string tail = good.substr(fourth, good.size() - fourth - 1);
    for (const std::string odd : kOddLines) {
      std::vector<std::string> variants = {odd};
      size_t cut = 0;
      for (int i = 0; i < 4 && cut != std::string::npos; ++i) cut = odd.find(',', cut + 1);
      if (cut != std::string::npos) variants.push_back(odd.substr(0, cut) + tail);
      for (const std::string& v : variants) {
        const std::string text = among_good_lines(good, v + "\n");
        for (const FileOptions& o : {FileOptions{}, small_budget})
          EXPECT_EQ(read_cut(text, {}, o), read_in_bytes(text, o))
              << "among " << good << "the line " << v;
      }
    }
  }
}

// A line may be split anywhere across append() calls: every split of a text
// into two appends reads as the text in one.
TEST(FioLatReader, EverySplitOfTheTextReadsAsOneAppend) {
  for (const char* shape : kShapes) {
    std::string text = among_good_lines(shape, "20002, 9223372036854775808, 1, 512, 0x1\n");
    const size_t ncols = static_cast<size_t>(std::count(text.begin(), text.begin() + text.find('\n'), ',')) + 1;
    if (ncols != 5) text = among_good_lines(shape, "");  // the odd line has 5 columns
    text += "20003, 77, 1, 8192";  // last line: cut off (no newline)
    const std::string whole = read_cut(text, {});
    ASSERT_NE(whole.find("series "), std::string::npos);
    EXPECT_EQ(whole, read_in_bytes(text)) << shape;
    for (size_t cut = 0; cut <= text.size(); ++cut)
      EXPECT_EQ(whole, read_cut(text, {cut})) << shape << " cut at " << cut;
  }
}

// Numbers at the edges, read through the fast path, with their values.
TEST(FioLatReader, EdgeNumbersKeepTheirValues) {
  const std::string good = "20001, 535936, 0, 4096, 1011712, 0\n";
  std::string text = good + good;
  text += "20002, 9223372036854775808, 0, 4294967295, 9999999999999999999, 0xfffffffffffffff\n";
  text += "20002, 127, 0, 1, 18446744073709551615, 0\n";
  text += "20002, 0000000000000000128, 0, 4096, 0, 0\n";
  for (int i = 0; i < 10; ++i) text += "20003, 535936, 0, 4096, 1011712, 0\n";
  Engine e;
  const Source& s = testing::feed(&e, "e_clat.1.log", text);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.diag.skipped_lines(), 0u);
  EXPECT_EQ(s.diag.count(Issue::kSaturated), 1u);  // 2^63 ns
  ASSERT_EQ(s.series.size(), 1u);
  const Series& x = s.series[0];
  ASSERT_EQ(x.io_ns.size(), 15u);
  EXPECT_EQ(x.io_ns[2], 9223372036854775808ull);
  EXPECT_EQ(x.io_bs[2], 4294967295u);
  EXPECT_EQ(x.io_offset[2], 9999999999999999999ull);
  EXPECT_EQ(x.io_ns[3], 127u);
  EXPECT_EQ(x.io_bs[3], 1u);
  EXPECT_EQ(x.io_offset[3], 18446744073709551615ull);
  EXPECT_EQ(x.io_ns[4], 128u);
  EXPECT_EQ(x.saturated, 1u);  // 2^63 ns: fio's last bin
  ASSERT_EQ(x.windows.size(), 3u);  // ms 20001, 20002, 20003
  EXPECT_EQ(x.windows[1].total, 3u);
}

// per_job_logs=0: a segment's series is complete when the time restarts;
// a budget that runs out in a later segment drops the earlier ones' values
// too (bins are kept).
TEST(FioLatReader, ABudgetSpentInALaterSegmentDropsEveryValue) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += std::to_string(100 + i) + ", 535936, " + std::to_string(i % 2) + ", 4096, 0\n";
  for (int i = 0; i < 20; ++i) text += std::to_string(10 + i) + ", 1000, 0, 4096, 0\n";
  for (uint64_t budget : {uint64_t{40}, uint64_t{30}}) {
    FileOptions o;
    o.max_per_io_samples = budget;
    Engine e;
    const Source& s = testing::feed(&e, "r_clat.log", text, 0, o);
    ASSERT_EQ(s.series.size(), 3u);  // segment 1: read, write; segment 2: read
    EXPECT_EQ(s.diag.count(Issue::kTimeRestart), 1u);
    EXPECT_EQ(s.diag.count(Issue::kPerIoBudget), budget < 40 ? 1u : 0u);
    uint64_t ios = 0, values = 0;
    for (const Series& x : s.series) {
      ios += x.total();
      values += x.io_ns.size() + x.io_bs.size();
      EXPECT_TRUE(x.valid(x.layout->size()));
    }
    EXPECT_EQ(ios, 40u);
    EXPECT_EQ(values, budget < 40 ? 0u : 80u) << budget;
  }
}

// A line over 4 KiB carried across appends (docs/input-robustness.md,
// "Over-long lines"): counted once and skipped to its newline, the lines
// around it read; the same at the end without a newline. (Whole in one
// append it is read as a line, and skipped for what is wrong with it.)
TEST(FioLatReader, OverLongLinesAreCountedOnceAndSkipped) {
  const std::string good = kShapes[0];
  const std::string text = among_good_lines(good, std::string(10000, '7') + "\n");
  const std::string cut = read_in_bytes(text);
  EXPECT_NE(cut.find("records 14 "), std::string::npos) << cut;
  EXPECT_NE(cut.find("issue binary-garbage 1\n"), std::string::npos) << cut;
  EXPECT_NE(read_cut(text, {}).find("records 14 "), std::string::npos);
  const std::string tail = read_in_bytes(good + good + std::string(5000, '7'));
  EXPECT_NE(tail.find("records 2 "), std::string::npos) << tail;
  EXPECT_NE(tail.find("issue binary-garbage 1\n"), std::string::npos) << tail;
}

}  // namespace
}  // namespace latscope
