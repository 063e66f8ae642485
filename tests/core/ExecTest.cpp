// The host side of the execution layer: every cell of a box visited once (ghost indices
// included, small boxes on one thread and large ones on all), and reductions that agree
// with a plain loop, keep or drop NaN as they say, and repeat bit for bit. On three threads
// whatever OMP_NUM_THREADS says (test.sh runs tests on one), so that shares are uneven.
#include <gtest/gtest.h>
#include <omp.h>
#include <array>
#include <cstddef>
#include <string>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/ExecHost.hpp"
#include "tests/support/ThreadCount.hpp"

using namespace fluxview;
using namespace fluxview::exec;

namespace {

// Cell (i, j, k) of a box as a position in a dense array over the box.
std::int64_t slot(const Box& b, int i, int j, int k) {
  return (i - b.lo[0]) +
         std::int64_t(b.extent(0)) * ((j - b.lo[1]) + std::int64_t(b.extent(1)) * (k - b.lo[2]));
}

// A value per cell that sums exactly in doubles (small integers).
double value(int i, int j, int k) {
  return double((i * 7 + j * 13 + k * 29) % 101 - 50);
}

struct Acc {
  Sum<double> sum;
  Min<double> min;
  Max<double> max;
  Sum<std::int64_t> count;
  void join(const Acc& o) {
    sum.join(o.sum);
    min.join(o.min);
    max.join(o.max);
    count.join(o.count);
  }
};

class ExecHost : public ::testing::Test {
  test::ThreadCount threads_{3};
};

}  // namespace

TEST_F(ExecHost, ForEachCellVisitsEveryCellOfTheBoxOnce) {
  // Below and above the size from which loops run on all threads.
  for (const Box b : {Box{{-2, -1, 0}, {5, 4, 3}}, Box{{-3, -3, -3}, {40, 37, 29}}}) {
    std::vector<int> visits(std::size_t(b.cells()), 0);
    std::vector<int> threads(3, 0);  // the cells each thread visited (a slot per thread)
    for_each_cell(Host{}, b, [&](int i, int j, int k) {
      ++visits[std::size_t(slot(b, i, j, k))];
      ++threads[std::size_t(omp_get_thread_num())];
    });
    for (int v : visits) ASSERT_EQ(v, 1);
    const bool large = b.cells() >= kParallelCells;
    for (int t = 1; t < 3; ++t) EXPECT_EQ(threads[std::size_t(t)] > 0, large) << "thread " << t;
  }
}

TEST_F(ExecHost, AnEmptyBoxDoesNothingAndReducesToTheIdentity) {
  int calls = 0;
  const Box empty{{0, 0, 0}, {4, 0, 4}};
  for_each_cell(Host{}, empty, [&](int, int, int) { ++calls; });
  EXPECT_EQ(calls, 0);
  const auto m = reduce_cells(Host{}, empty, Max<double>{-5.0},
                              [](int, int, int, Max<double>& acc) { acc.add(1.0); });
  EXPECT_EQ(m.value, -5.0);
}

TEST_F(ExecHost, ReductionsAgreeWithAPlainLoop) {
  for (const Box b : {Box{{0, 0, 0}, {9, 5, 3}}, Box{{-3, 0, -1}, {61, 50, 21}}}) {
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) {
          sum += value(i, j, k);
          mn = std::fmin(mn, value(i, j, k));
          mx = std::fmax(mx, value(i, j, k));
        }
    const Acc a = reduce_cells(Host{}, b, Acc{}, [](int i, int j, int k, Acc& acc) {
      acc.sum.add(value(i, j, k));
      acc.min.add(value(i, j, k));
      acc.max.add(value(i, j, k));
      acc.count.add(1);
    });
    EXPECT_EQ(a.sum.value, sum);
    EXPECT_EQ(a.min.value, mn);
    EXPECT_EQ(a.max.value, mx);
    EXPECT_EQ(a.count.value, b.cells());
  }
}

TEST_F(ExecHost, MaxKeepNaNKeepsANaNThatMaxIgnores) {
  const Box b{{0, 0, 0}, {64, 32, 16}};
  auto body = [](int i, int j, int k, auto& acc) {
    acc.add(i == 17 && j == 9 && k == 3 ? NAN : double(i + j + k));
  };
  const auto keeps = reduce_cells(Host{}, b, MaxKeepNaN<double>{0.0}, body);
  const auto ignores = reduce_cells(Host{}, b, Max<double>{0.0}, body);
  EXPECT_TRUE(std::isnan(keeps.value));
  EXPECT_EQ(ignores.value, 63 + 31 + 15);
  EXPECT_TRUE(std::isnan(max_keep_nan(1.0, double(NAN))));
  EXPECT_TRUE(std::isnan(max_keep_nan(double(NAN), 1.0)));
  EXPECT_EQ(max_keep_nan(1.0, 2.0), 2.0);
}

TEST_F(ExecHost, ASumOfRoundedValuesRepeatsBitForBit) {
  const Box b{{0, 0, 0}, {70, 60, 50}};
  auto body = [](int i, int j, int k, Sum<double>& acc) { acc.add(1.0 / (1 + i + 3 * j + 7 * k)); };
  const double first = reduce_cells(Host{}, b, Sum<double>{}, body).value;
  for (int r = 0; r < 3; ++r) EXPECT_EQ(reduce_cells(Host{}, b, Sum<double>{}, body).value, first);
}

TEST_F(ExecHost, TheFirstCellIsTheSmallestIndexWhereverItLies) {
  const Box b{{0, 0, 0}, {50, 40, 30}};
  const auto first = reduce_cells(
      Host{}, b, Min<std::int64_t>{}, [&](int i, int j, int k, Min<std::int64_t>& acc) {
        if ((i == 3 && j == 30 && k == 20) || (i == 45 && j == 2 && k == 29))
          acc.add(slot(b, i, j, k));
      });
  EXPECT_EQ(first.value, slot(b, 3, 30, 20));
  const auto none =
      reduce_cells(Host{}, b, Min<std::int64_t>{}, [](int, int, int, Min<std::int64_t>&) {});
  EXPECT_EQ(none.value, highest<std::int64_t>());
}

TEST_F(ExecHost, ABoxOfFewLongRowsIsSharedOutAlongX) {
  // Above the parallel size with fewer rows than threads: split along x instead.
  for (const Box b : {Box{{-2, 0, 0}, {40000, 1, 1}}, Box{{0, 0, 0}, {20000, 2, 1}}}) {
    std::vector<int> visits(std::size_t(b.cells()), 0);
    for_each_cell(Host{}, b, [&](int i, int j, int k) { ++visits[std::size_t(slot(b, i, j, k))]; });
    for (int v : visits) ASSERT_EQ(v, 1);
    double sum = 0;
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) sum += value(i, j, 0);
    const Acc a = reduce_cells(Host{}, b, Acc{}, [](int i, int j, int k, Acc& acc) {
      acc.sum.add(value(i, j, k));
      acc.count.add(1);
    });
    EXPECT_EQ(a.sum.value, sum);
    EXPECT_EQ(a.count.value, b.cells());
  }
}
