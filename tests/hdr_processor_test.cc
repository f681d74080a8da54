// `latscope hdr` (latscope/hdr_processor.h): Java's number formatting, the
// argument grammar, byte-for-byte outputs against HistogramLogProcessor
// 2.1.11 (tests/fixtures/hdr-processor, and ../shared/data/hdr when present),
// chunking independence and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../core/src/hdr_processor/java_format.h"
#include "latscope/hdr_processor.h"

namespace hp = latscope::hdr_processor;

namespace {

const std::string kFix = std::string(LATSCOPE_FIXTURES) + "/hdr-processor";
const std::string kShared = std::string(LATSCOPE_FIXTURES) + "/../../../shared/data/hdr";

bool slurp(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream ss(line);
  std::vector<std::string> w;
  for (std::string s; ss >> s;) w.push_back(s);
  return w;
}

hp::ProcessorResult run(const std::string& log, const hp::ProcessorOptions& o, size_t chunk = 0) {
  hp::LogProcessor p(o);
  if (chunk == 0) chunk = log.size() + 1;
  for (size_t i = 0; i < log.size(); i += chunk) p.append(log.data() + i, std::min(chunk, log.size() - i));
  return p.finish();
}

struct Case {
  std::string name, log, expected_dir;
  std::vector<std::string> args;
};

// Runs one case through the library and compares with Java's files.
void check_case(const Case& c, size_t chunk = 0) {
  SCOPED_TRACE(c.name + " chunk " + std::to_string(chunk));
  std::string log;
  ASSERT_TRUE(slurp(c.log, &log)) << c.log;
  hp::ProcessorOptions o;
  std::string in, out, err;
  bool help = false;
  std::vector<std::string> args = c.args;
  const bool to_stdout = c.name.size() > 7 && c.name.substr(c.name.size() - 7) == ".stdout";
  if (!to_stdout) {
    args.push_back("-o");
    args.push_back("OUT");
  }
  ASSERT_TRUE(hp::parse_processor_args(args, &o, &in, &out, &help, &err)) << err;
  const hp::ProcessorResult r = run(log, o, chunk);
  std::string want;
  if (to_stdout) {
    ASSERT_TRUE(slurp(c.expected_dir + "/" + c.name, &want));
    EXPECT_EQ(o.list_tags ? r.listing : r.hgrm, want);
    return;
  }
  ASSERT_TRUE(slurp(c.expected_dir + "/" + c.name, &want));
  EXPECT_EQ(r.interval_log, want);
  ASSERT_TRUE(slurp(c.expected_dir + "/" + c.name + ".hgrm", &want));
  EXPECT_EQ(r.hgrm, want);
}

std::vector<Case> fixture_cases() {
  std::vector<Case> cases;
  std::ifstream f(kFix + "/cases.txt");
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> w = words(line);
    if (w.size() < 2) continue;
    cases.push_back({w[0], kFix + "/" + w[1], kFix + "/expected", std::vector<std::string>(w.begin() + 2, w.end())});
  }
  return cases;
}

}  // namespace

TEST(JavaFormat, RoundsHalfUpOnTheShortestDecimal) {
  EXPECT_EQ(hp::java_fixed(0.125, 2), "0.13");        // printf: 0.12
  EXPECT_EQ(hp::java_fixed(1.0005, 3), "1.001");      // printf: 1.000
  EXPECT_EQ(hp::java_fixed(1.005, 2), "1.01");
  EXPECT_EQ(hp::java_fixed(0.0005, 3), "0.001");
  EXPECT_EQ(hp::java_fixed(2.5e-4, 3, 12), "       0.000");
  EXPECT_EQ(hp::java_fixed(1e20 / 3, 3), "33333333333333330000.000");
  EXPECT_EQ(hp::java_fixed(-0.0, 3), "-0.000");
  EXPECT_EQ(hp::java_fixed(-0.0004, 3), "-0.000");
  EXPECT_EQ(hp::java_fixed(0.999755859375, 12, 2), "0.999755859375");
  EXPECT_EQ(hp::java_fixed(1.0 / 3, 12), "0.333333333333");
  EXPECT_EQ(hp::java_fixed(9.9995, 3), "10.000");
  EXPECT_EQ(hp::java_fixed(HUGE_VAL, 3, 4), "Infinity");
  EXPECT_EQ(hp::java_fixed(std::nan(""), 3, 7), "    NaN");
  EXPECT_EQ(hp::java_fixed(4096.0, 2, 14), "       4096.00");
  EXPECT_EQ(hp::java_int(48761, 12), "       48761");
}

