// Hostile input (docs/input-robustness.md): byte-order marks, damaged first
// lines, clocks that change inside a file or between files, counts that
// would wrap 64 bits. Each case gets its documented outcome; nothing wraps,
// nothing is read as something it is not, and one bad file never blocks the
// others.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

const std::string kBom = "\xEF\xBB\xBF";
const std::string kFix = LATSCOPE_FIXTURES;

std::string fixture(const std::string& rel) {
  std::string text;
  EXPECT_TRUE(fixtures::read_file(kFix + "/" + rel, &text)) << rel;
  return text;
}

std::string lines(uint64_t t0, int n, uint64_t step = 1000) {
  std::string s;
  for (int k = 0; k < n; ++k) s += hist_line(t0 + k * step, 0, {{150, 10}});
  return s;
}

// --- 1. Sniffing and byte-order marks -------------------------------------

TEST(Hostile, JsonPlusWithAByteOrderMarkIsReadAsJson) {
  const std::string json = fixture("local/local.json");
  Engine e;
  const Source plain = feed(&e, "local.json", json);  // copies: feed() grows sources()
  const Source bom = feed(&e, "bom.json", kBom + json);
  ASSERT_TRUE(plain.status.ok()) << plain.status.message;
  ASSERT_TRUE(bom.status.ok()) << bom.status.message;
  EXPECT_TRUE(bom.format == FileFormat::kFioJson);
  EXPECT_EQ(bom.series.size(), plain.series.size());
  EXPECT_EQ(bom.diag.count(Issue::kJsonNoise), 0u);
  // parse_fio_json itself (what `summary` calls) tolerates it too.
  FioJsonReport a, b;
  ASSERT_TRUE(parse_fio_json("a", json.data(), json.size(), &a).ok());
  const std::string with = kBom + json;
  const Status st = parse_fio_json("b", with.data(), with.size(), &b);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (size_t j = 0; j < a.jobs.size(); ++j)
    for (size_t d = 0; d < a.jobs[j].dirs.size(); ++d)
      EXPECT_EQ(a.jobs[j].dirs[d].bin_count, b.jobs[j].dirs[d].bin_count);
  EXPECT_TRUE(b.diag.empty());
}

TEST(Hostile, HistogramLogWithADamagedFirstLineIsStillAHistogramLog) {
  const std::string rest = lines(2000, 4);
  std::string minus = hist_line(1000, 0, {{150, 10}});
  minus.insert(0, "-");
  std::string nan = hist_line(1000, 0, {{150, 10}});
  nan.replace(0, 4, "nan");
  struct Case {
    const char* name;
    std::string first;
    Issue issue;
  } cases[] = {{"minus", minus, Issue::kNegativeValue}, {"nan", nan, Issue::kNotANumber}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (size_t chunk : {size_t{0}, size_t{1}, size_t{4096}}) {
      Engine e;
      // A name that promises nothing: the content alone decides.
      const Source& s = feed(&e, "upload.txt", c.first + rest, chunk);
      ASSERT_TRUE(s.status.ok()) << s.status.message;
      EXPECT_TRUE(s.format == FileFormat::kFioHist);
      EXPECT_EQ(s.records, 4u);
      EXPECT_EQ(s.diag.count(c.issue), 1u);
      EXPECT_EQ(s.diag.skipped_lines(), 1u);
      ASSERT_FALSE(s.diag.examples().empty());
      EXPECT_EQ(s.diag.examples().front().line, 1u);
    }
  }
}

TEST(Hostile, AByteOrderMarkCostsAHistogramLogNothing) {
  const std::string text = lines(1000, 3);
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{2}, size_t{5}}) {
    Engine e;
    const Source& s = feed(&e, "b_clat_hist.1.log", kBom + text, chunk);
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.records, 3u) << chunk;
    EXPECT_TRUE(s.diag.empty()) << chunk;
    ASSERT_EQ(s.series.size(), 1u);
    EXPECT_EQ(s.series[0].windows.front().end_ms, 1000);
  }
}

