// The tools change the state by the amounts they report, and those are the amounts the
// physics says: the heat of a spot, the energy of a blast, the mass of a cloud or a bump,
// the momentum of a kick. What would make the state unphysical is refused, changing
// nothing. Obstacles: held temperatures stay held; the flow goes around a solid, which no
// mass or energy crosses.
#include <gtest/gtest.h>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(FLUXVIEW_HAVE_AMR)
#include "sim/amr/AmrHierarchy.hpp"
#endif
#include "sim/core/Probe.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

constexpr double kPi = std::numbers::pi;

// ---- heat ---------------------------------------------------------------------------------

const std::vector<std::string> kHeatUniform =
    with(kHeat2D, {"heat.init=uniform", "heat.T_initial=20", "heat.T_xmin=20", "heat.T_xmax=20",
                   "heat.T_ymin=20", "heat.T_ymax=20"});

TEST(HeatTools, ASpotAddsTheHeatOfItsGaussian) {
  auto s = make_solver("heat/hot-spot", kHeatUniform);
  const double before = diagnostic(*s, "T_integral");
  const double amplitude = 50, radius = 0.01;  // about 5 spacings of 0.1/49 m
  const ToolReport r = s->apply_tool(call(
      *s, "heat-spot", {{"x", 0.05}, {"y", 0.05}, {"radius", radius}, {"amplitude", amplitude}}));
  const double added = diagnostic(*s, "T_integral") - before;
  EXPECT_NEAR(r.amount("T_integral_added"), added, 1e-10 * before);
  // The integral of A exp(-(r/R)^2) over the plane is A pi R^2, times the box's depth lz.
  const double exact = amplitude * kPi * radius * radius * 0.1;
  EXPECT_NEAR(added, exact, 1e-3 * exact);
  EXPECT_NEAR(diagnostic(*s, "T_max"), 20 + amplitude, 1.5);  // the centre is half a spacing off
  // Taking it away again puts the integral back.
  s->apply_tool(call(*s, "heat-spot",
                     {{"x", 0.05}, {"y", 0.05}, {"radius", radius}, {"amplitude", -amplitude}}));
  EXPECT_NEAR(diagnostic(*s, "T_integral"), before, 1e-12 * before);
}

