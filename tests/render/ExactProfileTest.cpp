// The exact curves the 1D view draws: Sod's shock tube at t = 0.14 against Toro's star
// state, and a heat sine mode against its exponential decay; none where the run is not
// the problem the solution solves.
#include <gtest/gtest.h>
#include <cmath>
#include <cstddef>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/ExactProfile.hpp"
#include "tests/support/SolverTestUtil.hpp"

using namespace fluxview;
using fluxview::app::exact_profile;
using fluxview::app::ExactCurve;

namespace {

std::optional<ExactCurve> curve_of(const std::string& scenario,
                                   const std::vector<std::string>& overrides,
                                   const std::string& field, double t, bool steered = false) {
  const Scenario sc = load_scenario(scenario, overrides);
  const auto s = test::make_solver(scenario, overrides);
  return exact_profile(sc, s->grid(), field, t, steered);
}

double at(const ExactCurve& c, double x) {
  for (std::size_t i = 0; i + 1 < c.x.size(); ++i)
    if (c.x[i] <= x && x < c.x[i + 1]) return c.value[i];
  return NAN;
}

}  // namespace

TEST(ExactProfile, SodAtItsEndTimeHasToroStarStates) {
  const auto rho = curve_of("fv/sod", {}, "rho", 0.14);
  ASSERT_TRUE(rho);
  EXPECT_EQ(rho->x.front(), 0.0);  // the box, wall to wall
  EXPECT_NEAR(rho->x.back(), 1.0, 1e-15);
  EXPECT_EQ(at(*rho, 0.15), 1.0);
  EXPECT_NEAR(at(*rho, 0.56), 0.42632, 1e-5);  // Toro, table 4.3 (test 1)
  EXPECT_NEAR(at(*rho, 0.69), 0.26557, 1e-5);
  EXPECT_EQ(at(*rho, 0.80), 0.125);
  EXPECT_NEAR(at(*curve_of("fv/sod", {}, "p", 0.14), 0.6), 0.30313, 1e-5);
  EXPECT_NEAR(at(*curve_of("fv/sod", {}, "ux", 0.14), 0.6), 0.92745, 1e-5);
  const auto tracer = curve_of("fv/sod", {}, "tracer", 0.14);
  ASSERT_TRUE(tracer);
  EXPECT_EQ(at(*tracer, 0.62), 1.0);  // the contact is at 0.5 + 0.92745 t = 0.6298
  EXPECT_EQ(at(*tracer, 0.64), 0.0);
  // At t = 0 the two states.
  EXPECT_EQ(at(*curve_of("fv/sod", {}, "rho", 0), 0.49), 1.0);
  // The same tube along y.
  const auto along_y = curve_of("fv/sod", {"fv.axis=y", "grid.nx=1", "grid.ny=400"}, "uy", 0.14);
  ASSERT_TRUE(along_y);
  EXPECT_NEAR(at(*along_y, 0.6), 0.92745, 1e-5);

  // None: a velocity across the tube, a steered run, the rippled tube, a 2D run.
  EXPECT_FALSE(curve_of("fv/sod", {}, "uy", 0.14));
  EXPECT_FALSE(curve_of("fv/sod", {}, "rho", 0.14, true));
  EXPECT_FALSE(curve_of("fv/sod", {"fv.ripple_amplitude=0.2"}, "rho", 0.14));
  EXPECT_FALSE(curve_of("fv/sod", {"grid.ny=8"}, "rho", 0.14));
}

TEST(ExactProfile, AHeatSineModeDecaysExponentially) {
  const std::vector<std::string> one_d = {"grid.nx=40", "grid.ny=1", "grid.nz=1",
                                          "heat.sine_amplitude=3", "heat.sine_mx=2"};
  const auto t = curve_of("heat/sine-decay", one_d, "T", 0.01);
  ASSERT_TRUE(t);
  const double k = 2 * std::numbers::pi, decay = 3 * std::exp(-k * k * 0.01);  // alpha = 1
  for (std::size_t i = 0; i < t->x.size(); i += 50)
    EXPECT_NEAR(t->value[i], decay * std::sin(k * t->x[i]), 1e-14);
  EXPECT_EQ(t->x.front(), 0.0);
  EXPECT_NEAR(t->x.back(), 1.0, 1e-15);
  auto warm = one_d;
  warm.push_back("heat.T_xmin=1");
  EXPECT_FALSE(curve_of("heat/sine-decay", warm, "T", 0.01));
}
