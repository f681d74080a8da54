// Whole folders of fio's own output, from fio 2.14 to 3.33, read as a user
// gives them (every file of a run at once): latscope's numbers against
// fio's own json+ (docs/folders.md, docs/fio-versions.md).
//   tests/fixtures/fio-versions/<version>/  old fio versions built from their tags
//   tests/fixtures/folders/<set>/           Debian fio 3.33, every log kind at once
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/fio_json.h"
#include "latscope/folder.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fs = std::filesystem;

// The files of `dir` whose name starts with `prefix` + "_" or is its json.
std::vector<std::string> run_files(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix + "_", 0) == 0 || n == prefix + ".json") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string text_of(const std::string& path) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(path, &t)) << path;
  return t;
}

// As the page loads a folder: every file, then runs (which settles units,
// repairs and segments from the folder's evidence).
void load(Engine* e, const std::vector<std::string>& files) {
  for (const std::string& f : files) testing::feed(e, f, text_of(f));
  e->assign_runs({});
}

// fio's own report of the run: its json output.
FioJsonReport json_of(const std::vector<std::string>& files) {
  FioJsonReport r;
  for (const std::string& f : files)
    if (f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0) {
      const std::string t = text_of(f);
      EXPECT_TRUE(parse_fio_json(f, t.data(), t.size(), &r).ok()) << f;
    }
  return r;
}

uint64_t fio_total(const FioJsonReport& r) {
  uint64_t n = 0;
  for (const FioJsonJob& j : r.jobs)
    if (!j.aggregate)
      for (const FioJsonDir& d : j.dirs) n += d.total_ios;
  return n;
}

uint64_t samples(const Engine& e, const QueryOptions& o) {
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  double n = 0;
  for (const Row& row : r.rows) n += row.stats.samples;
  return static_cast<uint64_t>(n + 0.5);
}

QueryOptions whole_run() {
  QueryOptions o;
  o.quantum_ms = 1e9;
  return o;
}

const std::string kVersions = std::string(LATSCOPE_FIXTURES) + "/fio-versions/";

// Per-I/O logs, 2.14 to 3.42 (a priority column from 3.18): us before 3.0, ns
// after; fio's json min and max (exact counters, not bins) must be the
// per-I/O log's own smallest and largest value, in ns.
TEST(FioVersions, PerIoValuesMatchFiosOwnMinAndMax) {
  for (const char* v : {"2.14", "2.21", "3.1", "3.3", "3.12", "3.16", "3.17", "3.18", "3.42"}) {
    const std::vector<std::string> files = run_files(kVersions + v, "v");
    if (files.empty()) continue;
    SCOPED_TRACE(v);
    Engine e;
    load(&e, files);
    const FioJsonReport rep = json_of(files);
    const Source* clat = nullptr;
    for (const Source& s : e.sources())
      if (s.name.find("v_clat.1.log") != std::string::npos) clat = &s;
    ASSERT_NE(clat, nullptr);
    EXPECT_FALSE(unit_pending(*clat));
    EXPECT_EQ(clat->diag.count(Issue::kUnitGuessed), 0u) << "the json says the version";
    for (const Series& s : clat->series) {
      ASSERT_FALSE(s.io_ns.empty());
      const FioJsonDir* d = nullptr;
      for (const FioJsonJob& j : rep.jobs)
        if (!j.aggregate && j.job_index == 1) d = j.find(s.dir);
      ASSERT_NE(d, nullptr);
      EXPECT_EQ(*std::min_element(s.io_ns.begin(), s.io_ns.end()), d->min_ns) << dir_name(s.dir);
      EXPECT_EQ(*std::max_element(s.io_ns.begin(), s.io_ns.end()), d->max_ns) << dir_name(s.dir);
      EXPECT_EQ(s.io_ns.size(), d->total_ios) << "a per-I/O log holds every I/O";
    }
  }
}

// The whole run folder counts what fio counted, on every version: the
// per-I/O log is the account used, the histogram log left out and named.
TEST(FioVersions, AWholeRunCountsWhatFioCounted) {
  for (const char* v : {"2.14", "2.21", "3.1", "3.3", "3.12", "3.16", "3.17", "3.42"}) {
    for (const char* run : {"v", "big"}) {
      const std::vector<std::string> files = run_files(kVersions + v, run);
      if (files.empty()) continue;
      SCOPED_TRACE(std::string(v) + " " + run);
      Engine e;
      load(&e, files);
      EXPECT_EQ(samples(e, whole_run()), fio_total(json_of(files)));
    }
  }
}

