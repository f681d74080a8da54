// The unit of HdrHistogram values (docs/formats-hdr.md, "Units"): ns unless
// the log's header names a writer of microseconds. YCSB's logs
// (tests/fixtures/ycsb, written as its OneMeasurementHdrHistogram writes
// them) begin "#[Logging for: READ]": read as us, their figures equal Java's
// own Histogram of the run (NAME.expected: count, max, p50, p99 in us); given
// --hdr-unit, the user's unit is taken as it is.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

const std::string kYcsb = std::string(LATSCOPE_FIXTURES) + "/ycsb/";

std::string text_of(const std::string& path) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(path, &t)) << path;
  return t;
}

Row whole_run(const std::string& name, double unit_ns, const Source** src, Engine* e) {
  FileOptions fo;
  fo.hdr_unit_ns = unit_ns;
  *src = &testing::feed(e, kYcsb + name, text_of(kYcsb + name), 0, fo);
  QueryOptions o;
  o.quantum_ms = 1e7;
  o.method = Method::kHdr;
  o.percentiles = {50, 99};
  QueryResult r;
  EXPECT_TRUE(e->query(o, &r).ok());
  EXPECT_EQ(r.rows.size(), 1u);
  return r.rows.empty() ? Row() : r.rows[0];
}

TEST(HdrUnits, YcsbLogsAreMicroseconds) {
  for (const char* name : {"READ", "UPDATE"}) {
    SCOPED_TRACE(name);
    unsigned long long count = 0, max = 0, p50 = 0, p99 = 0;
    ASSERT_EQ(std::sscanf(text_of(kYcsb + name + ".expected").c_str(), "%llu %llu %llu %llu", &count, &max, &p50, &p99),
              4);
    Engine e;
    const Source* src = nullptr;
    const Row row = whole_run(std::string(name) + ".hdr", 0, &src, &e);
    EXPECT_EQ(src->diag.count(Issue::kHdrUnitFromWriter), 1u);
    EXPECT_EQ(row.stats.samples, static_cast<double>(count));
    EXPECT_EQ(row.stats.max_ns, 1000.0 * static_cast<double>(max));
    ASSERT_EQ(row.p.size(), 2u);
    EXPECT_EQ(row.p[0].value_ns, 1000.0 * static_cast<double>(p50));
    EXPECT_EQ(row.p[1].value_ns, 1000.0 * static_cast<double>(p99));
    // --hdr-unit ns: the user's unit, no writer's.
    Engine ns;
    const Row as_ns = whole_run(std::string(name) + ".hdr", 1, &src, &ns);
    EXPECT_EQ(src->diag.count(Issue::kHdrUnitFromWriter), 0u);
    EXPECT_EQ(as_ns.stats.max_ns, static_cast<double>(max));
  }
}

// A log without YCSB's comment stays in ns.
TEST(HdrUnits, OtherLogsStayNanoseconds) {
  std::string text = text_of(kYcsb + "READ.hdr");
  text.replace(0, text.find('\n'), "#[jHiccup log]");
  Engine e;
  const Source& src = testing::feed(&e, "other.hlog", text);
  ASSERT_TRUE(src.status.ok()) << src.status.message;
  EXPECT_EQ(src.diag.count(Issue::kHdrUnitFromWriter), 0u);
  QueryOptions o;
  o.quantum_ms = 1e7;
  o.method = Method::kHdr;
  QueryResult r;
  ASSERT_TRUE(e.query(o, &r).ok());
  ASSERT_EQ(r.rows.size(), 1u);
  unsigned long long count = 0, max = 0;
  ASSERT_EQ(std::sscanf(text_of(kYcsb + "READ.expected").c_str(), "%llu %llu", &count, &max), 2);
  EXPECT_EQ(r.rows[0].stats.max_ns, static_cast<double>(max));
}

}  // namespace
}  // namespace latscope
