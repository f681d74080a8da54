// fio json / json+ reader: the real client-mode sample (fio-s1/s1.json),
// local-mode shapes, fio 2.x units, noise lines and rejected documents.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "../core/src/json/json.h"
#include "latscope/engine.h"
#include "latscope/reader.h"
#include "latscope/fio_json.h"

namespace latscope {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Status parse_str(const std::string& text, FioJsonReport* r) {
  return parse_fio_json("x.json", text.data(), text.size(), r);
}

class FioJsonClientRun : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = read_file(std::string(LATSCOPE_FIXTURES) + "/fio-s1/s1.json");
    if (text_.empty()) GTEST_SKIP() << "shared sample data absent";
    Status st = parse_fio_json("s1.json", text_.data(), text_.size(), &r_);
    ASSERT_TRUE(st.ok()) << st.message;
  }
  std::string text_;
  FioJsonReport r_;
};

TEST_F(FioJsonClientRun, ClientModeJobsHostsAndIndices) {
  EXPECT_TRUE(r_.client_mode);
  EXPECT_EQ(r_.fio_version, "fio-3.33");
  EXPECT_EQ(r_.version, 3);
  ASSERT_EQ(r_.layout->size(), 1856u);
  EXPECT_EQ(r_.documents, 1u);
  ASSERT_EQ(r_.jobs.size(), 5u);
  // fio printed 127.0.0.2's jobs first; indices restart per host.
  const char* hosts[] = {"127.0.0.2", "127.0.0.2", "127.0.0.1", "127.0.0.1", "127.0.0.1"};
  const int index[] = {1, 2, 1, 2, 0};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r_.jobs[i].host, hosts[i]) << i;
    EXPECT_EQ(r_.jobs[i].job_index, index[i]) << i;
    EXPECT_EQ(r_.jobs[i].aggregate, i == 4) << i;
    EXPECT_EQ(r_.jobs[i].jobname, i == 4 ? "All clients" : "randrw");
    EXPECT_EQ(r_.jobs[i].groupid, 0);
    ASSERT_EQ(r_.jobs[i].dirs.size(), 3u);
  }
  EXPECT_EQ(r_.jobs[0].line, 42u);  // the '{' of the first client_stats entry
  EXPECT_EQ(r_.jobs[0].column, 5u);
}

TEST_F(FioJsonClientRun, NoiseLinesBeforeTheDocumentAreCounted) {
  // 9 "<vm> ..." lines precede the document; a blank line is not noise.
  EXPECT_EQ(r_.diag.count(Issue::kJsonNoise), 9u);
  ASSERT_FALSE(r_.diag.examples().empty());
  EXPECT_EQ(r_.diag.examples()[0].line, 1u);
  EXPECT_NE(r_.diag.examples()[0].text.find("<vm> randrw: (g=0)"), std::string::npos);
  EXPECT_EQ(r_.diag.count(Issue::kNotANumber), 0u);
}

TEST_F(FioJsonClientRun, ExactStatsPercentilesAndBins) {
  const FioJsonDir* rd = r_.jobs[0].find(Dir::kRead);
  ASSERT_NE(rd, nullptr);
  EXPECT_EQ(rd->kind, "clat");
  EXPECT_EQ(rd->total_ios, 8000u);
  EXPECT_EQ(rd->runtime_ms, 20001u);
  EXPECT_EQ(rd->n, 8000u);
  EXPECT_EQ(rd->min_ns, 601u);
  EXPECT_EQ(rd->max_ns, 88530312u);
  EXPECT_DOUBLE_EQ(rd->mean_ns, 138175.380375);
  ASSERT_EQ(rd->percentiles.size(), 17u);
  EXPECT_EQ(rd->percentiles[0].key, "1.000000");
  EXPECT_EQ(rd->percentiles[0].p, 1.0);
  EXPECT_EQ(rd->percentiles[0].value_ns, 30848u);
  EXPECT_EQ(rd->percentiles[15].key, "99.950000");
  EXPECT_EQ(rd->percentiles[15].p, 99.95);
  EXPECT_EQ(rd->percentiles[15].value_ns, 20316160u);
  ASSERT_TRUE(rd->has_bins);
  EXPECT_FALSE(rd->bins_summed);
  EXPECT_EQ(rd->bin_index.size(), 445u);
  EXPECT_EQ(rd->bins_total, 8000u);
  // "604": 1 is the first bin: plat_idx_to_val(i) == 604.
  EXPECT_EQ(fio_plat_idx_to_val(rd->bin_index[0]), 604u);
  EXPECT_EQ(rd->bin_count[0], 1u);
  for (size_t i = 1; i < rd->bin_index.size(); ++i) EXPECT_LT(rd->bin_index[i - 1], rd->bin_index[i]);
  std::vector<uint64_t> dense = rd->dense(r_.layout->size());
  uint64_t sum = 0;
  for (uint64_t c : dense) sum += c;
  EXPECT_EQ(sum, 8000u);
  // Every job, both directions: bins hold every sample; trim is empty.
  for (const FioJsonJob& j : r_.jobs) {
    for (const FioJsonDir& d : j.dirs) {
      if (d.dir == Dir::kTrim) {
        EXPECT_EQ(d.n, 0u);
        EXPECT_FALSE(d.has_bins);
        EXPECT_TRUE(d.percentiles.empty());
        continue;
      }
      ASSERT_TRUE(d.has_bins) << j.host << " " << j.job_index;
      EXPECT_EQ(d.bins_total, d.n);
      EXPECT_EQ(d.percentiles.size(), j.aggregate ? 0u : 17u);
    }
  }
}

