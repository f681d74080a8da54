// The unlogged last window, completed from fio's json+ output (query/tail.cc),
// on real runs: after completion every job and direction holds exactly the
// I/Os fio counted (json total_ios), and the last quanta are whole.
#include <gtest/gtest.h>

#include <string>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"

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

TEST(Tail, JsonAloneAddsNothingToTheTimeViews) {
  Engine e;
  load(&e, {fixture("local/local.json")});
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_TRUE(r.rows.empty());
}

}  // namespace
}  // namespace latscope
