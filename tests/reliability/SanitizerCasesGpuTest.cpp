// Small GPU cases for compute-sanitizer, whose racecheck slows the fv kernels by orders of
// magnitude (the full FvCuda.SedovMatchesCpuAfter100Steps, 40^3 for 100 steps five times
// over, never finished within 170 s). Each case runs every kernel of the fv CUDA backend
// it names (the stage kernel of both tile shapes, with 5 and 6 variables, the ghost,
// rate, totals, derived-field and health kernels) for a few steps on a grid of a few
// thousand cells that still spans several tiles in x and y and several planes in z, and
// must match the CPU backend (the same pointwise physics) to round-off.
//
//   compute-sanitizer --tool racecheck --error-exitcode 9 \
//     build-device/tests/reliability/test_sanitizer_cases --gtest_filter='SanitizerCases/*'
#include <gtest/gtest.h>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Health.hpp"
#include "tests/support/SolverTestUtil.hpp"

using namespace fluxview;
using fluxview::test::diagnostic;
using fluxview::test::interior_values;
using fluxview::test::make_solver;

namespace {

struct SanitizerCase {
  std::string name;
  std::string scenario;
  std::vector<std::string> overrides;
  Precision precision;
  double tolerance;  // largest difference to the CPU, relative to the field's magnitude
};

void PrintTo(const SanitizerCase& c, std::ostream* os) {
  *os << c.name;
}

class FvKernels : public ::testing::TestWithParam<SanitizerCase> {};

}  // namespace

TEST_P(FvKernels, MatchTheCpuOnASmallGrid) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const SanitizerCase& c = GetParam();
  auto cpu = make_solver(c.scenario, c.overrides, BackendKind::cpu, c.precision);
  auto gpu = make_solver(c.scenario, c.overrides, BackendKind::cuda, c.precision);
  const int steps = 3;
  cpu->advance(steps);
  gpu->advance(steps);
  gpu->synchronize();
  EXPECT_FALSE(check_health(*gpu).has_value());  // the device's first-bad-cell reduction
  for (const FieldInfo& f : cpu->fields()) {     // rho, then the derived fields
    const auto a = interior_values(*cpu, f.name), b = interior_values(*gpu, f.name);
    ASSERT_EQ(a.size(), b.size());
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      scale = std::max(scale, std::fabs(a[i]));
      diff = std::max(diff, std::fabs(a[i] - b[i]));
    }
    EXPECT_LE(diff, c.tolerance * std::max(scale, 1e-300)) << c.name << ": field " << f.name;
  }
  for (const char* d : {"mass", "energy"})  // the device's totals kernel
    EXPECT_NEAR(diagnostic(*gpu, d), diagnostic(*cpu, d), c.tolerance * diagnostic(*cpu, d))
        << c.name << ": " << d;
  EXPECT_EQ(diagnostic(*gpu, "nonfinite_cells"), 0);
}

// 40 x 12 x 6: two tiles in x (32 wide), several in y (4 or 8 high), six planes.
INSTANTIATE_TEST_SUITE_P(
    SanitizerCases, FvKernels,
    ::testing::Values(SanitizerCase{"sedov_tile32x4_double",
                                    "fv/sedov",
                                    {"grid.nx=40", "grid.ny=12", "grid.nz=6", "fv.cuda_tile=32x4"},
                                    Precision::f64,
                                    1e-12},
                      SanitizerCase{"sedov_tile32x8_float_hll",
                                    "fv/sedov",
                                    {"grid.nx=40", "grid.ny=12", "grid.nz=6", "fv.cuda_tile=32x8",
                                     "fv.riemann=hll"},
                                    Precision::f32,
                                    1e-5},
                      SanitizerCase{"cloud_tracer_double_reflecting",
                                    "fv/cloud-disruption",
                                    {"grid.nx=40", "grid.ny=12", "grid.nz=6", "fv.bc=reflecting"},
                                    Precision::f64,
                                    1e-12},
                      SanitizerCase{"kelvin_helmholtz_2d_periodic",
                                    "fv/kelvin-helmholtz",
                                    {"grid.nx=40", "grid.ny=24"},
                                    Precision::f64,
                                    1e-12},
                      SanitizerCase{
                          "sod_1d_float", "fv/sod", {"grid.nx=100"}, Precision::f32, 1e-5}),
    [](const auto& info) { return info.param.name; });