TEST(HeatTools, BelowAbsoluteZeroIsRefusedAndNothingChanges) {
  auto s = make_solver("heat/hot-spot", with(kHeatUniform, {"heat.T_initial=-270"}));
  auto untouched = make_solver("heat/hot-spot", with(kHeatUniform, {"heat.T_initial=-270"}));
  try {
    s->apply_tool(call(*s, "heat-spot", {{"x", 0.05}, {"y", 0.05}, {"amplitude", -10}}));
    FAIL() << "cooled below absolute zero";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("below absolute zero"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(same_state(*s, *untouched));
  // A brush outside the box reaches nothing.
  EXPECT_THROW(s->apply_tool(call(*s, "heat-spot", {{"x", 0.5}, {"y", 0.5}, {"radius", 0.01}})),
               SteeringError);
}

TEST(HeatTools, AnObstacleHoldsItsTemperatureUntilFreed) {
  auto s = make_solver("heat/hot-spot", kHeatUniform);
  const double before = diagnostic(*s, "T_integral");
  const ToolReport r = s->apply_tool(call(
      *s, "heat-obstacle", {{"x", 0.05}, {"y", 0.05}, {"radius", 0.008}, {"temperature", 100}}));
  const double points = r.amount("points");
  EXPECT_GT(points, 40);  // pi (0.008/0.00204)^2 ~ 48 points
  EXPECT_NEAR(r.amount("T_integral_added"), diagnostic(*s, "T_integral") - before, 1e-10 * before);
  const Grid& g = s->grid();
  EXPECT_NEAR(r.amount("T_integral_added"), 80 * points * g.spacing[0] * g.spacing[1] * 0.1,
              1e-9 * before);
  s->advance(200);
  // The centre point (23, 23) is 0.049 m from the walls: inside the obstacle, still held.
  EXPECT_EQ(cell(*s, "T", 23, 23, 0), 100.0);
  EXPECT_GT(cell(*s, "T", 23, 30, 0), 21.0);  // its neighbourhood has warmed
  // A checkpoint holds the obstacle: a restart goes on holding it, bit for bit.
  auto restarted = make_solver("heat/hot-spot", kHeatUniform);
  restarted->load_state(s->save_state());
  s->advance(50);
  restarted->advance(50);
  EXPECT_TRUE(same_state(*s, *restarted));
  // Freed, it cools.
  const ToolReport freed =
      s->apply_tool(call(*s, "heat-free", {{"x", 0.05}, {"y", 0.05}, {"radius", 0.02}}));
  EXPECT_EQ(freed.amount("points"), points);
  s->advance(50);
  EXPECT_LT(cell(*s, "T", 23, 23, 0), 100.0);
}

// ---- fd -----------------------------------------------------------------------------------

const std::vector<std::string> kFdRest =
    with({"grid.nx=64", "grid.ny=64", "grid.nz=1"}, {"fd.init=rest", "fd.rho0=1.5"});

// Sums of rho u over the interior, times the cell volume.
std::array<double, 3> momentum(const Solver& s) {
  const auto lnrho = interior_values(s, "lnrho");
  const char* names[3] = {"ux", "uy", "uz"};
  std::array<double, 3> p{};
  const Grid& g = s.grid();
  const double dv = g.spacing[0] * g.spacing[1] * g.spacing[2];
  for (int a = 0; a < 3; ++a) {
    const auto u = interior_values(s, names[a]);
    for (std::size_t c = 0; c < u.size(); ++c) p[a] += std::exp(lnrho[c]) * u[c] * dv;
  }
  return p;
}

TEST(FdTools, AKickAddsTheMomentumOfItsGaussian) {
  auto s = make_solver("fd/viscous-decay", kFdRest);
  const double radius = 0.5, ux = 0.3;  // 5 cells of 2 pi / 64
  const ToolReport r = s->apply_tool(
      call(*s, "kick", {{"x", 3}, {"y", 3}, {"radius", radius}, {"ux", ux}, {"uy", 0}}));
  const std::array<double, 3> p = momentum(*s);
  EXPECT_NEAR(r.amount("momentum_x_added"), p[0], 1e-12);
  const double lz = 2 * kPi;
  const double exact = 1.5 * ux * kPi * radius * radius * lz;  // rho0 ux pi R^2 lz
  EXPECT_NEAR(p[0], exact, 1e-3 * exact);
  EXPECT_NEAR(p[1], 0, 1e-15);
  EXPECT_NEAR(r.amount("kinetic_energy_added"), diagnostic(*s, "kinetic_energy"), 1e-12);
  EXPECT_NEAR(diagnostic(*s, "u_max"), ux, 0.01 * ux);
}

TEST(FdTools, AVortexSwirlsWithoutMassOrMomentum) {
  auto s = make_solver("fd/viscous-decay", kFdRest);
  const double mass = diagnostic(*s, "mass");
  const ToolReport r = s->apply_tool(
      call(*s, "vortex", {{"x", 3}, {"y", 3}, {"radius", 0.6}, {"speed", 0.4}, {"axis", 2}}));
  EXPECT_EQ(diagnostic(*s, "mass"), mass);  // ln rho untouched, to the last bit
  const std::array<double, 3> p = momentum(*s);
  EXPECT_NEAR(p[0], 0, 1e-4);  // of about 17 in each half of the swirl
  EXPECT_NEAR(p[1], 0, 1e-4);
  EXPECT_NEAR(r.amount("kinetic_energy_added"), diagnostic(*s, "kinetic_energy"), 1e-12);
  EXPECT_NEAR(diagnostic(*s, "u_max"), 0.4, 0.01);
  // Turning counter-clockwise about z: above the centre the flow goes to -x.
  const Grid& g = s->grid();
  const int ic = int(std::lround(3 / g.spacing[0] - 0.5)),
            jt = int(std::lround(3.6 / g.spacing[1] - 0.5));
  EXPECT_LT(cell(*s, "ux", ic, jt, 0), -0.3);
  // It is steady enough to step: viscosity only slowly wears it down.
  s->advance(20);
  EXPECT_GT(diagnostic(*s, "u_max"), 0.3);
}

TEST(FdTools, ADensityBumpAddsItsMass) {
  auto s = make_solver("fd/viscous-decay", kFdRest);
  const double before = diagnostic(*s, "mass");
  const ToolReport r = s->apply_tool(
      call(*s, "density-bump", {{"x", 1}, {"y", 5}, {"radius", 0.5}, {"amplitude", 0.4}}));
  const double added = diagnostic(*s, "mass") - before;
  EXPECT_NEAR(r.amount("mass_added"), added, 1e-12 * before);
  const double exact = 1.5 * 0.4 * kPi * 0.25 * 2 * kPi;  // rho0 A pi R^2 lz
  EXPECT_NEAR(added, exact, 1e-3 * exact);
}

TEST(FdTools, AStrokeTooFastForTheSchemeIsRefused) {
  auto s = make_solver("fd/viscous-decay", kFdRest);
  auto untouched = make_solver("fd/viscous-decay", kFdRest);
  try {
    s->apply_tool(call(*s, "kick", {{"x", 3}, {"y", 3}, {"radius", 0.5}, {"ux", 5}}));
    FAIL() << "a Mach 5 kick was taken";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("would reach Mach 4.99"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(same_state(*s, *untouched));
}

// ---- fv -----------------------------------------------------------------------------------

TEST(FvTools, ABlastAddsExactlyItsEnergy) {
  auto s = make_solver("fv/sedov", with(kFv2D, {"fv.bc=periodic"}));
  const double e0 = diagnostic(*s, "energy"), m0 = diagnostic(*s, "mass");
  const double px = diagnostic(*s, "momentum_x");
  const ToolReport r = s->apply_tool(
      call(*s, "blast", {{"x", 0.25}, {"y", 0.7}, {"radius", 0.06}, {"energy", 0.5}}));
  EXPECT_NEAR(r.amount("energy_added"), 0.5, 1e-12);
  EXPECT_NEAR(diagnostic(*s, "energy") - e0, 0.5, 1e-12);
  EXPECT_EQ(diagnostic(*s, "mass"), m0);
  EXPECT_EQ(diagnostic(*s, "momentum_x"), px);
  EXPECT_GT(r.amount("cells"), 20);  // pi (0.06 / (1/48))^2 ~ 26 cells
  // and the blast goes off: the shock runs outwards, the energy conserved in the periodic box.
  s->advance(20);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0 + 0.5, 1e-9);
}

TEST(FvTools, ACloudAddsTheMassOfItsVolume) {
  const std::vector<std::string> o = with(kFv2D, {"fv.init=uniform", "fv.ambient_rho=1",
                                                  "fv.ambient_p=1", "fv.ux=0.2", "fv.tracer=true"});
  auto s = make_solver("fv/sedov", o);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy");
  const ToolReport r = s->apply_tool(
      call(*s, "cloud", {{"x", 0.5}, {"y", 0.5}, {"radius", 0.12}, {"density_ratio", 10}}));
  const double added = diagnostic(*s, "mass") - m0;
  EXPECT_NEAR(r.amount("mass_added"), added, 1e-12);
  const double cells = r.amount("cells");
  // The cloud takes the cells whose centres ((i + 1/2) / 48) lie within the radius: 112 of
  // them, counted here independently of the brush.
  int centres = 0;
  for (int i = 0; i < 48; ++i)
    for (int j = 0; j < 48; ++j)
      if (std::hypot((i + 0.5) / 48 - 0.5, (j + 0.5) / 48 - 0.5) <= 0.12) ++centres;
  EXPECT_EQ(cells, centres);
  const double dv = 1.0 / (48 * 48);
  EXPECT_NEAR(added, 9 * cells * dv, 1e-12);
  // A disc of 5.76 cells' radius drawn in whole cells: its area is pi R^2 to within the
  // cells its rim cuts (112 cells against 104.2 here), so 10%.
  const double disc = 9 * kPi * 0.12 * 0.12;  // (chi - 1) rho pi R^2 lz
  EXPECT_NEAR(added, disc, 0.1 * disc);
  // Pressure kept, moving with the gas: only the kinetic energy grows, by (chi - 1) of it.
  EXPECT_NEAR(r.amount("energy_added"), diagnostic(*s, "energy") - e0, 1e-12);
  EXPECT_NEAR(r.amount("energy_added"), 9 * cells * dv * 0.5 * 0.2 * 0.2, 1e-12);
  EXPECT_NEAR(diagnostic(*s, "tracer_mass"), 10 * cells * dv, 1e-12);
}

// A steady flow along x in a periodic box around a disc at the centre.
const std::vector<std::string> kChannel =
    with(kFv2D,
         {"fv.init=uniform", "fv.ambient_rho=1", "fv.ambient_p=1", "fv.ux=0.5", "fv.bc=periodic"});

TEST(FvTools, TheFlowGoesAroundASolidThatNoMassOrEnergyCrosses) {
  auto s = make_solver("fv/sedov", kChannel);
  const double px0 = diagnostic(*s, "momentum_x");
  const ToolReport r =
      s->apply_tool(call(*s, "obstacle", {{"x", 0.5}, {"y", 0.5}, {"radius", 0.1}}));
  const double cells = r.amount("cells");
  const double dv = 1.0 / (48 * 48);
  EXPECT_NEAR(r.amount("mass_enclosed"), cells * dv, 1e-12);  // rho = 1 held at rest
  EXPECT_NEAR(r.amount("momentum_x_added"), -0.5 * cells * dv, 1e-12);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy");
  const double rho_inside = cell(*s, "rho", 24, 24, 0);
  s->advance(60);
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  // No mass or energy crosses a wall, and the periodic box has no other: both stay to
  // round-off. The solid takes momentum out of the flow (drag).
  EXPECT_NEAR(diagnostic(*s, "mass"), m0, 1e-13 * m0);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0, 1e-13 * e0);
  EXPECT_LT(diagnostic(*s, "momentum_x"), px0 - 0.5 * cells * dv);
  // The solid itself does not change.
  EXPECT_EQ(cell(*s, "rho", 24, 24, 0), rho_inside);
  EXPECT_EQ(cell(*s, "ux", 24, 24, 0), 0.0);
  EXPECT_EQ(cell(*s, "solid", 24, 24, 0), 1.0);
  // Around it: the gas stagnates in front (x = 0.5 - 0.1 - 1.5 dx) and is turned aside at
  // the shoulders, upwards above and downwards below, symmetrically.
  const int front = int((0.5 - 0.1) * 48) - 2;
  EXPECT_LT(cell(*s, "ux", front, 24, 0), 0.3);
  const double up = cell(*s, "uy", 20, 30, 0), down = cell(*s, "uy", 20, 17, 0);
  EXPECT_GT(up, 0.02);
  EXPECT_LT(down, -0.02);
  EXPECT_NEAR(up, -down, 1e-9);
}

TEST(FvTools, ObstaclesTravelInCheckpointsAndCanBeErased) {
  auto s = make_solver("fv/sedov", kChannel);
  s->apply_tool(call(*s, "obstacle", {{"x", 0.3}, {"y", 0.5}, {"radius", 0.08}}));
  s->advance(10);
  const SolverState st = s->save_state();
  ASSERT_EQ(st.arrays.back().name, "solid");
  auto restarted = make_solver("fv/sedov", kChannel);
  restarted->load_state(st);
  s->advance(15);
  restarted->advance(15);
  EXPECT_TRUE(same_state(*s, *restarted));
  // A blast in the solid reaches no fluid cell.
  EXPECT_THROW(s->apply_tool(call(*s, "blast", {{"x", 0.3}, {"y", 0.5}, {"radius", 0.02}})),
               SteeringError);
  const ToolReport freed =
      s->apply_tool(call(*s, "obstacle-clear", {{"x", 0.3}, {"y", 0.5}, {"radius", 0.2}}));
  EXPECT_GT(freed.amount("cells"), 30);
  EXPECT_THROW(s->view("solid"), std::out_of_range);  // none left: the fused stage again
  EXPECT_EQ(s->save_state().arrays.size(), 5u);
  s->advance(5);
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
}

#if defined(FLUXVIEW_HAVE_AMR)
// ---- fv on the adaptive mesh ---------------------------------------------------------------

// A 2D blast in a periodic box on blocks of 8, two levels: the centre refined.
const std::vector<std::string> kAmrBlast = {"grid.nx=32",
                                            "grid.ny=32",
                                            "grid.nz=1",
                                            "fv.mesh=amr",
                                            "fv.amr.block=8",
                                            "fv.amr.max_level=2",
                                            "fv.amr.regrid_every=2",
                                            "fv.bc=periodic"};

// Per level, the cells of this rank's blocks whose centres lie within `radius` of (x, y),
// and the sum of `field` times the cell's area over them (counted here from the blocks'
// positions, independently of the tools' loop).
struct Reached {
  std::map<int, int> cells;  // per level
  double integral = 0;
};
Reached reached(const Solver& s, const std::string& field, double x, double y, double radius) {
  const amr::Hierarchy* h = amr::hierarchy_of(s);
  const HostArray v = h->block_values(field);
  const auto blocks = h->local_blocks();
  const int b = h->block_cells()[0];
  Reached r;
  for (std::size_t n = 0; n < blocks.size(); ++n) {
    const double dx = 1.0 / (h->top_cells()[0] * double(1 << blocks[n].level));
    for (int j = 0; j < b; ++j)
      for (int i = 0; i < b; ++i) {
        const double cx = (blocks[n].idx[0] * b + i + 0.5) * dx;
        const double cy = (blocks[n].idx[1] * b + j + 0.5) * dx;
        if (std::hypot(cx - x, cy - y) > radius) continue;
        ++r.cells[blocks[n].level];
        r.integral += v.at(std::int64_t(n) * b * b + std::int64_t(j) * b + i) * dx * dx;
      }
  }
  return r;
}

TEST(AmrTools, TheMeshHasTheFluidToolsAndRefusesObstaclesNamingThem) {
  auto s = make_solver("fv/sedov", kAmrBlast);
  std::vector<std::string> names;
  for (const ToolSpec& t : s->tools()) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"blast", "cloud"}));
  try {
    s->apply_tool(ToolCall{"obstacle", {{"x", 0.5}, {"y", 0.5}, {"z", 0.5}, {"radius", 0.1}}});
    FAIL() << "an obstacle on the adaptive mesh";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: blast, cloud"), std::string::npos) << e.what();
  }
  // A brush between cell centres reaches none: refused, nothing changed.
  const double e0 = diagnostic(*s, "energy");
  EXPECT_THROW(s->apply_tool(call(*s, "blast", {{"x", 0.0}, {"y", 0.0}, {"radius", 1e-4}})),
               SteeringError);
  EXPECT_EQ(diagnostic(*s, "energy"), e0);
}

