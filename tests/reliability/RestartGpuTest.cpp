// Restart on the CUDA backend: 2N steps straight equal N steps, save_state (device to
// host), a fresh solver, load_state (host to device), N steps, byte for byte, for every
// family and both precisions. The HDF5 file in between is tested on the CPU
// (CheckpointTest); this holds the device side of the state's round trip.
#include <gtest/gtest.h>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

struct RestartCase {
  std::string scenario;
  std::vector<std::string> overrides;
  Precision precision;
};

class RestartGpu : public ::testing::TestWithParam<RestartCase> {};

TEST_P(RestartGpu, ContinuesBitIdentically) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  const RestartCase& c = GetParam();
  const Scenario s = load_scenario(c.scenario, c.overrides);
  const SolverFamily& fam = find_family(s.solver);
  const int n = 20;
  auto straight = fam.create(BackendKind::cuda, c.precision);
  straight->reset(s.params);
  straight->advance(2 * n);
  auto first = fam.create(BackendKind::cuda, c.precision);
  first->reset(s.params);
  first->advance(n);
  const SolverState st = first->save_state();
  first.reset();
  auto resumed = fam.create(BackendKind::cuda, c.precision);
  resumed->reset(s.params);
  resumed->load_state(st);
  resumed->advance(n);
  ASSERT_EQ(resumed->step(), straight->step());
  EXPECT_EQ(resumed->time(), straight->time());
  for (const FieldInfo& f : straight->fields())
    EXPECT_EQ(gather_interior(straight->view(f.name)).bytes,
              gather_interior(resumed->view(f.name)).bytes)
        << c.scenario << ": " << f.name;
}

INSTANTIATE_TEST_SUITE_P(
    Families, RestartGpu,
    ::testing::Values(RestartCase{"heat/hot-spot", {"grid.n=40"}, Precision::f64},
                      RestartCase{"heat/hot-spot", {"grid.n=40"}, Precision::f32},
                      RestartCase{"fd/forced-turbulence", {"grid.n=32"}, Precision::f64},
                      RestartCase{"fd/forced-turbulence", {"grid.n=32"}, Precision::f32},
                      RestartCase{"fv/sedov", {"grid.n=32"}, Precision::f64},
                      RestartCase{"fv/cloud-disruption", {"grid.n=32"}, Precision::f32}),
    [](const auto& info) {
      std::string name =
          info.param.scenario + (info.param.precision == Precision::f64 ? "_double" : "_float");
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });
