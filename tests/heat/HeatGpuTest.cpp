// Every CUDA heat kernel against the CPU backend: same scenario, 100 steps, compared
// cell by cell. The grids are non-cubic, with sizes that are and are not multiples of
// the kernels' tiles and vector widths, unequal walls and a hot spot off the centre,
// so an error in a halo, a tile edge or a wall shows up as a wrong cell.
#include <gtest/gtest.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/heat/HeatStep.hpp"

using namespace fluxview;

namespace {

constexpr int kSteps = 100;

struct Dims {
  int nx, ny, nz;
};

std::vector<std::string> overrides(const Dims& d, const std::string& kernel) {
  return {"grid.nx=" + std::to_string(d.nx),
          "grid.ny=" + std::to_string(d.ny),
          "grid.nz=" + std::to_string(d.nz),
          "heat.init=hot-spot",
          "heat.T_initial=20",
          "heat.spot_T=100",
          "heat.spot_radius=0.3",
          "heat.spot_x=0.35",
          "heat.spot_y=0.6",
          "heat.spot_z=0.45",
          "heat.T_xmin=10",
          "heat.T_xmax=30",
          "heat.T_ymin=40",
          "heat.T_ymax=100",
          "heat.T_zmin=55",
          "heat.T_zmax=70",
          "heat.steady_tol=0",
          "heat.kernel=" + kernel};
}

HostArray run(BackendKind backend, Precision precision, const Dims& d, const std::string& kernel,
              int steps) {
  const Scenario sc = load_scenario("heat/hot-wall", overrides(d, kernel));
  auto solver = find_family("heat").create(backend, precision);
  solver->reset(sc.params);
  solver->advance(steps);
  solver->synchronize();
  return gather_interior(solver->view("T"));
}

std::string key(Precision p, const Dims& d) {
  std::ostringstream o;
  o << (p == Precision::f64 ? "f64 " : "f32 ") << d.nx << 'x' << d.ny << 'x' << d.nz;
  return o.str();
}

// The CPU result, computed once per grid and precision.
const HostArray& cpu_reference(Precision p, const Dims& d) {
  static std::map<std::string, HostArray> cache;
  auto it = cache.find(key(p, d));
  if (it == cache.end())
    it = cache.emplace(key(p, d), run(BackendKind::cpu, p, d, "fast", kSteps)).first;
  return it->second;
}

using Case = std::tuple<std::string, Precision, Dims>;

class HeatGpu : public ::testing::TestWithParam<Case> {};

TEST_P(HeatGpu, MatchesCpuAfter100Steps) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const auto& [kernel, precision, d] = GetParam();
  const HostArray& ref = cpu_reference(precision, d);
  const HostArray init = run(BackendKind::cpu, precision, d, kernel, 0);
  const HostArray gpu = run(BackendKind::cuda, precision, d, kernel, kSteps);
  ASSERT_EQ(gpu.count(), ref.count());
  ASSERT_EQ(gpu.count(), std::int64_t(d.nx) * d.ny * d.nz);

  // The run must have moved heat, or the comparison proves nothing.
  double moved = 0;
  for (std::int64_t c = 0; c < ref.count(); ++c)
    moved = std::fmax(moved, std::fabs(ref.at(c) - init.at(c)));
  EXPECT_GT(moved, 1.0) << "100 steps changed no cell by more than 1 K";

  // Relative error per cell; every temperature here lies in [10, 100] degC.
  const double tol = precision == Precision::f64 ? 1e-12 : 1e-5;
  double worst = 0;
  std::int64_t where = 0;
  for (std::int64_t c = 0; c < ref.count(); ++c) {
    const double e = std::fabs(gpu.at(c) - ref.at(c)) / std::fabs(ref.at(c));
    if (!(e <= worst)) {  // also catches NaN
      worst = e;
      where = c;
      if (std::isnan(e)) break;
    }
  }
  const int i = int(where % d.nx), j = int(where / d.nx % d.ny), k = int(where / d.nx / d.ny);
  EXPECT_LE(worst, tol) << kernel << ' ' << key(precision, d) << ": worst cell (" << i << ',' << j
                        << ',' << k << ") gpu " << gpu.at(where) << " cpu " << ref.at(where);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto& [kernel, precision, d] = info.param;
  return kernel + (precision == Precision::f64 ? "_f64_" : "_f32_") + std::to_string(d.nx) + "x" +
         std::to_string(d.ny) + "x" + std::to_string(d.nz);
}

// 45x37x29: nothing divides evenly. 64x17x6 and 128x9x5: x is exactly one or two tiles
// of the fast kernel (64 doubles or 128 floats wide), so the east halo is the wall.
// 45x37x1 and 130x70x1: 2D grids (nz = 1), which fast runs itself and the other
// shared-memory variants hand to 3DBase.
const std::vector<Dims> kGrids3D = {{45, 37, 29}, {64, 17, 6}, {128, 9, 5}};
const std::vector<Dims> kGrids2D = {{45, 37, 1}, {130, 70, 1}};

INSTANTIATE_TEST_SUITE_P(AllKernels3D, HeatGpu,
                         ::testing::Combine(::testing::ValuesIn(heat::kernel_names()),
                                            ::testing::Values(Precision::f64, Precision::f32),
                                            ::testing::ValuesIn(kGrids3D)),
                         case_name);

INSTANTIATE_TEST_SUITE_P(AllKernels2D, HeatGpu,
                         ::testing::Combine(::testing::ValuesIn(heat::kernel_names()),
                                            ::testing::Values(Precision::f64, Precision::f32),
                                            ::testing::ValuesIn(kGrids2D)),
                         case_name);

}  // namespace