TEST(Hostile, EpochTimestampsTurningRelativeAreATimeBaseChangeNotANewJob) {
  // 4 lines on the epoch clock, then 2 relative ones (a concatenated or
  // damaged log): the relative lines are skipped and counted as such.
  const uint64_t epoch = 1795239913445;
  Engine e;
  const Source& s = feed(&e, "e_clat_hist.1.log", lines(epoch, 4) + lines(1000, 2));
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_TRUE(s.absolute_time);
  EXPECT_EQ(s.diag.count(Issue::kTimeRestart), 0u);
  EXPECT_EQ(s.diag.count(Issue::kTimeBaseChange), 2u);
  EXPECT_EQ(s.diag.skipped_lines(), 2u);
  EXPECT_EQ(s.records, 4u);
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].windows.size(), 4u);
  bool found = false;
  for (const IssueExample& ex : s.diag.examples())
    if (ex.issue == Issue::kTimeBaseChange) {
      EXPECT_EQ(ex.line, 5u);
      EXPECT_NE(ex.text.find("ms since the job's start"), std::string::npos) << ex.text;
      found = true;
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(s.records + s.diag.skipped_lines(), s.lines);

  // The other way round, and a minority first line: the clock most lines
  // use wins.
  Engine f;
  const Source& r = feed(&f, "r_clat_hist.1.log", lines(epoch, 1) + lines(1000, 5));
  ASSERT_TRUE(r.status.ok());
  EXPECT_FALSE(r.absolute_time);
  EXPECT_EQ(r.records, 5u);
  EXPECT_EQ(r.diag.count(Issue::kTimeBaseChange), 1u);
  EXPECT_EQ(r.diag.count(Issue::kTimeRestart), 0u);
  EXPECT_EQ(r.series[0].windows.front().end_ms, 1000);
}

TEST(Hostile, PerJobLogsRestartIsStillANewJob) {
  Engine e;
  const Source& s = feed(&e, "p_clat_hist.log", lines(1000, 3) + lines(1000, 3));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.diag.count(Issue::kTimeRestart), 1u);
  EXPECT_EQ(s.diag.count(Issue::kTimeBaseChange), 0u);
  EXPECT_EQ(s.series.size(), 2u);
}

// --- 2. Counts that would wrap --------------------------------------------

TEST(Hostile, CountsBeyondTwoToThe53AreCountedLineErrors) {
  const uint64_t kMax64 = ~uint64_t{0};
  const std::string good = hist_line(1000, 0, {{150, 10}});
  struct Case {
    const char* name;
    std::string bad;
  } cases[] = {
      {"2^64-1", hist_line(2000, 0, {{150, kMax64}})},
      {"2^53+1", hist_line(2000, 0, {{150, kMaxCount + 1}})},
      {"two bins past 2^53", hist_line(2000, 0, {{150, kMaxCount / 2 + 1}, {151, kMaxCount / 2 + 1}})},
      {"wraps 64 bits", hist_line(2000, 0, {{150, kMax64 / 2 + 1}, {151, kMax64 / 2 + 1}})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Engine e;
    const Source& s = feed(&e, "o_clat_hist.1.log", good + c.bad + hist_line(3000, 0, {{150, 10}}));
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.records, 2u);
    EXPECT_EQ(s.diag.count(Issue::kOverflow), 1u);
    EXPECT_EQ(s.diag.skipped_lines(), 1u);
    ASSERT_EQ(s.series.size(), 1u);
    EXPECT_EQ(s.series[0].total(), 20u);
  }
}

