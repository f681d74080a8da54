// fio log_avg_msec logs (docs/formats-fio-lat.md, "log_avg_msec logs"): window
// values shown over time (mean and max per quantum, flag avg), never
// percentiles; Engine::query and StreamingQuery print the same.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

const std::vector<std::string> kLabels{"p50", "p90", "p99", "p99.9", "p100"};

std::string avg_path(const char* kind) {
  return std::string(LATSCOPE_FIXTURES) + "/fio_lat/avg_" + kind + ".1.log";
}

std::string read(const std::string& path) {
  std::string text;
  EXPECT_TRUE(fixtures::read_file(path, &text)) << path;
  return text;
}

struct Expect {
  double n = 0, sum = 0, max = 0;
};

// Independently of the reader: the file's lines (fio 3: values in ns) per
// (quantum, direction).
std::map<std::pair<long long, int>, Expect> expected(const std::string& text, double quantum_ms) {
  std::map<std::pair<long long, int>, Expect> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long t = 0, v = 0, dir = 0, bs = 0;
    if (std::sscanf(line.c_str(), "%llu, %llu, %llu, %llu", &t, &v, &dir, &bs) != 4) continue;
    EXPECT_EQ(bs, 0u) << line;
    Expect& e = out[{static_cast<long long>(std::floor(static_cast<double>(t) / quantum_ms)), static_cast<int>(dir)}];
    e.n += 1;
    e.sum += static_cast<double>(v);
    e.max = std::max(e.max, static_cast<double>(v));
  }
  return out;
}

TEST(FioLatAvg, ReadAsWindowValues) {
  Engine e;
  const Source& s = testing::feed(&e, avg_path("clat"), read(avg_path("clat")));
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  ASSERT_FALSE(s.series.empty());
  for (const Series& x : s.series) {
    EXPECT_EQ(x.role, Role::kWindowValues);
    EXPECT_FALSE(x.per_io);
    EXPECT_EQ(x.io_ns.size(), x.windows.size());
  }
}

TEST(FioLatAvg, MeanAndMaxPerQuantumFromTheLines) {
  const std::string text = read(avg_path("clat"));
  for (double q : {250.0, 500.0, 1000.0}) {
    Engine e;
    testing::feed(&e, avg_path("clat"), text);
    QueryOptions o;
    o.quantum_ms = q;
    o.group_by = {"dir"};
    QueryResult r;
    ASSERT_TRUE(e.query(o, &r).ok());
    ASSERT_EQ(r.groups, (std::vector<std::string>{"dir=read", "dir=write"}));
    const auto want = expected(text, q);
    size_t seen = 0;
    for (const Row& row : r.rows) {
      EXPECT_TRUE(row.flags & kFlagWindowValues);
      const auto it = want.find({static_cast<long long>(std::floor(row.t_ms / q)), static_cast<int>(row.group)});
      if (it == want.end()) {
        EXPECT_TRUE(row.flags & kFlagEmpty) << row.t_ms;
        continue;
      }
      ++seen;
      EXPECT_FALSE(row.flags & kFlagEmpty) << row.t_ms;
      EXPECT_DOUBLE_EQ(row.stats.samples, it->second.n) << q << " " << row.t_ms;
      EXPECT_DOUBLE_EQ(row.stats.mean_ns, it->second.sum / it->second.n) << q << " " << row.t_ms;
      EXPECT_DOUBLE_EQ(row.stats.max_ns, it->second.max) << q << " " << row.t_ms;
    }
    EXPECT_EQ(seen, want.size()) << q;
  }
}

TEST(FioLatAvg, PercentilesBlankFlagAvgAndNote) {
  Engine e;
  testing::feed(&e, avg_path("clat"), read(avg_path("clat")));
  QueryResult r;
  ASSERT_TRUE(e.query(QueryOptions(), &r).ok());
  ASSERT_FALSE(r.rows.empty());
  bool note = false;
  for (const std::string& n : r.notes)
    if (n.find("percentiles cannot be computed from window averages") != std::string::npos) note = true;
  EXPECT_TRUE(note);
  const std::string csv = pctiles_csv(r, kLabels, Unit::kNs);
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    EXPECT_NE(line.find(",,,,,"), std::string::npos) << line;  // the five percentile columns
    EXPECT_NE(line.find("avg"), std::string::npos) << line;
  }
  EXPECT_NE(pctiles_json(r, kLabels, Unit::kNs).find("\"p\":[null,null,null,null,null]"), std::string::npos);
}

