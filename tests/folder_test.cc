// What a results folder holds (latscope/folder.h, docs/folders.md): one
// account of every I/O, the unit of per-I/O logs without a priority column,
// and the trust summary's cross-check against fio's own count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixture_util.h"
#include "formats/fio_lat/fio_lat_reader.h"
#include "latscope/engine.h"
#include "latscope/folder.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

FolderFile log_file(const std::string& name, Account a, const std::string& run = "") {
  FolderFile f;
  f.run_file.name = name;
  f.run_file.id = parse_fio_file_name(name);
  f.account = a;
  f.run = run;
  f.format = a == Account::kHist ? FileFormat::kFioHist : FileFormat::kFioLat;
  return f;
}

FolderFile json_file(const std::string& version, const std::string& run = "") {
  FolderFile f;
  f.run_file.name = "out.json";
  f.run_file.json = true;
  f.format = FileFormat::kFioJson;
  f.fio_version = version;
  f.run = run;
  return f;
}

FolderFile hist_of_version(int v, const std::string& run = "") {
  FolderFile f = log_file("h_clat_hist.1.log", Account::kHist, run);
  f.hist_version = v;
  return f;
}

// ---- one account of every I/O ----

TEST(Accounts, AHistogramLogBesideAPerIoLogOfTheSameJobIsLeftOut) {
  const std::vector<FolderFile> files{log_file("a/x_clat_hist.1.log", Account::kHist),
                                      log_file("a/x_clat.1.log", Account::kPerIo),
                                      log_file("a/x_clat_hist.2.log", Account::kHist)};
  const std::vector<AccountChoice> c = plan_accounts(files, {});
  EXPECT_EQ(c[0].used_instead, "a/x_clat.1.log");
  EXPECT_NE(c[0].why.find("count each I/O twice"), std::string::npos) << c[0].why;
  EXPECT_EQ(c[1].used_instead, "");
  EXPECT_EQ(c[2].used_instead, "") << "job 2 has one account only";
  const std::vector<AccountChoice> h = plan_accounts(files, {Account::kHist});
  EXPECT_EQ(h[0].used_instead, "");
  EXPECT_EQ(h[1].used_instead, "a/x_clat_hist.1.log");
}

TEST(Accounts, OnlyTheSameRunHostJobKindAndPrefixAreOneAccount) {
  const auto one = [](FolderFile a, FolderFile b) {
    const std::vector<AccountChoice> c = plan_accounts({a, b}, {});
    return !c[0].used_instead.empty() || !c[1].used_instead.empty();
  };
  const FolderFile h = log_file("x_clat_hist.1.log", Account::kHist);
  EXPECT_TRUE(one(h, log_file("x_clat.1.log", Account::kPerIo)));
  EXPECT_TRUE(one(log_file("x_clat_hist.1.log.10.0.0.1", Account::kHist), log_file("x_clat.1.log.10.0.0.1", Account::kPerIo)));
  EXPECT_FALSE(one(h, log_file("x_clat.2.log", Account::kPerIo))) << "another job";
  EXPECT_FALSE(one(log_file("x_clat_hist.1.log.10.0.0.1", Account::kHist), log_file("x_clat.1.log.10.0.0.2", Account::kPerIo)))
      << "another host";
  EXPECT_FALSE(one(h, log_file("x_clat.1.log", Account::kPerIo, "b"))) << "another run";
  EXPECT_FALSE(one(h, log_file("x_lat.1.log", Account::kPerIo))) << "lat is another kind than the histogram's clat";
  EXPECT_FALSE(one(h, log_file("y_clat.1.log", Account::kPerIo))) << "another prefix";
  EXPECT_FALSE(one(h, log_file("x_clat.1.log", Account::kAvg))) << "window averages are no I/O counts";
  EXPECT_FALSE(one(h, log_file("b/x_clat_hist.1.log", Account::kHist))) << "one account twice: runs.h's business";
  // per_job_logs=0: one file per account for every job.
  EXPECT_TRUE(one(log_file("x_clat_hist.log", Account::kHist), log_file("x_clat.log", Account::kPerIo)));
  // The run's json output names both prefixes (write_hist_log=x,
  // write_lat_log=y): one job's logs (tests/fixtures/folders/two-prefixes).
  FolderFile j = json_file("fio-3.33");
  j.run_file.prefixes = {"x", "y"};
  const std::vector<AccountChoice> c = plan_accounts({j, h, log_file("y_clat.1.log", Account::kPerIo)}, {});
  EXPECT_EQ(c[1].used_instead, "y_clat.1.log");
  j.run_file.prefixes = {"x"};
  const std::vector<AccountChoice> d = plan_accounts({j, h, log_file("y_clat.1.log", Account::kPerIo)}, {});
  EXPECT_EQ(d[1].used_instead, "") << "y named by no json: another run's, perhaps";
  EXPECT_EQ(d[2].used_instead, "");
}

