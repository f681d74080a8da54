// Compat mode (QueryOptions::compat_fio_histo_log_pctiles) against the real
// outputs of fio's tools/hist/fio-histo-log-pctiles.py stored beside each
// fixture set (tests/fixtures/<set>/reference/, first line = the command;
// see tests/fixtures/make_fixtures.sh). Every number the script printed must
// come out of the engine to 1e-9 relative.
#include <fnmatch.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"

namespace latscope {
namespace {

namespace fx = fixtures;

struct CompatCase {
  const char* set;        // folder under tests/fixtures
  const char* prefix;     // histogram log names start with this
  const char* reference;  // file under <set>/reference/
};

// pjl0's reference was computed by the script on the per_job_logs=0 file
// split into one file per job (the script stops at the split point
// otherwise); the engine reads the unsplit file and treats its two job
// segments as two files.
const CompatCase kCases[] = {
    {"fio-s1", "s1_clat_hist.", "fio-histo-log-pctiles.q1.txt"},
    {"fio-s1", "s1_clat_hist.", "fio-histo-log-pctiles.q5.txt"},
    {"local", "local_clat_hist.", "fio-histo-log-pctiles.q1.txt"},
    {"local", "local_clat_hist.", "fio-histo-log-pctiles.q2.txt"},
    {"epoch", "epoch_clat_hist.", "fio-histo-log-pctiles.q1.txt"},
    {"epoch", "epoch_clat_hist.", "fio-histo-log-pctiles.q2.txt"},
    {"pjl0", "pjl0_clat_hist.", "fio-histo-log-pctiles.q1.txt"},
    {"pjl0", "pjl0_clat_hist.", "fio-histo-log-pctiles.q2.txt"},
    {"cs", "cs_clat_hist.", "fio-histo-log-pctiles.q1.txt"},
    {"cs", "cs_clat_hist.", "fio-histo-log-pctiles.q2.txt"},
};

class CompatReference : public ::testing::TestWithParam<CompatCase> {};

Status run_compat(const Engine& e, QueryOptions q, QueryResult* out) {
  q.compat_fio_histo_log_pctiles = true;
  return e.query(q, out);
}

TEST_P(CompatReference, MatchesScriptOutput) {
  const CompatCase& c = GetParam();
  const std::string dir = fx::path(c.set);
  fx::ScriptReference ref;
  ASSERT_TRUE(fx::parse_reference(dir + "/reference/" + c.reference, &ref));

  // The script's numbers come from the raw counts: no repair.
  FileOptions fo;
  fo.repair = RepairMode::kOff;
  Engine engine;
  const std::vector<std::string> files = fx::list(dir, c.prefix);
  if (std::string(c.set) != "pjl0") {
    // Same files, same order as the script's command line (a shell glob
    // there expands to the sorted names fx::list gives).
    std::vector<std::string> named;
    for (const std::string& f : files) {
      const std::string base = f.substr(dir.size() + 1);
      for (const std::string& arg : ref.file_args) {
        if (fnmatch(arg.c_str(), base.c_str(), 0) == 0) {
          named.push_back(f);
          break;
        }
      }
    }
    EXPECT_EQ(named, files) << ref.command;
  }
  ASSERT_TRUE(fx::load(&engine, files, fo));

  QueryOptions q;
  q.quantum_ms = ref.quantum_s * 1000.0;
  q.percentiles = ref.percentiles;
  QueryResult r;
  const Status st = run_compat(engine, q, &r);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0], "all");
  EXPECT_FALSE(r.absolute_time);
  ASSERT_EQ(r.rows.size(), ref.rows.size()) << ref.command;

  double worst = 0;
  size_t compared = 0;
  for (size_t j = 0; j < ref.rows.size(); ++j) {
    const fx::ScriptRow& want = ref.rows[j];
    const Row& got = r.rows[j];
    SCOPED_TRACE("quantum at " + std::to_string(want.t_ms) + " ms, " + ref.command);
    EXPECT_EQ(got.t_ms, static_cast<double>(want.t_ms));
    EXPECT_EQ(got.group, 0u);
    // The script prints int(samples); a sum that lands within rounding of an
    // integer may truncate either way.
    const double s = got.stats.samples;
    const bool same_int = static_cast<int64_t>(s) == want.samples ||
                          (std::fabs(s - std::round(s)) < 1e-6 &&
                           std::llabs(static_cast<int64_t>(std::round(s)) - want.samples) <= 1);
    EXPECT_TRUE(same_int) << "samples " << s << " vs the script's " << want.samples;
    EXPECT_EQ(want.empty, (got.flags & kFlagEmpty) != 0);
    if (want.empty) continue;
    ASSERT_EQ(got.p.size(), want.values.size());
    for (size_t i = 0; i < want.values.size(); ++i) {
      const double us = got.p[i].value_ns / 1000.0;
      const double d = fx::rel_diff(us, want.values[i]);
      worst = std::max(worst, d);
      ++compared;
      EXPECT_LE(d, 1e-9) << "p" << ref.percentiles[i] << ": " << us << " us vs the script's "
                         << want.values[i];
      // min and max are the script's p0 and p100.
      if (ref.percentiles[i] == 0) {
        EXPECT_LE(fx::rel_diff(got.stats.min_ns / 1000, want.values[i]), 1e-9);
      }
      if (ref.percentiles[i] == 100) {
        EXPECT_LE(fx::rel_diff(got.stats.max_ns / 1000, want.values[i]), 1e-9);
      }
    }
  }
  EXPECT_GT(compared, 0u);
  std::printf("[ compat ] %s/%s: %zu values, max relative difference %.3g\n", c.set, c.reference,
              compared, worst);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CompatReference, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<CompatCase>& param) {
                           std::string n = std::string(param.param.set) + "_" + param.param.reference;
                           for (char& ch : n) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return n;
                         });

