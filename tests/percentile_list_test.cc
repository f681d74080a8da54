// The one percentile-list grammar (percentile_list.h; docs/cli.md,
// "Percentile lists"): every form the CLI's --percentiles and the page's
// field accept, and the sentence for each refused list.
#include "latscope/percentile_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace latscope {
namespace {

struct Accepted {
  const char* text;
  std::vector<double> ps;
  std::vector<std::string> labels;
};

TEST(PercentileList, AcceptedInOrderWithRepeats) {
  const Accepted table[] = {
      {"50,90,99,99.9,100", {50, 90, 99, 99.9, 100}, {"p50", "p90", "p99", "p99.9", "p100"}},
      {"1,5, 99.9 ,99.990,100", {1, 5, 99.9, 99.99, 100}, {"p1", "p5", "p99.9", "p99.990", "p100"}},
      {"0,50,99.9,100", {0, 50, 99.9, 100}, {"p0", "p50", "p99.9", "p100"}},
      {"99.95, 99.999 max median", {99.95, 99.999, 100, 50}, {"p99.95", "p99.999", "p100", "p50"}},
      {"p99;P99.9\tMAX;Median", {99, 99.9, 100, 50}, {"p99", "p99.9", "p100", "p50"}},
      {"99,50,99", {99, 50, 99}, {"p99", "p50", "p99"}},
      {",,50,,;99 ;", {50, 99}, {"p50", "p99"}},
      {"5.,.5", {5, 0.5}, {"p5.", "p.5"}},
      {"100.0", {100}, {"p100.0"}},
  };
  for (const Accepted& a : table) {
    std::vector<double> ps;
    std::vector<std::string> labels;
    const Status st = parse_percentile_list(a.text, &ps, &labels);
    ASSERT_TRUE(st.ok()) << a.text << ": " << st.message;
    EXPECT_EQ(ps, a.ps) << a.text;
    EXPECT_EQ(labels, a.labels) << a.text;
  }
}

struct Refused {
  const char* text;
  const char* message;
};

TEST(PercentileList, RefusedNameTheItemAndItsPlace) {
  const Refused table[] = {
      {"", "no percentile in \"\": write a list like 50,99,99.9 (or p99 max median)"},
      {" ,; ", "no percentile in \" ,; \": write a list like 50,99,99.9 (or p99 max median)"},
      {"50,abc", "percentile \"abc\" (item 2, column 4) is not a percentile: write a number from 0 to 100 "
                 "(99.9 or p99.9), max or median"},
      {"50 99 101", "percentile \"101\" (item 3, column 7) is over 100: a percentile is from 0 to 100"},
      {"-1", "percentile \"-1\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
             "(99.9 or p99.9), max or median"},
      {"1e2", "percentile \"1e2\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
              "(99.9 or p99.9), max or median"},
      {"5.5.5", "percentile \"5.5.5\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
                "(99.9 or p99.9), max or median"},
      {"p", "percentile \"p\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
            "(99.9 or p99.9), max or median"},
      {"pmax", "percentile \"pmax\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
               "(99.9 or p99.9), max or median"},
      {"pp99", "percentile \"pp99\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
               "(99.9 or p99.9), max or median"},
      {".", "percentile \".\" (item 1, column 1) is not a percentile: write a number from 0 to 100 "
            "(99.9 or p99.9), max or median"},
  };
  for (const Refused& r : table) {
    std::vector<double> ps{1};
    std::vector<std::string> labels{"p1"};
    const Status st = parse_percentile_list(r.text, &ps, &labels);
    EXPECT_FALSE(st.ok()) << r.text;
    EXPECT_EQ(st.message, r.message) << r.text;
    // A refused list leaves the caller's list as it was.
    EXPECT_EQ(ps, std::vector<double>{1}) << r.text;
  }
}

TEST(PercentileList, EmptyAllowedOnlyWhenAsked) {
  std::vector<PercentileItem> items{{1, "1"}};
  ASSERT_TRUE(read_percentile_items(" , ", &items, true).ok());
  EXPECT_TRUE(items.empty());
  EXPECT_FALSE(read_percentile_items(" , ", &items).ok());
}

std::vector<std::string> texts(const std::vector<PercentileItem>& items) {
  std::vector<std::string> out;
  for (const PercentileItem& it : items) out.push_back(it.text);
  return out;
}

TEST(PercentileList, PageListSortedOnePerValue) {
  std::vector<PercentileItem> items;
  ASSERT_TRUE(page_percentile_list("50,99.9,100", "99.95, p99.999 max median 99.90 9", &items).ok());
  EXPECT_EQ(texts(items), (std::vector<std::string>{"9", "50", "99.9", "99.95", "99.999", "100"}));
  ASSERT_TRUE(page_percentile_list("", "99.90 99.9", &items).ok());
  EXPECT_EQ(texts(items), (std::vector<std::string>{"99.90"}));
  ASSERT_TRUE(page_percentile_list("99", "", &items).ok());
  EXPECT_EQ(texts(items), (std::vector<std::string>{"99"}));
  EXPECT_EQ(percentile_items_json(items), "{\"percentiles\":[\"99\"],\"values\":[99]}");
  ASSERT_TRUE(page_percentile_list("", "max,.5", &items).ok());
  EXPECT_EQ(percentile_items_json(items), "{\"percentiles\":[\".5\",\"100\"],\"values\":[0.5,100]}");

  Status st = page_percentile_list("", " ", &items);
  EXPECT_EQ(st.message, "no percentile chosen: check one or write a list like 99.95 99.99 (or p99 max median)");
  st = page_percentile_list("50,90", "99.99 999", &items);
  EXPECT_EQ(st.message, "percentile \"999\" (item 2, column 7) is over 100: a percentile is from 0 to 100");
  EXPECT_EQ(texts(items), (std::vector<std::string>{".5", "100"}));
}

}  // namespace
}  // namespace latscope
