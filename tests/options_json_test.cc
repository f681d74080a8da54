// Options objects from the page (options_json.h): defaults equal the CLI's,
// every field lands where the engine reads it, bad input names the field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "latscope/options_json.h"

namespace latscope {
namespace {

TEST(OptionsJson, EmptyObjectGivesTheCliDefaults) {
  QueryOptions q;
  q.quantum_ms = 5;  // must be overwritten
  std::vector<std::string> labels{"x"};
  Unit unit = Unit::kMs;
  Status st = parse_query_options_json("{}", &q, &labels, &unit);
  ASSERT_TRUE(st.ok()) << st.message;
  const QueryOptions d;
  EXPECT_EQ(q.quantum_ms, d.quantum_ms);
  EXPECT_EQ(q.percentiles, d.percentiles);
  EXPECT_EQ(q.group_by, d.group_by);
  EXPECT_EQ(q.method, d.method);
  EXPECT_EQ(q.sel.dirs, static_cast<unsigned>(kDirAll));
  EXPECT_TRUE(std::isinf(q.sel.from_ms) && q.sel.from_ms < 0);
  EXPECT_TRUE(std::isinf(q.sel.to_ms) && q.sel.to_ms > 0);
  EXPECT_FALSE(q.compat_fio_histo_log_pctiles);
  EXPECT_EQ(q.adaptive_accuracy, 0);  // fixed quanta, as `latscope pctiles` without --adaptive
  // `latscope pctiles` prints p50,p90,p99,p99.9,p100 in us by default.
  EXPECT_EQ(labels, (std::vector<std::string>{"p50", "p90", "p99", "p99.9", "p100"}));
  EXPECT_EQ(unit, Unit::kUs);
}

TEST(OptionsJson, EveryQueryField) {
  const std::string text = R"({
    "quantum_ms": 250.5, "percentiles": ["99.9", 50, 99.90, "0", 100],
    "group_by": "host,dir", "directions": "r,t", "method": "fio", "unit": "ms",
    "offsets": {"127.0.0.2": -3.5, "a.log": 10},
    "exclude_sources": ["x.log"], "exclude_hosts": ["h1", "h2"],
    "from_ms": 1000, "to_ms": null, "compat": "fio-histo-log-pctiles", "adaptive_accuracy": 0.25})";
  QueryOptions q;
  std::vector<std::string> labels;
  Unit unit = Unit::kUs;
  Status st = parse_query_options_json(text, &q, &labels, &unit);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(q.quantum_ms, 250.5);
  EXPECT_EQ(q.percentiles, (std::vector<double>{99.9, 50, 99.9, 0, 100}));
  // Labels keep the text as given, numbers their JSON token.
  EXPECT_EQ(labels, (std::vector<std::string>{"p99.9", "p50", "p99.90", "p0", "p100"}));
  EXPECT_EQ(q.group_by, (GroupBy{"host", "dir"}));
  EXPECT_EQ(q.sel.dirs, static_cast<unsigned>(kDirRead | kDirTrim));
  EXPECT_EQ(q.method, Method::kFio);
  EXPECT_EQ(unit, Unit::kMs);
  EXPECT_EQ(q.sel.offsets_ms.size(), 2u);
  EXPECT_EQ(q.sel.offsets_ms.at("127.0.0.2"), -3.5);
  EXPECT_EQ(q.sel.offsets_ms.at("a.log"), 10);
  EXPECT_EQ(q.sel.exclude_sources, (std::vector<std::string>{"x.log"}));
  EXPECT_EQ(q.sel.exclude_hosts, (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(q.sel.from_ms, 1000);
  EXPECT_TRUE(std::isinf(q.sel.to_ms));  // null: the default (JSON has no Infinity)
  EXPECT_TRUE(q.compat_fio_histo_log_pctiles);
  EXPECT_EQ(q.adaptive_accuracy, 0.25);
}

// The page's SLA field rides with its query's options (docs/page-views.md,
// "SLA"): read as text for core's judge, no query option.
TEST(OptionsJson, SlaFieldIsTextBesideTheQuery) {
  QueryOptions q;
  std::vector<std::string> labels;
  Unit unit;
  std::string sla = "stale";
  ASSERT_TRUE(parse_query_options_json(R"({"sla": "p99<2ms;max<1s", "unit": "ms"})", &q, &labels, &unit, &sla).ok());
  EXPECT_EQ(sla, "p99<2ms;max<1s");
  ASSERT_TRUE(parse_query_options_json("{}", &q, &labels, &unit, &sla).ok());
  EXPECT_EQ(sla, "");
  // Callers that do not ask for it accept it and leave it.
  EXPECT_TRUE(parse_query_options_json(R"({"sla": "p99<2ms"})", &q, &labels, &unit).ok());
}

TEST(OptionsJson, GroupByForms) {
  struct Case {
    const char* json;
    GroupBy want;
  } cases[] = {
      {R"({"group_by":"all"})", {}},
      {R"({"group_by":"file"})", {"file"}},
      {R"({"group_by":"host, job ,dir"})", {"host", "job", "dir"}},
      {R"({"group_by":["job","file"]})", {"job", "file"}},
      {R"({"group_by":"tag,run"})", {"tag", "run"}},
      {R"({"directions":"read,write"})", {}},
  };
  for (const auto& c : cases) {
    QueryOptions q;
    std::vector<std::string> labels;
    Unit unit;
    ASSERT_TRUE(parse_query_options_json(c.json, &q, &labels, &unit).ok()) << c.json;
    EXPECT_EQ(q.group_by, c.want) << c.json;
  }
}

TEST(OptionsJson, ErrorsNameTheFieldAndPosition) {
  struct Case {
    const char* json;
    const char* msg;
  } cases[] = {
      {R"({"quantum": 5})", "options:1:13: unknown field \"quantum\" (known: quantum_ms, percentiles,"},
      {R"({"quantum_ms": 0})", "options:1:16: \"quantum_ms\" must be a positive number"},
      {R"({"quantum_ms": "5"})", "\"quantum_ms\" must be a finite number"},
      {R"({"percentiles": []})", "\"percentiles\" must be a non-empty array"},
      {R"({"percentiles": [50, 101]})", "options:1:22: percentile 101 is not in [0, 100]"},
      {R"({"percentiles": ["-1"]})", "percentile \"-1\" is not a number in [0, 100]"},
      {R"({"percentiles": ["1e1"]})", "percentile \"1e1\" is not a number"},
      {R"({"percentiles": [true]})", "percentiles must be numbers or strings"},
      {R"({"group_by": "host;job"})", "\"group_by\": \"host;job\" is not a list of label names"},
      {R"({"directions": "x"})", "unknown direction \"x\""},
      {R"({"directions": ""})", "unknown direction \"\""},
      {R"({"method": "nearest"})", "\"method\" must be one of interp, fio, hdr or exact"},  // "exact": fio per-I/O logs
      {R"({"unit": "s"})", "\"unit\" must be \"ns\", \"us\" or \"ms\""},
      {R"({"offsets": {"h": "1"}})", "\"offsets.h\" must be a finite number"},
      {R"({"offsets": [1]})", "\"offsets\" must be an object"},
      {R"({"exclude_hosts": "h"})", "\"exclude_hosts\" must be an array of strings"},
      {R"({"compat": "yes"})", "\"compat\" must be"},
      {R"({"sla": 2})", "\"sla\" must be a string"},
      {R"({"adaptive_accuracy": -0.5})", "options:1:23: \"adaptive_accuracy\" must be 0 (fixed quanta) or a positive accuracy"},
      {R"({"adaptive_accuracy": "0.5"})", "\"adaptive_accuracy\" must be a finite number"},
      {R"({"columns": -1})", "\"columns\" must be a whole number of pixel columns from 0 to 100000"},
      {R"({"columns": 1.5})", "\"columns\" must be a whole number of pixel columns"},
      {R"([1])", "options:1:1: options must be a JSON object, not array"},
      {R"({"quantum_ms": 1,})", "options:1:18: trailing comma"},
      {"", "options:1:1: unexpected end of input"},
  };
  for (const auto& c : cases) {
    QueryOptions q;
    q.quantum_ms = 7;
    std::vector<std::string> labels;
    Unit unit = Unit::kNs;
    Status st = parse_query_options_json(c.json, &q, &labels, &unit);
    ASSERT_FALSE(st.ok()) << c.json;
    EXPECT_EQ(st.code, ErrorCode::kInvalidArgument);
    EXPECT_NE(st.message.find(c.msg), std::string::npos) << c.json << " -> " << st.message;
    EXPECT_EQ(q.quantum_ms, 7);  // untouched on error
    EXPECT_EQ(unit, Unit::kNs);
  }
}

TEST(OptionsJson, Heatmap) {
  HeatmapOptions h;
  Unit unit = Unit::kNs;
  ASSERT_TRUE(parse_heatmap_options_json("{}", &h, &unit).ok());
  const HeatmapOptions d;
  EXPECT_EQ(h.quantum_ms, d.quantum_ms);
  EXPECT_EQ(h.rows, d.rows);
  EXPECT_EQ(h.min_ns, 0);
  EXPECT_EQ(unit, Unit::kUs);
  Status st = parse_heatmap_options_json(
      R"({"quantum_ms": 500, "rows": 128, "min_ns": 1000, "max_ns": 1e9, "unit": "ns",
          "directions": "w", "exclude_hosts": ["a"], "from_ms": 5, "to_ms": 50, "offsets": {"a": 1}})",
      &h, &unit);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(h.quantum_ms, 500);
  EXPECT_EQ(h.rows, 128u);
  EXPECT_EQ(h.min_ns, 1000);
  EXPECT_EQ(h.max_ns, 1e9);
  EXPECT_EQ(unit, Unit::kNs);
  EXPECT_EQ(h.sel.dirs, static_cast<unsigned>(kDirWrite));
  EXPECT_EQ(h.sel.exclude_hosts.size(), 1u);
  EXPECT_EQ(h.sel.from_ms, 5);
  EXPECT_EQ(h.sel.to_ms, 50);
  EXPECT_EQ(h.sel.offsets_ms.at("a"), 1);
  // Query-only fields are unknown here.
  st = parse_heatmap_options_json(R"({"percentiles": [50]})", &h, &unit);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("unknown field \"percentiles\""), std::string::npos) << st.message;
  st = parse_heatmap_options_json(R"({"rows": 0})", &h, &unit);
  EXPECT_NE(st.message.find("\"rows\" must be an integer in [1, 100000]"), std::string::npos) << st.message;
  st = parse_heatmap_options_json(R"({"rows": 2.5})", &h, &unit);
  EXPECT_FALSE(st.ok());
  st = parse_heatmap_options_json(R"({"min_ns": -1})", &h, &unit);
  EXPECT_FALSE(st.ok());
}