std::string text_of(const QueryResult& r) {
  std::string o = pctiles_csv(r, kLabels, Unit::kNs);
  for (const std::string& n : r.notes) o += "note: " + n + "\n";
  return o;
}

TEST(FioLatAvg, StoredEqualsStreamed) {
  std::vector<QueryOptions> opts(4);
  opts[1].quantum_ms = 333;
  opts[1].group_by = {"dir"};
  opts[2].sel.kinds = {"lat", "slat"};
  opts[2].group_by = {"kind"};
  opts[3].sel.offsets_ms["avg_clat.1.log"] = 120;
  opts[3].sel.from_ms = 500;
  for (const QueryOptions& o : opts) {
    Engine all;
    StreamingQuery stream(o);
    for (const char* kind : {"clat", "lat", "slat"}) {
      const std::string text = read(avg_path(kind));
      Engine one;
      EXPECT_TRUE(stream.add(testing::feed(&one, avg_path(kind), text)).ok());
      testing::feed(&all, avg_path(kind), text);
    }
    QueryResult a, b;
    ASSERT_TRUE(all.query(o, &a).ok());
    ASSERT_TRUE(stream.finish(&b).ok());
    EXPECT_FALSE(a.rows.empty());
    EXPECT_EQ(text_of(a), text_of(b));
  }
}

TEST(FioLatAvg, LeftOutBesideIoLogsWithANote) {
  const std::string io = std::string(LATSCOPE_FIXTURES) + "/fio_lat/fl_clat.1.log";
  QueryOptions o;
  Engine all;
  StreamingQuery stream(o);
  for (const std::string& f : {avg_path("clat"), io}) {
    const std::string text = read(f);
    Engine one;
    EXPECT_TRUE(stream.add(testing::feed(&one, f, text)).ok());
    testing::feed(&all, f, text);
  }
  QueryResult a, b;
  ASSERT_TRUE(all.query(o, &a).ok());
  ASSERT_TRUE(stream.finish(&b).ok());
  EXPECT_EQ(text_of(a), text_of(b));
  EXPECT_NE(text_of(a).find("log_avg_msec series (window averages, not I/Os) left out"), std::string::npos);
  for (const Row& row : a.rows) EXPECT_FALSE(row.flags & kFlagWindowValues);
}

// ---- log_window_value=both (fio >= 3.37): a window's average and maximum ----

const std::string kBoth = std::string(LATSCOPE_FIXTURES) + "/window-value/";

// The lines of a log_window_value=both log, independently of the reader:
// "time, avg, max, ddir, bs[, offset], prio" (fio 3.42, fixtures/window-value).
struct BothLine {
  unsigned long long t, avg, max, dir;
};
std::vector<BothLine> both_lines(const std::string& text) {
  std::vector<BothLine> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    BothLine l{};
    unsigned long long bs = 1;
    EXPECT_EQ(std::sscanf(line.c_str(), "%llu, %llu, %llu, %llu, %llu", &l.t, &l.avg, &l.max, &l.dir, &bs), 5) << line;
    EXPECT_EQ(bs, 0u) << line;
    out.push_back(l);
  }
  return out;
}