TEST(Hostile, ASeriesTotalNeverPassesTwoToThe53) {
  // Each line fits; the third would carry the job's read total past 2^53.
  const uint64_t big = kMaxCount / 2;
  Engine e;
  const Source& s = feed(&e, "t_clat_hist.1.log",
                         hist_line(1000, 0, {{150, big}}) + hist_line(2000, 0, {{150, big}}) +
                             hist_line(3000, 0, {{150, 1}}) + hist_line(3000, 1, {{150, 7}}));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.records, 3u);  // the write line is its own series
  EXPECT_EQ(s.diag.count(Issue::kOverflow), 1u);
  uint64_t sum = 0;
  for (const Series& x : s.series) {
    EXPECT_LE(x.total(), kMaxCount);
    sum += x.total();
  }
  EXPECT_EQ(sum, kMaxCount + 7);
  // The queries see exact counts.
  QueryResult r;
  QueryOptions o;
  o.quantum_ms = 10000;
  ASSERT_TRUE(e.query(o, &r).ok());
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ(r.rows[0].stats.samples, static_cast<double>(kMaxCount + 7));
}

TEST(Hostile, JsonBinsBeyondTwoToThe53AreSkippedAndCounted) {
  const std::string json =
      "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"j\",\"read\":{\"total_ios\":3,"
      "\"clat_ns\":{\"min\":1,\"max\":2,\"mean\":1.5,\"N\":3,\"bins\":{\"1448\":18446744073709551615,"
      "\"1576\":3}}}}]}\n";
  FioJsonReport r;
  ASSERT_TRUE(parse_fio_json("o.json", json.data(), json.size(), &r).ok());
  EXPECT_EQ(r.diag.count(Issue::kOverflow), 1u);
  ASSERT_EQ(r.jobs.size(), 1u);
  ASSERT_EQ(r.jobs[0].dirs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dirs[0].bins_total, 3u);
}

TEST(Hostile, OneBadFileNeverBlocksTheOthers) {
  Engine e;
  feed(&e, "good_clat_hist.1.log", lines(1000, 5));
  const Source& bad = feed(&e, "bad_clat_hist.2.log", hist_line(1000, 0, {{150, ~uint64_t{0}}}));
  EXPECT_FALSE(bad.status.ok());  // its only line was refused
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  double n = 0;
  for (const Row& row : r.rows) n += row.stats.samples;
  EXPECT_EQ(n, 50);
}

// --- 3. Logs with different time bases ------------------------------------

std::vector<std::string> paths(const std::vector<std::string>& rel) {
  std::vector<std::string> out;
  for (const std::string& r : rel) out.push_back(kFix + "/" + r);
  return out;
}

// Engine::query and StreamingQuery on the same files in the same order.
void both(const std::vector<std::string>& files, const QueryOptions& o, QueryResult* stored, QueryResult* streamed) {
  Engine all;
  StreamingQuery stream(o);
  for (const std::string& f : files) {
    std::string text;
    ASSERT_TRUE(fixtures::read_file(f, &text)) << f;
    Engine one;
    ASSERT_TRUE(stream.add(feed(&one, f, text)).ok());
    feed(&all, f, text);
  }
  ASSERT_TRUE(all.query(o, stored).ok());
  ASSERT_TRUE(stream.finish(streamed).ok());
}

std::string text_of(const QueryResult& r) {
  std::string s = pctiles_csv(r, {"p50", "p99"}, Unit::kNs);
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  s += "mixed-time-bases: " + std::to_string(r.diag.count(Issue::kMixedTimeBases)) + "\n";
  return s;
}

