// Every CUDA kernel of the three families against the model solvers, per cell, in float
// and double, with the bounds of the CPU comparisons (the same formulas, the same or
// fewer roundings: fused multiply-adds only remove some). Grids that are not multiples of
// the kernels' tiles, and the reduced grids that some kernels hand to others. Skipped
// where no CUDA device is present.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "tests/model/FdModelChecks.hpp"
#include "tests/model/FvModelChecks.hpp"
#include "tests/model/HeatModelChecks.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

#define SKIP_WITHOUT_CUDA() \
  if (!have_cuda()) GTEST_SKIP() << "no CUDA device: the CUDA kernels cannot be compared"

std::string grid_name(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

// ---- heat: the seven kernels of Vizitiu et al. and fast ----

const std::vector<std::array<int, 3>> kHeatGrids = {
    {37, 19, 11}, {64, 17, 6}, {45, 37, 1}, {1, 15, 11}, {23, 1, 9}};

class HeatModelGpu : public ::testing::TestWithParam<std::tuple<std::string, int, Precision>> {};

TEST_P(HeatModelGpu, KernelMatchesTheModel) {
  SKIP_WITHOUT_CUDA();
  const auto [kernel, grid, precision] = GetParam();
  const double walls[6] = {10, 30.3, 40, 100, 55.5, 70};
  check_heat(BackendKind::cuda, precision, heat_overrides(kHeatGrids[grid], walls, kernel),
             kernel + " " + grid_name(kHeatGrids[grid]));
}

INSTANTIATE_TEST_SUITE_P(Kernels, HeatModelGpu,
                         ::testing::Combine(::testing::Values("3DBase", "3DShMOverL",
                                                              "3DShMNoOverL", "2DBase", "2DReg",
                                                              "2DShM", "2DShMReg", "fast"),
                                            ::testing::Range(0, int(kHeatGrids.size())),
                                            ::testing::Values(Precision::f64, Precision::f32)));

// ---- fd: every method, forced ----

const std::vector<std::array<int, 3>> kFdGrids = {{40, 12, 10}, {36, 20, 1}, {10, 1, 14}};

class FdModelGpu : public ::testing::TestWithParam<std::tuple<std::string, int, Precision>> {};

TEST_P(FdModelGpu, MethodMatchesTheModel) {
  SKIP_WITHOUT_CUDA();
  const auto [method, grid, precision] = GetParam();
  FdCase c;
  c.n = kFdGrids[grid];
  c.method = method;
  c.forcing = true;
  check_fd(BackendKind::cuda, precision, c, method + " " + grid_name(c.n));
}

INSTANTIATE_TEST_SUITE_P(Methods, FdModelGpu,
                         ::testing::Combine(::testing::Values("55point", "19point", "fast",
                                                              "direct55", "direct19"),
                                            ::testing::Range(0, int(kFdGrids.size())),
                                            ::testing::Values(Precision::f64, Precision::f32)));

TEST(FdModelGpuUnforced, FastMatchesTheModel) {
  SKIP_WITHOUT_CUDA();
  for (Precision p : {Precision::f64, Precision::f32}) {
    FdCase c;
    c.n = {40, 12, 10};
    c.method = "fast";
    check_fd(BackendKind::cuda, p, c, "fast unforced");
  }
}

// ---- fv: the fused tile kernel, both tile shapes ----

struct FvGpuGrid {
  std::array<int, 3> n;
  std::vector<std::string> bc;
};
const std::vector<FvGpuGrid> kFvGrids = {
    {{40, 12, 6},
     {"fv.bc=outflow", "fv.bc_xmin=reflecting", "fv.bc_y=periodic", "fv.bc_zmax=reflecting"}},
    {{36, 10, 1}, {"fv.bc=periodic"}},
    {{33, 1, 7}, {"fv.bc=reflecting"}},
    {{1, 30, 1}, {"fv.bc=reflecting"}},
    {{1, 9, 20}, {"fv.bc=outflow"}},
};

class FvModelGpu
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, int, Precision>> {};

TEST_P(FvModelGpu, TileKernelMatchesTheModel) {
  SKIP_WITHOUT_CUDA();
  const auto [riemann, tile, grid, precision] = GetParam();
  FvCase c;
  c.n = kFvGrids[grid].n;
  c.bc = kFvGrids[grid].bc;
  c.riemann = riemann;
  c.more = {"fv.cuda_tile=" + tile, "fv.tracer=true"};
  const FvCorrections k =
      check_fv(BackendKind::cuda, precision, c, riemann + " tile " + tile + " " + grid_name(c.n));
  EXPECT_EQ(k.corrected, 0);
}

INSTANTIATE_TEST_SUITE_P(Tiles, FvModelGpu,
                         ::testing::Combine(::testing::Values("hll", "hllc", "llf"),
                                            ::testing::Values("32x8", "32x4"),
                                            ::testing::Range(0, int(kFvGrids.size())),
                                            ::testing::Values(Precision::f64, Precision::f32)));

// The fallback inside the fused kernel: the cells in the middle of a 3D expansion are
// recomputed at first order (FvModelTest.cpp says how the state was chosen), and in 1D
// some need the floors after that.
TEST(FvModelGpuFallback, FallbackAndFloorsMatchTheModel) {
  SKIP_WITHOUT_CUDA();
  struct Expansion {
    std::array<int, 3> n;
    long double u, p;
    std::vector<std::string> more;
  };
  const std::vector<Expansion> cases = {
      {{8, 8, 8}, 0.8L, 0.25L, {"fv.p_floor=0.1", "fv.cfl=0.9"}},
      {{16, 1, 1}, 1.5L, 1.0L, {"fv.rho_floor=0.8", "fv.cfl=0.6"}},
  };
  for (Precision p : {Precision::f64, Precision::f32})
    for (const char* riemann : {"hllc", "hll", "llf"})
      for (const char* tile : {"32x8", "32x4"})
        for (const Expansion& e : cases) {
          FvCase c;
          c.n = e.n;
          c.riemann = riemann;
          c.more = e.more;
          c.more.push_back(std::string("fv.cuda_tile=") + tile);
          c.given = expansion(e.n, e.u, e.p);
          const FvCorrections k =
              check_fv(BackendKind::cuda, p, c,
                       std::string(riemann) + " tile " + tile + " " + grid_name(e.n));
          EXPECT_GT(k.corrected, 0);
        }
}

}  // namespace
