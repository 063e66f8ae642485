// Mass, momentum and energy are conserved to round-off by the flux form: with periodic
// boundaries all of them, with reflecting walls mass and energy (walls push on the gas,
// so momentum along a walled axis changes) and momentum along periodic axes.
#include <gtest/gtest.h>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <cmath>

#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

struct Totals {
  double mass, mx, my, mz, energy;
};
Totals totals(Solver& s) {
  return {diagnostic(s, "mass"), diagnostic(s, "momentum_x"), diagnostic(s, "momentum_y"),
          diagnostic(s, "momentum_z"), diagnostic(s, "energy")};
}

// An off-centre blast in a moving gas: every conserved total is nonzero and fluxes cross
// every boundary.
std::vector<std::string> moving_blast(const std::string& bc) {
  return {"grid.n=20",           "fv.blast_x=0.3",   "fv.blast_y=0.6", "fv.blast_z=0.45",
          "fv.blast_radius=0.2", "fv.ambient_p=0.1", "fv.ux=0.7",      "fv.uy=-0.4",
          "fv.uz=0.3",           "fv.tracer=true",   "fv.bc=" + bc};
}

}  // namespace

TEST(FvConservation, PeriodicConservesEverything) {
  for (const char* riemann : {"hllc", "hll"}) {
    auto o = moving_blast("periodic");
    o.push_back(std::string("fv.riemann=") + riemann);
    auto s = make_solver("fv/sedov", o);
    const Totals a = totals(*s);
    const double tracer0 = diagnostic(*s, "tracer_mass");
    s->advance(30);
    const Totals b = totals(*s);
    EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0);
    // Round-off: 8000 cells, 60 stages of sums of O(10) energies.
    const double tol = 1e-12;
    EXPECT_NEAR(b.mass, a.mass, tol * a.mass) << riemann;
    EXPECT_NEAR(b.energy, a.energy, tol * a.energy) << riemann;
    EXPECT_NEAR(b.mx, a.mx, tol * a.mass) << riemann;
    EXPECT_NEAR(b.my, a.my, tol * a.mass) << riemann;
    EXPECT_NEAR(b.mz, a.mz, tol * a.mass) << riemann;
    EXPECT_NEAR(diagnostic(*s, "tracer_mass"), tracer0, tol * a.mass) << riemann;
    // The blast did something: momentum moved around, energy changed form.
    EXPECT_GT(diagnostic(*s, "max_mach"), 1.0);
  }
}

TEST(FvConservation, ReflectingConservesMassAndEnergy) {
  auto o = moving_blast("reflecting");
  o.push_back("fv.bc_z=periodic");
  auto s = make_solver("fv/sedov", o);
  const Totals a = totals(*s);
  s->advance(30);
  const Totals b = totals(*s);
  EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0);
  EXPECT_NEAR(b.mass, a.mass, 1e-12 * a.mass);
  EXPECT_NEAR(b.energy, a.energy, 1e-12 * a.energy);
  EXPECT_NEAR(b.mz, a.mz, 1e-12 * a.mass);  // z is periodic
  // The walls did push: x momentum changed by far more than round-off.
  EXPECT_GT(std::fabs(b.mx - a.mx), 1e-3 * std::fabs(a.mx));
}

TEST(FvConservation, FloatConservesToItsRoundOff) {
  auto s = make_solver("fv/sedov", moving_blast("periodic"), BackendKind::cpu, Precision::f32);
  const Totals a = totals(*s);
  s->advance(30);
  const Totals b = totals(*s);
  EXPECT_NEAR(b.mass, a.mass, 1e-5 * a.mass);
  EXPECT_NEAR(b.energy, a.energy, 1e-5 * a.energy);
  EXPECT_NEAR(b.mx, a.mx, 1e-5 * a.mass);
}

TEST(FvConservation, TwoDimensionalShearLayerConserves) {
  auto s = make_solver("fv/kelvin-helmholtz", {"grid.nx=64", "grid.ny=64"});
  const Totals a = totals(*s);
  s->advance(40);
  const Totals b = totals(*s);
  EXPECT_NEAR(b.mass, a.mass, 1e-12 * a.mass);
  EXPECT_NEAR(b.energy, a.energy, 1e-12 * a.energy);
  EXPECT_NEAR(b.mx, a.mx, 1e-12 * a.mass);
  EXPECT_NEAR(b.my, a.my, 1e-12 * a.mass);
  EXPECT_EQ(b.mz, 0.0);
}
