// Steering on the CUDA backend (label gpu; skipped without a device): every tool's kernel
// against the host loop (the same pointwise code), the stage with obstacles against the
// host's, the hold of heat obstacles after the hand-written kernels, probes sampled on the
// device, and replays bit-identical on the device for each family.
#include <gtest/gtest.h>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Journal.hpp"
#include "sim/core/Probe.hpp"
#include "sim/core/Steerer.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

void expect_close(const Solver& cpu, const Solver& gpu, double tol) {
  for (const FieldInfo& f : cpu.fields()) {
    const double rel = max_relative_difference(gpu, cpu, f.name);
    EXPECT_LT(rel, tol) << f.name;
  }
}

struct Stroke {
  std::string tool;
  std::map<std::string, double> args;
};

// The same strokes on both backends: the same amounts reported and the same fields, then
// `steps` steps on (the obstacles' stage and holds included).
void compare(const std::string& scenario, const std::vector<std::string>& o,
             const std::vector<Stroke>& strokes, int steps, double tol) {
  SCOPED_TRACE(scenario);
  auto cpu = make_solver(scenario, o, BackendKind::cpu);
  auto gpu = make_solver(scenario, o, BackendKind::cuda);
  for (const Stroke& k : strokes) {
    const ToolReport a = cpu->apply_tool(call(*cpu, k.tool, k.args));
    const ToolReport b = gpu->apply_tool(call(*gpu, k.tool, k.args));
    ASSERT_EQ(a.amounts.size(), b.amounts.size());
    for (std::size_t i = 0; i < a.amounts.size(); ++i)
      EXPECT_NEAR(b.amounts[i].value, a.amounts[i].value,
                  1e-9 * std::fmax(1.0, std::fabs(a.amounts[i].value)))
          << k.tool << " " << a.amounts[i].name;
  }
  expect_close(*cpu, *gpu, 1e-12);
  cpu->advance(steps);
  gpu->advance(steps);
  gpu->synchronize();
  expect_close(*cpu, *gpu, tol);
}

TEST(SteeringGpu, HeatToolsAndHeldObstaclesMatchTheHost) {
  FLUXVIEW_NEED_CUDA();
  for (const char* kernel : {"fast", "3DBase", "2DShMReg"})
    compare("heat/hot-spot", {"grid.n=40", std::string("heat.kernel=") + kernel},
            {{"heat-spot",
              {{"x", 0.03}, {"y", 0.06}, {"z", 0.05}, {"radius", 0.01}, {"amplitude", 40}}},
             {"heat-obstacle",
              {{"x", 0.07}, {"y", 0.04}, {"z", 0.05}, {"radius", 0.012}, {"temperature", 150}}}},
            100, 1e-12);
}

TEST(SteeringGpu, FdToolsMatchTheHost) {
  FLUXVIEW_NEED_CUDA();
  compare("fd/viscous-decay", {"grid.n=24"},
          {{"vortex", {{"x", 2}, {"y", 3}, {"z", 3}, {"radius", 0.8}, {"speed", 0.3}, {"axis", 1}}},
           {"kick", {{"x", 5}, {"y", 3}, {"z", 1}, {"radius", 0.6}, {"uz", 0.2}}},
           {"density-bump", {{"x", 1}, {"y", 1}, {"z", 1}, {"radius", 0.5}, {"amplitude", 0.5}}}},
          20, 1e-10);
}

TEST(SteeringGpu, FvToolsAndTheStageWithObstaclesMatchTheHost) {
  FLUXVIEW_NEED_CUDA();
  const std::vector<std::string> o = {"grid.n=32", "fv.init=uniform", "fv.ux=0.5", "fv.bc=periodic",
                                      "fv.tracer=true"};
  compare("fv/sedov", o,
          {{"obstacle", {{"x", 0.5}, {"y", 0.5}, {"z", 0.5}, {"radius", 0.15}}},
           {"blast", {{"x", 0.2}, {"y", 0.3}, {"z", 0.4}, {"radius", 0.1}, {"energy", 0.3}}},
           {"cloud", {{"x", 0.8}, {"y", 0.7}, {"z", 0.5}, {"radius", 0.1}, {"density_ratio", 5}}}},
          30, 1e-9);
}

TEST(SteeringGpu, ProbesSampleOnTheDeviceAsOnTheHost) {
  FLUXVIEW_NEED_CUDA();
  auto cpu = make_solver("fv/sedov", {"grid.n=32"}, BackendKind::cpu);
  auto gpu = make_solver("fv/sedov", {"grid.n=32"}, BackendKind::cuda);
  for (const char* field : {"rho", "p"}) {
    const Profile a =
        sample_line(cpu->view(field), cpu->grid(), {0.1, 0.2, 0.5}, {0.9, 0.7, 0.5}, 101);
    const Profile b =
        sample_line(gpu->view(field), gpu->grid(), {0.1, 0.2, 0.5}, {0.9, 0.7, 0.5}, 101);
    for (std::size_t i = 0; i < a.value.size(); ++i)
      EXPECT_NEAR(b.value[i], a.value[i], 1e-12 * std::fabs(a.value[i])) << field << " " << i;
  }
}

// A session of strokes and changes on the device, replayed from its journal on the device.
void expect_device_replay(const std::string& scenario, const std::vector<std::string>& o,
                          const std::string& journal, std::int64_t steps) {
  SCOPED_TRACE(scenario);
  const Scenario sc = load_scenario(scenario, o);
  auto a = make_solver(scenario, o, BackendKind::cuda);
  const Journal plan = check_journal(parse_journal(journal, "j"), sc.params, find_family(sc.solver),
                                     a->tools(), "j");
  Steerer first(plan);
  first.advance(*a, steps);
  first.apply_due(*a);
  auto b = make_solver(scenario, o, BackendKind::cuda);
  Steerer second(parse_journal(first.record().to_lines(), "record"));
  second.advance(*b, steps);
  second.apply_due(*b);
  a->synchronize();
  b->synchronize();
  EXPECT_TRUE(same_state(*a, *b));
}

TEST(SteeringGpu, ReplaysEndBitIdenticalOnTheDevice) {
  FLUXVIEW_NEED_CUDA();
  expect_device_replay(
      "heat/hot-spot", {"grid.n=48"},
      "at step 3 apply heat-spot x = 0.03 y = 0.03 z = 0.05 radius = 0.01 amplitude = 30\n"
      "at step 5 set heat.alpha = 3e-5\n"
      "at step 9 apply heat-obstacle x = 0.07 y = 0.05 z = 0.05 radius = 0.01 temperature = 0\n"
      "at step 12 set heat.T_zmin = 80\n",
      40);
  expect_device_replay("fd/forced-turbulence", {"grid.n=32"},
                       "at step 2 apply vortex x = 3 y = 3 z = 3 radius = 0.8 speed = 0.3\n"
                       "at step 4 set fd.nu = 0.01\n"
                       "at step 6 set fd.f0 = 0.05\n",
                       12);
  expect_device_replay(
      "fv/sedov", {"grid.n=48"},
      "at step 2 apply obstacle x = 0.7 y = 0.5 z = 0.5 radius = 0.1\n"
      "at step 4 apply cloud x = 0.3 y = 0.5 z = 0.5 radius = 0.08 density_ratio = 10\n"
      "at step 6 set fv.cfl = 0.3\n"
      "at step 8 apply blast x = 0.5 y = 0.2 z = 0.5 radius = 0.06 energy = 0.5\n",
      20);
}

}  // namespace