TEST(JavaFormat, DoubleToStringAndDate) {
  EXPECT_EQ(hp::java_double_to_string(99.0), "99.0");
  EXPECT_EQ(hp::java_double_to_string(99.9), "99.9");
  EXPECT_EQ(hp::java_double_to_string(1e-4), "1.0E-4");
  EXPECT_EQ(hp::java_double_to_string(1.5e7), "1.5E7");
  EXPECT_EQ(hp::java_date_utc(1441812279474), "Wed Sep 09 15:24:39 UTC 2015");
  EXPECT_EQ(hp::java_date_utc(1700000000123), "Tue Nov 14 22:13:20 UTC 2023");
  EXPECT_EQ(hp::java_date_utc(127), "Thu Jan 01 00:00:00 UTC 1970");
}

TEST(JavaFormat, ParsesLikeJava) {
  double d = 0;
  EXPECT_TRUE(hp::java_parse_double("5", &d));
  EXPECT_EQ(d, 5.0);
  EXPECT_TRUE(hp::java_parse_double(" 1e3d ", &d));
  EXPECT_EQ(d, 1000.0);
  EXPECT_TRUE(hp::java_parse_double("-Infinity", &d));
  EXPECT_TRUE(std::isinf(d));
  EXPECT_FALSE(hp::java_parse_double("inf", &d));
  EXPECT_FALSE(hp::java_parse_double("5ms", &d));
  EXPECT_FALSE(hp::java_parse_double("", &d));
  int32_t i = 0;
  EXPECT_TRUE(hp::java_parse_int("-12", &i));
  EXPECT_EQ(i, -12);
  EXPECT_FALSE(hp::java_parse_int("1.5", &i));
  EXPECT_FALSE(hp::java_parse_int("99999999999", &i));
}

TEST(HdrProcessorArgs, JavaGrammar) {
  hp::ProcessorOptions o;
  std::string in, out, err;
  bool help = false;
  ASSERT_TRUE(hp::parse_processor_args({"-i", "x.hlog", "-o", "y", "-csv", "-tag", "A", "-start", "5", "-end",
                                        "20", "-outputValueUnitRatio", "1000", "-v", "-alltags",
                                        "-percentilesOutputTicksPerHalf", "3",
                                        "-correctLogWithKnownCoordinatedOmission", "1000000"},
                                       &o, &in, &out, &help, &err))
      << err;
  EXPECT_EQ(in, "x.hlog");
  EXPECT_EQ(out, "y");
  EXPECT_TRUE(o.csv && o.has_output && o.has_tag);
  EXPECT_EQ(o.tag, "A");
  EXPECT_EQ(o.range_start_sec, 5.0);
  EXPECT_EQ(o.range_end_sec, 20.0);
  EXPECT_EQ(o.unit_ratio, 1000.0);
  EXPECT_EQ(o.ticks_per_half, 3);
  EXPECT_EQ(o.co_interval, 1e6);
  hp::ProcessorOptions o2;
  EXPECT_FALSE(hp::parse_processor_args({"--csv"}, &o2, &in, &out, &help, &err));
  EXPECT_NE(err.find("--csv"), std::string::npos);
  EXPECT_FALSE(hp::parse_processor_args({"-i"}, &o2, &in, &out, &help, &err));
  EXPECT_FALSE(hp::parse_processor_args({"-start", "x"}, &o2, &in, &out, &help, &err));
  EXPECT_FALSE(hp::parse_processor_args({"-percentilesOutputTicksPerHalf", "0"}, &o2, &in, &out, &help, &err));
  EXPECT_TRUE(hp::parse_processor_args({"-h"}, &o2, &in, &out, &help, &err));
  EXPECT_TRUE(help);
}

TEST(HdrProcessorGolden, GeneratedFixturesMatchJava) {
  const std::vector<Case> cases = fixture_cases();
  ASSERT_GE(cases.size(), 30U);
  for (const Case& c : cases) check_case(c);
}

