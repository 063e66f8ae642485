// Long runs of the fluid families at small size: 10^5 steps in which the conserved
// totals move no more than round-off accumulated over the run allows.
#include <gtest/gtest.h>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <cmath>
#include <map>

#include "sim/core/Health.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

namespace {
std::map<std::string, double> totals(Solver& s) {
  std::map<std::string, double> m;
  for (const auto& d : s.diagnostics()) m[d.name] = d.value;
  return m;
}
}  // namespace

TEST(FluidSoak, FiniteVolumeConservesMassMomentumAndEnergyOverAHundredThousandSteps) {
  // A periodic 2D shear layer: nothing leaves the box, so every total is conserved.
  const Scenario s =
      load_scenario("fv/kelvin-helmholtz", {"grid.nx=12", "grid.ny=12", "run.until=0"});
  auto solver = find_family("fv").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  const auto before = totals(*solver);
  solver->advance(100000);
  ASSERT_FALSE(check_health(*solver).has_value());
  const auto after = totals(*solver);
  EXPECT_NEAR(after.at("mass"), before.at("mass"), 1e-11 * std::fabs(before.at("mass")));
  EXPECT_NEAR(after.at("energy"), before.at("energy"), 1e-11 * std::fabs(before.at("energy")));
  // Momentum starts near zero: compare with the momentum scale rho |u| of the layer.
  const double scale = before.at("mass") * 0.5;
  for (const char* m : {"momentum_x", "momentum_y", "momentum_z"})
    EXPECT_NEAR(after.at(m), before.at(m), 1e-11 * scale) << m;
}

TEST(FluidSoak, FiniteDifferenceKeepsMassAndDecaysEnergyOverAHundredThousandSteps) {
  // Uniform density and a divergence-free wave: the log-form continuity equation
  // conserves mass exactly here (docs/fd.md), so only round-off may move it.
  const Scenario s =
      load_scenario("fd/viscous-decay", {"grid.nx=8", "grid.ny=1", "grid.nz=1", "run.until=0"});
  auto solver = find_family("fd").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  const auto before = totals(*solver);
  solver->advance(100000);
  ASSERT_FALSE(check_health(*solver).has_value());
  const auto after = totals(*solver);
  EXPECT_NEAR(after.at("mass"), before.at("mass"), 1e-11 * before.at("mass"));
  EXPECT_LT(after.at("kinetic_energy"), before.at("kinetic_energy"));
  EXPECT_GE(after.at("kinetic_energy"), 0.0);
}