bool has_note(const QueryResult& r, const std::string& needle) {
  for (const std::string& n : r.notes) {
    if (n.find(needle) != std::string::npos) return true;
  }
  return false;
}

std::string all_notes(const QueryResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

TEST(Compat, PerJobLogsZeroSaysWhereTheScriptStops) {
  Engine engine;
  ASSERT_TRUE(fx::load(&engine, {fx::path("pjl0/pjl0_clat_hist.log")}, {}));
  QueryResult r;
  ASSERT_TRUE(run_compat(engine, {}, &r).ok());
  EXPECT_TRUE(has_note(r, "per_job_logs=0")) << all_notes(r);
}

TEST(Compat, RepairedInputIsNoted) {
  // fio-s1 comes from client/server mode: auto repair fixes the accumulation
  // defect, which the script does not; the answer must say so.
  Engine engine;
  ASSERT_TRUE(fx::load(&engine, fx::list(fx::path("fio-s1"), "s1_clat_hist."), {}));
  QueryResult r;
  ASSERT_TRUE(run_compat(engine, {}, &r).ok());
  EXPECT_TRUE(has_note(r, "repaired")) << all_notes(r);
}

TEST(Compat, EpochLogsCountFromTheCommonStart) {
  Engine engine;
  ASSERT_TRUE(fx::load(&engine, fx::list(fx::path("epoch"), "epoch_clat_hist."), {}));
  QueryResult r;
  ASSERT_TRUE(run_compat(engine, {}, &r).ok());
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ(r.rows[0].t_ms, 0);
  EXPECT_FALSE(r.absolute_time);
  EXPECT_TRUE(has_note(r, "unix epoch time")) << all_notes(r);
}

TEST(Compat, CoarseLogsAreComputedAndNoted) {
  // The script rejects coarse logs; compat applies its rules to the coarse
  // bins. Same run, same quanta: the sample counts per quantum cannot depend
  // on the bin layout, so c2 and c4 logs of one run would agree; here they
  // are different runs, so check what holds for any run instead: every
  // percentile lies inside the quantum's [min, max] and increases with p.
  for (const char* prefix : {"c2_clat_hist.", "c4_clat_hist."}) {
    Engine engine;
    ASSERT_TRUE(fx::load(&engine, fx::list(fx::path("coarse"), prefix), {}));
    QueryOptions q;
    q.percentiles = {0, 50, 90, 99, 100};
    QueryResult r;
    const Status st = run_compat(engine, q, &r);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_TRUE(has_note(r, "coarseness")) << all_notes(r);
    size_t nonempty = 0;
    for (const Row& row : r.rows) {
      if (row.flags & kFlagEmpty) continue;
      ++nonempty;
      for (size_t i = 1; i < row.p.size(); ++i) EXPECT_LE(row.p[i - 1].value_ns, row.p[i].value_ns);
      EXPECT_EQ(row.p.front().value_ns, row.stats.min_ns);
      EXPECT_EQ(row.p.back().value_ns, row.stats.max_ns);
    }
    EXPECT_GE(nonempty, 4u) << prefix;
  }
}

TEST(Compat, RejectsFractionalQuantum) {
  Engine engine;
  ASSERT_TRUE(fx::load(&engine, fx::list(fx::path("local"), "local_clat_hist."), {}));
  QueryOptions q;
  q.quantum_ms = 1500;  // the script's --time-quantum is whole seconds
  QueryResult r;
  const Status st = run_compat(engine, q, &r);
  EXPECT_EQ(st.code, ErrorCode::kInvalidArgument);
}

TEST(Compat, UnsortedPercentilesAreComputedEachOnItsOwn) {
  Engine engine;
  ASSERT_TRUE(fx::load(&engine, fx::list(fx::path("local"), "local_clat_hist."), {}));
  QueryOptions sorted, unsorted;
  sorted.percentiles = {50, 90, 99};
  unsorted.percentiles = {99, 50, 90};
  QueryResult a, b;
  ASSERT_TRUE(run_compat(engine, sorted, &a).ok());
  ASSERT_TRUE(run_compat(engine, unsorted, &b).ok());
  EXPECT_TRUE(has_note(b, "increasing order")) << all_notes(b);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (size_t j = 0; j < a.rows.size(); ++j) {
    if (a.rows[j].flags & kFlagEmpty) continue;
    EXPECT_EQ(a.rows[j].p[0].value_ns, b.rows[j].p[1].value_ns);
    EXPECT_EQ(a.rows[j].p[1].value_ns, b.rows[j].p[2].value_ns);
    EXPECT_EQ(a.rows[j].p[2].value_ns, b.rows[j].p[0].value_ns);
  }
}

}  // namespace
}  // namespace latscope
