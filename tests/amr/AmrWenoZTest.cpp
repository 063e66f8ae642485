// WENO-Z (fv.reconstruction = wenoz5) on the adaptive mesh (CPU): the blocks' three ghost
// layers and the WENO-Z stage over all blocks. A fully refined mesh steps as the uniform
// grid of its cells at every Runge-Kutta scheme, hydro and MHD (primitive variables, the
// default there, and characteristic), hydro in characteristic (its default) and
// primitive variables (bit for bit); a periodic blast keeps its totals to round-off over
// many regrids (refluxing recomputes the coarse-fine fluxes with WENO-Z: with PLM's it
// drifts); and on a mesh with coarse-fine faces through the vortex's path WENO-Z's error
// is a fraction of PLM's and within a tenth of the uniform top grid's, at two resolutions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/fv/AccuracyProblems.hpp"
#include "sim/fv/FvConfig.hpp"
#include "sim/fv/FvInitial.hpp"
#include "tests/amr/FullyRefinedPair.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

TEST(AmrWenoZ, FullyRefinedMeshStepsAsTheUniformGridOfItsCells) {
  struct Case {
    const char* name;
    const char* scenario;
    std::vector<std::string> set;
  };
  const std::vector<std::string> blast = {"fv.bc=reflecting", "fv.blast_x=0.3", "fv.blast_y=0.6",
                                          "fv.blast_radius=0.15", "fv.ux=0.4"};
  std::vector<Case> cases;
  for (const char* scheme : {"rk2", "ssprk3", "rk4"}) {
    const std::string t = std::string("fv.time=") + scheme;
    cases.push_back({"Orszag-Tang, periodic", "fv/orszag-tang", {t}});
    std::vector<std::string> b = blast;
    b.push_back(t);
    cases.push_back({"blast, reflecting walls", "fv/sedov", b});
  }
  std::vector<std::string> primitive = blast;
  primitive.insert(primitive.end(), {"fv.time=rk2", "fv.variables=primitive"});
  cases.push_back({"blast, primitive variables", "fv/sedov", primitive});
  cases.push_back({"Orszag-Tang, characteristic variables",
                   "fv/orszag-tang",
                   {"fv.time=rk2", "fv.variables=characteristic"}});
  for (const Case& c : cases) {
    std::vector<std::string> o = {"fv.reconstruction=wenoz5"};
    o.insert(o.end(), c.set.begin(), c.set.end());
    SCOPED_TRACE(std::string(c.name) + ", " + o[o.size() - 1]);
    auto [uniform, amr] = amr::test::fully_refined_pair(c.scenario, o);
    uniform->advance(12);
    amr->advance(12);
    EXPECT_EQ(amr->time(), uniform->time());
    for (const char* name : {"rho", "p"}) {
      const std::vector<double> a = interior_values(*amr, name),
                                u = interior_values(*uniform, name);
      ASSERT_EQ(a.size(), u.size());
      double most = 0;
      for (std::size_t i = 0; i < a.size(); ++i) most = std::max(most, std::fabs(a[i] - u[i]));
      std::printf("%s, %s, %s: largest difference %.3g\n", c.name, o.back().c_str(), name, most);
      // The same bits: the same face function, sums and update as the uniform grid's.
      EXPECT_EQ(most, 0.0) << name;
    }
  }
}

TEST(AmrWenoZ, PeriodicBlastConservesToRoundOffOverRegrids) {
  for (const char* scheme : {"rk2", "rk4"}) {
    SCOPED_TRACE(scheme);
    auto s =
        make_solver("fv/sedov", {"fv.mesh=amr", "grid.nx=64", "grid.ny=32", "grid.nz=1",
                                 "fv.amr.block=8", "fv.amr.max_level=3", "fv.amr.regrid_every=2",
                                 "fv.blast_x=0.3", "fv.blast_y=0.6", "fv.blast_radius=0.2",
                                 "fv.ambient_p=0.1", "fv.ux=0.7", "fv.uy=-0.4", "fv.bc=periodic",
                                 "fv.reconstruction=wenoz5", std::string("fv.time=") + scheme});
    const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy");
    s->advance(20);
    const double m1 = diagnostic(*s, "mass"), e1 = diagnostic(*s, "energy");
    std::printf("%s: %g regrids, %g blocks, mass drift %.2e, energy drift %.2e\n", scheme,
                diagnostic(*s, "regrids"), diagnostic(*s, "blocks"), (m1 - m0) / m0,
                (e1 - e0) / e0);
    EXPECT_GE(diagnostic(*s, "regrids"), 4);
    EXPECT_GT(diagnostic(*s, "blocks_level_2"), 0);
    EXPECT_NEAR(m1, m0, 1e-13 * m0);
    EXPECT_NEAR(e1, e0, 1e-13 * e0);
  }
}