TEST(OptionsJson, FileOptions) {
  FileOptions o;
  ASSERT_TRUE(parse_file_options_json("{}", &o).ok());
  const FileOptions d;
  EXPECT_EQ(o.format, d.format);
  EXPECT_EQ(o.fio_version, d.fio_version);
  EXPECT_EQ(o.coarseness, d.coarseness);
  EXPECT_EQ(o.repair, d.repair);
  Status st = parse_file_options_json(
      R"({"format": "fio-hist", "fio_version": 2, "coarseness": 3, "repair": "off", "host": "h", "job": "7"})", &o);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(o.format, FileFormat::kFioHist);
  EXPECT_EQ(o.fio_version, 2);
  EXPECT_EQ(o.coarseness, 3);
  EXPECT_EQ(o.repair, RepairMode::kOff);
  EXPECT_EQ(o.host, "h");
  EXPECT_EQ(o.job, "7");
  ASSERT_TRUE(parse_file_options_json(R"({"format": "auto", "repair": "force", "coarseness": -1})", &o).ok());
  EXPECT_EQ(o.format, FileFormat::kUnknown);
  EXPECT_EQ(o.repair, RepairMode::kForce);
  const char* bad[] = {R"({"fio_version": 4})", R"({"coarseness": 7})", R"({"repair": "yes"})",
                       R"({"format": "csv"})", R"({"host": 1})", R"({"quantum_ms": 1})"};
  for (const char* b : bad) EXPECT_FALSE(parse_file_options_json(b, &o).ok()) << b;
}

}  // namespace
}  // namespace latscope