TEST_F(FioJsonClientRun, AllClientsBinsAreTheSumOfTheJobs) {
  const FioJsonJob& agg = r_.jobs[4];
  for (Dir d : {Dir::kRead, Dir::kWrite}) {
    const FioJsonDir* ad = agg.find(d);
    ASSERT_NE(ad, nullptr);
    EXPECT_EQ(ad->n, 32000u);  // fio's own N for all clients
    ASSERT_TRUE(ad->has_bins);
    EXPECT_TRUE(ad->bins_summed);
    std::vector<uint64_t> want(1856, 0);
    uint64_t min_ns = UINT64_MAX, max_ns = 0;
    for (size_t j = 0; j < 4; ++j) {
      const FioJsonDir* jd = r_.jobs[j].find(d);
      std::vector<uint64_t> x = jd->dense(1856);
      for (size_t i = 0; i < 1856; ++i) want[i] += x[i];
      min_ns = std::min(min_ns, jd->min_ns);
      max_ns = std::max(max_ns, jd->max_ns);
    }
    EXPECT_EQ(ad->dense(1856), want);
    // fio's aggregate stats agree with its jobs'.
    EXPECT_EQ(ad->min_ns, min_ns);
    EXPECT_EQ(ad->max_ns, max_ns);
  }
}

TEST(FioJson, LocalModeDocument) {
  const std::string doc = R"({
  "fio version" : "fio-3.33",
  "jobs" : [
    { "jobname" : "a", "groupid" : 0,
      "read" : { "total_ios" : 3,
        "clat_ns" : { "min" : 100, "max" : 300, "mean" : 200.0, "stddev" : 1.0, "N" : 3,
                      "percentile" : { "50.000000" : 200 },
                      "bins" : { "100" : 1, "201" : 1, "302" : 1 } } },
      "write" : { "total_ios" : 0, "clat_ns" : { "min" : 0, "max" : 0, "mean" : 0.0, "stddev" : 0.0, "N" : 0 } } },
    { "jobname" : "b", "groupid" : 1,
      "read" : { "total_ios" : 1, "clat_ns" : { "min" : 5, "max" : 5, "mean" : 5.0, "N" : 1, "bins" : { "5" : 1 } } } }
  ]
}
)";
  FioJsonReport r;
  Status st = parse_str(doc, &r);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_FALSE(r.client_mode);
  EXPECT_EQ(r.diag.count(Issue::kJsonNoise), 0u);
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].host, "");
  EXPECT_EQ(r.jobs[0].job_index, 1);
  EXPECT_EQ(r.jobs[1].job_index, 2);
  EXPECT_EQ(r.jobs[1].groupid, 1);
  const FioJsonDir* d = r.jobs[0].find(Dir::kRead);
  ASSERT_NE(d, nullptr);
  // Below 128 a bin is 1 ns wide (value == index); 201 and 302 are the
  // midpoints of the 2-ns bin [200, 202) and the 4-ns bin [300, 304).
  ASSERT_EQ(d->bin_index.size(), 3u);
  EXPECT_EQ(d->bin_index[0], 100u);
  EXPECT_EQ(d->bin_index[1], 128u + 36u);
  EXPECT_EQ(d->bin_index[2], 192u + 11u);
  EXPECT_EQ(r.jobs[0].find(Dir::kWrite)->n, 0u);
  EXPECT_EQ(r.jobs[0].find(Dir::kTrim), nullptr);
}

