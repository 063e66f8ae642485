#include <gtest/gtest.h>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "sim/core/Field.hpp"
#include "sim/core/FieldLayout.hpp"

using namespace fluxview;

TEST(FieldLayout, FirstInteriorCellOfEveryRowIs128ByteAligned) {
  for (int eb : {4, 8})
    for (int g : {0, 1, 3})
      for (int nx : {1, 5, 64, 129}) {
        const auto l = FieldLayout::make({nx, 7, 6}, g, eb);
        for (int k = -l.ghost_along(2); k < 6 + l.ghost_along(2); ++k)
          for (int j = -l.ghost_along(1); j < 7 + l.ghost_along(1); ++j)
            EXPECT_EQ((l.index(0, j, k) * eb) % 128, 0)
                << "eb " << eb << " g " << g << " nx " << nx;
      }
}

TEST(FieldLayout, GhostsAndInteriorFitInsideTheAllocationWithoutOverlap) {
  const auto l = FieldLayout::make({10, 9, 8}, 3, 8);
  std::vector<int> seen(l.size, 0);
  for (int k = -3; k < 11; ++k)
    for (int j = -3; j < 12; ++j)
      for (int i = -3; i < 13; ++i) {
        const auto idx = l.index(i, j, k);
        ASSERT_GE(idx, 0);
        ASSERT_LT(idx, l.size);
        ++seen[idx];
      }
  for (int c : seen) EXPECT_LE(c, 1);
}

TEST(FieldLayout, ReducedAxesHaveNoGhosts) {
  const auto l = FieldLayout::make({100, 1, 1}, 2, 8);
  EXPECT_EQ(l.ghost_along(0), 2);
  EXPECT_EQ(l.ghost_along(1), 0);
  EXPECT_EQ(l.ghost_along(2), 0);
  EXPECT_EQ(l.size, l.sy);  // a single row
}

TEST(Field, HostFieldStartsZeroAndIndexesByInteriorCoordinates) {
  Field<double> f({4, 4, 4}, 1, Location::host);
  EXPECT_EQ(f(-1, -1, -1), 0.0);
  f(3, 2, 1) = 5;
  EXPECT_EQ(f.data()[f.layout().index(3, 2, 1)], 5.0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&f(0, 1, 2)) % 128, 0u);
}