// The real local run (tests/fixtures/local: write_hist_log and
// write_lat_log of two jobs, and the json+): every I/O once.
uint64_t samples(const QueryResult& r) {
  uint64_t n = 0;
  for (const Row& row : r.rows) n += static_cast<uint64_t>(row.stats.samples + 0.5);
  return n;
}

TEST(Accounts, AWholeLocalFolderCountsWhatFioCounted) {
  Engine e;
  for (const std::string& f : fixtures::files_of("local", "local")) {
    std::string t;
    ASSERT_TRUE(fixtures::read_file(f, &t));
    testing::feed(&e, f, t);
  }
  uint64_t fio = 0;  // fio's total_ios of both jobs and directions (json+ bins)
  for (const Source& s : e.sources())
    if (s.format == FileFormat::kFioJson)
      for (const Series& x : s.series) fio += x.total();
  ASSERT_EQ(fio, 16000u);
  QueryOptions o;
  o.quantum_ms = 1e6;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_EQ(samples(r), fio);
  bool noted = false;
  for (const std::string& n : r.notes) noted = noted || n.find("left out 2 logs") != std::string::npos;
  EXPECT_TRUE(noted);
  o.sel.accounts = {Account::kHist};  // the histogram logs, completed by the json+ tails
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_EQ(samples(r), fio);
  o.sel.accounts.clear();
  o.group_by = {"account"};
  ASSERT_TRUE(e.query(o, &r).ok());
  ASSERT_EQ(r.groups, (std::vector<std::string>{"account=hist", "account=per-io"}));
  EXPECT_EQ(samples(r), 2 * fio) << "side by side, each account whole";
  // A per-I/O log unticked gives its job back to the histogram log.
  o.group_by.clear();
  o.sel.exclude_sources = {"local_clat.1.log"};
  ASSERT_TRUE(e.query(o, &r).ok());
  EXPECT_EQ(samples(r), fio);
}

// ---- gzip copies ----

// A log beside its gzip copy (gzip -k; tests/fixtures/gz holds gzip -9 -n
// of local's histogram logs, and the CLI and the page read the copy's text):
// the copy is named and left out, forms no run, and even grouped by account
// counts nothing twice. A .gz that starts otherwise is another log.
TEST(GzipCopies, ALogBesideItsGzipCopyCountsOnce) {
  const std::vector<std::string> files = fixtures::files_of("local", "local");
  const auto load = [&](Engine* e, bool copies, const std::string& other) {
    for (const std::string& f : files) {
      std::string t;
      ASSERT_TRUE(fixtures::read_file(f, &t));
      testing::feed(e, f, t);
      if (copies && f.find("_clat_hist.") != std::string::npos) testing::feed(e, f + ".gz", other.empty() ? t : other);
    }
  };
  Engine plain, with_copies;
  load(&plain, false, "");
  load(&with_copies, true, "");
  QueryOptions o;
  o.quantum_ms = 1e6;
  QueryResult a, b;
  ASSERT_TRUE(plain.query(o, &a).ok());
  ASSERT_TRUE(with_copies.query(o, &b).ok());
  EXPECT_EQ(samples(b), samples(a));
  EXPECT_EQ(samples(a), 16000u) << "fio's count of the local run";
  EXPECT_EQ(with_copies.assign_runs({}).runs.size(), 1u) << "a copy is no second run";
  o.group_by = {"account"};
  ASSERT_TRUE(plain.query(o, &a).ok());
  ASSERT_TRUE(with_copies.query(o, &b).ok());
  EXPECT_EQ(samples(b), samples(a)) << "every account shown, the copies still left out";
  o.sel.accounts = {Account::kHist};
  o.group_by.clear();
  const std::vector<TrustRow> rows = with_copies.trust(o.sel);
  size_t copies = 0;
  for (const TrustRow& r : rows)
    if (r.file.find(".log.gz") != std::string::npos) {
      ++copies;
      EXPECT_EQ(r.used_instead, r.file.substr(0, r.file.size() - 3));
    }
  EXPECT_EQ(copies, 2u);
  // Another log under the copy's name (its text starts otherwise) is read.
  Engine other;
  load(&other, true, "1000, 0, 4096, 0, 5\n");
  std::vector<FolderFile> folder;
  for (const Source& s : other.sources()) folder.push_back(folder_file_of(s));
  for (size_t i : gzip_copies(folder)) EXPECT_EQ(i, SIZE_MAX);
}

