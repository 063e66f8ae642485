// The uniform grid's Runge-Kutta schemes on the adaptive mesh (CPU): a fully refined mesh
// steps as the uniform grid of its cells at every scheme (hydro and MHD, bit for bit); a
// periodic blast keeps mass, momentum and energy to round-off over many regrids at every
// scheme (refluxing with each stage's weight: with another weight it drifts); and on a mesh
// with coarse-fine faces through a vortex's path, SSP-RK3 and RK4 cut the error in time
// to a tenth of RK2's or less.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Solver.hpp"
#include "tests/amr/FullyRefinedPair.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

const char* const kSchemes[] = {"rk2", "ssprk3", "rk4"};

TEST(AmrRungeKutta, FullyRefinedMeshStepsAsTheUniformGridOfItsCellsAtEveryScheme) {
  struct Case {
    const char* name;
    const char* scenario;
    std::vector<std::string> set;
  };
  const Case cases[] = {{"Orszag-Tang, periodic", "fv/orszag-tang", {}},
                        {"blast, reflecting walls",
                         "fv/sedov",
                         {"fv.bc=reflecting", "fv.blast_x=0.3", "fv.blast_y=0.6",
                          "fv.blast_radius=0.15", "fv.ux=0.4"}}};
  for (const char* scheme : kSchemes)
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.name) + ", " + scheme);
      std::vector<std::string> o = {std::string("fv.time=") + scheme};
      o.insert(o.end(), c.set.begin(), c.set.end());
      auto [uniform, amr] = amr::test::fully_refined_pair(c.scenario, o);
      uniform->advance(12);
      amr->advance(12);
      EXPECT_EQ(amr->time(), uniform->time());  // the same steps: the same CFL rate
      for (const char* name : {"rho", "p"}) {
        const std::vector<double> a = interior_values(*amr, name),
                                  u = interior_values(*uniform, name);
        ASSERT_EQ(a.size(), u.size());
        double most = 0, scale = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
          most = std::max(most, std::fabs(a[i] - u[i]));
          scale = std::max(scale, std::fabs(u[i]));
        }
        std::printf("%s, %s, %s: largest difference %.3g of %.3g\n", c.name, scheme, name, most,
                    scale);
        // Measured: the same bits (each block steps with fv's own stage and weights).
        EXPECT_LE(most, 1e-13 * scale) << name;
      }
    }
}

struct Totals {
  double mass, mx, my, mz, energy;
};
Totals totals(Solver& s) {
  return {diagnostic(s, "mass"), diagnostic(s, "momentum_x"), diagnostic(s, "momentum_y"),
          diagnostic(s, "momentum_z"), diagnostic(s, "energy")};
}

TEST(AmrRungeKutta, PeriodicBlastConservesToRoundOffOverRegridsAtEveryScheme) {
  for (const char* scheme : kSchemes) {
    SCOPED_TRACE(scheme);
    auto s = make_solver("fv/sedov",
                         {"fv.mesh=amr", "grid.nx=64", "grid.ny=32", "grid.nz=1", "fv.amr.block=8",
                          "fv.amr.max_level=3", "fv.amr.regrid_every=2", "fv.blast_x=0.3",
                          "fv.blast_y=0.6", "fv.blast_radius=0.2", "fv.ambient_p=0.1", "fv.ux=0.7",
                          "fv.uy=-0.4", "fv.bc=periodic", std::string("fv.time=") + scheme});
    const Totals a = totals(*s);
    s->advance(20);
    const Totals b = totals(*s);
    std::printf("%s: %g regrids, %g blocks, mass drift %.2e, energy drift %.2e\n", scheme,
                diagnostic(*s, "regrids"), diagnostic(*s, "blocks"), (b.mass - a.mass) / a.mass,
                (b.energy - a.energy) / a.energy);
    EXPECT_GE(diagnostic(*s, "regrids"), 4);
    EXPECT_GT(diagnostic(*s, "blocks_level_2"), 0);
    const double tol = 1e-13;
    EXPECT_NEAR(b.mass, a.mass, tol * a.mass);
    EXPECT_NEAR(b.energy, a.energy, tol * a.energy);
    EXPECT_NEAR(b.mx, a.mx, tol * a.mass);
    EXPECT_NEAR(b.my, a.my, tol * a.mass);
    EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0);
  }
}

