// A query cut into parts (QueryOptions::part_index, docs/page-speed.md "The
// query in two workers"): the parts' rows, concatenated in part order, are
// the whole query's rows, bit for bit; their notes, merged in order without
// repeats, are its notes. Checked on the real fio fixtures (late-start jobs
// placed from json+, client/server, per-I/O logs with the exact method) and
// on logs with gaps short and long enough to be skipped, cut at every share.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/options_json.h"
#include "latscope/report.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fx = fixtures;
using testing::feed;
using testing::hist_line;

// The parts' answers as one: rows concatenated, notes merged without repeats.
QueryResult joined(const Engine& e, QueryOptions o, uint32_t n) {
  QueryResult all;
  for (uint32_t k = 0; k < n; ++k) {
    o.part_index = k;
    o.part_count = n;
    QueryResult r;
    Status st = e.query(o, &r);
    EXPECT_TRUE(st.ok()) << st.message;
    if (k == 0) {
      all = r;
      continue;
    }
    if (!r.rows.empty()) {
      EXPECT_EQ(r.groups, all.groups) << "part " << k;
    }
    all.rows.insert(all.rows.end(), r.rows.begin(), r.rows.end());
    for (const std::string& note : r.notes)
      if (std::find(all.notes.begin(), all.notes.end(), note) == all.notes.end()) all.notes.push_back(note);
  }
  return all;
}

// The whole query and its parts for 2, 3 and 7 parts print the same JSON
// (every row's time, group, flags, stats and percentiles with their bands).
void expect_parts_equal_whole(const Engine& e, const QueryOptions& o, const std::string& what) {
  QueryResult whole;
  Status st = e.query(o, &whole);
  ASSERT_TRUE(st.ok()) << what << ": " << st.message;
  // The bound the page's worker engine asks before cutting (0: not cut).
  const size_t bound = e.query_rows_bound(o);
  if (o.adaptive_accuracy > 0 || o.compat_fio_histo_log_pctiles) {
    EXPECT_EQ(bound, 0u) << what;
  } else {
    EXPECT_GE(bound, whole.rows.size()) << what;
    EXPECT_GT(bound, 0u) << what;
  }
  const std::vector<std::string> labels(o.percentiles.size(), "p");
  const std::string want = pctiles_json(whole, labels, Unit::kUs);
  for (uint32_t n : {2u, 3u, 7u}) {
    const QueryResult parts = joined(e, o, n);
    EXPECT_EQ(parts.rows.size(), whole.rows.size()) << what << ", " << n << " parts";
    EXPECT_EQ(pctiles_json(parts, labels, Unit::kUs), want) << what << ", " << n << " parts";
  }
}

QueryOptions with(double quantum_ms, const std::vector<std::string>& group_by, Method m = Method::kInterp) {
  QueryOptions o;
  o.quantum_ms = quantum_ms;
  o.group_by = group_by;
  o.method = m;
  return o;
}

TEST(QueryParts, RealFixturesCutAnywhereGiveTheWholeRows) {
  struct Set {
    const char* dir;
    const char* prefix;
  };
  for (const Set& s : {Set{"local", "local_clat_hist"}, Set{"place", "place"}, Set{"cs", "cs_clat_hist"}}) {
    Engine e;
    std::vector<std::string> files = fx::list(fx::path(s.dir), s.prefix);
    files.erase(std::remove_if(files.begin(), files.end(),
                               [](const std::string& f) {
                                 // histogram logs, and json+ for the late-start placement
                                 return f.find("_clat_hist") == std::string::npos && f.find(".json") == std::string::npos;
                               }),
                files.end());
    ASSERT_TRUE(fx::load(&e, files, FileOptions())) << s.dir;
    for (double q : {1000.0, 250.0, 3000.0})
      for (const std::vector<std::string>& g : {std::vector<std::string>{}, {"host"}, {"job", "dir"}})
        expect_parts_equal_whole(e, with(q, g), std::string(s.dir) + " q=" + std::to_string(q) + " by " +
                                                    (g.empty() ? "none" : g[0]));
  }
}

