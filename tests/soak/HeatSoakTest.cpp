// Long runs at small size: 10^5 steps with nothing drifting beyond round-off.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <cmath>

#include "sim/core/Health.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

TEST(HeatSoak, HotWallSteadyStateHoldsForAHundredThousandSteps) {
  const Scenario s = load_scenario("heat/hot-wall", {"grid.n=9", "heat.steady_tol=0"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(10000);  // 10^4 steps: converged to round-off at 9^3
  const HostArray early = gather_interior(solver->view("T"));
  solver->advance(90000);
  ASSERT_EQ(solver->step(), 100000);
  EXPECT_FALSE(check_health(*solver).has_value());
  const HostArray late = gather_interior(solver->view("T"));
  double drift = 0, mn = 1e300, mx = -1e300;
  for (std::int64_t c = 0; c < late.count(); ++c) {
    drift = std::max(drift, std::fabs(late.at(c) - early.at(c)));
    mn = std::min(mn, late.at(c));
    mx = std::max(mx, late.at(c));
  }
  EXPECT_LT(drift, 1e-11);  // 100 degC scale: a few hundred ulps at most
  EXPECT_GE(mn, 0.0);
  EXPECT_LE(mx, 100.0);
  EXPECT_NEAR(solver->time(), 100000 * solver->dt(), 1e-9 * solver->time());
}