// Every block's density at t = `until`, in steps of CFL number `cfl`, on a mesh that does
// not change: a 32^2 top grid of the 2D vortex with the blocks of x < 5 at level 1, so the
// coarse-fine faces run through the vortex's path.
std::vector<double> vortex_on_a_fixed_mesh(const char* scheme, double cfl, double until) {
  auto s =
      make_solver("fv/isentropic-vortex",
                  {"grid.nx=32", "grid.ny=32", "fv.reconstruction=plm", "fv.mesh=amr",
                   "fv.amr.block=8", "fv.amr.max_level=1", "fv.amr.refine=1e-9",
                   "fv.amr.derefine=0", "fv.amr.region_xmax=0.5", "fv.amr.regrid_every=1000000",
                   "fv.cfl=" + std::to_string(cfl), std::string("fv.time=") + scheme});
  // The 8 blocks of x < 5 (region_xmax = 0.5) at level 1, each split in 4; the far
  // field beside them is uniform to the estimate (the filter) and keeps the top level.
  EXPECT_EQ(diagnostic(*s, "blocks_level_1"), 32);
  EXPECT_EQ(diagnostic(*s, "blocks"), 40);
  s->advance_until(until, 1000000);
  EXPECT_EQ(s->time(), until);
  const HostArray rho = amr::hierarchy_of(*s)->block_values("rho");
  std::vector<double> v(std::size_t(rho.count()));
  for (std::int64_t i = 0; i < rho.count(); ++i) v[std::size_t(i)] = rho.at(i);
  return v;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

TEST(AmrRungeKutta, TheHigherOrderSchemesCutTheErrorInTimeAcrossCoarseFineFaces) {
  // The same mesh and space discretisation in every run, so the difference from a run of
  // the same scheme with steps 8 times smaller is its error in time alone (the steps'
  // sizes all scale with the CFL number).
  // Why not each scheme's design order: PLM's limiter and the Riemann solver's wave-speed
  // estimates (minima and maxima) make L(U) only piecewise smooth, and the measured order
  // in time between CFL 0.4 and 0.2 is near 2 for all three schemes on the uniform grid
  // too (32^2: 2.04, 3.05, 2.20; 64^2: 2.05, 1.82, 1.66). What the stages must keep on the
  // mesh is what they give there: errors far below RK2's, falling at least at second order.
  const double until = 1.0;
  double at_cfl_04[3];
  for (int i = 0; i < 3; ++i) {
    const char* scheme = kSchemes[i];
    SCOPED_TRACE(scheme);
    const std::vector<double> ref = vortex_on_a_fixed_mesh(scheme, 0.05, until);
    const double e1 = largest_difference(vortex_on_a_fixed_mesh(scheme, 0.4, until), ref),
                 e2 = largest_difference(vortex_on_a_fixed_mesh(scheme, 0.2, until), ref);
    const double order = std::log2(e1 / e2);
    std::printf("%s: error in time %.3e (CFL 0.4), %.3e (CFL 0.2), order %.2f\n", scheme, e1, e2,
                order);
    at_cfl_04[i] = e1;
    // Measured: 2.10, 2.17, 2.27.
    EXPECT_GT(order, 1.9);
  }
  // Measured: 1.07e-4 (rk2), 9.74e-6 (ssprk3), 5.82e-6 (rk4).
  EXPECT_LT(at_cfl_04[1], 0.15 * at_cfl_04[0]);
  EXPECT_LT(at_cfl_04[2], 0.8 * at_cfl_04[1]);
}

}  // namespace