// ---- units of per-I/O logs without a priority column ----

TEST(Units, TheDecisionTable) {
  struct Case {
    const char* what;
    std::vector<FolderFile> folder;
    double median;
    int version;
    bool guessed;
  };
  const std::vector<Case> cases{
      {"json fio-3.1 (4-column ns logs)", {json_file("fio-3.1")}, 87, 3, false},
      {"json fio-2.21", {json_file("fio-2.21")}, 142800, 2, false},
      {"json fio-2.99 (the 3.0 pre-release logs ns)", {json_file("fio-2.99")}, 87, 3, false},
      {"json fio-3.16-5-gabc (a git build)", {json_file("fio-3.16-5-gabc")}, 87, 3, false},
      {"json of another run only", {json_file("fio-2.21", "b")}, 142800, 3, true},
      {"histogram logs of fio 2", {hist_of_version(2)}, 142800, 2, false},
      {"histogram logs of fio 3", {hist_of_version(3)}, 87, 3, false},
      {"jsons disagree, histogram logs decide", {json_file("fio-2.21"), json_file("fio-3.1"), hist_of_version(3)}, 87, 3, true},
      {"nothing, median under 1000", {}, 87, 2, true},
      {"nothing, median 999", {}, 999, 2, true},
      {"nothing, median 1000", {}, 1000, 3, true},
      {"nothing, median 142,800", {}, 142800, 3, true},
  };
  for (const Case& c : cases) {
    const UnitDecision d = decide_unit(c.folder, "", c.median);
    EXPECT_EQ(d.fio_version, c.version) << c.what << ": " << d.why;
    EXPECT_EQ(d.guessed, c.guessed) << c.what << ": " << d.why;
    EXPECT_FALSE(d.why.empty()) << c.what;
  }
}

TEST(Units, APendingLogIsReadAsWrittenThenSettled) {
  const std::string text = "0, 87, 0, 4096\n3, 161, 0, 4096\n1, 260, 1, 4096\n";
  Engine e;
  Source s = testing::feed(&e, "a_clat.1.log", text);
  ASSERT_TRUE(unit_pending(s));
  ASSERT_EQ(s.series.size(), 2u);
  EXPECT_EQ(s.series[0].io_ns, (std::vector<uint64_t>{87, 161}));
  Source us = s;
  settle_units(&us, {});  // no evidence: 87 ns would be no storage I/O
  EXPECT_FALSE(unit_pending(us));
  EXPECT_EQ(*us.labels.find(kUnitLabel), "us");
  EXPECT_EQ(us.series[0].io_ns, (std::vector<uint64_t>{87000, 161000}));
  EXPECT_EQ(us.diag.count(Issue::kUnitGuessed), 1u);
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
  us.series[0].decode(us.series[0].windows[0], &bins, &counts);
  EXPECT_EQ(bins, (std::vector<uint32_t>{fio_value_to_bin(87000)}));
  EXPECT_TRUE(us.series[0].valid(us.series[0].layout->size()));
  settle_units(&us, {});  // settled once
  EXPECT_EQ(us.series[0].io_ns[0], 87000u);
  Source ns = s;
  settle_units(&ns, {json_file("fio-3.1")});
  EXPECT_EQ(*ns.labels.find(kUnitLabel), "ns");
  EXPECT_EQ(ns.series[0].io_ns, (std::vector<uint64_t>{87, 161}));
  EXPECT_EQ(ns.diag.count(Issue::kUnitDecided), 1u);
  // A priority column says fio 3: nothing pending.
  Engine f;
  EXPECT_FALSE(unit_pending(testing::feed(&f, "a_clat.1.log", "0, 87, 0, 4096, 0\n")));
  // --fio-version decides too.
  FileOptions o;
  o.fio_version = 2;
  Engine g;
  const Source& forced = testing::feed(&g, "a_clat.1.log", text, 0, o);
  EXPECT_FALSE(unit_pending(forced));
  EXPECT_EQ(forced.series[0].io_ns[0], 87000u);
}

