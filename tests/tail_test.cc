// The unlogged last window, completed from fio's json+ output (query/tail.cc),
// on real runs: after completion every job and direction holds exactly the
// I/Os fio counted (json total_ios), and the last quanta are whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/stream.h"

namespace latscope {
namespace {

namespace fx = fixtures;

std::string fixture(const std::string& rel) { return std::string(LATSCOPE_FIXTURES) + "/" + rel; }

void load(Engine* e, const std::vector<std::string>& paths, RepairMode repair = RepairMode::kAuto) {
  for (const std::string& p : paths) {
    FileOptions fo;
    fo.repair = repair;
    const int h = e->open_file(p, fo);
    std::string text;
    ASSERT_TRUE(fx::read_file(p, &text)) << p;
    e->append(h, text.data(), text.size());
    ASSERT_TRUE(e->finish(h).status.ok()) << p;
  }
}

// Sum of fio's total_ios over the json's jobs (not the aggregate) and directions.
uint64_t json_total(const std::string& path) {
  std::string text;
  EXPECT_TRUE(fx::read_file(path, &text)) << path;
  FioJsonReport rep;
  EXPECT_TRUE(parse_fio_json(path, text.data(), text.size(), &rep).ok());
  uint64_t n = 0;
  for (const FioJsonJob& j : rep.jobs)
    if (!j.aggregate)
      for (const FioJsonDir& d : j.dirs) n += d.total_ios;
  return n;
}

double whole_run_samples(const Engine& e, bool tail, std::vector<std::string>* notes = nullptr) {
  QueryOptions o;
  o.quantum_ms = 1e9;  // one quantum holding the whole run
  o.sel.complete_tail = tail;
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  if (notes) *notes = r.notes;
  double n = 0;
  for (const Row& row : r.rows) n += row.stats.samples;
  return n;
}

struct Set {
  const char* name;
  std::vector<std::string> logs;
  std::string json;
};

std::vector<Set> sets() {
  return {
      {"fio-s1 (client/server, repaired)",
       {fixture("fio-s1/s1_clat_hist.1.log.127.0.0.1"), fixture("fio-s1/s1_clat_hist.1.log.127.0.0.2"),
        fixture("fio-s1/s1_clat_hist.2.log.127.0.0.1"), fixture("fio-s1/s1_clat_hist.2.log.127.0.0.2")},
       fixture("fio-s1/s1.json")},
      {"local", {fixture("local/local_clat_hist.1.log"), fixture("local/local_clat_hist.2.log")},
       fixture("local/local.json")},
  };
}

TEST(Tail, CompletedRunsHoldEveryIoFioCounted) {
  for (const Set& s : sets()) {
    SCOPED_TRACE(s.name);
    Engine e;
    std::vector<std::string> files = s.logs;
    files.push_back(s.json);
    load(&e, files);
    const uint64_t total = json_total(s.json);
    std::vector<std::string> notes;
    const double with_tail = whole_run_samples(e, true, &notes);
    const double logged = whole_run_samples(e, false);
    EXPECT_EQ(with_tail, static_cast<double>(total));
    EXPECT_LT(logged, with_tail);  // fio's logs always miss the tail
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes[0].find("unlogged window"), std::string::npos) << notes[0];
  }
}

TEST(Tail, TheLastWholeSecondIsNoLongerPartial) {
  const Set s = sets()[0];
  Engine e;
  std::vector<std::string> files = s.logs;
  files.push_back(s.json);
  load(&e, files);
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  // The run lasted 20,001 ms: quantum 19000 now holds a whole second of the
  // cluster's 3,200 I/O per second (the logs alone give 173 there).
  const Row* q19 = nullptr;
  for (const Row& row : r.rows)
    if (row.t_ms == 19000) q19 = &row;
  ASSERT_NE(q19, nullptr);
  EXPECT_NEAR(q19->stats.samples, 3200, 3200 * 0.01);
  EXPECT_FALSE(q19->flags & kFlagPartial);
}

TEST(Tail, NotAddedWhenTheLogsHoldMoreThanTheJson) {
  const Set s = sets()[0];
  Engine e;
  load(&e, s.logs, RepairMode::kOff);  // the raw, accumulated client logs
  load(&e, {s.json});
  std::vector<std::string> notes;
  const double with_tail = whole_run_samples(e, true, &notes);
  EXPECT_EQ(with_tail, whole_run_samples(e, false));
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("no tail window added"), std::string::npos) << notes[0];
}

