// Merging layouts (query/layout_merge.h): one HdrHistogram configuration
// read from several hosts' files differs only in bucket count; those merge
// bucket for bucket, with nothing reported, and the answer equals reading
// the intervals from one file. Different layouts are re-binned and said.
#include "../core/src/query/layout_merge.h"

#include <gtest/gtest.h>

#include <sstream>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/report.h"
#include "test_util.h"

namespace latscope {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l + "\n");
  return out;
}

TEST(LayoutMerge, OneHdrConfigurationFromSeveralFilesMergesExactly) {
  std::string whole;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/../golden/hdr/y_java_d3.hlog", &whole));
  const std::vector<std::string> l = lines_of(whole);
  std::string header, a, b;
  size_t intervals = 0;
  for (const std::string& x : l) {
    if (x[0] == '#' || x[0] == '"') {
      header += x;
      continue;
    }
    (intervals++ < 2 ? a : b) += x;
  }
  ASSERT_GE(intervals, 3u);
  Engine one, two;
  testing::feed(&one, "all.hlog", whole);
  testing::feed(&two, "a.hlog", header + a);
  testing::feed(&two, "b.hlog", header + b);
  ASSERT_TRUE(two.sources()[0].status.ok() && two.sources()[1].status.ok());
  QueryOptions q;
  q.method = Method::kHdr;
  q.percentiles = {50, 90, 99, 100};
  QueryResult r1, r2;
  ASSERT_TRUE(one.query(q, &r1).ok());
  ASSERT_TRUE(two.query(q, &r2).ok());
  const std::vector<std::string> labels{"p50", "p90", "p99", "p100"};
  // Every number equal; only the partial flags differ (each half covers part
  // of the run, which is what "partial" says).
  ASSERT_EQ(r2.rows.size(), r1.rows.size());
  for (size_t i = 0; i < r1.rows.size(); ++i) {
    EXPECT_EQ(r2.rows[i].stats.samples, r1.rows[i].stats.samples);
    EXPECT_EQ(r2.rows[i].stats.max_ns, r1.rows[i].stats.max_ns);
    for (size_t j = 0; j < r1.rows[i].p.size(); ++j) EXPECT_EQ(r2.rows[i].p[j].value_ns, r1.rows[i].p[j].value_ns);
  }
  EXPECT_EQ(r2.diag.count(Issue::kMixedLayouts), 0u);
  EXPECT_EQ(r2.layout_id, r1.layout_id);
}

TEST(LayoutMerge, FioBinsMeetingHdrBucketsAreReBinnedAndSaid) {
  std::string hlog, fio;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/../golden/hdr/y_java_d3.hlog", &hlog));
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/local/local_clat_hist.1.log", &fio));
  std::map<std::string, LayoutPtr> layouts;
  Engine e;
  testing::feed(&e, "x.hlog", hlog);
  testing::feed(&e, "local_clat_hist.1.log", fio);
  const Source& h = e.sources()[0];  // references taken after both feeds: sources() grows
  const Source& f = e.sources()[1];
  layouts[h.series[0].layout->id] = h.series[0].layout;
  layouts[f.layout->id] = f.layout;
  const LayoutPtr t = merge_layout(layouts);
  EXPECT_EQ(t->id, h.series[0].layout->id);  // the HdrHistogram buckets are the finer grid
  const std::string what = describe_layout_merge(layouts, *t);
  EXPECT_NE(what.find("fio3 re-binned in proportion"), std::string::npos) << what;
}

TEST(LayoutMerge, FioCoarseningsStayExact) {
  std::map<std::string, LayoutPtr> layouts;
  for (int c : {0, 2}) layouts[fio_layout(3, c)->id] = fio_layout(3, c);
  const LayoutPtr t = merge_layout(layouts);
  EXPECT_EQ(t->id, fio_layout(3, 2)->id);
  EXPECT_EQ(describe_layout_merge(layouts, *t), "layouts merged onto fio3/c2: fio3 moved exactly (each bin into one)");
}

}  // namespace
}  // namespace latscope
