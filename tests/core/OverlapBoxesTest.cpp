// The cut of a rank's box for overlapping the ghost exchange with work: every cell in
// exactly one box, the interior box clear of the faces shared with other ranks.
#include <gtest/gtest.h>
#include <array>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>

#include <string>
#include <vector>

#include "sim/core/OverlapBoxes.hpp"
#include "sim/core/Scenario.hpp"

using namespace fluxview;
using namespace fluxview::parallel;

namespace {

LocalBox box_with_dims(std::array<int, 3> n, std::array<int, 3> dims) {
  LocalBox b;
  b.n = n;
  b.global_n = n;
  b.dims = dims;
  return b;
}

// How many boxes cover each cell.
std::vector<int> coverage(std::array<int, 3> n, const OverlapBoxes& o) {
  std::vector<int> c(std::size_t(n[0]) * n[1] * n[2], 0);
  auto add = [&](const CellBox& b) {
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) ++c[(std::size_t(k) * n[1] + j) * n[0] + i];
  };
  add(o.interior);
  for (const auto& f : o.faces) add(f);
  return c;
}

}  // namespace

TEST(OverlapBoxes, EveryCellOnceForEverySplit) {
  const std::array<int, 3> n{40, 17, 11};
  for (const auto dims : {std::array<int, 3>{1, 1, 2}, std::array<int, 3>{1, 2, 2},
                          std::array<int, 3>{2, 2, 2}, std::array<int, 3>{2, 1, 1}}) {
    const auto o = overlap_boxes(box_with_dims(n, dims), n, {16, 3, 3}, {32, 14, 8});
    ASSERT_TRUE(o.has_value());
    int split = 0;
    for (int a = 0; a < 3; ++a) split += dims[a] > 1;
    EXPECT_EQ(o->faces.size(), std::size_t(2 * split));
    for (int c : coverage(n, *o)) ASSERT_EQ(c, 1);
    for (int a = 0; a < 3; ++a) {  // the interior is cut only along split axes
      EXPECT_EQ(o->interior.lo[a], dims[a] > 1 ? (a == 0 ? 16 : 3) : 0);
      EXPECT_EQ(o->interior.hi[a], dims[a] > 1 ? (a == 0 ? 32 : a == 1 ? 14 : 8) : n[a]);
    }
  }
}

TEST(OverlapBoxes, NoneWhenNothingIsSplitOrTheInteriorIsEmpty) {
  const std::array<int, 3> n{40, 17, 11};
  EXPECT_FALSE(overlap_boxes(box_with_dims(n, {1, 1, 1}), n, {3, 3, 3}, {37, 14, 8}));
  EXPECT_FALSE(overlap_boxes(box_with_dims(n, {1, 1, 2}), n, {3, 3, 6}, {37, 14, 6}));
  EXPECT_FALSE(overlap_boxes(box_with_dims(n, {1, 1, 2}), n, {3, 3, 0}, {37, 14, 8}));
}

TEST(OverlapBoxes, TheRunParameterOverridesTheFamilyDefault) {
  auto choice = [](const std::string& value) {
    return parallel_config(load_scenario("heat/hot-spot", {"run.mpi_overlap=" + value}).params)
        .overlap;
  };
  EXPECT_TRUE(overlap_wanted(true, choice("auto")));
  EXPECT_FALSE(overlap_wanted(false, choice("auto")));
  EXPECT_FALSE(overlap_wanted(true, choice("off")));
  EXPECT_TRUE(overlap_wanted(false, choice("on")));
}
