// Folders as benchmark tools leave them (latscope/tool_layouts.h,
// docs/formats.md "Folders that benchmark tools leave", docs/runs.md): the
// real fio 3.33 logs of tests/fixtures/layouts/<tool>/ (make_layouts.sh) read
// through the engine as the page reads a picked folder (paths relative to
// it): every file is either read with the host and job the layout gives, or
// named once as what it is; none is an error; a tool's run folder is one run.
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "latscope/engine.h"
#include "latscope/runs.h"
#include "latscope/tool_layouts.h"

namespace latscope {
namespace {

namespace fs = std::filesystem;
const fs::path kLayouts = fs::path(LATSCOPE_FIXTURES) / "layouts";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every file of one tool's folder, sorted, as paths relative to layouts/.
std::vector<std::string> files_of(const std::string& tool) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(kLayouts / tool))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), kLayouts).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

// Reads the files into `e` in chunks (as the page's workers feed them).
void load(Engine* e, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    const std::string text = slurp(kLayouts / n);
    const int h = e->open_file(n);
    for (size_t i = 0; i < text.size(); i += 4096) e->append(h, text.data() + i, std::min<size_t>(4096, text.size() - i));
    e->finish(h);
  }
}

// What a file of a layout must come out as: read, or ignored with a
// description starting with `what`. (fnmatch, not std::regex: GCC 12 warns
// inside <regex> under the sanitizer build, and warnings are errors.)
struct Rule {
  const char* glob;  // shell pattern on the path; '*' also matches '/'
  bool read;
  const char* what;
};

const Rule* rule_for(const std::vector<Rule>& rules, const std::string& path) {
  for (const Rule& r : rules)
    if (fnmatch(r.glob, path.c_str(), 0) == 0) return &r;
  ADD_FAILURE() << path << ": no rule says what it is (a new file in the fixture?)";
  return nullptr;
}

// The path part after `after` up to the next '/' or '.': "127.0.0.1" after
// "clients/" (up to '/'), the job "2" after "_hist." (up to '.').
std::string part_after(const std::string& path, const std::string& after, char end) {
  const size_t at = path.rfind(after);
  if (at == std::string::npos) return "";
  const size_t from = at + after.size();
  return path.substr(from, path.find(end, from) - from);
}

// Checks every source of `e` against the rules, the read ones' host and
// job against host_job(path); returns how many were read.
template <class HostJob>
size_t check(const Engine& e, const std::vector<Rule>& rules, HostJob host_job) {
  size_t read = 0;
  for (const Source& s : e.sources()) {
    const Rule* r = rule_for(rules, s.name);
    if (!r) continue;
    EXPECT_TRUE(s.status.ok()) << s.name << ": " << s.status.message;
    if (!r->read) {
      EXPECT_EQ(s.format, FileFormat::kIgnored) << s.name << " read as " << format_name(s.format);
      EXPECT_EQ(s.ignored.substr(0, std::string(r->what).size()), r->what) << s.name;
      continue;
    }
    ++read;
    EXPECT_NE(s.format, FileFormat::kIgnored) << s.name << " ignored as " << s.ignored;
    EXPECT_FALSE(s.series.empty()) << s.name;
    const std::pair<std::string, std::string> want = host_job(s.name);
    for (const Series& x : s.series) {
      EXPECT_EQ(label_of(s, x, "host"), want.first) << s.name;
      EXPECT_EQ(label_of(s, x, "job"), want.second) << s.name;
    }
  }
  return read;
}

const char* const kPlotSeries = "pbench-fio plot series";
const char* const kPlainJson = "fio json output without json+ bins";

// pbench-fio in client mode: two clients' logs moved into clients/<host>/
// with the host taken off their names.
TEST(ToolLayouts, PbenchClientFoldersAreHostsOfOneRun) {
  const std::vector<Rule> rules = {
      {"*/hist/hist.csv", false, "percentiles over time from fio-histo-log-pctiles.py"},
      {"*/hist/*.log", false, kPlotSeries},
      {"*.html", false, "HTML page"},
      {"*/clients/*/fio_clat_hist.[12].log", true, ""},
      {"*/clients/*/fio_lat.[12].log", true, ""},
      {"*/clients/*/fio_clat.[12].log", true, ""},
      {"*/clients/*/fio_slat.[12].log", true, ""},
      {"*/clients/*/fio_bw.[12].log", false, "fio bandwidth log: not latency"},
      {"*/clients/*/fio_iops.[12].log", false, "fio IOPS log: not latency"},
      {"*/sample1/result.json", false, "pbench-fio result summary"},
      {"*/sample1/csv/fio_clat.csv", false, "CSV table with a header"},
      {"*/sample1/fio-result.txt", false, kPlainJson},
      {"*/fio.job", false, "fio job file"},
      {"*.cmd", false, "text"},
      {"*/fio-client.file", false, "text"},
      {"*/fio-average.txt", false, "text"},
  };
  Engine e;
  load(&e, files_of("pbench"));
  const size_t read = check(e, rules, [](const std::string& p) {
    return std::make_pair(part_after(p, "clients/", '/'), part_after(p, "lat.", '.').empty()
                                                              ? part_after(p, "_hist.", '.')
                                                              : part_after(p, "lat.", '.'));
  });
  EXPECT_EQ(read, 2u * 2u * 4u);  // 2 hosts x 2 jobs x (clat_hist, clat, lat, slat)
  const RunPlan plan = e.assign_runs({});
  ASSERT_EQ(plan.runs.size(), 1u) ;
  EXPECT_TRUE(plan.evidence.empty());
  EXPECT_EQ(plan.runs[0].how, "pbench-fio sample pbench/fio_layouts_2026.11.26T10.40.00/1-randread-4KiB/sample1");
  // The hosts' histogram logs were written by fio's client: repaired like
  // any ".log.<host>" file (docs/numbers.md, "Repair").
  for (const Source& s : e.sources()) {
    if (s.format == FileFormat::kFioHist) {
      EXPECT_GE(s.diag.count(Issue::kRepaired), 1u) << s.name;
    }
  }
}

