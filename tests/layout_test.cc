#include "latscope/layout.h"

#include <gtest/gtest.h>

namespace latscope {
namespace {

TEST(Layout, Fio3FineEdgesAroundTheFirstGroupChange) {
  LayoutPtr l = fio_layout(3, 0);
  ASSERT_EQ(l->size(), 1856u);
  EXPECT_EQ(l->lo[127], 127);  // 1 ns bins up to 127
  EXPECT_EQ(l->hi[127], 128);
  EXPECT_EQ(l->lo[128], 128);  // then 2 ns
  EXPECT_EQ(l->hi[128], 130);
  EXPECT_EQ(l->lo[191], 254);
  EXPECT_EQ(l->lo[192], 256);  // 4 ns
  EXPECT_EQ(l->hi[192], 260);
  for (size_t i = 1; i < l->size(); ++i) EXPECT_EQ(l->lo[i], l->hi[i - 1]) << i;
}

TEST(Layout, Fio3LastBinSaturatesAt17Seconds) {
  LayoutPtr l = fio_layout(3, 0);
  EXPECT_EQ(l->lo[1855], 17045651456.0);
  EXPECT_EQ(l->hi[1855], 17179869184.0);  // 64 * 2^28
  EXPECT_TRUE(l->last_saturates);
}

TEST(Layout, PlatIdxToValMatchesFio) {
  EXPECT_EQ(fio_plat_idx_to_val(0), 0u);
  EXPECT_EQ(fio_plat_idx_to_val(127), 127u);
  EXPECT_EQ(fio_plat_idx_to_val(128), 129u);   // 128 + 0.5 * 2
  EXPECT_EQ(fio_plat_idx_to_val(192), 258u);   // 256 + 0.5 * 4
  EXPECT_EQ(fio_plat_idx_to_val(1855), 17045651456u + (1u << 26));
  for (uint32_t i = 0; i < 1856; ++i) {
    uint32_t back = 9999;
    ASSERT_TRUE(fio_plat_val_to_idx(fio_plat_idx_to_val(i), &back)) << i;
    EXPECT_EQ(back, i);
  }
  uint32_t idx;
  EXPECT_FALSE(fio_plat_val_to_idx(128, &idx));  // a bin edge, not a bin's value
}

TEST(Layout, CoarseBinsCoverWholeFineGroups) {
  LayoutPtr f = fio_layout(3, 0);
  for (int c = 1; c <= 6; ++c) {
    LayoutPtr l = fio_layout(3, c);
    ASSERT_EQ(l->size(), 1856u >> c);
    const size_t step = size_t{1} << c;
    for (size_t j = 0; j < l->size(); ++j) {
      EXPECT_EQ(l->lo[j], f->lo[j * step]);
      EXPECT_EQ(l->hi[j], f->hi[(j + 1) * step - 1]);
    }
  }
  EXPECT_EQ(fio_layout(3, 6)->size(), 29u);
  EXPECT_EQ(fio_layout(3, 2)->id, "fio3/c2");
}

TEST(Layout, Fio2IsMicroseconds) {
  LayoutPtr l = fio_layout(2, 0);
  ASSERT_EQ(l->size(), 1216u);
  EXPECT_EQ(l->lo[1], 1000);
  EXPECT_EQ(l->lo[128], 128000);
  EXPECT_EQ(l->rep[128], 129000);
}

TEST(Layout, ColumnCountsIdentifyVersionAndCoarseness) {
  const size_t v3[] = {1856, 928, 464, 232, 116, 58, 29};
  const size_t v2[] = {1216, 608, 304, 152, 76, 38, 19};
  for (int c = 0; c <= 6; ++c) {
    EXPECT_EQ(fio_layout_for_columns(v3[c]), fio_layout(3, c));
    EXPECT_EQ(fio_layout_for_columns(v2[c]), fio_layout(2, c));
  }
  EXPECT_EQ(fio_layout_for_columns(1855), nullptr);
  EXPECT_EQ(fio_layout_for_columns(0), nullptr);
}

}  // namespace
}  // namespace latscope