TEST(Units, TheEngineSettlesWithTheFolderWhenItPlansRuns) {
  Engine e;
  testing::feed(&e, "a_clat.1.log", "0, 142800, 0, 4096\n5, 150000, 0, 4096\n");
  // fio 2's 1216-bin histogram log of the same run: us.
  std::string line = "1000, 0, 4096";
  for (int i = 0; i < 1216; ++i) line += i == 100 ? ", 3" : ", 0";
  testing::feed(&e, "a_clat_hist.2.log", line + "\n");
  e.assign_runs({});
  const Source& s = e.sources()[0];
  EXPECT_EQ(*s.labels.find(kUnitLabel), "us");
  EXPECT_EQ(s.series[0].io_ns[0], 142800000u);
}

// ---- the trust summary ----

std::vector<TrustRow> trust_of(const std::vector<std::pair<std::string, std::string>>& files,
                               const std::vector<Account>& prefer = {}) {
  Engine e;
  for (const auto& [name, text] : files) testing::feed(&e, name, text);
  Selection sel;
  sel.accounts = prefer;
  return e.trust(sel);
}

std::vector<std::pair<std::string, std::string>> local_files() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& f : fixtures::files_of("local", "local_")) {
    std::string t;
    EXPECT_TRUE(fixtures::read_file(f, &t));
    out.emplace_back(f, t);
  }
  std::string t;
  EXPECT_TRUE(fixtures::read_file(fixtures::path("local/local.json"), &t));
  out.emplace_back("local.json", t);
  return out;
}

const TrustRow& row_of(const std::vector<TrustRow>& rows, const std::string& needle) {
  for (const TrustRow& r : rows)
    if (r.file.find(needle) != std::string::npos) return r;
  static const TrustRow none;
  ADD_FAILURE() << "no row " << needle;
  return none;
}

TEST(Trust, ARealLocalRunAgreesWithFiosCount) {
  const std::vector<TrustRow> rows = trust_of(local_files());
  const TrustRow& io = row_of(rows, "local_clat.1.log");
  EXPECT_EQ(io.account, "per-io");
  EXPECT_TRUE(io.compared);
  EXPECT_EQ(io.ios, io.fio_ios);
  EXPECT_EQ(io.ios, 8000u);
  EXPECT_TRUE(io.warnings.empty());
  EXPECT_EQ(io.fio_version, "fio-3.33");
  const TrustRow& h = row_of(rows, "local_clat_hist.1.log");
  EXPECT_NE(h.used_instead.find("local_clat.1.log"), std::string::npos);
  EXPECT_FALSE(h.doubtful);
  const std::vector<TrustRow> by_hist = trust_of(local_files(), {Account::kHist});
  const TrustRow& hist = row_of(by_hist, "local_clat_hist.1.log");
  EXPECT_TRUE(hist.compared);
  EXPECT_LE(hist.ios, hist.fio_ios) << "the unlogged last window";
  EXPECT_TRUE(hist.warnings.empty()) << hist.warnings[0];
  // A per-I/O log unticked gives its job back to the histogram log, as in
  // the queries (Accounts.AWholeLocalFolderCountsWhatFioCounted).
  Engine e;
  for (const auto& [name, text] : local_files()) testing::feed(&e, name, text);
  Selection sel;
  sel.exclude_sources = {"local_clat.1.log"};
  const std::vector<TrustRow> ex = e.trust(sel);
  EXPECT_EQ(row_of(ex, "local_clat_hist.1.log").used_instead, "");
  EXPECT_NE(row_of(ex, "local_clat_hist.2.log").used_instead, "");
}

