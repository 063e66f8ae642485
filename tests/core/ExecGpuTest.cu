// The device side of the execution layer against the host side: the same loops visit the
// same cells (boxes with ghost indices, 2D and 1D boxes whose thin axes fold into x, an
// explicit block shape, boxes longer along y or z than a grid may be) and reduce to the
// same numbers (exactly, where the values are small integers; a NaN kept or ignored as on
// the host), also when called again (the arrival counter of the last block is reset).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/Buffer.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/ExecHost.hpp"
#include "sim/core/cuda/ExecDevice.cuh"

using namespace fluxview;
using namespace fluxview::exec;

// A named namespace: CUDA forbids extended lambdas in functions of an unnamed one (the
// CUDA C++ Programming Guide's extended-lambda restrictions); their kernels then fail to
// launch with "invalid device function".
namespace exec_gpu_test {

FLUXVIEW_HD std::int64_t slot(Box b, int i, int j, int k) {
  return (i - b.lo[0]) + std::int64_t(b.hi[0] - b.lo[0]) *
                             ((j - b.lo[1]) + std::int64_t(b.hi[1] - b.lo[1]) * (k - b.lo[2]));
}

FLUXVIEW_HD double value(int i, int j, int k) {
  return double((i * 7 + j * 13 + k * 29) % 101 - 50);
}

struct Acc {
  Sum<double> sum;
  Min<double> min;
  Max<double> max;
  Sum<std::int64_t> count;
  MaxKeepNaN<double> nan_kept;
  Max<double> nan_ignored;
  FLUXVIEW_HD void join(const Acc& o) {
    sum.join(o.sum);
    min.join(o.min);
    max.join(o.max);
    count.join(o.count);
    nan_kept.join(o.nan_kept);
    nan_ignored.join(o.nan_ignored);
  }
};

// How often each cell of the box was visited by a device loop.
template <int X, int Y, int Z>
std::vector<int> device_visits(const Box& b, Block<X, Y, Z> block) {
  Buffer counts(Location::device, sizeof(int) * std::size_t(b.cells()));
  counts.fill_zero();
  int* c = static_cast<int*>(counts.data());
  for_each_cell(
      Device{}, b,
      // Captures named: the host pass compiles an empty body, and with [=] it would
      // capture nothing, giving the kernel another name than the device pass gives it.
      [c, b] FLUXVIEW_LAMBDA(int i, int j, int k) {
#if defined(__CUDA_ARCH__)
        atomicAdd(c + slot(b, i, j, k), 1);
#endif
      },
      block);
  std::vector<int> host(std::size_t(b.cells()));
  copy_bytes(host.data(), Location::host, c, Location::device, sizeof(int) * host.size());
  return host;
}

template <class Space>
Acc reduce_values(const Space& s, const Box& b, bool with_nan) {
  return reduce_cells(s, b, Acc{}, [=] FLUXVIEW_LAMBDA(int i, int j, int k, Acc& acc) {
    const double v = value(i, j, k);
    acc.sum.add(v);
    acc.min.add(v);
    acc.max.add(v);
    acc.count.add(1);
    const double w = with_nan && i == b.hi[0] - 2 && j == b.lo[1] && k == b.hi[2] - 1 ? NAN : v;
    acc.nan_kept.add(w);
    acc.nan_ignored.add(w);
  });
}

const Box kBoxes[] = {
    Box{{-3, -3, -3}, {45, 21, 13}},  // 3D with ghost indices
    Box{{0, -2, 0}, {300, 77, 1}},    // 2D: z folds into x
    Box{{-1, 0, 0}, {5000, 1, 1}},    // 1D: y and z fold into x
    Box{{0, 0, 0}, {1, 1, 1}},        // one cell
    Box{{0, 0, 0}, {256, 256, 64}},   // many blocks: partials joined by the last one
    // longer than a grid's 65535 blocks along z (the adaptive mesh's pool of 8^3 blocks
    // one after another: 25000 of them) and along y: the grid strides
    Box{{0, 0, 0}, {8, 8, 200000}},
    Box{{0, -1, 0}, {1, 300000, 1}},
};

}  // namespace exec_gpu_test

using namespace exec_gpu_test;

TEST(ExecDevice, ForEachCellVisitsEveryCellOnce) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  for (const Box& b : kBoxes) {
    for (int v : device_visits(b, DefaultBlock{})) ASSERT_EQ(v, 1);
    for (int v : device_visits(b, Block<32, 2, 2>{})) ASSERT_EQ(v, 1);
    for (int v : device_visits(b, Block<256, 1, 1>{})) ASSERT_EQ(v, 1);
  }
}

TEST(ExecDevice, ReductionsMatchTheHostAndRepeat) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  for (const Box& b : kBoxes)
    for (bool with_nan : {false, true}) {
      const Acc h = reduce_values(Host{}, b, with_nan);
      for (int repeat = 0; repeat < 2; ++repeat) {
        const Acc d = reduce_values(Device{}, b, with_nan);
        EXPECT_EQ(d.sum.value, h.sum.value);
        EXPECT_EQ(d.min.value, h.min.value);
        EXPECT_EQ(d.max.value, h.max.value);
        EXPECT_EQ(d.count.value, b.cells());
        EXPECT_EQ(std::isnan(d.nan_kept.value), std::isnan(h.nan_kept.value));
        if (!with_nan || b.extent(0) < 2) EXPECT_EQ(d.nan_kept.value, h.nan_kept.value);
        EXPECT_EQ(d.nan_ignored.value, h.nan_ignored.value);
      }
    }
}

TEST(ExecDevice, AnEmptyBoxLaunchesNothingAndReducesToTheIdentity) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const Box empty{{0, 0, 0}, {8, 0, 8}};
  EXPECT_TRUE(device_visits(empty, DefaultBlock{}).empty());
  const Acc a = reduce_values(Device{}, empty, false);
  EXPECT_EQ(a.count.value, 0);
  EXPECT_EQ(a.min.value, INFINITY);
}
