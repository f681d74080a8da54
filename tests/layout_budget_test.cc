// The layout budget (latscope/layout_budget.h, docs/input-robustness.md
// "Layouts"): a file's HdrHistogram configurations and a table's layout ids
// stay within kMaxLayoutBins, an engine refuses a file whose layouts would
// take it past, and a layout id's unit keeps its edges finite.
#include <gtest/gtest.h>

#include <string>

#include "fixture_util.h"
#include "formats/hdr/hdr_layout.h"
#include "latscope/engine.h"
#include "latscope/layout_budget.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;

std::string fixture(const std::string& rel) {
  std::string text;
  EXPECT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/../bounds/" + rel, &text)) << rel;
  return text;
}

size_t layout_bins(const Source& s) {
  LayoutTally t;
  t.add(s);
  return t.bins();
}

TEST(LayoutBudget, HlogOfFortyConfigurationsKeepsWhatFits) {
  Engine e;
  const Source& s = feed(&e, "layouts40.hlog", fixture("layouts40.hlog"));
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  // Three 5,500,001-bin layouts fit in 16,777,216; every other interval is
  // skipped and counted (some configurations cannot index 5.5 M at all).
  EXPECT_EQ(layout_bins(s), 3u * 5500001u);
  EXPECT_LE(layout_bins(s), kMaxLayoutBins);
  EXPECT_GE(s.diag.count(Issue::kLayoutBudget), 30u);
  EXPECT_EQ(s.diag.count(Issue::kLayoutBudget) + s.diag.count(Issue::kHdrBadPayload) + s.records, 40u);
  ASSERT_FALSE(s.diag.examples().empty());
  bool named = false;
  for (const IssueExample& x : s.diag.examples())
    if (x.issue == Issue::kLayoutBudget)
      named = named || x.text.find("past the limit of 16,777,216") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(LayoutBudget, TableOfFortyLayoutIdsKeepsWhatFits) {
  Engine e;
  const Source& s = feed(&e, "layouts40.tsv", fixture("layouts40.tsv"));
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(layout_bins(s), 5u * 3000001u);
  EXPECT_EQ(s.diag.count(Issue::kLayoutBudget), 35u);
}

TEST(LayoutBudget, EngineRefusesAFileWhoseLayoutsPassTheBudget) {
  Engine e;
  for (const char* f : {"layout_d5_l7.hlog", "layout_d5_l9.hlog", "layout_d5_l11.hlog"})
    EXPECT_TRUE(feed(&e, f, fixture(f)).status.ok()) << f;
  const Source& s = feed(&e, "layout_d5_l13.hlog", fixture("layout_d5_l13.hlog"));
  EXPECT_FALSE(s.status.ok());
  EXPECT_TRUE(s.series.empty());
  EXPECT_NE(s.status.message.find("layout_d5_l13.hlog: its bin layouts (hdr:d5:l13:u1e0:n5500001: 5,500,001 bins)"),
            std::string::npos) << s.status.message;
  EXPECT_NE(s.status.message.find("limit of 16,777,216"), std::string::npos);
  EXPECT_LE(tally_layouts(e.sources()).bins(), kMaxLayoutBins);
  // The same layout again costs nothing: a file of it is read.
  EXPECT_TRUE(feed(&e, "again.hlog", fixture("layout_d5_l7.hlog")).status.ok());
}

TEST(LayoutBudget, FioLayoutsAreNotCounted) {
  Engine e;
  const Source& s = feed(&e, "x_clat_hist.1.log", testing::hist_line(1000, 0, {{150, 10}}));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(layout_bins(s), 0u);
}

TEST(LayoutBudget, LayoutIdUnitsKeepEdgesFinite) {
  hdr::Config c;
  double unit = 0;
  size_t n = 0;
  std::string why;
  EXPECT_FALSE(hdr::parse_layout_id("hdr:d3:l1:u1e308:n2000", &c, &unit, &n, &why));
  EXPECT_NE(why.find("outside 1e-9..1e12"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(hdr::parse_layout_id("hdr:d3:l1:r1e300:u1e0:n2000", &c, &unit, &n, &why));
  EXPECT_NE(why.find("past 1e30 ns"), std::string::npos) << why;
  EXPECT_TRUE(hdr::parse_layout_id("hdr:d3:l1:u1e9:n2000", &c, &unit, &n, &why));
  EXPECT_TRUE(hdr::parse_layout_id("hdr:d3:l1:u0.001:n2000", &c, &unit, &n, &why));
  Engine e;
  const Source& s = feed(&e, "unit.tsv", fixture("unit_1e308.tsv"));
  EXPECT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message.find("unit 1e308 ns is outside"), std::string::npos) << s.status.message;
}

TEST(LayoutBudget, FastLayoutEdgesEqualConfigMath) {
  hdr::Config c;
  c.digits = 2;
  c.lowest = 1000;
  const LayoutPtr l = hdr::make_layout(c, 1, 3000);
  for (size_t i = 0; i < 3000; ++i) {
    const auto k = static_cast<int64_t>(i);
    ASSERT_EQ(l->lo[i], static_cast<double>(c.lowest_equivalent(k))) << i;
    ASSERT_EQ(l->hi[i], static_cast<double>(c.lowest_equivalent(k)) + static_cast<double>(c.bucket_width(k))) << i;
    ASSERT_EQ(l->rep[i], static_cast<double>(c.median_equivalent(k))) << i;
  }
}

}  // namespace
}  // namespace latscope