TEST(FioJson, Fio2UsesMicroseconds) {
  // fio 2.x: "clat" in us, no N; bins keyed by us values (1216-bin layout).
  const std::string doc = R"({"fio version":"fio-2.21","jobs":[{"jobname":"x","groupid":0,
    "read":{"total_ios":2,"clat":{"min":3,"max":200,"mean":101.5,"stddev":0,
      "percentile":{"50.000000":3,"99.000000":201},"bins":{"3":1,"201":1}}}}]})";
  FioJsonReport r;
  ASSERT_TRUE(parse_str(doc, &r).ok());
  EXPECT_EQ(r.version, 2);
  EXPECT_EQ(r.layout->size(), 1216u);
  const FioJsonDir* d = r.jobs[0].find(Dir::kRead);
  EXPECT_EQ(d->n, 2u);
  EXPECT_EQ(d->min_ns, 3000u);
  EXPECT_EQ(d->max_ns, 200000u);  // fio 2 max is exact, its bin value is not
  EXPECT_DOUBLE_EQ(d->mean_ns, 101500.0);
  EXPECT_EQ(d->percentiles[1].value_ns, 201000u);
  ASSERT_EQ(d->bin_index.size(), 2u);
  EXPECT_EQ(d->bin_index[0], 3u);
}

TEST(FioJson, LatPercentilesWhenClatHasNone) {
  const std::string doc = R"({"jobs":[{"jobname":"x","read":{"total_ios":1,
    "clat_ns":{"min":1,"max":1,"mean":1,"N":1},
    "lat_ns":{"min":9,"max":9,"mean":9,"N":1,"percentile":{"50.000000":9},"bins":{"9":1}}}}]})";
  FioJsonReport r;
  ASSERT_TRUE(parse_str(doc, &r).ok());
  const FioJsonDir* d = r.jobs[0].find(Dir::kRead);
  EXPECT_EQ(d->kind, "lat");
  EXPECT_EQ(d->min_ns, 9u);
  EXPECT_EQ(d->bin_index[0], 9u);
}