TEST(Trust, AShortHistogramLogAndAKnownDefectiveVersionAreNamed) {
  std::vector<std::pair<std::string, std::string>> files = local_files();
  for (auto& [name, text] : files) {
    if (name.find("local_clat_hist.1.log") != std::string::npos) {
      // Half the windows lost, as fio-3.12 loses the upper bins.
      size_t cut = text.size() / 2;
      cut = text.find('\n', cut) + 1;
      text.resize(cut);
    }
    if (name == "local.json") {
      const size_t at = text.find("fio-3.33");
      ASSERT_NE(at, std::string::npos);
      text.replace(at, 8, "fio-3.12");
    }
  }
  const std::vector<TrustRow> rows = trust_of(files, {Account::kHist});
  const TrustRow& h = row_of(rows, "local_clat_hist.1.log");
  EXPECT_TRUE(h.doubtful);
  ASSERT_EQ(h.warnings.size(), 2u);
  EXPECT_NE(h.warnings[0].find("fio-3.12 wrote broken histogram logs"), std::string::npos) << h.warnings[0];
  EXPECT_NE(h.warnings[1].find("of the 8,000 I/Os fio counted"), std::string::npos) << h.warnings[1];
  const TrustRow& h2 = row_of(rows, "local_clat_hist.2.log");
  EXPECT_TRUE(h2.doubtful) << "the version's defect alone";
  EXPECT_EQ(h2.warnings.size(), 1u);
  // With the per-I/O logs used, the defective histogram logs count nothing:
  // named, not doubtful.
  const std::vector<TrustRow> per_io = trust_of(files);
  const TrustRow& left = row_of(per_io, "local_clat_hist.1.log");
  EXPECT_FALSE(left.doubtful);
  EXPECT_FALSE(left.warnings.empty());
  EXPECT_EQ(fio_defect("fio-3.17", Account::kHist), "");
  EXPECT_EQ(fio_defect("fio-3.5", Account::kHist), "");
  EXPECT_NE(fio_defect("fio-3.6", Account::kHist), "");
  EXPECT_NE(fio_defect("fio-3.16", Account::kHist), "");
  EXPECT_NE(fio_defect("fio-3.16-12-g1234", Account::kHist), "");
  EXPECT_EQ(fio_defect("fio-3.3", Account::kHist), "");
  EXPECT_EQ(fio_defect("fio-3.16", Account::kPerIo), "");
}

TEST(Trust, ImpossibleCountsAreAttributedToTheVersionThatWritesThem) {
  std::vector<std::pair<std::string, std::string>> files = local_files();
  for (auto& [name, text] : files) {
    if (name.find("local_clat_hist.2.log") != std::string::npos) {
      // fio 3.11-3.16 with ioengine=sync: a count of ~2.9e17 in a bin.
      const size_t line2 = text.find('\n') + 1;
      const size_t comma = text.find(", 0, ", text.find(", ", text.find(", ", line2) + 1) + 1);
      text.replace(comma, 5, ", 290000000000000000, ");
    }
    if (name == "local.json") text.replace(text.find("fio-3.33"), 8, "fio-3.14");
  }
  const std::vector<TrustRow> rows = trust_of(files);
  const TrustRow& h = row_of(rows, "local_clat_hist.2.log");
  ASSERT_FALSE(h.warnings.empty());
  EXPECT_NE(h.warnings[0].find("impossible or cut, which is what fio-3.14 writes"), std::string::npos) << h.warnings[0];
  // The same damage without a defective version is the file's own.
  for (auto& [name, text] : files)
    if (name == "local.json") text.replace(text.find("fio-3.14"), 8, "fio-3.33");
  const std::vector<TrustRow> clean = trust_of(files);
  for (const std::string& w : row_of(clean, "local_clat_hist.2.log").warnings)
    EXPECT_EQ(w.find("impossible"), std::string::npos) << w;
}

