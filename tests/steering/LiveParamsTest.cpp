// Live parameters (Solver::set_live): every key says whether it is live and why not; a live
// change takes effect at the next step and is exactly a restart with the new value at that
// step; what the parameters or the state do not allow is refused, changing nothing.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#if defined(FLUXVIEW_HAVE_AMR)
#include "sim/amr/AmrHierarchy.hpp"
#endif
#include "sim/core/ConfigError.hpp"
#include "sim/core/Steering.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

TEST(LiveParams, EveryKeyOfEveryFamilySaysWhetherItIsLiveAndWhyNot) {
  for (const SolverFamily& f : solver_families()) {
    std::vector<ParamSpec> specs = common_params(f.default_n, f.default_length);
    specs.insert(specs.end(), f.params.begin(), f.params.end());
    for (const ParamSpec& s : specs) {
      EXPECT_TRUE(s.live || !s.fixed_because.empty()) << f.name << ": " << s.key;
      EXPECT_TRUE(!s.live || s.fixed_because.empty()) << f.name << ": " << s.key;
    }
  }
}

TEST(LiveParams, TheKeysTheIssueNamesAreLive) {
  const Scenario heat = load_scenario("heat/hot-spot"), fd = load_scenario("fd/forced-turbulence"),
                 fv = load_scenario("fv/sedov");
  for (const char* k : {"heat.alpha", "heat.T_xmin", "heat.T_xmax", "heat.T_ymin", "heat.T_ymax",
                        "heat.T_zmin", "heat.T_zmax"})
    EXPECT_TRUE(heat.params.spec(k).live) << k;
  EXPECT_FALSE(heat.params.spec("heat.T_initial").live);
  for (const char* k : {"fd.nu", "fd.f0", "fd.kmin", "fd.kmax", "fd.courant", "fd.forcing"})
    EXPECT_TRUE(fd.params.spec(k).live) << k;
  for (const char* k : {"fv.cfl", "fv.gamma", "fv.bc", "fv.bc_xmin", "fv.riemann", "fv.theta"})
    EXPECT_TRUE(fv.params.spec(k).live) << k;
  EXPECT_FALSE(fv.params.spec("fv.tracer").live);
}

TEST(LiveParams, AFixedKeyIsRefusedWithItsReasonAndNothingChanges) {
  auto s = make_solver("heat/hot-spot", kHeat2D);
  s->advance(3);
  const double dt = s->dt();
  try {
    s->set_live("grid.nx", ParamValue(std::int64_t(32)));
    FAIL() << "grid.nx changed while running";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("grid.nx cannot change while the run goes"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("Reset"), std::string::npos) << e.what();
  }
  try {
    s->set_live("heat.spot_T", ParamValue(50.0));
    FAIL();
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("initial condition"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s->set_live("heat.alpah", ParamValue(1e-5)), SteeringError);
  EXPECT_THROW(s->set_live("heat.alpha", ParamValue(-1.0)), SteeringError);
  EXPECT_EQ(s->dt(), dt);
}

TEST(LiveParams, ValuesTheRunCannotTakeAreRefused) {
  // A fixed heat step that a larger diffusivity makes unstable.
  auto heat = make_solver("heat/hot-spot", with(kHeat2D, {"heat.dt=0.05"}));
  try {
    heat->set_live("heat.alpha", ParamValue(1e-3));
    FAIL() << "an unstable diffusivity was taken";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("unstable"), std::string::npos) << e.what();
  }
  EXPECT_EQ(heat->dt(), 0.05);
  // fd: a Courant number beyond RK3's stability.
  auto fd = make_solver("fd/viscous-decay", kFd2D);
  EXPECT_THROW(fd->set_live("fd.courant", ParamValue(0.6)), SteeringError);
  // fv: periodicity is set at reset.
  auto fv = make_solver("fv/sedov", kFv2D);
  try {
    fv->set_live("fv.bc", ParamValue(std::string("periodic")));
    FAIL() << "periodic faces joined while running";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("periodic"), std::string::npos) << e.what();
  }
  fv->set_live("fv.bc", ParamValue(std::string("reflecting")));  // outflow -> reflecting is live
  // fv: a gamma whose pressures would fall through the floor.
  auto sod = make_solver("fv/sod", {"grid.nx=64", "fv.p_floor=0.05"});
  try {
    sod->set_live("fv.gamma", ParamValue(1.02));
    FAIL() << "a gamma that floors the pressure was taken";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("fv.p_floor"), std::string::npos) << e.what();
  }
  sod->set_live("fv.gamma", ParamValue(5.0 / 3.0));
}

// A change at step n, then m more steps, against a run restarted at step n from a
// checkpoint with the changed parameter from the start: the two must agree to the last bit,
// and differ from the run left alone.
void expect_live_is_restart(const std::string& scenario, const std::vector<std::string>& base,
                            const std::string& key, const ParamValue& value, int n, int m) {
  SCOPED_TRACE(scenario + " " + key + " = " + format_value(value));
  auto live = make_solver(scenario, base);
  live->advance(n);
  live->set_live(key, value);
  live->advance(m);

  auto first = make_solver(scenario, base);
  first->advance(n);
  const SolverState at_n = first->save_state();
  const std::string text = std::holds_alternative<double>(value)
                               ? exact_number(std::get<double>(value))
                               : format_value(value);
  auto restarted = make_solver(scenario, with(base, {key + "=" + text}));
  restarted->load_state(at_n);
  restarted->advance(m);
  EXPECT_TRUE(same_state(*live, *restarted));

  auto untouched = make_solver(scenario, base);
  untouched->advance(n + m);
  EXPECT_FALSE(same_state(*live, *untouched)) << "the change made no difference";
}