TEST(FioJson, BadEntriesAreSkippedAndCounted) {
  const std::string doc = "{\"jobs\":[{\"jobname\":\"x\",\"read\":{\"total_ios\":2,\n"
                          "\"clat_ns\":{\"N\":2,\"percentile\":{\"fifty\":3,\"50.0\":-1,\"99.0\":7},\n"
                          "\"bins\":{\"129\":1,\"7\":-2,\"x\":1,\"7\":1,\"7\":1}}}}]}";
  FioJsonReport r;
  Status st = parse_str(doc, &r);
  ASSERT_TRUE(st.ok()) << st.message;
  const FioJsonDir* d = r.jobs[0].find(Dir::kRead);
  ASSERT_EQ(d->percentiles.size(), 1u);  // only "99.0"
  EXPECT_EQ(d->percentiles[0].value_ns, 7u);
  // "129" is the value of bin [128, 130); "x" is no number and "7": -2 is
  // negative.
  EXPECT_EQ(r.diag.count(Issue::kNotANumber), 3u);  // "fifty", "50.0": -1, "x"
  EXPECT_EQ(r.diag.count(Issue::kNegativeValue), 1u);
  ASSERT_EQ(d->bin_index.size(), 2u);
  EXPECT_EQ(d->bin_index[0], 7u);
  EXPECT_EQ(d->bin_count[0], 2u);  // duplicated keys add up
  EXPECT_EQ(fio_plat_idx_to_val(d->bin_index[1]), 129u);
  EXPECT_EQ(d->bins_total, 3u);
  // Examples carry the position of the offending value.
  bool found = false;
  for (const auto& e : r.diag.examples()) {
    if (e.issue == Issue::kNegativeValue) {
      found = true;
      EXPECT_EQ(e.line, 3u);
      EXPECT_EQ(e.column, 21u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(FioJson, RejectsWithFileLineColumn) {
  struct Case {
    std::string text;
    std::string msg;
  } cases[] = {
      {"", "x.json:1:1: no JSON document found"},
      {"fio: some error\nanother line\n", "x.json:1:1: no JSON document found"},
      {"<h> text\n{\"jobs\":[1,}\n", "x.json:2:12: "},
      {"{\"jobs\": 5}", "x.json:1:10: \"jobs\" is not an array"},
      {"{\"fio version\":\"fio-3\"}", "x.json:1:1: the document has neither"},
      {"{\"jobs\":[\n  7]}", "x.json:2:3: a job entry is not an object"},
      {"{\n  \"jobs\": [ {\"read\": {\"clat_ns\": {\"bins\": {\"1\": 1}}}}", "x.json:2:"},
  };
  for (const auto& c : cases) {
    FioJsonReport r;
    Status st = parse_str(c.text, &r);
    ASSERT_FALSE(st.ok()) << c.text;
    EXPECT_EQ(st.code, ErrorCode::kUnusableFile);
    EXPECT_EQ(st.message.rfind(c.msg, 0), 0u) << st.message;
  }
}

TEST(FioJson, TextAfterAndSeveralDocuments) {
  // Older clients printed one document per server; jobs are concatenated and
  // numbered per host across documents. Text after a document is noise.
  const std::string text =
      "<a> line\n"
      "{\"client_stats\":[{\"jobname\":\"j\",\"hostname\":\"a\",\"read\":{\"clat_ns\":{\"N\":0}}}]} tail\n"
      "{\"client_stats\":[{\"jobname\":\"j\",\"hostname\":\"a\"},{\"jobname\":\"j\",\"hostname\":\"b\"}]}\n"
      "fio: trailing warning\n";
  FioJsonReport r;
  Status st = parse_str(text, &r);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(r.documents, 2u);
  ASSERT_EQ(r.jobs.size(), 3u);
  EXPECT_EQ(r.jobs[1].job_index, 2);
  EXPECT_EQ(r.jobs[2].job_index, 1);
  EXPECT_EQ(r.diag.count(Issue::kJsonNoise), 3u);
  const auto& ex = r.diag.examples();
  ASSERT_GE(ex.size(), 2u);
  EXPECT_EQ(ex[1].line, 2u);
  EXPECT_EQ(ex[1].column, 78u);  // "tail" after the closing brace
}

// fio --status-interval=1 (tests/fixtures/folders/status: 2 jobs, 3 s):
// a whole report every second into one output, each counting the run so
// far. The last report alone is the run; the earlier ones are named.
TEST(FioJson, StatusReportsOfOneRunLeaveTheLastOne) {
  const std::string text = read_file(std::string(LATSCOPE_FIXTURES) + "/folders/status/status.json");
  ASSERT_FALSE(text.empty());
  FioJsonReport all;
  ASSERT_TRUE(parse_str(text, &all).ok());
  ASSERT_GE(all.documents, 3u) << "fio wrote a report each second";
  // The reference: the final report parsed on its own.
  const size_t last = text.rfind("\n{");
  ASSERT_NE(last, std::string::npos);
  FioJsonReport final_only;
  ASSERT_TRUE(parse_str(text.substr(last + 1), &final_only).ok());
  ASSERT_EQ(final_only.jobs.size(), 2u);
  ASSERT_EQ(all.jobs.size(), 2u) << "one entry per job, not one per report";
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(all.jobs[i].job_index, static_cast<int>(i + 1));
    ASSERT_EQ(all.jobs[i].dirs.size(), final_only.jobs[i].dirs.size());
    for (size_t d = 0; d < all.jobs[i].dirs.size(); ++d) {
      EXPECT_EQ(all.jobs[i].dirs[d].total_ios, final_only.jobs[i].dirs[d].total_ios);
      EXPECT_EQ(all.jobs[i].dirs[d].bin_count, final_only.jobs[i].dirs[d].bin_count);
    }
  }
  EXPECT_EQ(all.diag.count(Issue::kStatusReports), all.documents - 1);
  ASSERT_FALSE(all.diag.examples().empty());
  EXPECT_NE(all.diag.examples()[0].text.find("left out: the report at line"), std::string::npos)
      << all.diag.examples()[0].text;
}

// Reports that are not of one run stay: another run begun later (its
// elapsed restarted), or one counting fewer I/Os than the report before.
TEST(FioJson, ReportsOfOtherRunsAreKept) {
  const auto doc = [](int64_t stamp_ms, int elapsed, int ios) {
    return "{\"timestamp_ms\":" + std::to_string(stamp_ms) + ",\"jobs\":[{\"jobname\":\"j\",\"elapsed\":" +
           std::to_string(elapsed) + ",\"read\":{\"total_ios\":" + std::to_string(ios) + "}}]}\n";
  };
  const auto entries = [](const std::string& t) {
    FioJsonReport r;
    EXPECT_TRUE(parse_str(t, &r).ok());
    return r.jobs.size();
  };
  EXPECT_EQ(entries(doc(100000, 1, 10) + doc(101000, 2, 20)), 1u) << "a later report of the run";
  EXPECT_EQ(entries(doc(100000, 1, 10) + doc(101500, 2, 20)), 1u) << "stamped within the rounding of elapsed";
  EXPECT_EQ(entries(doc(100000, 3, 30) + doc(200000, 3, 30)), 2u) << "a run begun 100 s later";
  EXPECT_EQ(entries(doc(100000, 1, 10) + doc(101000, 2, 5)), 2u) << "fewer I/Os than before";
  EXPECT_EQ(entries(doc(100000, 1, 10) + doc(101000, 2, 20) + doc(102000, 3, 30)), 1u) << "each replaces the one before";
}

// One rule decides what is json, for the engine, `pctiles` and `summary`.
TEST(FioJson, Sniffing) {
  const std::string a = "<h> x\n{\n \"fio version\" : \"fio-3.33\"}";
  const std::string b = "1002, 0, 4096, 0, 1\n";
  EXPECT_TRUE(sniff({"x.json", a.data(), a.size(), true}).format == FileFormat::kFioJson);
  EXPECT_FALSE(sniff({"x.log", b.data(), b.size(), true}).format == FileFormat::kFioJson);
}

TEST_F(FioJsonClientRun, MutatedInputNeverCrashes) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    std::string m = text_;
    for (int e = 0; e < 4; ++e) {
      size_t pos = rng() % m.size();
      switch (rng() % 3) {
        case 0: m[pos] = "{}[]\":,0-9a\n"[rng() % 12]; break;
        case 1: m.erase(pos, 1 + rng() % 40); break;
        case 2: m.resize(pos + 1); break;
      }
    }
    FioJsonReport r;
    Status st = parse_str(m, &r);
    if (!st.ok()) {
      EXPECT_EQ(st.message.rfind("x.json:", 0), 0u) << st.message;
    }
  }
}

// --- `latscope summary` end to end ------------------------------------------
// The CLI is a separate target; these tests run it when it was built beside
// the test binary (build/latscope next to build/tests/latscope_tests).

std::string cli_path() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const std::filesystem::path cli = self.parent_path().parent_path() / "latscope";
  return std::filesystem::exists(cli, ec) ? cli.string() : "";
}