TEST(Trust, ThePerIoLogMissingIosIsNamed) {
  std::vector<std::pair<std::string, std::string>> files = local_files();
  for (auto& [name, text] : files)
    if (name.find("local_clat.2.log") != std::string::npos) text.resize(text.find('\n', text.size() / 3) + 1);
  const std::vector<TrustRow> rows = trust_of(files);
  const TrustRow& r = row_of(rows, "local_clat.2.log");
  EXPECT_TRUE(r.doubtful);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("a per-I/O log holds every I/O"), std::string::npos) << r.warnings[0];
}

std::vector<std::pair<std::string, std::string>> folder_files(const std::string& set, const std::string& needle) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& f : fixtures::files_of("folders/" + set, needle)) {
    std::string t;
    EXPECT_TRUE(fixtures::read_file(f, &t));
    out.emplace_back(f.substr(f.find_last_of('/') + 1), t);
  }
  return out;
}

// A real fio 3.33 run of numjobs=3 with a bare group_reporting
// (docs/folders.md, "group_reporting"): one json+ entry counts three jobs.
// Before, its count was set against job 1's log ("holds 1,800 of the 5,401
// I/Os fio counted: some are missing", exit 1).
TEST(Trust, GroupReportingIsSetAgainstTheRunsLogsAsAWhole) {
  for (const Account a : {Account::kPerIo, Account::kHist}) {
    const std::vector<TrustRow> rows = trust_of(folder_files("grouped", "grouped"), {a});
    const TrustRow& json = row_of(rows, "grouped.json");
    EXPECT_TRUE(json.compared);
    EXPECT_EQ(json.logs, 3u);
    EXPECT_FALSE(json.doubtful) << (json.warnings.empty() ? "" : json.warnings[0]);
    if (a == Account::kPerIo) EXPECT_EQ(json.ios, json.fio_ios) << "every I/O of the three per-I/O logs";
    else EXPECT_LT(json.ios, json.fio_ios) << "histogram logs miss each job's last window";
    ASSERT_EQ(json.notes.size(), 1u);
    EXPECT_NE(json.notes[0].find("fio reported groups of jobs (group_reporting), not jobs: the run's 3 logs hold"),
              std::string::npos)
        << json.notes[0];
    for (const TrustRow& r : rows) {
      EXPECT_FALSE(r.doubtful) << r.file;
      EXPECT_TRUE(r.warnings.empty()) << r.file << ": " << r.warnings[0];
    }
  }
  // No log is the group's job 1: no tail of it is added to a log.
  Engine e;
  for (const auto& [name, text] : folder_files("grouped", "clat_hist")) testing::feed(&e, name, text);
  for (const auto& [name, text] : folder_files("grouped", ".json")) testing::feed(&e, name, text);
  QueryOptions q;
  q.quantum_ms = 1e6;
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  double shown = 0;
  for (const Row& row : r.rows) shown += row.stats.samples;
  uint64_t logged = 0;
  for (const Source& src : e.sources())
    if (src.format == FileFormat::kFioHist)
      for (const Series& x : src.series) logged += x.total();
  EXPECT_EQ(shown, static_cast<double>(logged));
}

// unified_rw_reporting=1: the json+ counts reads and writes together, and
// says so instead of "without json+ bins".
TEST(Trust, MixedDirectionsJsonIsNamedForWhatItIs) {
  Engine e;
  const auto json = folder_files("unified", ".json");
  ASSERT_EQ(json.size(), 1u);
  const Source& s = testing::feed(&e, json[0].first, json[0].second);
  EXPECT_EQ(s.format, FileFormat::kIgnored);
  EXPECT_NE(s.ignored.find("reads and writes counted together (\"mixed\": unified_rw_reporting=1)"), std::string::npos)
      << s.ignored;
}

// The page (web/src/load/files.js, its names generated from these tables)
// and the CLI's walk of a folder argument leave out the same paths.
TEST(FolderWalk, LeavesOutBookkeepingAndVersionControlOnly) {
  EXPECT_EQ(walk_left_out("res/h1/s1_clat_hist.1.log").reason, "");
  EXPECT_EQ(walk_left_out(".fio-results/.host2/.hidden.log").reason, "") << "hidden files and folders are read";
  const LeftOut git = walk_left_out("res/.git/objects/x");
  EXPECT_EQ(git.reason, "version-control folder");
  EXPECT_EQ(git.at, "res/.git/");
  EXPECT_EQ(walk_left_out("res/__MACOSX/y").at, "res/__MACOSX/");
  EXPECT_EQ(walk_left_out("res/.DS_Store").reason, "OS bookkeeping file");
  EXPECT_EQ(walk_left_out("res/h1/._s1_clat_hist.1.log").at, "res/h1/._s1_clat_hist.1.log");
  EXPECT_EQ(walk_left_out("res/.git").reason, "") << "a file named .git (a worktree's) is no folder";
}

