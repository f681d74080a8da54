// Property: in every non-empty row, min <= mean <= max and min <= each
// percentile <= max, exactly (the fields of Stats and PercentileValue, no
// tolerance). Over every fixture set (tests/fixtures/<set>/, all of its files
// together, with fio's json+ output and without it), several groupings,
// quanta and methods, both query paths (Engine::query and StreamingQuery)
// and both extremes rules (QueryOptions::window_extremes). Rows broke it
// while a group's extremes were pooled: the json+ tail's quantum took its min
// from the short tail window alone while most of its I/Os came from the last
// logged window, and a per-I/O log hid the histogram logs beside it
// (docs/extremes.md, "Each series on its own").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/layout.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fs = std::filesystem;

// Every file of a set, its subfolders included (ab/a, ab/b), but not the
// outputs of other tools kept beside the logs (reference/, expected/): text
// the engine ignores anyway. .gz copies are left out as files_of does (the
// engine takes bytes; the CLI inflates).
std::vector<std::string> set_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == "reference" || name == "expected")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && name.find(".gz") == std::string::npos) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The most common window length of the set's time series (fio's
// log_hist_msec, an .hlog's interval): the quantum where slivers matter most.
double log_interval_ms(const std::vector<Source>& sources) {
  std::map<long, size_t> n;
  for (const Source& s : sources)
    for (const Series& x : s.series)
      if (x.role == Role::kTimeSeries && !x.per_io)
        for (const Window& w : x.windows)
          if (w.end_ms > w.start_ms) ++n[std::lround(w.end_ms - w.start_ms)];
  long best = 0;
  size_t most = 0;
  for (const auto& [len, c] : n)
    if (c > most) most = c, best = len;
  return best > 0 ? static_cast<double>(best) : 1000;
}

struct Checked {
  size_t queries = 0, rows = 0, failures = 0;
};

// Checks one result's rows; the first 20 failures of the whole test are reported.
void check_rows(const QueryResult& r, const QueryOptions& o, const std::string& what, Checked* c) {
  const bool fio_p0 = o.method == Method::kFio && !o.percentiles.empty() && o.percentiles[0] == 0;
  for (const Row& row : r.rows) {
    if ((row.flags & kFlagEmpty) || !(row.stats.samples > 0)) continue;
    ++c->rows;
    const Stats& st = row.stats;
    std::ostringstream bad;
    if (!(st.min_ns <= st.mean_ns && st.mean_ns <= st.max_ns))
      bad << (st.mean_ns < st.min_ns ? " {mean<min}" : " {mean>max}") << " mean " << st.mean_ns
          << " outside [" << st.min_ns << ", " << st.max_ns << "]";
    // fio log_avg_msec rows have no percentiles (RowFlags::kFlagWindowValues).
    if (!(row.flags & kFlagWindowValues))
      for (size_t i = 0; i < row.p.size(); ++i) {
        const PercentileValue& v = row.p[i];
        // Two documented exceptions. fio's p0 is bin 0's value, empty or not
        // (percentiles.h, Method::kFio, as fio's own json reports it): only
        // its upper bound holds. In fio's saturating last bin both the value
        // and the max are lower bounds (PercentileValue::saturated,
        // Stats::max_ns: the bin's lower edge; docs/numbers.md,
        // "Error bounds": `sat`), and fio's
        // method reports the bin's value above that edge: two lower bounds
        // are not ordered.
        const bool low_ok = (fio_p0 && i == 0) || st.min_ns <= v.value_ns;
        const bool high_ok = (v.saturated && st.saturated) || v.value_ns <= st.max_ns;
        if (!low_ok || !high_ok)
          bad << " {p" << i << (low_ok ? ">max}" : "<min}") << " p[" << i << "] " << v.value_ns
              << " outside [" << st.min_ns << ", " << st.max_ns << "]";
      }
    if (bad.str().empty()) continue;
    if (++c->failures <= 20)
      ADD_FAILURE() << what << " t=" << row.t_ms << " " << r.groups[row.group] << " samples " << st.samples
                    << ":" << bad.str();
  }
}