TEST(LiveParams, HeatChangeIsARestartWithTheNewValue) {
  expect_live_is_restart("heat/hot-spot", kHeat2D, "heat.alpha", 3e-5, 7, 9);
  expect_live_is_restart("heat/hot-spot", kHeat2D, "heat.T_xmin", 90.0, 7, 9);
  expect_live_is_restart("heat/hot-spot", kHeat2D, "heat.safety", 0.5, 7, 9);
}

TEST(LiveParams, FdChangeIsARestartWithTheNewValue) {
  expect_live_is_restart("fd/viscous-decay", kFd2D, "fd.nu", 0.02, 5, 6);
  expect_live_is_restart("fd/viscous-decay", kFd2D, "fd.courant", 0.2, 5, 6);
  const std::vector<std::string> forced = {"grid.n=12"};
  expect_live_is_restart("fd/forced-turbulence", forced, "fd.f0", 0.05, 4, 5);
  expect_live_is_restart("fd/forced-turbulence", forced, "fd.kmax", 3.0, 4, 5);
}

TEST(LiveParams, FvChangeIsARestartWithTheNewValue) {
  expect_live_is_restart("fv/sedov", kFv2D, "fv.cfl", 0.2, 6, 8);
  expect_live_is_restart("fv/sedov", kFv2D, "fv.gamma", 5.0 / 3.0, 6, 8);
  expect_live_is_restart("fv/sedov", kFv2D, "fv.riemann", std::string("hll"), 6, 8);
  // Gas leaving through the left face, which then becomes a wall.
  expect_live_is_restart("fv/sod", {"grid.nx=128", "fv.left_u=-0.3"}, "fv.bc_xmin",
                         std::string("reflecting"), 10, 20);
}

#if defined(FLUXVIEW_HAVE_AMR)
// The adaptive mesh takes the uniform grid's live keys (AmrFvSolver::set_live): a 2D blast
// on blocks of 8, two levels, regridding every other step.
const std::vector<std::string> kAmr2D = {
    "grid.nx=32",         "grid.ny=32",           "grid.nz=1", "fv.mesh=amr", "fv.amr.block=8",
    "fv.amr.max_level=2", "fv.amr.regrid_every=2"};

// A field's values in every cell of every block (one rank).
std::vector<double> block_field(const Solver& s, const std::string& field) {
  const HostArray v = amr::hierarchy_of(s)->block_values(field);
  std::vector<double> out(std::size_t(v.count()));
  for (std::int64_t c = 0; c < v.count(); ++c) out[std::size_t(c)] = v.at(c);
  return out;
}

TEST(LiveParams, AdaptiveMeshChangeIsARestartWithTheNewValue) {
  expect_live_is_restart("fv/sedov", kAmr2D, "fv.cfl", 0.2, 5, 6);
  expect_live_is_restart("fv/sedov", kAmr2D, "fv.riemann", std::string("hll"), 5, 6);
  expect_live_is_restart("fv/sedov", kAmr2D, "fv.theta", 1.0, 5, 6);
  // Gas leaving through the left face, which then becomes a wall: the ghost tasks of the
  // blocks on that face are planned again.
  expect_live_is_restart("fv/sod",
                         {"grid.nx=64", "grid.ny=1", "grid.nz=1", "fv.left_u=-0.3", "fv.mesh=amr",
                          "fv.amr.block=8", "fv.amr.max_level=2", "fv.amr.regrid_every=2"},
                         "fv.bc_xmin", std::string("reflecting"), 10, 20);
}

// gamma keeps the conserved state (so mass and energy) and scales every pressure by
// (gamma' - 1) / (gamma - 1); the sound speed grows, so the next step is shorter. A gamma
// that would take the lowest pressure through the floor is refused, changing nothing.
TEST(LiveParams, AdaptiveMeshGammaKeepsTheConservedStateAndScalesThePressure) {
  auto s = make_solver("fv/sedov", kAmr2D);
  s->advance(4);
  const SolverState before = s->save_state();
  const double dt = s->dt();
  const std::vector<double> p0 = block_field(*s, "p");
  s->set_live("fv.gamma", ParamValue(5.0 / 3.0));
  const SolverState after = s->save_state();
  for (std::size_t i = 0; i < before.arrays.size(); ++i)
    EXPECT_EQ(before.arrays[i].values.bytes, after.arrays[i].values.bytes) << before.arrays[i].name;
  const std::vector<double> p1 = block_field(*s, "p");
  ASSERT_EQ(p0.size(), p1.size());
  const double factor = (5.0 / 3.0 - 1) / (1.4 - 1);
  double worst = 0;
  for (std::size_t c = 0; c < p0.size(); ++c)
    worst = std::max(worst, std::fabs(p1[c] / (p0[c] * factor) - 1));
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(s->dt(), 0.9 * dt);

  auto floored = make_solver("fv/sedov", with(kAmr2D, {"fv.p_floor=1e-8"}));
  floored->advance(2);
  const double dt2 = floored->dt();
  try {
    floored->set_live("fv.gamma", ParamValue(1.0001));
    FAIL() << "a gamma that floors the pressure was taken";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("fv.p_floor"), std::string::npos) << e.what();
  }
  EXPECT_EQ(floored->dt(), dt2);
  try {
    floored->set_live("fv.amr.max_level", ParamValue(std::int64_t(3)));
    FAIL() << "the mesh's levels changed while running";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("Reset"), std::string::npos) << e.what();
  }
}
#endif

}  // namespace
