// Late-start jobs placed where they ran (docs/placement.md) on a real fio
// client/server run (tests/fixtures/place-cs/, make_place_cs.sh): two fio
// servers on loopback, one client; on each host job 1 ("early") starts at
// once and job 2 ("late") after startdelay (2 s on 127.0.0.1, 1500ms on
// 127.0.0.2), both logging from their own start; jobs 3 and 4 are the same
// two jobs logging wall-clock ms (log_unix_epoch=1, per-I/O logs only), the
// clock truth. The client writes every log with a host suffix
// (pcs_clat_hist.2.log.127.0.0.1), its histogram logs carry the
// client/server accumulation defect (repaired on load, docs/numbers.md,
// "Repair") and the json+ lists every host's jobs in "client_stats".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"

namespace latscope {
namespace {

namespace fx = fixtures;

const char* const kHosts[] = {"127.0.0.1", "127.0.0.2"};

std::string pcs(const std::string& f) { return fx::path("place-cs/" + f); }

bool has_note(const QueryResult& r, const std::string& part) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

std::string all_notes(const QueryResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

// The median of b[i] - a[i] over the first n completions of two jobs that
// start together and issue at the same fixed rate (rate_iops): how far b's
// clock is ahead of a's. The median, because one job can stall where the
// other does not (a loaded machine: see the fixture's late job on 127.0.0.1).
double clock_gap(const std::vector<fx::IoSample>& a, const std::vector<fx::IoSample>& b, size_t n) {
  std::vector<double> d;
  for (size_t i = 0; i < std::min({n, a.size(), b.size()}); ++i) d.push_back(b[i].t_ms - a[i].t_ms);
  return median(d);
}

struct HostTruth {
  std::vector<fx::IoSample> late;  // job 2's completions, on its own clock
  double start_delay_ms = 0;       // job 2's startdelay as the json+ says
  double run_start_ms = 0;         // job 2's time 0 on the run's clock, from the epoch twins
};

::testing::AssertionResult truth_of(const std::string& host, HostTruth* t) {
  std::vector<fx::IoSample> early, early_epoch, late_epoch;
  for (auto [f, v] : {std::pair{"pcs_clat.1.log.", &early}, {"pcs_clat.2.log.", &t->late},
                      {"pcs_clat.3.log.", &early_epoch}, {"pcs_clat.4.log.", &late_epoch}}) {
    ::testing::AssertionResult ok = fx::read_lat_log(pcs(f + host), v);
    if (!ok) return ok;
  }
  // Run time 0 on the wall clock: where the epoch twin of job 1 (started
  // with it) has its clock.
  const double e0 = clock_gap(early, early_epoch, early.size());
  // Job 2's own time 0 on the run's clock: where its epoch twin (same delay)
  // has its clock, less e0. The first completions only: the twins are
  // separate jobs that can drift apart once one stalls.
  t->run_start_ms = clock_gap(t->late, late_epoch, 20) - e0;

  std::string text;
  if (!fx::read_file(pcs("place-cs.json"), &text)) return ::testing::AssertionFailure() << "no place-cs.json";
  FioJsonReport rep;
  if (!parse_fio_json("place-cs.json", text.data(), text.size(), &rep).ok())
    return ::testing::AssertionFailure() << "place-cs.json does not parse";
  for (const FioJsonJob& j : rep.jobs)
    if (j.host == host && j.job_index == 2) {
      t->start_delay_ms = j.start_delay_ms;
      return ::testing::AssertionSuccess();
    }
  return ::testing::AssertionFailure() << "no job 2 of " << host << " in place-cs.json";
}

// Everything a user would give: the json+ and every histogram log of both
// hosts (`latscope pctiles place-cs.json pcs_clat_hist.*`).
::testing::AssertionResult load_run(Engine* e, bool with_json) {
  std::vector<std::string> files;
  if (with_json) files.push_back(pcs("place-cs.json"));
  for (const char* h : kHosts)
    for (const char* j : {"1", "2"}) files.push_back(pcs(std::string("pcs_clat_hist.") + j + ".log." + h));
  return fx::load(e, files, FileOptions());
}

// I/O counts of group `group` per 1 ms quantum from 0 to n ms: fio's
// windows end on whole ms, so a window's I/Os sum exactly over its quanta.
std::vector<double> per_ms(const QueryResult& r, const std::string& group, size_t n) {
  std::vector<double> out(n, 0);
  const auto g = static_cast<uint32_t>(std::find(r.groups.begin(), r.groups.end(), group) - r.groups.begin());
  for (const Row& row : r.rows) {
    const double j = std::floor(row.t_ms + 0.5);
    if (row.group == g && j >= 0 && j < n) out[static_cast<size_t>(j)] += row.stats.samples;
  }
  return out;
}

// (a, b] on a 1 ms grid whose quantum j is [j, j+1): quanta a .. b-1.
double sum_range(const std::vector<double>& v, double a, double b) {
  double s = 0;
  for (double j = std::max(0.0, a); j < b && j < v.size(); ++j) s += v[static_cast<size_t>(j)];
  return s;
}

double mean_time(const std::vector<double>& v) {
  double n = 0, t = 0;
  for (size_t j = 0; j < v.size(); ++j) {
    n += v[j];
    t += v[j] * (j + 0.5);
  }
  return t / n;
}

TEST(PlacementClientServer, JsonPlusNamesEachHostsDelay) {
  for (const char* host : kHosts) {
    HostTruth t;
    ASSERT_TRUE(truth_of(host, &t)) << host;
    // The fixture's job files: 2 s on 127.0.0.1, "1500ms" on 127.0.0.2.
    EXPECT_EQ(t.start_delay_ms, std::string(host) == "127.0.0.1" ? 2000 : 1500) << host;
    // fio starts the job's clock after the delay and the job's setup: the
    // startdelay is where the job ran, to the setup time (docs/placement.md).
    std::printf("[ placement ] %s: job 2 (startdelay %.0f ms) started at %.0f ms of the run (epoch twins)\n", host,
                t.start_delay_ms, t.run_start_ms);
    EXPECT_GE(t.run_start_ms, t.start_delay_ms - 50) << host;
    EXPECT_LT(t.run_start_ms, t.start_delay_ms + 250) << host;
  }
}

// Per host: the delayed job's histogram windows, placed from the client's
// json+, hold its per-I/O completions window by window at startdelay later;
// its I/Os on the run's clock (epoch twins) are where the placed windows are.
// Without json+ they sit at the job's own time 0, where it had not started.
TEST(PlacementClientServer, DelayedJobLandsWhereItsIosCompleted) {
  Engine e;
  ASSERT_TRUE(load_run(&e, true));
  QueryOptions o;
  o.quantum_ms = 1;
  o.group_by = {"host", "job"};
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  o.sel.place_jobs = false;
  QueryResult unplaced;
  ASSERT_TRUE(e.query(o, &unplaced).ok());
  EXPECT_FALSE(has_note(unplaced, "placed late-start"));

  for (const char* host : kHosts) {
    SCOPED_TRACE(host);
    HostTruth t;
    ASSERT_TRUE(truth_of(host, &t));
    const std::string log = std::string("pcs_clat_hist.2.log.") + host;
    EXPECT_TRUE(has_note(r, log + " +" + std::to_string(static_cast<int>(t.start_delay_ms)) + " ms")) << all_notes(r);
    // The same shift as data (QueryResult::placed: the page's file table shows it); job 1 was not moved.
    ASSERT_EQ(r.placed.count(log), 1u);
    EXPECT_EQ(r.placed.at(log), t.start_delay_ms);
    EXPECT_EQ(r.placed.count(std::string("pcs_clat_hist.1.log.") + host), 0u);
    EXPECT_TRUE(unplaced.placed.empty());
    const std::string group = std::string("host=") + host + ";job=2";
    ASSERT_NE(std::find(r.groups.begin(), r.groups.end(), group), r.groups.end()) << group;
    const size_t n = 8000;
    const std::vector<double> placed = per_ms(r, group, n);
    const std::vector<double> raw = per_ms(unplaced, group, n);

    // The job's windows as loaded (repaired), on its own clock.
    const Series* hist = nullptr;
    for (const Source& s : e.sources())
      if (s.name.find(log) != std::string::npos && !s.series.empty()) hist = &s.series.front();
    ASSERT_NE(hist, nullptr);
    ASSERT_GE(hist->windows.size(), 2u);
    // The client's logs carry the accumulation defect, short as they are
    // (127.0.0.1's late job: 3 periods, the last one written twice).
    EXPECT_TRUE(hist->repaired);
    // Window by window: the placed window holds the job's completions in
    // that window of its own clock, startdelay later on the run's.
    const double d = t.start_delay_ms;
    // Per-I/O times are whole ms: I/Os completed in the ms a window ends
    // may be counted in it or in the next (fio writes the window when one
    // of them completes), so the window holds at least the I/Os strictly
    // inside it and at most those including both end ms.
    for (const Window& w : hist->windows) {
      double inside = 0, edges = 0;
      for (const fx::IoSample& s : t.late) {
        inside += s.t_ms > w.start_ms && s.t_ms < w.end_ms;
        edges += s.t_ms == w.start_ms || s.t_ms == w.end_ms;
      }
      const double at = sum_range(placed, w.start_ms + d, w.end_ms + d);
      EXPECT_GE(at, inside - 1e-6) << "window (" << w.start_ms << ", " << w.end_ms << "]";
      EXPECT_LE(at, inside + edges + 1e-6) << "window (" << w.start_ms << ", " << w.end_ms << "]";
      // Unplaced, the same I/Os sit on the job's own clock.
      const double own = sum_range(raw, w.start_ms, w.end_ms);
      EXPECT_GE(own, inside - 1e-6);
      EXPECT_LE(own, inside + edges + 1e-6);
    }
    // The whole job, the json+ tail window included, and nothing before
    // its delay.
    EXPECT_NEAR(sum_range(placed, -1, n), t.late.size(), 0.5);
    EXPECT_EQ(sum_range(placed, -1, d), 0);

    // Against the wall clock: the job's completions on the run's clock
    // (its own times + its start from the epoch twins) and the placed
    // windows have their I/Os at the same mean time, to fio's setup time;
    // unplaced they are the whole delay off.
    std::vector<double> truth(n, 0);
    for (const fx::IoSample& s : t.late) {
      const double j = std::floor(s.t_ms + t.run_start_ms);
      if (j >= 0 && j < n) truth[static_cast<size_t>(j)] += 1;
    }
    const double off = mean_time(placed) - mean_time(truth);
    const double off_raw = mean_time(raw) - mean_time(truth);
    std::printf("[ placement ] %s: job 2's windows sit %.0f ms from its I/Os on the run's clock placed, %.0f ms unplaced\n",
                host, off, off_raw);
    EXPECT_LT(std::fabs(off), 250);
    EXPECT_GT(std::fabs(off_raw), 1000);

    // The early job is not moved.
    EXPECT_EQ(per_ms(r, std::string("host=") + host + ";job=1", n), per_ms(unplaced, std::string("host=") + host + ";job=1", n));
  }
}

}  // namespace
}  // namespace latscope