// L1 error of the density against the exact cell averages, over the whole box, of the 2D
// vortex at t = `until` on a mesh that does not change: a top grid of n^2 cells in blocks
// of 8 whose blocks of x < 5 are at level 1, so coarse-fine faces cross the vortex's path.
double vortex_error_on_a_fixed_mesh(int n, const std::string& reconstruction, double until) {
  const std::vector<std::string> o = {"grid.nx=" + std::to_string(n),
                                      "grid.ny=" + std::to_string(n),
                                      "fv.reconstruction=" + reconstruction,
                                      "fv.time=rk4",
                                      "fv.mesh=amr",
                                      "fv.amr.block=8",
                                      "fv.amr.max_level=1",
                                      "fv.amr.refine=1e-9",
                                      "fv.amr.derefine=0",
                                      "fv.amr.region_xmax=0.5",
                                      "fv.amr.regrid_every=1000000"};
  auto s = make_solver("fv/isentropic-vortex", o);
  // The blocks of x < 5 that the vortex reaches (the far field is uniform to the estimate's
  // filter and stays at the top level): all 32 at n = 32, 120 of 128 at n = 64.
  EXPECT_GE(diagnostic(*s, "blocks_level_1"), n * n / 64 / 2 * 4 * 15 / 16);
  s->advance_until(until, 1000000);
  const fv::VortexSpec spec =
      fv::vortex_spec(fv::parse_config(load_scenario("fv/isentropic-vortex", o).params));
  const amr::Hierarchy& h = *amr::hierarchy_of(*s);
  const HostArray rho = h.block_values("rho");
  const std::vector<amr::BlockBox> blocks = h.local_blocks();
  const double len = h.lengths()[0];
  const int bc = h.block_cells()[0];  // cells of a block along x and y
  double sum = 0;
  std::int64_t at = 0;
  for (const amr::BlockBox& b : blocks) {
    const double dx = len / (n << b.level);
    for (int j = 0; j < bc; ++j)
      for (int i = 0; i < bc; ++i, ++at) {
        const double x = (b.idx[0] * bc + i + 0.5) * dx, y = (b.idx[1] * bc + j + 0.5) * dx;
        const double want = fv::vortex_density_average(spec, x, y, dx, dx, s->time(), nullptr);
        sum += std::fabs(rho.at(at) - want) * dx * dx;
      }
  }
  return sum / (len * len);
}

double uniform_vortex_error(int n, double until) {
  auto s = make_solver("fv/isentropic-vortex",
                       {"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n),
                        "fv.reconstruction=wenoz5", "fv.time=rk4"});
  s->advance_until(until, 1000000);
  return diagnostic(*s, "density_error_l1");
}

// WENO-Z on the mesh gives what it gives on the uniform top grid, a fraction of PLM's
// error: the coarse-fine faces (three ghost layers prolongated at second order) add little.
// Its order on this 2D vortex is about 2 on the uniform grid too at these resolutions (the
// flux at the face centre only, as in the codes that use WENO-Z; docs/fv.md), so the order
// asserted is 2, not WENO-Z's 5 along a line.
TEST(AmrWenoZ, KeepsTheUniformGridsErrorAcrossCoarseFineFaces) {
  const double until = 2.0;
  double mesh[2][2], uniform[2];
  const char* recs[2] = {"plm", "wenoz5"};
  for (int g = 0; g < 2; ++g) {
    for (int r = 0; r < 2; ++r) mesh[r][g] = vortex_error_on_a_fixed_mesh(32 << g, recs[r], until);
    uniform[g] = uniform_vortex_error(32 << g, until);
    std::printf("top grid %d^2: L1 error on the mesh plm %.3e, wenoz5 %.3e; uniform wenoz5 %.3e\n",
                32 << g, mesh[0][g], mesh[1][g], uniform[g]);
  }
  const double order = std::log2(mesh[1][0] / mesh[1][1]);
  std::printf("wenoz5 on the mesh: order %.2f\n", order);
  // Measured: plm 2.42e-3, 5.23e-4; wenoz5 4.39e-4, 9.96e-5; uniform 4.43e-4, 9.63e-5.
  for (int g = 0; g < 2; ++g) {
    EXPECT_LT(mesh[1][g], 0.25 * mesh[0][g]);
    EXPECT_LT(mesh[1][g], 1.1 * uniform[g]);
  }
  EXPECT_GT(order, 1.9);  // measured 2.14
}

}  // namespace
