// Every CUDA method against the CPU backend running the same method (the same
// formulation, to round-off): 100 steps from a smooth random state with forcing on, on a
// grid that is not a multiple of any tile size and on one that is.
#include <gtest/gtest.h>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <cmath>

#include "sim/core/CudaRuntime.hpp"
#include "sim/fd/FdSolver.hpp"
#include "tests/fd/FdTestUtil.hpp"

using namespace fluxview;

namespace {

struct Case {
  const char* method;
  Precision precision;
  const char* grid;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.method << (c.precision == Precision::f32 ? " float " : " double ") << c.grid;
}

class FdGpu : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(FdGpu, MatchesCpuAfter100Steps) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const Case c = GetParam();
  const std::vector<std::string> set = {c.grid,
                                        "fd.init=random",
                                        "fd.u0=0.3",
                                        "fd.nu=0.02",
                                        "fd.forcing=true",
                                        "fd.f0=0.01",
                                        "fd.seed=3",
                                        std::string("fd.method=") + c.method};
  auto gpu = fd::test::make_solver("fd/forced-turbulence", set, BackendKind::cuda, c.precision);
  auto cpu = fd::test::make_solver("fd/forced-turbulence", set, BackendKind::cpu, c.precision);
  gpu->advance(100);
  gpu->synchronize();
  cpu->advance(100);
  // The automatic dt follows max |u| of each backend's state, so the clocks agree to the
  // same tolerance as the fields.
  const double tol = c.precision == Precision::f32 ? 1e-5 : 1e-12;
  EXPECT_NEAR(gpu->time(), cpu->time(), tol * cpu->time());
  for (const char* f : {"lnrho", "ux", "uy", "uz"}) {
    const double d = fluxview::test::max_relative_difference(*gpu, *cpu, f);
    std::printf("%s %s %s %s: max |gpu - cpu| / max |cpu| = %.3e\n", c.method,
                c.precision == Precision::f32 ? "float" : "double", c.grid, f, d);
    EXPECT_LT(d, tol) << f;
  }
  // Diagnostics computed on the device agree with the host's.
  for (const char* d : {"mass", "kinetic_energy", "u_max"})
    EXPECT_NEAR(
        fd::test::diagnostic(*gpu, d), fd::test::diagnostic(*cpu, d),
        (c.precision == Precision::f32 ? 1e-5 : 1e-12) * std::fabs(fd::test::diagnostic(*cpu, d)))
        << d;
}

INSTANTIATE_TEST_SUITE_P(
    Methods, FdGpu,
    ::testing::Values(
        Case{"55point", Precision::f32, "grid.n=40"}, Case{"55point", Precision::f64, "grid.n=40"},
        Case{"19point", Precision::f32, "grid.n=40"}, Case{"19point", Precision::f64, "grid.n=40"},
        Case{"fast", Precision::f32, "grid.n=40"}, Case{"fast", Precision::f64, "grid.n=40"},
        Case{"direct55", Precision::f32, "grid.n=40"},
        Case{"direct55", Precision::f64, "grid.n=40"}, Case{"55point", Precision::f32, "grid.n=64"},
        Case{"55point", Precision::f64, "grid.n=64"}, Case{"19point", Precision::f32, "grid.n=64"},
        Case{"19point", Precision::f64, "grid.n=64"}, Case{"fast", Precision::f32, "grid.n=64"},
        Case{"fast", Precision::f64, "grid.n=64"}),
    [](const ::testing::TestParamInfo<Case>& i) {
      std::string g = i.param.grid + 7;  // "n=40" -> "40"
      return std::string(i.param.method) +
             (i.param.precision == Precision::f32 ? "_float_" : "_double_") +
             g.substr(g.find('=') + 1);
    });

TEST(FdGpuSpectrum, SpectrumOfDeviceFieldsMatchesHost) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const std::vector<std::string> set = {"grid.n=32", "fd.init=random", "fd.u0=0.3"};
  auto gpu = fd::test::make_solver("fd/forced-turbulence", set, BackendKind::cuda);
  auto cpu = fd::test::make_solver("fd/forced-turbulence", set, BackendKind::cpu);
  const auto a = fd::kinetic_spectrum(*gpu), b = fd::kinetic_spectrum(*cpu);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k].second, b[k].second, 1e-12) << k;
}