struct CliRun {
  int rc = -1;
  std::string out, err;
};

CliRun run_cli(const std::string& args) {
  CliRun r;
  const std::string err_file = (std::filesystem::temp_directory_path() /
                                ("latscope_summary_test." + std::to_string(::getpid()) + ".err")).string();
  const std::string cmd = cli_path() + " summary " + args + " 2>" + err_file;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_file);
  std::remove(err_file.c_str());
  return r;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string x;
    while (std::getline(ls, x, ',')) f.push_back(x);
    if (!line.empty() && line.back() == ',') f.push_back("");
    rows.push_back(f);
  }
  return rows;
}

class SummaryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cli_path().empty()) GTEST_SKIP() << "latscope CLI not built beside the tests";
    s1_ = std::string(LATSCOPE_FIXTURES) + "/fio-s1/s1.json";
    if (!std::filesystem::exists(s1_)) GTEST_SKIP() << "shared sample data absent";
    // main.cc picks the command up with __has_include("cmd_summary.h"): an
    // object compiled before that header existed lacks it until rebuilt.
    CliRun probe = run_cli("--help");
    ASSERT_EQ(probe.rc, 0) << "the CLI has no summary command; rebuild core/cli/main.cc\n" << probe.err;
  }
  std::string s1_;
};

TEST_F(SummaryCli, JsonInputGivesFiosOwnNumbers) {
  CliRun r = run_cli(s1_);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto rows = csv_rows(r.out);
  ASSERT_EQ(rows.size(), 11u);  // header, 4 jobs x 2 dirs, All clients x 2
  EXPECT_EQ(rows[0].size(), 25u);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "file,host,job,dir,samples,min,mean,max,p1,p5,p10,p20,p30,p40,p50,p60,p70,p80,p90,p95,"
            "p99,p99.5,p99.9,p99.95,p99.99");
  FioJsonReport rep;
  const std::string text = read_file(s1_);
  ASSERT_TRUE(parse_fio_json(s1_, text.data(), text.size(), &rep).ok());
  size_t row = 1;
  for (const FioJsonJob& j : rep.jobs) {
    for (const FioJsonDir& d : j.dirs) {
      if (d.n == 0) continue;
      const auto& f = rows[row++];
      ASSERT_EQ(f.size(), 25u);
      EXPECT_EQ(f[1], j.aggregate ? "" : j.host);
      EXPECT_EQ(f[2], j.aggregate ? "all" : std::to_string(j.job_index));
      EXPECT_EQ(f[3], dir_name(d.dir));
      EXPECT_EQ(f[4], std::to_string(d.n));
      // fio's exact min/mean/max: the mean reads back to the same double.
      EXPECT_EQ(f[5], std::to_string(d.min_ns));
      EXPECT_EQ(std::strtod(f[6].c_str(), nullptr), d.mean_ns) << f[6];
      EXPECT_EQ(f[7], std::to_string(d.max_ns));
      for (size_t i = 0; i < d.percentiles.size(); ++i) {
        EXPECT_EQ(f[8 + i], std::to_string(d.percentiles[i].value_ns)) << f[0] << " " << f[2] << " " << f[3];
      }
    }
  }
  EXPECT_EQ(row, rows.size());
  EXPECT_NE(r.err.find("json-noise x9"), std::string::npos) << r.err;
}