TEST(RowInvariants, MinMeanPercentilesMaxInEveryRow) {
  const std::vector<GroupBy> groupings = {{},      {"host"},        {"job"},
                                          {"dir"}, {"host", "job"}, {"host", "job", "dir"}};
  const std::vector<Method> methods = {Method::kInterp, Method::kFio, Method::kHdr, Method::kExact};
  Checked c;
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(LATSCOPE_FIXTURES))
    if (e.is_directory()) sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  for (const fs::path& dir : sets) {
    // Each file is parsed once; one engine per variant below serves every query.
    Engine parsed;
    for (const std::string& f : set_files(dir)) {
      std::string text;
      ASSERT_TRUE(fixtures::read_file(f, &text)) << f;
      testing::feed(&parsed, f, text);
    }
    parsed.assign_runs(RunOptions{});  // as the CLI: one run's json+ completes only its own logs
    for (bool with_json : {true, false}) {
      std::vector<Source> sources;
      bool has_json = false;
      for (const Source& s : parsed.sources()) {
        if (s.format == FileFormat::kFioJson) {
          has_json = true;
          if (!with_json) continue;
        }
        sources.push_back(s);
      }
      if (!with_json && !has_json) continue;  // the same as with
      const double interval = log_interval_ms(sources);
      // A grouping that puts the series into the same groups as one already
      // run gives the same rows under other names (one host: "host" is
      // "none"): it is run once.
      std::vector<std::vector<size_t>> partitions;
      std::vector<GroupBy> distinct;
      for (const GroupBy& g : groupings) {
        std::map<std::string, size_t> ids;
        std::vector<size_t> part;
        for (const Source& src : sources)
          for (const Series& x : src.series) {
            std::string key;
            for (const std::string& l : g) key += label_of(src, x, l) + "\n";
            part.push_back(ids.emplace(key, ids.size()).first->second);
          }
        if (std::find(partitions.begin(), partitions.end(), part) != partitions.end()) continue;
        partitions.push_back(part);
        distinct.push_back(g);
      }
      Engine e;  // queries are const: one engine serves them all
      for (const Source& s : sources) e.add_source(s);
      // Method::kExact reads fio per-I/O values; without any it is kInterp
      // on the bins (percentiles.h), already covered.
      const bool io = std::any_of(sources.begin(), sources.end(), [](const Source& s) {
        return std::any_of(s.series.begin(), s.series.end(),
                           [](const Series& x) { return x.has_io_values(); });
      });
      std::vector<double> quanta = {100, 250, 1000, 2000, 5000};
      if (std::find(quanta.begin(), quanta.end(), interval) == quanta.end()) quanta.push_back(interval);
      for (double q : quanta)
        for (const GroupBy& g : distinct)
          for (Method m : methods)
            for (bool wx : {true, false}) {
              if (m == Method::kExact && !io) continue;
              QueryOptions o;
              o.quantum_ms = q;
              o.group_by = g;
              o.method = m;
              o.window_extremes = wx;
              o.percentiles = {0, 1, 50, 90, 99, 99.9, 100};
              o.bands = false;  // the sampling bands are not what is checked here
              QueryResult a;
              // A grouping by a label no series of the set has is an error (docs/model.md).
              if (!e.query(o, &a).ok()) continue;
              std::ostringstream what;
              what << dir.filename().string() << (with_json ? " +json" : " logs") << " q=" << q << " by ";
              for (const std::string& l : g) what << l << ";";
              what << " method " << static_cast<int>(m) << " window_extremes " << wx;
              check_rows(a, o, "query: " + what.str(), &c);
              ++c.queries;
              // The streaming fold reads the method only for kExact (its
              // per-I/O values); every method's arithmetic and the extremes
              // clamp are fill_row's (query.cc), shared by both paths and
              // checked above. Folding again for the other two methods
              // would double the test's time and check nothing new.
              if (m != Method::kInterp && m != Method::kExact) continue;
              StreamingQuery stream(o);
              // json+ first: it completes the logs folded after it (stream.h).
              for (const Source& s : sources) {
                if (s.format == FileFormat::kFioJson) {
                  EXPECT_TRUE(stream.add(s).ok());
                }
              }
              for (const Source& s : sources) {
                if (s.format != FileFormat::kFioJson) {
                  EXPECT_TRUE(stream.add(s).ok());
                }
              }
              QueryResult b;
              ASSERT_TRUE(stream.finish(&b).ok()) << what.str();
              check_rows(b, o, "stream: " + what.str(), &c);
              ++c.queries;
            }
    }
  }
  std::printf("row invariants: %zu queries, %zu non-empty rows, %zu failures\n", c.queries, c.rows,
              c.failures);
  EXPECT_GT(c.queries, 1000u);
  EXPECT_EQ(c.failures, 0u);
}