// A brush across the refined centre and the coarse blocks around it: the energy shared by
// volume among the cells of both levels, exactly the energy asked for, then conserved.
TEST(AmrTools, ABlastAddsExactlyItsEnergyOnEveryLevelItReaches) {
  auto s = make_solver("fv/sedov", kAmrBlast);
  s->advance(2);
  const double e0 = diagnostic(*s, "energy"), m0 = diagnostic(*s, "mass");
  const double px = diagnostic(*s, "momentum_x");
  const double x = 0.62, y = 0.5, radius = 0.2;
  const Reached where = reached(*s, "rho", x, y, radius);
  ASSERT_GE(where.cells.size(), 2u) << "the brush should reach two levels";
  const ToolReport r =
      s->apply_tool(call(*s, "blast", {{"x", x}, {"y", y}, {"radius", radius}, {"energy", 0.5}}));
  int cells = 0;
  for (const auto& [level, n] : where.cells) cells += n;
  EXPECT_EQ(r.amount("cells"), cells);
  EXPECT_NEAR(r.amount("energy_added"), 0.5, 1e-12);
  EXPECT_NEAR(diagnostic(*s, "energy") - e0, 0.5, 1e-12);
  EXPECT_EQ(diagnostic(*s, "mass"), m0);
  EXPECT_EQ(diagnostic(*s, "momentum_x"), px);
  s->advance(10);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0 + 0.5, 1e-9);
}

// A cloud multiplies the density of the cells it reaches: the mass added is (ratio - 1)
// times their mass, counted here over both levels.
TEST(AmrTools, ACloudAddsTheMassOfTheCellsItReaches) {
  auto s = make_solver("fv/sedov", with(kAmrBlast, {"fv.tracer=true"}));
  s->advance(2);
  const double m0 = diagnostic(*s, "mass");
  const double x = 0.4, y = 0.55, radius = 0.18;
  const Reached where = reached(*s, "rho", x, y, radius);
  ASSERT_GE(where.cells.size(), 2u) << "the brush should reach two levels";
  const ToolReport r = s->apply_tool(
      call(*s, "cloud", {{"x", x}, {"y", y}, {"radius", radius}, {"density_ratio", 4}}));
  EXPECT_NEAR(r.amount("mass_added"), 3 * where.integral, 1e-12);
  EXPECT_NEAR(diagnostic(*s, "mass") - m0, r.amount("mass_added"), 1e-12);
  EXPECT_NEAR(diagnostic(*s, "tracer_mass"), 4 * where.integral, 1e-12);
}
#endif

}  // namespace