TEST_F(SummaryCli, HistLogsUnitsLabelsAndJsonFormat) {
  const std::string logs = std::string(LATSCOPE_FIXTURES) + "/fio-s1/s1_clat_hist.1.log.127.0.0.1";
  CliRun r = run_cli("--unit us --percentiles 50,99.90,100 --format json " + logs);
  ASSERT_EQ(r.rc, 0) << r.err;
  json::Value v;
  Status st = json::parse(r.out, "out", &v);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(v.find("unit")->as_string(), "us");
  const json::Value* ps = v.find("percentiles");
  ASSERT_EQ(ps->size(), 3u);
  EXPECT_EQ(ps->items()[1].as_string(), "99.90");  // as given
  const json::Value* rows = v.find("rows");
  ASSERT_EQ(rows->size(), 2u);
  const json::Value& row = rows->items()[0];
  EXPECT_EQ(row.find("host")->as_string(), "127.0.0.1");
  EXPECT_EQ(row.find("job")->as_string(), "1");
  EXPECT_EQ(row.find("dir")->as_string(), "read");
  uint64_t samples = 0;
  ASSERT_TRUE(row.find("samples")->get_u64(&samples));
  EXPECT_EQ(samples, 7602u);  // 19 repaired windows x 400 + 2; json+ has 8000
  // fio's p50 of the whole run is 60160 ns; the log lacks the last window
  // but agrees here, in us.
  EXPECT_EQ(row.find("p")->items()[0].as_double(), 60.16);
  const json::Value* files = v.find("files");
  EXPECT_EQ(files->items()[0].find("format")->as_string(), "fio-hist");
  EXPECT_TRUE(files->items()[0].find("ok")->as_bool());
  // CSV labels are written as given, too.
  r = run_cli("--percentiles 99.90 " + logs);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "file,host,job,dir,samples,min,mean,max,p99.90");
}

TEST_F(SummaryCli, ExitCodesForSkippedLinesAndUnusableFiles) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("latscope_summary_cli." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // A log with one malformed line: skipped and counted, exit 1.
  const std::string bad_log = (dir / "bad_clat_hist.1.log").string();
  {
    // 29 bin columns: fio 3 with log_hist_coarseness=6, the shortest layout.
    std::string bins;
    for (int i = 0; i < 29; ++i) bins += i == 10 ? ", 5" : ", 0";
    std::ofstream f(bad_log);
    f << "1000, 0, 4096" << bins << "\n1000, 1, 4096" << bins << "\n2000, 0, 4096, x" << bins.substr(3)
      << "\n2000, 0, 4096" << bins << "\n";
  }
  CliRun r = run_cli("--percentiles 50 " + bad_log);
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("bad_clat_hist.1.log:3:"), std::string::npos) << r.err;
  EXPECT_EQ(csv_rows(r.out).size(), 3u);  // the file's rows are still there
  // A truncated json document: unusable, exit 2, message with line:column.
  const std::string trunc = (dir / "trunc.json").string();
  {
    std::ofstream f(trunc);
    f << read_file(s1_).substr(0, 5000);
  }
  r = run_cli(trunc + " " + bad_log);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("trunc.json:194:3: unexpected end of input"), std::string::npos) << r.err;
  EXPECT_EQ(csv_rows(r.out).size(), 3u);  // the other file is still summarized
  r = run_cli((dir / "missing.log").string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos);
  r = run_cli("--percentiles 101 " + bad_log);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("percentile \"101\" (item 1, column 1) is over 100"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace latscope