// CBT: every client's files copied into one id-<hash> folder with
// ".<host>" appended; the clients' fio runs are one test.
TEST(ToolLayouts, CbtIdFolderIsOneRunOfAllItsClients) {
  const std::vector<Rule> rules = {
      {"*/output.0_lat.1.log.client[12]", true, ""},
      {"*/output.0_clat.1.log.client[12]", true, ""},
      {"*/output.0_slat.1.log.client[12]", true, ""},
      {"*/output.0_bw.1.log.client[12]", false, "fio bandwidth log: not latency"},
      {"*/output.0_iops.1.log.client[12]", false, "fio IOPS log: not latency"},
      {"*/output.0.client[12]", false, kPlainJson},
      {"*/json_output.0.client[12]", false, kPlainJson},
      {"*.out.osd1", false, "JSON, not fio's output"},
      {"*/benchmark_config.yaml", false, "text"},
  };
  Engine e;
  load(&e, files_of("cbt"));
  const size_t read = check(e, rules, [](const std::string& p) {
    return std::make_pair(p.substr(p.rfind('.') + 1), std::string("1"));
  });
  EXPECT_EQ(read, 2u * 3u);
  const RunPlan plan = e.assign_runs({});
  ASSERT_EQ(plan.runs.size(), 1u) ;
  EXPECT_EQ(plan.runs[0].how, "CBT test cbt/results/00000000/id-5c1a9e07");
}

// PerfKitBenchmarker: one VM's logs (no host in their names) beside its
// newline-delimited JSON samples.
TEST(ToolLayouts, PerfKitBenchmarkerRunFolder) {
  const std::vector<Rule> rules = {
      {"*/pkb_fio_avg_*_clat_hist.1.log", true, ""},
      {"*/pkb_fio_avg_*_lat.1.log", true, ""},
      {"*/pkb_fio_avg_*_[cs]lat.1.log", true, ""},
      {"*/pkb_fio_avg_*_bw.1.log", false, "fio bandwidth log: not latency"},
      {"*/pkb_fio_avg_*_iops.1.log", false, "fio IOPS log: not latency"},
      {"*/perfkitbenchmarker_results.json", false, "PerfKitBenchmarker samples (JSON lines)"},
      {"*_fio.job", false, "fio job file"},
      {"*/pkb.log", false, "text"},
  };
  Engine e;
  load(&e, files_of("pkb"));
  // The names say no host: "local".
  const size_t read = check(e, rules, [](const std::string&) { return std::make_pair("local", "1"); });
  EXPECT_EQ(read, 4u);
  EXPECT_EQ(e.assign_runs({}).runs.size(), 1u);
}

// fio-plot's bench-fio: one fio run per iodepth, each its own run (their
// logs have the same names but for the prefix), json outputs named.
TEST(ToolLayouts, BenchFioRunsPerSetting) {
  const std::vector<Rule> rules = {
      {"*/randread-iodepth-[12]-numjobs-1_lat.1.log", true, ""},
      {"*/randread-iodepth-[12]-numjobs-1_[cs]lat.1.log", true, ""},
      {"*/randread-iodepth-[12]-numjobs-1_bw.1.log", false, "fio bandwidth log: not latency"},
      {"*/randread-iodepth-[12]-numjobs-1_iops.1.log", false, "fio IOPS log: not latency"},
      {"*/randread-[12]-1.json", false, kPlainJson},
      {"*.png", false, "PNG image"},
  };
  Engine e;
  load(&e, files_of("bench-fio"));
  const size_t read = check(e, rules, [](const std::string&) { return std::make_pair("local", "1"); });
  EXPECT_EQ(read, 2u * 3u);
  const RunPlan plan = e.assign_runs({});
  ASSERT_EQ(plan.runs.size(), 2u);
  EXPECT_EQ(plan.runs[0].name, "randread-iodepth-1-numjobs-1");
  EXPECT_EQ(plan.runs[1].name, "randread-iodepth-2-numjobs-1");
}