// fio's log_store_compressed=1 logs (docs/folders.md, "Compressed fio
// logs"), written by fio 3.33: not read, with what to do, in the page as in the CLI.
TEST(CompressedFioLogs, AreNotReadAndSayWhatToDo) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name : {"fz_clat.1.log.fz", "fz_clat_hist.1.log.fz", "fz_clat.1.log", "fz.json"}) {
    std::string t;
    ASSERT_TRUE(fixtures::read_file(fixtures::path(std::string("fz/") + name), &t)) << name;
    files.emplace_back(name, t);
  }
  Engine e;
  const Source& io = testing::feed(&e, files[0].first, files[0].second);
  EXPECT_NE(io.status.message.find("fz_clat.1.log.fz: a fio log stored compressed (log_store_compressed=1): not "
                                   "read; 'fio --inflate-log=fz_clat.1.log.fz > fz_clat.1.log'"),
            std::string::npos)
      << io.status.message;
  const Source& hist = testing::feed(&e, files[1].first, files[1].second);
  EXPECT_NE(hist.status.message.find("without its histograms"), std::string::npos) << hist.status.message;
  // The text fio --inflate-log wrote of the first holds every I/O fio counted.
  const std::vector<TrustRow> rows = trust_of({files[2], files[3]});
  const TrustRow& text = row_of(rows, "fz_clat.1.log");
  EXPECT_TRUE(text.compared);
  EXPECT_EQ(text.ios, text.fio_ios);
  EXPECT_GT(text.ios, 0u);
}

}  // namespace
}  // namespace latscope

namespace latscope {
namespace {

// per_job_logs=0 (folder.h settle_segments): 60 segments matched to 60 jobs
// by their bins, in reverse file order; and a crafted folder where one
// segment fits no job, which leaves the file order (a search through orders
// would take factorial time there; docs/input-robustness.md).
Source segments_source(size_t n, bool one_fits_none) {
  Source src;
  src.name = "p_clat_hist.log";
  src.id = parse_fio_file_name(src.name);
  src.format = FileFormat::kFioHist;
  for (size_t g = 0; g < n; ++g) {
    Series s;
    s.layout = fio_layout(3, 0);
    s.segment = static_cast<int>(g);
    s.job = std::to_string(g + 1);
    const uint32_t bin = one_fits_none && g + 1 == n ? 1800 : static_cast<uint32_t>(10 + (n - 1 - g));
    const uint64_t one = 1;
    s.add_window(0, 1000, &bin, &one, 1);
    src.series.push_back(std::move(s));
  }
  return src;
}

FolderFile json_of_jobs(size_t n) {
  FolderFile f = json_file("fio-3.33");
  for (size_t k = 0; k < n; ++k) {
    FolderFile::JobCount c;
    c.job = std::to_string(k + 1);
    c.ios = 1;
    c.bins = {{static_cast<uint32_t>(10 + k), 1}};
    f.json_counts.push_back(c);
  }
  return f;
}

TEST(Segments, MatchedByBinsInAnyOrder) {
  Source s = segments_source(60, false);
  settle_segments(&s, {json_of_jobs(60)});
  for (const Series& x : s.series) EXPECT_EQ(x.job, std::to_string(60 - x.segment)) << x.segment;
  EXPECT_EQ(s.diag.count(Issue::kSegmentsMatched), 1u);
}

TEST(Segments, NoMatchingLeavesTheFileOrder) {
  Source s = segments_source(60, true);
  settle_segments(&s, {json_of_jobs(60)});
  for (const Series& x : s.series) EXPECT_EQ(x.job, std::to_string(x.segment + 1));
  EXPECT_EQ(s.diag.count(Issue::kSegmentsMatched), 0u);
}

}  // namespace
}  // namespace latscope