TEST(HdrProcessorGolden, AnyChunkingGivesTheSameBytes) {
  for (const Case& c : fixture_cases()) {
    if (c.name != "sig3-tagged.co1ms" && c.name != "double.ms" && c.name != "sig2-abs-lowest.csv") continue;
    check_case(c, 1);
    check_case(c, 100);
  }
}

TEST(HdrProcessorGolden, SharedSampleLogsMatchJava) {
  std::string probe;
  if (!slurp(kShared + "/reference/jHiccup-2.0.7S.logV2.hgrm", &probe)) GTEST_SKIP() << kShared << " absent";
  const std::vector<Case> cases = {
      {"jHiccup-2.0.1.logV0", kShared + "/jHiccup-2.0.1.logV0.hlog", kShared + "/reference", {}},
      {"jHiccup-2.0.6.logV1", kShared + "/jHiccup-2.0.6.logV1.hlog", kShared + "/reference", {}},
      {"jHiccup-2.0.7S.logV2", kShared + "/jHiccup-2.0.7S.logV2.hlog", kShared + "/reference", {}},
      {"jHiccup-2.0.7S.logV2.5-20", kShared + "/jHiccup-2.0.7S.logV2.hlog", kShared + "/reference",
       {"-start", "5", "-end", "20"}},
      {"jHiccup-2.0.7S.logV2.csv", kShared + "/jHiccup-2.0.7S.logV2.hlog", kShared + "/reference", {"-csv"}},
      {"jHiccup-2.0.7S.logV2.co1000000", kShared + "/jHiccup-2.0.7S.logV2.hlog", kShared + "/reference",
       {"-correctLogWithKnownCoordinatedOmission", "1000000"}},
      {"s1-clat.read", kShared + "/s1-clat.hlog", kShared + "/reference", {"-tag", "read"}},
      {"s1-clat.write", kShared + "/s1-clat.hlog", kShared + "/reference", {"-tag", "write"}},
      {"tagged-Log.logV2.A", kShared + "/tagged-Log.logV2.hlog", kShared + "/reference", {"-tag", "A"}},
      {"ycsb.logV1", kShared + "/ycsb.logV1.hlog", kShared + "/reference", {}},
  };
  for (const Case& c : cases) check_case(c);
  std::string log, want;
  ASSERT_TRUE(slurp(kShared + "/tagged-Log.logV2.hlog", &log));
  ASSERT_TRUE(slurp(kShared + "/reference/tagged-Log.logV2.listtags.txt", &want));
  hp::ProcessorOptions o;
  o.list_tags = true;
  EXPECT_EQ(run(log, o).listing, want);
}

TEST(HdrProcessorBadInput, NeverCrashesAndSaysWhere) {
  hp::ProcessorOptions o;
  o.has_output = true;
  // Not an .hlog at all.
  hp::ProcessorResult r = run(std::string("\x00\x01\xff garbage\n", 12), o);
  EXPECT_FALSE(r.error.empty());
  // Empty input: Java writes only the first lines (and dies); so do we, with a message.
  r = run("", o);
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(r.hgrm, "#[Overall percentile distribution between 0.000 and <Infinite> seconds (relative to StartTime)]\n");
  // A corrupt payload after good lines: reading stops there, named by line.
  std::string log;
  ASSERT_TRUE(slurp(kFix + "/no-header.hlog", &log));
  const size_t third = log.find('\n', log.find('\n') + 1) + 1;
  std::string bad = log.substr(0, third) + "2.0,1.0,1.0,HISTFAAAAEV42pNpmSzM!!!\n" + log.substr(third);
  r = run(bad, o);
  bool named = false;
  for (const auto& w : r.warnings) named = named || w.rfind("line 3:", 0) == 0;
  EXPECT_TRUE(named);
  EXPECT_NE(r.hgrm.find("#[Buckets"), std::string::npos);
  // Random mutations never crash.
  uint32_t seed = 7;
  for (int k = 0; k < 200; ++k) {
    std::string m = log;
    for (int j = 0; j < 5; ++j) {
      seed = seed * 1103515245U + 12345U;
      m[(seed >> 8) % m.size()] = static_cast<char>(seed >> 24);
    }
    (void)run(m, o, 1 + k % 50);
  }
}