// HdrHistogram's percentile distribution output is named, not failed (the
// hdr sniff would take its #[StartTime: line for an interval log).
TEST(ToolLayouts, HgrmIsAnOutputNotALog) {
  for (const char* f : {"double.ms.hgrm", "sig3-tagged.write.csv.hgrm"}) {
    Engine e;
    const std::string name = std::string("expected/") + f;
    const std::string text = slurp(fs::path(LATSCOPE_FIXTURES) / "hdr-processor" / name);
    const int h = e.open_file(name);
    e.append(h, text.data(), text.size());
    const Source& s = e.finish(h);
    EXPECT_TRUE(s.status.ok()) << f << ": " << s.status.message;
    EXPECT_EQ(s.format, FileFormat::kIgnored) << f;
    EXPECT_EQ(s.ignored, "HdrHistogram percentile distribution (.hgrm): an output, not a log") << f;
  }
}

// The layout facts on paths alone.
TEST(ToolLayouts, PlacesFromPaths) {
  ToolPlace p = tool_place_of("r/1-rw-4KiB/sample2/clients/perf36.lab/fio_clat_hist.3.log");
  EXPECT_EQ(p.tool, "pbench-fio");
  EXPECT_EQ(p.host, "perf36.lab");
  EXPECT_EQ(p.run, "r/1-rw-4KiB/sample2");
  EXPECT_EQ(tool_place_of("./clients/h1/hist/p90.0.log").host, "h1");
  EXPECT_EQ(tool_place_of("./clients/h1/hist/p90.0.log").run, ".");
  EXPECT_EQ(tool_place_of("clients/h1/x/y.log").tool, "");    // not pbench's depth
  EXPECT_EQ(tool_place_of("a/clients/fio_clat.1.log").tool, "");  // no host folder
  p = tool_place_of("arch/results/00000003/id-0a1b2c3d/output.0_clat.1.log.osd1");
  EXPECT_EQ(p.tool, "CBT");
  EXPECT_EQ(p.host, "");
  EXPECT_EQ(p.run, "arch/results/00000003/id-0a1b2c3d");
  EXPECT_EQ(tool_place_of("results/0000003/id-0a1b2c3d/x").tool, "");  // 7 digits
  EXPECT_EQ(tool_place_of("results/00000003/id-0a1b2c3z/x").tool, "");  // not hex
  // The host folder goes to fio logs' identity, unless the name has one.
  EXPECT_EQ(parse_fio_file_name("s/clients/h2/fio_clat_hist.1.log").host, "h2");
  EXPECT_EQ(parse_fio_file_name("s/clients/h2/fio_clat_hist.1.log.h9").host, "h9");
  EXPECT_EQ(parse_fio_file_name("s/clients/h2/hist/hist.csv").host, "");  // no fio log
}

RunFile log_file(const std::string& name) {
  RunFile f;
  f.name = name;
  f.id = parse_fio_file_name(name);
  return f;
}

// Two pbench-fio samples are two runs (fio ran once per sample), each with
// its hosts; a json+ beside clients/ joins its sample.
TEST(ToolLayouts, PbenchSamplesAreRuns) {
  std::vector<RunFile> files;
  for (const char* s : {"sample1", "sample2"})
    for (const char* h : {"h1", "h2"})
      files.push_back(log_file(std::string("it/") + s + "/clients/" + h + "/fio_clat_hist.1.log"));
  RunFile j = log_file("it/sample2/fio-result.txt");
  j.json = true;
  j.prefixes = {"fio"};
  files.push_back(j);
  const RunPlan plan = plan_runs(files, {});
  ASSERT_EQ(plan.runs.size(), 2u) << describe_runs(plan, files);
  EXPECT_EQ(plan.runs[0].name, "it/sample1");
  EXPECT_EQ(plan.runs[0].files, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(plan.runs[1].files, (std::vector<size_t>{2, 3, 4}));
  ASSERT_EQ(plan.evidence.size(), 1u);
  EXPECT_EQ(plan.evidence[0], "2 pbench-fio sample folders (it/sample1, it/sample2): the tool runs fio anew for each");
  // One sample alone: its hosts' same-named logs are no clash.
  const RunPlan one = plan_runs({files[0], files[1]}, {});
  EXPECT_EQ(one.runs.size(), 1u);
  EXPECT_TRUE(one.evidence.empty());
  // Paths that start inside the sample folder: a file beside clients/ joins
  // it; one from a folder above does not (it forms its own run: its name
  // clashes with the hosts' logs).
  const std::vector<RunFile> inside = {log_file("clients/h1/fio_clat_hist.1.log"),
                                       log_file("clients/h2/fio_clat_hist.1.log"), log_file("./fio_clat_hist.2.log"),
                                       log_file("../other/fio_clat_hist.1.log")};
  const RunPlan dot = plan_runs(inside, {});
  ASSERT_EQ(dot.runs.size(), 2u) << describe_runs(dot, inside);
  EXPECT_EQ(dot.runs[0].how, "pbench-fio sample .");
  EXPECT_EQ(dot.runs[0].files, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(dot.runs[1].files, (std::vector<size_t>{3}));
  EXPECT_EQ(dot.evidence,
            std::vector<std::string>{"../other/fio_clat_hist.1.log: outside the pbench-fio sample folder (.), so no part of its run"});
}

}  // namespace
}  // namespace latscope