// Both shapes (6 columns, and 7 with log_offset=1): each direction's series
// holds the averages in io_ns and the maxima in window_max_ns, line by line;
// no line is skipped. Read as I/O lines, the maximum stood where the
// direction goes and the files were refused ("holds text; not read").
TEST(FioLatAvg, WindowValueBothKeepsEachWindowsAverageAndMaximum) {
  for (const char* f : {"wboth_clat.1.log", "wboth_lat.1.log", "wbo_clat.2.log", "wbo_lat.2.log"}) {
    SCOPED_TRACE(f);
    const std::string text = read(kBoth + f);
    const std::vector<BothLine> lines = both_lines(text);
    ASSERT_GT(lines.size(), 8u);
    Engine e;
    const Source& s = testing::feed(&e, kBoth + f, text);
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_TRUE(s.format == FileFormat::kFioLat);
    EXPECT_EQ(s.diag.skipped_lines(), 0u);
    size_t seen = 0;
    for (const Series& x : s.series) {
      EXPECT_EQ(x.role, Role::kWindowValues);
      ASSERT_EQ(x.window_max_ns.size(), x.io_ns.size());
      std::vector<unsigned long long> avg, max;
      for (const BothLine& l : lines)
        if (l.dir == static_cast<unsigned long long>(x.dir)) {
          avg.push_back(l.avg);
          max.push_back(l.max);
        }
      EXPECT_EQ(std::vector<unsigned long long>(x.io_ns.begin(), x.io_ns.end()), avg);
      EXPECT_EQ(std::vector<unsigned long long>(x.window_max_ns.begin(), x.window_max_ns.end()), max);
      seen += x.io_ns.size();
    }
    EXPECT_EQ(seen, lines.size());
    // Unnamed, the lines' shape alone says what the file is.
    Engine unnamed;
    EXPECT_TRUE(testing::feed(&unnamed, "windows.txt", text).format == FileFormat::kFioLat);
  }
}

// The max column is the largest window maximum: over the whole run it is
// fio's own max of the job (json+ clat_ns.max), where the averages' max is
// far below it. Stored and streamed agree; the note says what max is.
TEST(FioLatAvg, WindowValueBothMaxIsFiosMax) {
  Engine json;
  const Source& run = testing::feed(&json, kBoth + "window-value.json", read(kBoth + "window-value.json"));
  ASSERT_TRUE(run.status.ok()) << run.status.message;
  for (const char* f : {"wboth_clat.1.log", "wbo_clat.2.log"}) {
    SCOPED_TRACE(f);
    const std::string text = read(kBoth + f);
    QueryOptions o;
    o.quantum_ms = 1e6;
    o.group_by = {"dir"};
    Engine e;
    const Source& s = testing::feed(&e, kBoth + f, text);
    StreamingQuery stream(o);
    ASSERT_TRUE(stream.add(s).ok());
    QueryResult stored, streamed;
    ASSERT_TRUE(e.query(o, &stored).ok());
    ASSERT_TRUE(stream.finish(&streamed).ok());
    EXPECT_EQ(text_of(stored), text_of(streamed));
    EXPECT_NE(text_of(stored).find("log_window_value=both"), std::string::npos);
    const int job = s.id.job == "1" ? 1 : 2;
    size_t compared = 0;
    for (const Row& row : stored.rows) {
      if (row.flags & kFlagEmpty) continue;
      const Dir dir = stored.groups[row.group] == "dir=read" ? Dir::kRead : Dir::kWrite;
      for (const FioFigures& fig : run.fio)
        if (fig.job == job && fig.dir == dir) {
          EXPECT_EQ(row.stats.max_ns, static_cast<double>(fig.max_ns)) << stored.groups[row.group];
          ++compared;
        }
    }
    EXPECT_EQ(compared, 2u) << "read and write";
  }
}

// Damaged both lines are skipped and named, never kept against the model's
// rule (a window's maximum at least its average): a maximum below the
// average, and under --fio-version 2 (us) one too large for ns.
TEST(FioLatAvg, WindowValueBothDamageIsSkipped) {
  const std::string text =
      "250, 100, 900, 0, 0, 0\n"
      "500, 100, 50, 0, 0, 0\n"                    // maximum below the average
      "750, 100, 18446744073709551, 0, 0, 0\n"     // x1000 passes 2^63 ns
      "1000, 120, 130, 1, 0, 0\n";
  for (int version : {0, 2}) {
    SCOPED_TRACE(version);
    FileOptions fo;
    fo.fio_version = version;
    Engine e;
    const Source& s = testing::feed(&e, "x_clat.1.log", text, 0, fo);
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.diag.skipped_lines(), version == 2 ? 2u : 1u);
    size_t kept = 0;
    for (const Series& x : s.series) {
      EXPECT_TRUE(x.valid(s.layout->size()));
      ASSERT_EQ(x.window_max_ns.size(), x.io_ns.size());
      for (size_t i = 0; i < x.io_ns.size(); ++i) EXPECT_GE(x.window_max_ns[i], x.io_ns[i]);
      kept += x.io_ns.size();
    }
    EXPECT_EQ(kept, version == 2 ? 2u : 3u);
  }
}

}  // namespace
}  // namespace latscope
