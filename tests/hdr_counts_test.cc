// .hlog counts obey the model's 2^53 rule as fio's logs do (model.h
// kMaxCount, docs/input-robustness.md "Counts"): an interval whose counts,
// or whose series' running total, would pass 2^53 is skipped and named;
// the totals never wrap.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "formats/hdr/hdr_encode.h"
#include "latscope/engine.h"
#include "latscope/result.h"
#include "test_util.h"

namespace latscope {
namespace {

std::string interval(double start_s, const std::vector<std::pair<uint32_t, uint64_t>>& bins) {
  hdr::Histogram h;
  h.config.digits = 2;
  h.config.lowest = 1;
  h.config.highest = 3600000000000;
  for (const auto& [i, n] : bins) h.push(i, n);
  std::string payload;
  EXPECT_TRUE(hdr::encode_payload(h, deflate_zlib, &payload));
  char head[64];
  std::snprintf(head, sizeof head, "%.3f,1.000,1.000,", start_s);
  return head + payload + "\n";
}

TEST(HdrCounts, SumsPast2To53AreSkippedAndNamed) {
  const uint64_t big = uint64_t{1} << 52;
  const std::string text = interval(0, {{10, 5}}) + interval(1, {{10, big}, {11, big}, {12, 1}}) +  // 2^53 + 1
                           interval(2, {{10, big}}) + interval(3, {{10, big}}) +  // the second passes the series' 2^53
                           interval(4, {{10, 7}});
  Engine e;
  const Source& s = testing::feed(&e, "big.hlog", text);
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(s.diag.count(Issue::kOverflow), 2u);
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].total(), 5 + big + 7);
  EXPECT_EQ(s.records, 3u);
}

}  // namespace
}  // namespace latscope