TEST(Hostile, MixedTimeBasesShowTheMajorityAndNameTheRest) {
  // Two epoch logs (2 series each) and one relative log (2 series).
  const std::vector<std::string> files =
      paths({"epoch/epoch_clat_hist.1.log", "local/local_clat_hist.1.log", "epoch/epoch_clat_hist.2.log"});
  QueryOptions o;
  o.percentiles = {50, 99};
  QueryResult a, b;
  both(files, o, &a, &b);
  EXPECT_EQ(text_of(a), text_of(b));
  EXPECT_TRUE(a.absolute_time);
  ASSERT_FALSE(a.rows.empty());
  EXPECT_GT(a.rows.front().t_ms, 1e12);
  EXPECT_LT(a.rows.size(), 20u);  // the epoch run's few seconds, not 1.8e9 quanta
  EXPECT_EQ(a.diag.count(Issue::kMixedTimeBases), 2u);
  ASSERT_FALSE(a.notes.empty());
  const std::string& note = a.notes.front();
  EXPECT_NE(note.find("left out: " + files[1]), std::string::npos) << note;
  EXPECT_NE(note.find("4 series in 2 files with epoch timestamps"), std::string::npos) << note;
  EXPECT_NE(note.find(files[0]), std::string::npos) << note;

  // Every option the streaming fold has gives the same output.
  std::vector<QueryOptions> opts(4, o);
  opts[1].group_by = GroupBy{"file", "dir"};
  opts[2].sel.dirs = kDirWrite;
  opts[2].quantum_ms = 250;
  opts[3].sel.offsets_ms[files[1]] = 5;
  for (const QueryOptions& q : opts) {
    QueryResult x, y;
    both(files, q, &x, &y);
    EXPECT_EQ(text_of(x), text_of(y));
    EXPECT_EQ(x.diag.count(Issue::kMixedTimeBases), q.sel.dirs == kDirWrite ? 1u : 2u);
  }
}

TEST(Hostile, MixedTimeBasesTieKeepsTheFirstSeriesClockAndJsonStillCompletes) {
  // One relative log + its json+ and one epoch log: 2 series each, a tie;
  // the first selected series is relative, so the relative run is shown,
  // completed by the json+ tail, and the epoch log is named.
  const std::vector<std::string> files =
      paths({"local/local.json", "local/local_clat_hist.1.log", "epoch/epoch_clat_hist.2.log"});
  QueryOptions o;
  o.percentiles = {50, 99};
  QueryResult a, b;
  both(files, o, &a, &b);
  EXPECT_EQ(text_of(a), text_of(b));
  EXPECT_FALSE(a.absolute_time);
  EXPECT_EQ(a.diag.count(Issue::kMixedTimeBases), 2u);
  ASSERT_GE(a.notes.size(), 2u);
  EXPECT_NE(a.notes[0].find("left out: " + files[2]), std::string::npos) << a.notes[0];
  EXPECT_NE(a.notes[1].find("added the last, unlogged window"), std::string::npos) << a.notes[1];

  // The epoch log first (json+ output always first, as the CLI orders it):
  // it wins the tie, and no tail is added to an epoch log.
  const std::vector<std::string> rev = {files[0], files[2], files[1]};
  QueryResult c, d;
  both(rev, o, &c, &d);
  EXPECT_EQ(text_of(c), text_of(d));
  EXPECT_TRUE(c.absolute_time);
  ASSERT_GE(c.notes.size(), 2u);
  EXPECT_NE(c.notes[0].find("left out: " + files[1]), std::string::npos) << c.notes[0];
}

TEST(Hostile, HeatmapNamesTheLeftOutTimeBaseToo) {
  Engine e;
  for (const std::string& f : paths({"epoch/epoch_clat_hist.1.log", "epoch/epoch_clat_hist.2.log",
                                     "local/local_clat_hist.1.log"})) {
    std::string text;
    ASSERT_TRUE(fixtures::read_file(f, &text));
    feed(&e, f, text);
  }
  HeatmapResult h;
  ASSERT_TRUE(e.heatmap({}, &h).ok());
  EXPECT_TRUE(h.absolute_time);
  EXPECT_LT(h.quanta, 20u);
  EXPECT_EQ(h.diag.count(Issue::kMixedTimeBases), 2u);
  ASSERT_EQ(h.notes.size(), 1u);
  EXPECT_NE(h.notes[0].find("local_clat_hist.1.log"), std::string::npos);
}

