// The .hlog reader end to end: golden files (tests/golden/hdr/, y_* load with
// the expected model dump, n_* fail with the expected message), chunking,
// sniffed == forced, the parser API `latscope hdr` builds on.
#include <gtest/gtest.h>

#include <cstdlib>

#include "formats/hdr/hdr_log.h"
#include "hdr_test_util.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

using hdrtest::golden_dir;
using hdrtest::load_dump;
using hdrtest::slurp;

// LATSCOPE_UPDATE_GOLDEN=1 rewrites the .expected files (review the diff).
void check_golden(const std::string& file, const std::string& got) {
  const std::string exp_path = file.substr(0, file.size() - 5) + ".expected";
  if (std::getenv("LATSCOPE_UPDATE_GOLDEN")) {
    std::ofstream(exp_path, std::ios::binary) << got;
    return;
  }
  std::string want;
  ASSERT_TRUE(slurp(exp_path, &want)) << "missing " << exp_path;
  EXPECT_EQ(got, want) << file;
}

TEST(HdrGolden, AcceptedFilesMatchTheirDump) {
  const auto ys = hdrtest::files(golden_dir(), "y_", ".hlog");
  ASSERT_GE(ys.size(), 10u);
  for (const std::string& f : ys) {
    std::string text;
    ASSERT_TRUE(slurp(f, &text));
    const std::string got = load_dump(f.substr(f.rfind('/') + 1), text, 0);
    EXPECT_EQ(got.rfind("status ok\n", 0), 0u) << f << "\n" << got;
    check_golden(f, got);
  }
}

TEST(HdrGolden, RejectedFilesFailWithTheirMessage) {
  const auto ns = hdrtest::files(golden_dir(), "n_", ".hlog");
  ASSERT_GE(ns.size(), 6u);
  for (const std::string& f : ns) {
    std::string text;
    ASSERT_TRUE(slurp(f, &text));
    FileOptions forced;
    forced.format = FileFormat::kHdrLog;
    const std::string got = load_dump(f.substr(f.rfind('/') + 1), text, 0, forced);
    EXPECT_EQ(got.rfind("status error: ", 0), 0u) << f << "\n" << got;
    check_golden(f, got);
  }
}

TEST(HdrGolden, ChunkingAndSniffingChangeNothing) {
  for (const std::string& f : hdrtest::files(golden_dir(), "", ".hlog")) {
    std::string text;
    ASSERT_TRUE(slurp(f, &text));
    const std::string name = f.substr(f.rfind('/') + 1);
    FileOptions forced;
    forced.format = FileFormat::kHdrLog;
    const std::string whole = load_dump(name, text, 0, forced);
    EXPECT_EQ(load_dump(name, text, 1, forced), whole) << f;
    EXPECT_EQ(load_dump(name, text, 100, forced), whole) << f;
    if (name.rfind("y_", 0) == 0) {
      EXPECT_EQ(load_dump(name, text, 0), whole) << "sniffed != forced: " << f;
      SniffInput in{"x.log", text.data(), std::min(text.size(), kSniffBytes), text.size() <= kSniffBytes};
      EXPECT_EQ(sniff(in).format, FileFormat::kHdrLog) << f << " (content only, no .hlog name)";
    }
  }
}

// Interval lines with no header are told by their payload marker alone,
// each kind of it; a fio histogram line (commas, no marker) is not one.
TEST(HdrLog, SniffFindsEachPayloadMarkerAndNotCommas) {
  auto format_of = [](const std::string& text) {
    SniffInput in{"x.log", text.data(), text.size(), true};
    return sniff(in).format;
  };
  for (const char* p : {"HISTFAAAAA", "HISTIAAAA", "HISTiAAAA", "HISTEAAAA", "DHISTwAAA"}) {
    EXPECT_EQ(format_of(std::string("0.127,1.007,2.769,") + p + "\n"), FileFormat::kHdrLog) << p;
    EXPECT_EQ(format_of(std::string("Tag=A,0.127,1.007,2.769,") + p + "\n"), FileFormat::kHdrLog) << p;
  }
  // Markers not after a field's comma, or of no known kind, decide nothing.
  EXPECT_NE(format_of("0.127,1.007,2.769,xHISTFAAAA\n"), FileFormat::kHdrLog);
  EXPECT_NE(format_of("0.127,1.007,2.769,HISTQAAAA\n"), FileFormat::kHdrLog);
  std::string fio = "1002, 0, 4096";
  for (int i = 0; i < 1216; ++i) fio += i % 50 ? ", 0" : ", 3";
  EXPECT_EQ(format_of(fio + "\n"), FileFormat::kFioHist);
}