const TrustRow* row_named(const std::vector<TrustRow>& rows, const std::string& needle) {
  for (const TrustRow& r : rows)
    if (r.file.find(needle) != std::string::npos) return &r;
  return nullptr;
}

// fio 3.6 - 3.16 lose every I/O at or above 786.432 us from their histogram
// logs (docs/fio-versions.md section 3): named on every such log, and
// doubtful when the histogram log is the account used.
TEST(FioVersions, BrokenHistogramLogsAreNamedWithTheirVersion) {
  for (const char* v : {"3.12", "3.16"}) {
    const std::vector<std::string> files = run_files(kVersions + v, "big");
    SCOPED_TRACE(v);
    ASSERT_FALSE(files.empty());
    Engine e;
    load(&e, files);
    const std::vector<TrustRow> per_io = e.trust();
    const TrustRow* h = row_named(per_io, "big_clat_hist.1.log");
    ASSERT_NE(h, nullptr);
    ASSERT_FALSE(h->warnings.empty());
    EXPECT_NE(h->warnings[0].find(std::string("fio-") + v + " wrote broken histogram logs"), std::string::npos)
        << h->warnings[0];
    EXPECT_FALSE(h->doubtful) << "not the account used";
    Selection hist;
    hist.accounts = {Account::kHist};
    const std::vector<TrustRow> by_hist = e.trust(hist);
    const TrustRow* u = row_named(by_hist, "big_clat_hist.1.log");
    ASSERT_NE(u, nullptr);
    EXPECT_TRUE(u->doubtful);
    EXPECT_TRUE(u->compared);
    EXPECT_LT(u->ios, u->fio_ios);
    bool shortfall = false;
    for (const std::string& w : u->warnings) shortfall = shortfall || w.find("I/Os fio counted") != std::string::npos;
    EXPECT_TRUE(shortfall) << "the reads it lost, counted against fio's json+";
  }
  for (const char* v : {"3.5", "3.17"}) {
    const std::vector<std::string> files = run_files(kVersions + v, "big");
    if (files.empty()) continue;
    SCOPED_TRACE(v);
    Engine e;
    load(&e, files);
    Selection hist;
    hist.accounts = {Account::kHist};
    const std::vector<TrustRow> rows = e.trust(hist);
    const TrustRow* h = row_named(rows, "big_clat_hist.1.log");
    ASSERT_NE(h, nullptr);
    EXPECT_FALSE(h->doubtful);
    EXPECT_TRUE(h->warnings.empty()) << h->warnings[0];
  }
}

// fio 3.18 added the priority column: its per-I/O logs say their unit.
TEST(FioVersions, ThePriorityColumnSaysNs) {
  const std::vector<std::string> files = run_files(kVersions + "3.18", "off");
  ASSERT_FALSE(files.empty());
  Engine e;
  for (const std::string& f : files) {
    const Source& s = testing::feed(&e, f, text_of(f));
    if (s.format == FileFormat::kFioLat) {
      EXPECT_FALSE(unit_pending(s)) << f;
    }
  }
}

// ---- folders of fio 3.33 as users make them ----

const std::string kFolders = std::string(LATSCOPE_FIXTURES) + "/folders/";