TEST(QueryParts, PerIoLogsWithTheExactMethod) {
  Engine e;
  ASSERT_TRUE(fx::load(&e, {fx::path("fio_lat/fl_clat.1.log")}, FileOptions()));
  expect_parts_equal_whole(e, with(1000, {}, Method::kExact), "fl exact");
  expect_parts_equal_whole(e, with(100, {"dir"}, Method::kExact), "fl exact 100 ms");
}

// Two series: one every second for 3 s, a pause of 5 s (rows of empty
// quanta), 3 s more, then a pause of 2,000 s (over kSkipEmptyQuanta: a note,
// no rows), then 3 s; the other only in the last stretch. Every cut lands
// in or next to a gap for some part count.
std::string gappy(uint64_t shift) {
  std::string s;
  const auto burst = [&](uint64_t from, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) s += hist_line(shift + from + 1000 * i + 2, 0, {{700 + i, 40}, {760, 2}});
  };
  burst(1000, 3);
  burst(9000, 3);
  burst(2012000, 3);
  return s;
}

TEST(QueryParts, GapsShortAndSkippedAreCutAsTheWholeQuery) {
  Engine e;
  feed(&e, "a_clat_hist.1.log", gappy(0));
  std::string late;
  for (int i = 0; i < 4; ++i) late += hist_line(2011500 + 1000 * i, 0, {{720, 9}});
  feed(&e, "b_clat_hist.1.log", late);
  QueryResult whole;
  ASSERT_TRUE(e.query(with(1000, {"job"}), &whole).ok());
  ASSERT_TRUE(std::any_of(whole.notes.begin(), whole.notes.end(),
                          [](const std::string& n) { return n.find("no I/O in any group") != std::string::npos; }))
      << "the test needs a skipped gap";
  for (double q : {1000.0, 500.0, 7000.0}) expect_parts_equal_whole(e, with(q, {"job"}), "gappy");
  // More parts than busy quanta: most parts are empty.
  QueryOptions o = with(1000, {});
  const QueryResult parts = joined(e, o, 64);
  QueryResult w;
  ASSERT_TRUE(e.query(o, &w).ok());
  EXPECT_EQ(pctiles_json(parts, {"p", "p", "p", "p", "p"}, Unit::kUs), pctiles_json(w, {"p", "p", "p", "p", "p"}, Unit::kUs));
}

TEST(QueryParts, QueriesNotOnFixedQuantaAreAnsweredWholeByPartZero) {
  Engine e;
  feed(&e, "a_clat_hist.1.log", gappy(0));
  QueryOptions o = with(1000, {});
  o.adaptive_accuracy = 0.5;
  QueryResult whole;
  ASSERT_TRUE(e.query(o, &whole).ok());
  ASSERT_FALSE(whole.rows.empty());
  o.part_count = 2;
  o.part_index = 1;
  QueryResult second;
  ASSERT_TRUE(e.query(o, &second).ok());
  EXPECT_TRUE(second.rows.empty());
  o.part_count = 1;
  o.part_index = 0;
  expect_parts_equal_whole(e, o, "adaptive");
  QueryOptions c = with(1000, {});
  c.compat_fio_histo_log_pctiles = true;
  expect_parts_equal_whole(e, c, "compat");
}

TEST(QueryParts, OptionsJsonNamesAWrongPart) {
  QueryOptions q;
  std::vector<std::string> labels;
  Unit u;
  ASSERT_TRUE(parse_query_options_json(R"({"part":[1,3]})", &q, &labels, &u).ok());
  EXPECT_EQ(q.part_index, 1u);
  EXPECT_EQ(q.part_count, 3u);
  for (const char* bad : {R"({"part":[3,3]})", R"({"part":[0,0]})", R"({"part":[-1,2]})", R"({"part":[0,65]})",
                          R"({"part":"1/2"})", R"({"part":[1]})", R"({"part":[0.5,2]})"}) {
    Status st = parse_query_options_json(bad, &q, &labels, &u);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message.find("\"part\" must be [index, count]"), std::string::npos) << bad << ": " << st.message;
  }
}

}  // namespace
}  // namespace latscope