TEST(HdrLog, DecimalSecondsAreExact) {
  int64_t a = 0, b = 0;
  ASSERT_TRUE(hdr::parse_decimal_seconds("1441812279.474", &a));
  ASSERT_TRUE(hdr::parse_decimal_seconds("0.127", &b));
  EXPECT_EQ((a + b) / 1000000, 1441812279601);
  EXPECT_EQ(hdr::format_decimal_seconds(a + b, 3), "1441812279.601");
  ASSERT_TRUE(hdr::parse_decimal_seconds("-0.0005", &a));
  EXPECT_EQ(a, -500000);
  EXPECT_EQ(hdr::format_decimal_seconds(a, 3), "-0.001");
  ASSERT_TRUE(hdr::parse_decimal_seconds("12.3456789019", &a));
  EXPECT_EQ(a, 12345678901);
  for (const char* bad : {"", ".", "-", "1e3", "1.2.3", "NaN", "99999999999.0", "1 "})
    EXPECT_FALSE(hdr::parse_decimal_seconds(bad, &a)) << bad;
}

std::string golden(const std::string& name) {
  std::string t;
  EXPECT_TRUE(slurp(golden_dir() + "/" + name, &t)) << name;
  return t;
}

std::vector<hdr::Interval> parse_all(const std::string& text, size_t chunk, hdr::LogParser* p) {
  std::vector<hdr::Interval> v;
  hdr::Interval iv;
  for (size_t i = 0; i < text.size(); i += chunk) {
    p->append(text.data() + i, std::min(chunk, text.size() - i));
    while (p->next(&iv)) v.push_back(iv);
  }
  p->finish();
  while (p->next(&iv)) v.push_back(iv);
  return v;
}

TEST(HdrLog, ParserApiTimeBasesAndTags) {
  {
    hdr::LogParser p;
    auto v = parse_all(golden("y_java_tagged.hlog"), 7, &p);
    ASSERT_EQ(v.size(), 9u);
    EXPECT_EQ(v[1].tag, "read");
    EXPECT_EQ(v[2].tag, "write");
    EXPECT_EQ(v[0].tag, "");
    EXPECT_EQ(p.time_base(), hdr::TimeBase::kRelative);
    EXPECT_EQ(p.header().version, "1.3");
    EXPECT_EQ(p.header().legend, hdr::Legend::kStartTimestamp);
    EXPECT_EQ(v[3].abs_start_ns(), 1700000000123000000 + 1000000000);
    EXPECT_EQ(v[3].offset_start_ns(), 1000000000);
    EXPECT_EQ(p.java_stop_line(), 0u);
    EXPECT_TRUE(p.status().ok());
  }
  {
    hdr::LogParser p;
    auto v = parse_all(golden("y_java_absolute.hlog"), 1000, &p);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(p.time_base(), hdr::TimeBase::kAbsolute);
    EXPECT_EQ(v[1].abs_start_ns(), 1700000002123000000);
  }
  {
    hdr::LogParser p;
    auto v = parse_all(golden("y_java_basetime.hlog"), 1000, &p);
    EXPECT_EQ(p.time_base(), hdr::TimeBase::kBaseTime);
    EXPECT_TRUE(p.header().has_base_time);
  }
  {
    hdr::LogParser p;
    auto v = parse_all(golden("y_legend_end.hlog"), 1000, &p);
    EXPECT_EQ(p.header().legend, hdr::Legend::kEndTimestamp);
    EXPECT_FALSE(p.end_in_length()) << "the legend alone never decides";
  }
  {
    hdr::LogParser p;
    auto v = parse_all(golden("y_java_double.hlog"), 1000, &p);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_TRUE(v[0].hist.config.is_double);
    EXPECT_EQ(v[0].hist.total(), 150u);
  }
}