// --- 4. Results of several resolutions (docs/result-format.md) -------------
// The levels directory is untrusted: each defect is named, nothing is sized
// by its numbers before they are checked against the file size, and the
// engine reports the file unusable with the decoder's words.

struct LevelsFile {
  std::vector<uint8_t> bytes;
  uint64_t dir_at = 0;
  // Offsets are the format's u64; size_t is 32 bits in the WebAssembly suite.
  uint8_t& byte(uint64_t at) { return bytes.at(static_cast<size_t>(at)); }
  uint8_t byte(uint64_t at) const { return bytes.at(static_cast<size_t>(at)); }
  void put_u64(uint64_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(at + static_cast<uint64_t>(i)) = static_cast<uint8_t>(v >> (8 * i));
  }
  void put_f64(uint64_t at, double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    put_u64(at, u);
  }
  uint64_t get_u64(uint64_t at) const {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(byte(at + static_cast<uint64_t>(i))) << (8 * i);
    return v;
  }
  // Level i's entry: f64 quantum, u64 offset, u64 length.
  uint64_t entry(int i) const { return dir_at + 12 + 24 * static_cast<uint64_t>(i); }
};

LevelsFile three_levels() {
  LevelsFile f;
  const Result r = fixtures::reduce_files(fixtures::files_of("local", "_clat_hist."), 1000);
  EXPECT_TRUE(encode_result_levels(r, {1000, 10000, 60000}, &deflate_zlib, &f.bytes).ok());
  f.dir_at = f.get_u64(f.bytes.size() - 16);
  return f;
}

std::string decode_error(const LevelsFile& f) {
  Result r;
  const Status st = decode_result(f.bytes.data(), f.bytes.size(), &r);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(r.series.empty());
  // The engine says the same, after the file's name.
  Engine e;
  const int h = e.open_file("levels.lsr");
  e.append(h, reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size());
  const Source& s = e.finish(h);
  EXPECT_EQ(s.status.message, "levels.lsr: " + st.message);
  return st.message;
}

