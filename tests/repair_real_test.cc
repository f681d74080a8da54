// The client/server accumulation repair on REAL fio logs (docs/numbers.md, "Repair"):
// fio-s1 and cs come from --client runs and carry the defect; every
// local-mode set must be left alone. Truth comes from the same runs: the
// per-I/O clat logs (fio-s1) and the json+ whole-run bins (all sets).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"

namespace latscope {
namespace {

namespace fx = fixtures;

struct Loaded {
  Engine engine;
  std::vector<int> handles;
};

void load_set(const std::string& set, const std::string& prefix, RepairMode mode, Loaded* l) {
  FileOptions fo;
  fo.repair = mode;
  ASSERT_TRUE(fx::load(&l->engine, fx::list(fx::path(set), prefix), fo, &l->handles));
}

size_t count_repaired(const Engine& e, size_t* total) {
  size_t n = 0;
  *total = 0;
  for (const Source& s : e.sources()) {
    for (const Series& x : s.series) {
      ++*total;
      if (x.repaired) ++n;
    }
  }
  return n;
}

// Samples per 1 s quantum for each group, over the quanta [from, to) ms.
std::map<std::string, std::vector<double>> samples_per_second(const Engine& e, const GroupBy& group_by,
                                                              double from, double to) {
  QueryOptions q;
  q.group_by = group_by;
  q.percentiles = {50};
  QueryResult r;
  const Status st = e.query(q, &r);
  EXPECT_TRUE(st.ok()) << st.message;
  std::map<std::string, std::vector<double>> out;
  for (const Row& row : r.rows) {
    if (row.t_ms >= from && row.t_ms + 1000 <= to) out[r.groups[row.group]].push_back(row.stats.samples);
  }
  return out;
}

// Per-second rates: a fio job here does 400 I/Os per second per direction
// (rate_iops=400), 2 jobs per host. Quanta at the edges hold the first and
// last partial windows, so only [1 s, last full second) is checked.
void expect_flat_rates(const Engine& e, double to_ms, double per_host_dir, double cluster) {
  for (const auto& [group, v] : samples_per_second(e, GroupBy{"host", "dir"}, 1000, to_ms)) {
    ASSERT_GE(v.size(), 4u) << group;
    for (double s : v) {
      EXPECT_NEAR(s, per_host_dir, 0.05 * per_host_dir) << group;
    }
  }
  const auto all = samples_per_second(e, GroupBy{}, 1000, to_ms);
  ASSERT_EQ(all.size(), 1u);
  const std::vector<double>& v = all.begin()->second;
  for (double s : v) EXPECT_NEAR(s, cluster, 0.05 * cluster);
  // Not growing: the last full second holds no more than the first (+2%).
  EXPECT_LE(v.back(), v.front() * 1.02);
  std::printf("[ repair ] cluster samples per second after repair: first %.0f, last %.0f, %zu s\n",
              v.front(), v.back(), v.size());
}

// json+ holds each job's whole-run bins: the logged (repaired) windows plus
// the unlogged tail (fio never writes the last window). So per job and
// direction, json bins - logged bins must be >= 0 in EVERY bin, and the
// tail's total must be at most about one window of I/O. A wrong repair (or
// none) breaks both: the raw client/server counts sum to ~N^2/2 windows.
struct TailCheck {
  uint64_t max_tail = 0;
  size_t series = 0;
};

void expect_json_tails(const std::string& json_file, const Engine& e, uint64_t max_tail,
                       TailCheck* out) {
  std::string text;
  ASSERT_TRUE(fx::read_file(json_file, &text));
  FioJsonReport rep;
  const Status st = parse_fio_json(json_file, text.data(), text.size(), &rep);
  ASSERT_TRUE(st.ok()) << st.message;
  for (const Source& src : e.sources()) {
    for (const Series& s : src.series) {
      const FioJsonJob* job = nullptr;
      for (const FioJsonJob& j : rep.jobs) {
        if (!j.aggregate && j.host == src.id.host && std::to_string(j.job_index) == s.job) job = &j;
      }
      ASSERT_NE(job, nullptr) << src.name << " job " << s.job;
      const FioJsonDir* d = job->find(s.dir);
      ASSERT_NE(d, nullptr);
      ASSERT_TRUE(d->has_bins) << json_file << " is not json+";
      std::vector<int64_t> tail(kFio3Bins, 0);
      for (size_t i = 0; i < d->bin_index.size(); ++i) {
        tail[d->bin_index[i]] += static_cast<int64_t>(d->bin_count[i]);
      }
      uint64_t logged = 0;
      for (const Window& w : s.windows)
        s.for_each_bin(w, [&](uint32_t bin, uint64_t c) {
          tail[bin] -= static_cast<int64_t>(c);
          logged += c;
        });
      int64_t tail_total = 0;
      size_t negative = 0;
      for (int64_t t : tail) {
        tail_total += t;
        if (t < 0) ++negative;
      }
      SCOPED_TRACE(src.name + " " + dir_name(s.dir));
      EXPECT_EQ(negative, 0u) << "logged windows hold more I/Os than the whole run in some bin";
      // total_ios counts every completed I/O; json+ bins sum to the same.
      EXPECT_EQ(d->total_ios, d->bins_total);
      EXPECT_EQ(static_cast<int64_t>(d->total_ios) - static_cast<int64_t>(logged), tail_total);
      EXPECT_GE(tail_total, 0);
      EXPECT_LE(tail_total, static_cast<int64_t>(max_tail));
      out->max_tail = std::max<uint64_t>(out->max_tail, static_cast<uint64_t>(std::max<int64_t>(tail_total, 0)));
      ++out->series;
    }
  }
}

TEST(RepairReal, FioS1EverySeriesRepaired) {
  Loaded l;
  load_set("fio-s1", "s1_clat_hist.", RepairMode::kAuto, &l);
  size_t total = 0;
  EXPECT_EQ(count_repaired(l.engine, &total), total);
  EXPECT_EQ(total, 8u);  // 2 hosts x 2 jobs x read/write
  for (const Source& s : l.engine.sources()) EXPECT_GT(s.diag.count(Issue::kRepaired), 0u) << s.name;
}

TEST(RepairReal, FioS1RatesFlatAfterRepairGrowingBefore) {
  Loaded fixed, raw;
  load_set("fio-s1", "s1_clat_hist.", RepairMode::kAuto, &fixed);
  load_set("fio-s1", "s1_clat_hist.", RepairMode::kOff, &raw);
  // Windows end at ~19.0 s (of a 20 s run): full seconds 1..18.
  expect_flat_rates(fixed.engine, 19000, 800, 3200);
  // The defect itself, for contrast: raw counts grow ~linearly.
  const auto v = samples_per_second(raw.engine, GroupBy{}, 1000, 19000).begin()->second;
  EXPECT_GT(v.back(), 5 * v.front());
}

TEST(RepairReal, FioS1WindowsEqualPerIoCounts) {
  // The strongest check: each repaired window (s, e] holds exactly the I/Os
  // the per-I/O clat log puts there, up to I/Os stamped on the boundary
  // millisecond itself (fio's two logs truncate the same instant apart).
  Loaded l;
  load_set("fio-s1", "s1_clat_hist.", RepairMode::kAuto, &l);
  size_t windows = 0, exact = 0;
  for (const Source& src : l.engine.sources()) {
    std::string lat = src.name;
    lat.replace(lat.find("_clat_hist."), 11, "_clat.");
    std::vector<fx::IoSample> ios;
    ASSERT_TRUE(fx::read_lat_log(lat, &ios));
    for (const Series& s : src.series) {
      for (size_t wi = 0; wi < s.windows.size(); ++wi) {
        const Window& w = s.windows[wi];
        const uint64_t logged = w.total;
        int64_t inside = 0, ties = 0;
        for (const fx::IoSample& io : ios) {
          if (io.dir != static_cast<int>(s.dir)) continue;
          const bool first_ms = wi == 0 && io.t_ms == w.start_ms;
          if ((io.t_ms > w.start_ms || first_ms) && io.t_ms <= w.end_ms) ++inside;
          if (io.t_ms == w.end_ms ||
              (wi > 0 && io.t_ms == w.start_ms)) {
            ++ties;
          }
        }
        EXPECT_LE(std::llabs(static_cast<int64_t>(logged) - inside), ties)
            << src.name << " " << dir_name(s.dir) << " window ending " << w.end_ms;
        ++windows;
        if (static_cast<int64_t>(logged) == inside) ++exact;
      }
    }
  }
  std::printf("[ repair ] fio-s1: %zu of %zu repaired windows equal the per-I/O count exactly\n",
              exact, windows);
  EXPECT_EQ(windows, 8u * 19u);
}

TEST(RepairReal, FioS1TailIsTheUnloggedLastWindow) {
  Loaded l;
  load_set("fio-s1", "s1_clat_hist.", RepairMode::kAuto, &l);
  TailCheck tc;
  // One window is ~1 s of 400 I/Os per second; allow 25% for rate jitter.
  expect_json_tails(fx::path("fio-s1/s1.json"), l.engine, 500, &tc);
  EXPECT_EQ(tc.series, 8u);
  // And the tail is exactly what the per-I/O logs hold after the last window.
  for (const Source& src : l.engine.sources()) {
    std::string lat = src.name;
    lat.replace(lat.find("_clat_hist."), 11, "_clat.");
    std::vector<fx::IoSample> ios;
    ASSERT_TRUE(fx::read_lat_log(lat, &ios));
    for (const Series& s : src.series) {
      const double last = s.windows.back().end_ms;
      int64_t after = 0, at = 0, total = 0;
      for (const fx::IoSample& io : ios) {
        if (io.dir != static_cast<int>(s.dir)) continue;
        ++total;
        if (io.t_ms > last) ++after;
        if (io.t_ms == last) ++at;
      }
      const int64_t tail = total - static_cast<int64_t>(s.total());
      EXPECT_LE(std::llabs(tail - after), at) << src.name << " " << dir_name(s.dir);
    }
  }
  std::printf("[ repair ] fio-s1: largest unlogged tail %llu I/Os per job and direction\n",
              static_cast<unsigned long long>(tc.max_tail));
}

TEST(RepairReal, ClientServerSetRepaired) {
  Loaded l;
  load_set("cs", "cs_clat_hist.", RepairMode::kAuto, &l);
  size_t total = 0;
  EXPECT_EQ(count_repaired(l.engine, &total), total);
  EXPECT_EQ(total, 8u);
  // 8 s runs: windows end at ~7.0 s, full seconds 1..6.
  expect_flat_rates(l.engine, 7000, 800, 3200);
  TailCheck tc;
  expect_json_tails(fx::path("cs/cs.json"), l.engine, 500, &tc);
  EXPECT_EQ(tc.series, 8u);
}

TEST(RepairReal, LocalModeSetsNeverRepaired) {
  const std::pair<const char*, const char*> sets[] = {
      {"local", "local_clat_hist."}, {"epoch", "epoch_clat_hist."}, {"pjl0", "pjl0_clat_hist."},
      {"coarse", "c2_clat_hist."},   {"coarse", "c4_clat_hist."}};
  for (const auto& [set, prefix] : sets) {
    Loaded l;
    load_set(set, prefix, RepairMode::kAuto, &l);
    size_t total = 0;
    EXPECT_EQ(count_repaired(l.engine, &total), 0u) << set << "/" << prefix;
    EXPECT_GT(total, 0u);
    for (const Source& s : l.engine.sources()) EXPECT_EQ(s.diag.count(Issue::kRepaired), 0u) << s.name;
  }
  // local: its json+ bins hold the raw logged counts plus the tail.
  Loaded l;
  load_set("local", "local_clat_hist.", RepairMode::kAuto, &l);
  expect_flat_rates(l.engine, 9000, 800, 1600);
  TailCheck tc;
  expect_json_tails(fx::path("local/local.json"), l.engine, 500, &tc);
  EXPECT_EQ(tc.series, 4u);
}

}  // namespace
}  // namespace latscope