TEST(HdrLog, EndTimestampsInTheLengthColumnAreDetectedAndSaid) {
  hdr::LogParser p;
  auto v = parse_all(golden("y_java_end_column.hlog"), 3, &p);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_TRUE(p.end_in_length());
  EXPECT_EQ(p.diagnostics().count(Issue::kHdrEndTimestamps), 1u);
  for (const auto& iv : v) EXPECT_EQ(iv.length_ns, 2000000000) << iv.line;
  // Java's reading (detection off) keeps the column as written.
  hdr::LogOptions o;
  o.detect_end_timestamps = false;
  hdr::LogParser q(o);
  auto w = parse_all(golden("y_java_end_column.hlog"), 3, &q);
  EXPECT_EQ(w[0].length_ns, 12000000000);
  // Ordinary logs are never converted.
  for (const char* f : {"y_java_d3.hlog", "y_java_tagged.hlog", "y_java_absolute.hlog", "y_no_header.hlog"}) {
    hdr::LogParser r;
    parse_all(golden(f), 64, &r);
    EXPECT_FALSE(r.end_in_length()) << f;
  }
}

TEST(HdrLog, DamagedLinesAreCountedAndJavaStopLineReported) {
  hdr::LogParser p;
  auto v = parse_all(golden("y_mixed_damage.hlog"), 5, &p);
  EXPECT_EQ(v.size(), 5u);  // first, ", " line, backwards, negative length, unterminated last
  const Diagnostics& d = p.diagnostics();
  EXPECT_EQ(d.count(Issue::kHdrMalformedLine), 1u);  // "garbage line"
  EXPECT_EQ(d.count(Issue::kHdrBadPayload), 1u);
  EXPECT_EQ(d.count(Issue::kHdrLenient), 1u);
  EXPECT_EQ(d.count(Issue::kHdrTimeBackwards), 1u);
  EXPECT_EQ(d.count(Issue::kEmptyLine), 1u);
  EXPECT_EQ(d.count(Issue::kCarriageReturn), 1u);
  EXPECT_EQ(p.java_stop_line(), 6u);
  EXPECT_EQ(v.back().line, 11u);
}

TEST(HdrLog, TagsWithSpacesAreMalformedLines) {
  hdr::LogParser p;
  auto v = parse_all(golden("y_java_tag_space.hlog"), 100, &p);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(p.diagnostics().count(Issue::kHdrMalformedLine), 1u);
}

TEST(HdrLog, SeriesPerTagWithHonestDirLabels) {
  Engine e;
  std::string text = golden("y_java_tagged.hlog");
  const int h = e.open_file("t.hlog");
  e.append(h, text.data(), text.size());
  const Source& s = e.finish(h);
  ASSERT_TRUE(s.status.ok());
  ASSERT_EQ(s.series.size(), 3u);
  EXPECT_EQ(s.series[0].labels.find("tag"), nullptr);
  EXPECT_EQ(*s.series[0].labels.find("dir"), "unknown");
  EXPECT_EQ(*s.series[1].labels.find("tag"), "read");
  EXPECT_EQ(*s.series[2].labels.find("dir"), "write");
  EXPECT_EQ(s.series[2].dir, Dir::kWrite);
  EXPECT_EQ(s.series[0].layout, s.series[1].layout) << "one layout per configuration";
}

TEST(HdrLog, UnitOptionScalesTheLayout) {
  std::string text = golden("y_java_d2.hlog");
  FileOptions us;
  us.hdr_unit_ns = 1000;
  Engine e;
  const int h = e.open_file("a.hlog", us);
  e.append(h, text.data(), text.size());
  const Source& s = e.finish(h);
  ASSERT_TRUE(s.status.ok());
  EXPECT_NE(s.series[0].layout->id.find(":u1e3:"), std::string::npos);
  EXPECT_EQ(s.series[0].layout->hi[1], 2000.0);
}

}  // namespace
}  // namespace latscope