// docs/whole-run.md: with no log selected, queries show json+'s whole-run
// histograms. One quantum holding the run, fio's method: each job and
// direction's percentiles are fio's own printed list and its samples fio's
// N, on both query paths; a late job sits at its startdelay, not twice it.
TEST(Tail, JsonAloneShowsEachJobsWholeRunAsFioPrintedIt) {
  for (const std::string& path : {fixture("local/local.json"), fixture("fio-s1/s1.json"), fixture("place/place.json")}) {
    std::string text;
    ASSERT_TRUE(fx::read_file(path, &text));
    FioJsonReport rep;
    ASSERT_TRUE(parse_fio_json(path, text.data(), text.size(), &rep).ok());
    Engine e;
    load(&e, {path});
    QueryOptions o;
    o.quantum_ms = 1e9;
    o.method = Method::kFio;
    o.group_by = {"host", "job", "dir"};
    o.percentiles.clear();
    for (const FioJsonPercentile& q : rep.jobs.front().dirs.front().percentiles) o.percentiles.push_back(q.p);
    QueryResult r, rs;
    ASSERT_TRUE(e.query(o, &r).ok());
    StreamingQuery sq(o);
    for (const Source& src : e.sources()) ASSERT_TRUE(sq.add(src).ok());
    ASSERT_TRUE(sq.finish(&rs).ok());
    size_t checked = 0;
    for (const QueryResult* q : {&r, &rs}) {
      ASSERT_FALSE(q->notes.empty());
      EXPECT_NE(q->notes.back().find("only fio json+ output is selected"), std::string::npos) << q->notes.back();
      for (const FioJsonJob& j : rep.jobs) {
        if (j.aggregate) continue;
        for (const FioJsonDir& d : j.dirs) {
          if (!d.has_bins || d.percentiles.size() != o.percentiles.size()) continue;
          const std::string key = "host=" + (j.host.empty() ? std::string("local") : j.host) +
                                  ";job=" + std::to_string(j.job_index) + ";dir=" + dir_name(d.dir);
          const auto g = std::find(q->groups.begin(), q->groups.end(), key);
          ASSERT_NE(g, q->groups.end()) << key;
          const uint32_t gi = static_cast<uint32_t>(g - q->groups.begin());
          double n = 0;
          const Row* row = nullptr;
          for (const Row& x : q->rows)
            if (x.group == gi) {
              n += x.stats.samples;
              row = &x;
            }
          ASSERT_NE(row, nullptr);
          EXPECT_EQ(n, static_cast<double>(d.n)) << key;
          for (size_t i = 0; i < d.percentiles.size(); ++i)
            EXPECT_EQ(row->p[i].value_ns, static_cast<double>(d.percentiles[i].value_ns)) << key << " p" << d.percentiles[i].p;
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 0u) << path;
  }
  // place.json: job 2 has startdelay=2 s. At 1 s quanta its first I/Os are at 2 s.
  Engine e;
  load(&e, {fixture("place/place.json")});
  QueryOptions o;
  o.group_by = {"job"};
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  const auto g = std::find(r.groups.begin(), r.groups.end(), "job=2");
  ASSERT_NE(g, r.groups.end());
  double first = -1;
  for (const Row& x : r.rows)
    if (x.group == static_cast<uint32_t>(g - r.groups.begin()) && x.stats.samples > 0 && first < 0) first = x.t_ms;
  EXPECT_EQ(first, 2000);
}

}  // namespace
}  // namespace latscope