// The issue's case, built to size: a run whose 1 s windows end 450 ms past
// the quantum edges (a host's clock offset, a job placed by its startdelay
// or another quantum puts them anywhere), fast I/Os (~1 ms) all
// through, and a json+ tail of 50 ms holding 10 slow ones (9.8 ms). The last
// quantum [19000, 20000) holds 45% of the last logged window (180 fast
// I/Os; its midpoint is in the quantum before) and the whole tail (its
// midpoint is here). Taking that quantum's extremes from the tail alone gave
// min 9.8 ms over a mean of 1.5 ms and p50 clamped up to that min.
TEST(RowInvariants, TailQuantumKeepsTheLastLoggedWindowsShare) {
  const BinLayout& L = *fio_layout(3, 0);
  const auto bin_of = [&L](double ns) {
    uint32_t b = 0;
    while (!(ns < L.hi[b])) ++b;
    return b;
  };
  const uint32_t fast = bin_of(1e6), slow = bin_of(9.83e6);
  std::string log;
  for (int t = 1450; t <= 19450; t += 1000) log += testing::hist_line(t, 0, {{fast, 400}});
  const uint64_t logged = 19 * 400;
  const std::string json =
      R"({"fio version":"fio-3.33","jobs":[{"jobname":"x","groupid":0,"read":{"total_ios":)" +
      std::to_string(logged + 10) + R"(,"runtime":19500,"clat_ns":{"N":)" + std::to_string(logged + 10) +
      R"(,"bins":{")" + std::to_string(fio_plat_idx_to_val(fast)) + R"(":)" + std::to_string(logged) +
      R"(,")" + std::to_string(fio_plat_idx_to_val(slow)) + R"(":10}}}}]})";
  Engine e;
  ASSERT_TRUE(testing::feed(&e, "x.json", json).status.ok());
  ASSERT_TRUE(testing::feed(&e, "x_clat_hist.1.log", log).status.ok());
  ASSERT_EQ(e.sources()[1].series.at(0).layout->id, L.id);
  QueryOptions o;
  o.quantum_ms = 1000;
  o.percentiles = {50};
  QueryResult a, b;
  ASSERT_TRUE(e.query(o, &a).ok());
  StreamingQuery stream(o);
  for (const Source& s : e.sources()) ASSERT_TRUE(stream.add(s).ok());
  ASSERT_TRUE(stream.finish(&b).ok());
  for (const QueryResult* r : {&a, &b}) {
    ASSERT_FALSE(r->rows.empty());
    const Row& last = r->rows.back();
    ASSERT_EQ(last.t_ms, 19000);
    // The tail was added: 180 + 10 (overlap shares are rounded to 2^-28 I/O, aligner.h Share).
    EXPECT_NEAR(last.stats.samples, 190, 1e-6);
    EXPECT_EQ(last.stats.min_ns, L.lo[fast]);
    EXPECT_EQ(last.stats.max_ns, L.hi[slow]);
    EXPECT_LT(last.p[0].value_ns, L.hi[fast]);  // the median is a fast I/O
    EXPECT_LE(last.stats.min_ns, last.stats.mean_ns);
  }
}

}  // namespace
}  // namespace latscope