std::vector<std::string> folder_files(const std::string& set) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kFolders + set)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Every set, every log kind at once: the total equals fio's count (the
// per-I/O logs are used); the engine (the page) and the streaming fold told
// the folder (the CLI) give the same rows; with the histogram logs chosen,
// the json+ tails complete them (epoch logs have none: fio's runtimes are
// relative, docs/placement.md) and no log is doubtful.
TEST(Folders, EachSetCountsWhatFioCounted) {
  for (const char* set : {"all-kinds", "pjl0-both", "coarse-avg", "epoch-both", "cs-both", "two-prefixes", "status"}) {
    SCOPED_TRACE(set);
    const std::vector<std::string> files = folder_files(set);
    ASSERT_FALSE(files.empty());
    Engine e;
    load(&e, files);
    const uint64_t fio = fio_total(json_of(files));
    ASSERT_GT(fio, 0u);
    const bool avg_only = std::string(set) == "coarse-avg";  // its per-I/O logs are window averages
    if (!avg_only) {
      EXPECT_EQ(samples(e, whole_run()), fio);
    }
    QueryOptions hist = whole_run();
    hist.sel.accounts = {Account::kHist};
    const uint64_t by_hist = samples(e, hist);
    if (std::string(set) == "epoch-both") {
      EXPECT_LT(by_hist, fio);
    } else {
      EXPECT_EQ(by_hist, fio);
    }
    for (const TrustRow& r : e.trust(hist.sel)) {
      EXPECT_FALSE(r.doubtful) << r.file << ": " << (r.warnings.empty() ? "" : r.warnings[0]);
    }
    // The CLI's path: each file read alone, settled with the folder, folded.
    QueryOptions q = whole_run();
    q.quantum_ms = 1000;
    QueryResult stored;
    ASSERT_TRUE(e.query(q, &stored).ok());
    std::vector<FolderFile> folder;
    for (const Source& s : e.sources()) folder.push_back(folder_file_of(s));
    StreamingQuery stream(q);
    stream.set_folder(folder);
    for (const std::string& f : files) {
      if (f.find(".json") != std::string::npos) {
        Engine one;
        ASSERT_TRUE(stream.add(testing::feed(&one, f, text_of(f))).ok());
      }
    }
    for (const std::string& f : files) {
      if (f.find(".json") != std::string::npos) continue;
      Engine one;
      Source s = testing::feed(&one, f, text_of(f));
      settle_source(&s, folder);
      ASSERT_TRUE(stream.add(s).ok());
    }
    QueryResult streamed;
    ASSERT_TRUE(stream.finish(&streamed).ok());
    ASSERT_EQ(stored.rows.size(), streamed.rows.size());
    for (size_t i = 0; i < stored.rows.size(); ++i) {
      EXPECT_EQ(stored.rows[i].stats.samples, streamed.rows[i].stats.samples) << i;
      EXPECT_EQ(stored.rows[i].stats.max_ns, streamed.rows[i].stats.max_ns) << i;
    }
    EXPECT_EQ(stored.notes, streamed.notes);
  }
}

// A later run of the job with logging off left its json+ beside the earlier
// run's histogram log (tests/fixtures/folders/other-run): its jobs list
// their options and none names a log, so the log is another run's, never
// completed from that json+ nor set against its count.
TEST(Folders, AJsonWhoseRunWroteNoLogsIsNotTheLogsRun) {
  const std::vector<std::string> files = folder_files("other-run");
  Engine e;
  load(&e, files);
  const RunPlan plan = e.assign_runs({});
  ASSERT_EQ(plan.runs.size(), 2u);
  EXPECT_NE(plan.evidence[0].find("its jobs' options name no log"), std::string::npos) << plan.evidence[0];
  const uint64_t logged = [&] {
    Engine alone;
    for (const std::string& f : files)
      if (f.find("_clat_hist") != std::string::npos) testing::feed(&alone, f, text_of(f));
    return samples(alone, whole_run());
  }();
  EXPECT_EQ(samples(e, whole_run()), logged) << "no tail window from the other run's json+";
  const std::vector<TrustRow> rows = e.trust({});  // held: row_named points into it
  const TrustRow* r = row_named(rows, "other-run_clat_hist.1.log");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->compared) << "not set against the other run's count";
}

// `gzip -k` left the json+ beside itself (all-kinds.json.gz): one run still,
// its logs completed from the json+ once and set against fio's count once.
// As a second json it made three runs, no log claimed by either json.
TEST(Folders, AJsonBesideItsGzipCopyIsOneRun) {
  const std::vector<std::string> files = folder_files("all-kinds");
  QueryOptions hist = whole_run();
  hist.sel.accounts = {Account::kHist};
  Engine plain, copied;
  load(&plain, files);
  load(&copied, files);
  const std::string json = kFolders + "all-kinds/all-kinds.json";
  testing::feed(&copied, json + ".gz", text_of(json));
  EXPECT_EQ(copied.assign_runs({}).runs.size(), 1u);
  const uint64_t fio = fio_total(json_of(files));
  EXPECT_EQ(samples(plain, hist), fio);
  EXPECT_EQ(samples(copied, hist), fio) << "the json+ tails added once, not refused as ambiguous";
  const std::vector<TrustRow> rows = copied.trust(hist.sel);  // held: row_named points into it
  const TrustRow* copy = row_named(rows, "all-kinds.json.gz");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->used_instead, json);
  // As the CLI's trust line sums them: each I/O once, in its clat rows.
  const auto sums = [](const std::vector<TrustRow>& t) {
    std::pair<uint64_t, uint64_t> logged_counted{0, 0};
    for (const TrustRow& r : t)
      if (r.compared && r.used_instead.empty() && r.kind == "clat") {
        logged_counted.first += r.ios;
        logged_counted.second += r.fio_ios;
      }
    return logged_counted;
  };
  EXPECT_EQ(sums(rows).second, fio) << "fio's count taken from one json+";
  EXPECT_EQ(sums(rows), sums(plain.trust(hist.sel)));
}

}  // namespace
}  // namespace latscope