TEST(Hostile, ResultLevelsDirectoryDefectsAreNamed) {
  const LevelsFile good = three_levels();
  Result r;
  ASSERT_TRUE(decode_result(good.bytes.data(), good.bytes.size(), &r).ok());
  const uint64_t l2_off = good.get_u64(good.entry(2) + 8);
  struct Case {
    const char* name;
    void (*edit)(LevelsFile*);
    const char* says;
  };
  const Case cases[] = {
      {"level outside the file",
       [](LevelsFile* f) { f->put_u64(f->entry(2) + 16, f->get_u64(f->entry(2) + 16) + 100); },
       "result: levels directory: level 2 (60000 ms) lies outside the file (offset "},
      {"offset beyond 2^64 - length",
       [](LevelsFile* f) { f->put_u64(f->entry(1) + 8, UINT64_MAX - 4); },
       "result: levels directory: level 1 (10000 ms) lies outside the file (offset 18446744073709551611"},
      {"overlapping levels",
       [](LevelsFile* f) { f->put_u64(f->entry(2) + 8, f->get_u64(f->entry(1) + 8) + 4); },
       "result: levels directory: level 2 (60000 ms) overlaps level 1"},
      {"not a multiple of the finest", [](LevelsFile* f) { f->put_f64(f->entry(1), 1500); },
       "result: levels directory: level 1 (1500 ms): no multiple of the finest level's 1000 ms"},
      {"quanta not ascending", [](LevelsFile* f) { f->put_f64(f->entry(2), 10000); },
       "result: levels directory: level 2 (10000 ms): quanta not ascending (level 1 has 10000 ms)"},
      {"zero quantum", [](LevelsFile* f) { f->put_f64(f->entry(0), 0); },
       "result: levels directory: level 0 (0 ms): the quantum is not a positive number of ms"},
      {"negative quantum", [](LevelsFile* f) { f->put_f64(f->entry(1), -10000); },
       "result: levels directory: level 1 (-10000 ms): the quantum is not a positive number of ms"},
      {"NaN quantum", [](LevelsFile* f) { f->put_f64(f->entry(2), std::nan("")); },
       "result: levels directory: level 2 (nan ms): the quantum is not a positive number of ms"},
      {"huge nlevels",
       [](LevelsFile* f) {
         for (uint64_t i = 0; i < 4; ++i) f->byte(f->dir_at + 8 + i) = 0xff;
       },
       "result: levels directory: 4294967295 levels do not fit its 84 bytes"},
      {"trailer pointing nowhere", [](LevelsFile* f) { f->put_u64(f->bytes.size() - 16, 1); },
       "result: levels directory: the trailer points at byte 1, not at a directory"},
      {"trailer pointing at byte 0 of a huge span", [](LevelsFile* f) { f->put_u64(f->bytes.size() - 16, 12); },
       "result: levels directory: the trailer points at byte 12, not at a directory of at most 64 levels"},
      {"no LSLEVELS mark", [](LevelsFile* f) { f->byte(f->dir_at) = 'X'; },
       "result: levels directory: no LSLEVELS mark at byte "},
      {"no end mark", [](LevelsFile* f) { f->bytes[f->bytes.size() - 3] = 'X'; },
       "result: levels directory: truncated or not a file of several levels (no LSMULTI end mark)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    LevelsFile f = good;
    c.edit(&f);
    const std::string msg = decode_error(f);
    EXPECT_EQ(msg.rfind(c.says, 0), 0u) << msg;
  }
  // An embedded level that is no version 2 result: named when that level is read.
  LevelsFile nested = good;
  nested.byte(l2_off + 8) = 3;
  Result d;
  ASSERT_TRUE(decode_result(nested.bytes.data(), nested.bytes.size(), &d).ok());  // level 0 is fine
  EXPECT_EQ(decode_result(nested.bytes.data(), nested.bytes.size(), &d, size_t{1} << 30, 60000).message,
            "result: level 2 (60000 ms): not a version 1, 2 or 5 result (each level is a complete file of one level)");
  LevelsFile garbage = good;
  std::memset(garbage.bytes.data() + static_cast<size_t>(l2_off), 'x', 8);
  EXPECT_EQ(decode_result(garbage.bytes.data(), garbage.bytes.size(), &d, size_t{1} << 30, 60000).message,
            "result: level 2 (60000 ms): not a version 1, 2 or 5 result (each level is a complete file of one level)");
  // A level whose own header disagrees with the directory.
  LevelsFile relabelled = good;
  relabelled.put_f64(relabelled.entry(2), 120000);
  EXPECT_EQ(decode_result(relabelled.bytes.data(), relabelled.bytes.size(), &d, size_t{1} << 30, 120000).message,
            "result: level 2 (120000 ms): its header says 60000 ms, the directory 120000 ms");
  // A level too short to be a result.
  LevelsFile empty = good;
  empty.put_u64(empty.entry(1) + 16, 0);
  EXPECT_EQ(decode_error(empty), "result: levels directory: level 1 (10000 ms) is 0 bytes long, too short for a result");
}

// A directory with levels summed over hosts (LSLEVEL2: a u32 kind per
// 28-byte entry; docs/result-format.md, "Levels summed over hosts"): the cs
// fixture's two hosts at 1 s, 10 s and 1 min, then the 10 s and 1 min sums.
LevelsFile summed_levels() {
  LevelsFile f;
  const Result r = fixtures::reduce_files(fixtures::files_of("cs", "_clat_hist."), 1000, {"host", "dir", "kind"});
  EXPECT_TRUE(encode_result_levels(r, {1000, 10000, 60000}, &deflate_zlib, &f.bytes).ok());
  f.dir_at = f.get_u64(f.bytes.size() - 16);
  return f;
}

TEST(Hostile, ResultLevelsSummedOverHostsDirectoryDefectsAreNamed) {
  const LevelsFile good = summed_levels();
  std::vector<ResultLevel> dir, sums;
  ASSERT_TRUE(read_result_levels(good.bytes.data(), good.bytes.size(), &dir, &sums).ok());
  ASSERT_EQ(dir.size(), 3u);
  ASSERT_EQ(sums.size(), 2u);
  const auto entry = [](const LevelsFile& f, int i) { return f.dir_at + 12 + 28 * static_cast<uint64_t>(i); };
  struct Case {
    const char* name;
    int at;         // entry whose field is changed
    int field;      // 0: quantum, 24: kind
    double value;
    const char* says;
  };
  const Case cases[] = {
      {"unknown kind", 4, 24, 7, "result: levels directory: level 4 (60000 ms): kind 7 (0: as kept, 1: summed over hosts)"},
      {"a sum first", 0, 24, 1,
       "result: levels directory: level 0 (1000 ms): summed over hosts, but no level as kept comes before it"},
      {"kept after the sums", 4, 24, 0,
       "result: levels directory: level 4 (60000 ms): a level as kept after the levels summed over hosts"},
      {"sums not ascending", 4, 0, 10000,
       "result: levels directory: level 4 (10000 ms): quanta not ascending (level 3 has 10000 ms)"},
      {"a sum of no multiple", 3, 0, 1500,
       "result: levels directory: level 3 (1500 ms): no multiple of the finest level's 1000 ms"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    LevelsFile f = good;
    if (c.field == 0) {
      f.put_f64(entry(f, c.at), c.value);
    } else {
      for (int i = 0; i < 4; ++i)
        f.byte(entry(f, c.at) + 24 + static_cast<uint64_t>(i)) = static_cast<uint8_t>(static_cast<uint32_t>(c.value) >> (8 * i));
    }
    const std::string msg = decode_error(f);
    EXPECT_EQ(msg, c.says);
  }
  // A sum lying over a level as kept.
  LevelsFile over = good;
  over.put_u64(entry(over, 3) + 8, over.get_u64(entry(over, 1) + 8));
  EXPECT_EQ(decode_error(over).rfind("result: levels directory: level 3 (10000 ms) overlaps level 1", 0), 0u);
  // Entries of the old width under the new mark: they do not fill it.
  LevelsFile narrow = good;
  narrow.byte(narrow.dir_at + 8) = 7;
  EXPECT_EQ(decode_error(narrow).rfind("result: levels directory: 7 levels do not fit its 152 bytes (28 a level", 0), 0u);
}

TEST(Hostile, ResultLevelsTruncatedAnywhereIsAnErrorNeverACrash) {
  const LevelsFile good = three_levels();
  Result r;
  for (size_t n = 0; n < good.bytes.size(); n += (n < 64 || n > good.bytes.size() - 200 ? 1 : 61)) {
    const Status st = decode_result(good.bytes.data(), n, &r);
    ASSERT_FALSE(st.ok()) << n;
    EXPECT_EQ(st.message.rfind("result: ", 0), 0u) << st.message;
  }
  // The tail alone, claiming a file size the tail cannot belong to.
  std::vector<ResultLevel> dir;
  uint64_t need = 0;
  const uint8_t* tail = good.bytes.data() + good.bytes.size() - 100;
  EXPECT_FALSE(read_result_levels_tail(tail, 100, 50, &dir, &need).ok());
  EXPECT_FALSE(read_result_levels_tail(tail, 100, 10, &dir, &need).ok());
  // A wrong file size moves the directory: an error or a request for more, never a read outside the tail.
  for (uint64_t size : {good.bytes.size() - 1, good.bytes.size() + 1, good.bytes.size() * 1000}) {
    const Status st = read_result_levels_tail(tail, 100, size, &dir, &need);
    EXPECT_TRUE(!st.ok() || need > 100 || dir.empty()) << size;
  }
}

}  // namespace
}  // namespace latscope
