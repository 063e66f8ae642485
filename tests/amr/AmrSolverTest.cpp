// The fv solver on the adaptive mesh (CPU): Sod's tube along x, y and z against the exact
// solution, no worse than 1.2 times the uniform run at the finest resolution while
// updating at most half as many cells; conservation to round-off over many regrids with
// periodic boundaries (3D and 2D, with refluxing at every coarse-fine face); bad AMR
// parameters refused naming the key; planes of the hierarchy finer than the view grid, each
// cell from the leaf holding it; the instability guard finds a bad cell the views miss.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/fv/ExactRiemann.hpp"
#include "tests/amr/AmrSedovOctant.hpp"
#include "tests/amr/AmrTestUtil.hpp"
#include "tests/amr/AmrTubeCheck.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;
using fluxview::fv::ExactRiemann;

namespace {

using amr::test::TubeRun;

TubeRun sod(const std::string& axis, int n, const std::vector<std::string>& extra) {
  static const ExactRiemann exact({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  auto s = tube_run_to("fv/sod", axis, n, extra, 0.14);
  TubeRun r;
  r.rho = interior_values(*s, "rho");
  const int a = axis[0] - 'x';
  if (const amr::Hierarchy* h = amr::hierarchy_of(*s)) {
    // On the mesh's own cells: each compared with the exact solution at its centre and
    // weighted by its width (coarse cells in smooth regions are not penalised for being
    // coarse, as resampling onto the finest grid would).
    const HostArray v = h->block_values("rho");
    const auto blocks = h->local_blocks();
    const int b = h->block_cells()[std::size_t(a)];
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const double dx = 1.0 / (double(h->top_cells()[std::size_t(a)]) * (1 << blocks[k].level));
      for (int i = 0; i < b; ++i) {
        const double x = (blocks[k].idx[std::size_t(a)] * b + i + 0.5) * dx;
        r.l1 += std::fabs(v.at(std::int64_t(k) * b + i) - exact.sample((x - 0.5) / 0.14).rho) * dx;
      }
    }
  } else {
    const int cells = int(r.rho.size());
    for (int i = 0; i < cells; ++i) {
      const double x = s->grid().coord(a, i);
      r.l1 += std::fabs(r.rho[std::size_t(i)] - exact.sample((x - 0.5) / 0.14).rho) / cells;
    }
  }
  r.steps = s->step();
  const bool amr = std::find(extra.begin(), extra.end(), "fv.mesh=amr") != extra.end();
  r.updates = amr ? diagnostic(*s, "cell_updates") : double(r.rho.size()) * double(r.steps);
  return r;
}

TEST(AmrSod, WithinTwentyPercentOfTheFinestUniformRunOnAtMostHalfItsCells) {
  // Top grid 64 cells in blocks of 8, three levels: the finest cells are those of a
  // uniform 512-cell run.
  const std::vector<std::string> amr = {"fv.mesh=amr", "fv.amr.block=8", "fv.amr.max_level=3",
                                        "fv.amr.regrid_every=2"};
  const TubeRun uniform = sod("x", 512, {});
  std::vector<double> first;
  for (const std::string axis : {"x", "y", "z"}) {
    SCOPED_TRACE(axis);
    amr::test::expect_tube_as_good_on_half_the_cells("Sod", axis, sod(axis, 64, amr), uniform,
                                                     first);
  }
}

struct Totals {
  double mass, mx, my, mz, energy, tracer;
};
Totals totals(Solver& s) {
  return {diagnostic(s, "mass"),       diagnostic(s, "momentum_x"), diagnostic(s, "momentum_y"),
          diagnostic(s, "momentum_z"), diagnostic(s, "energy"),     diagnostic(s, "tracer_mass")};
}

TEST(AmrConservation, PeriodicBlastConservesEverythingToRoundOffOverRegrids) {
  struct Case {
    const char* name;
    std::vector<std::string> grid;
  };
  const Case cases[] = {
      {"3D", {"grid.n=32", "fv.amr.block=8", "fv.amr.max_level=2"}},
      // Blocks of 8: with blocks of 16 the mesh of this 2D blast changes once in 24 steps.
      {"2D", {"grid.nx=64", "grid.ny=32", "grid.nz=1", "fv.amr.block=8", "fv.amr.max_level=3"}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> o = {
        "fv.mesh=amr",         "fv.amr.block=8",   "fv.amr.regrid_every=2",
        "fv.blast_x=0.3",      "fv.blast_y=0.6",   "fv.blast_z=0.45",
        "fv.blast_radius=0.2", "fv.ambient_p=0.1", "fv.ux=0.7",
        "fv.uy=-0.4",          "fv.uz=0.3",        "fv.tracer=true",
        "fv.bc=periodic"};
    o.insert(o.end(), c.grid.begin(), c.grid.end());
    auto s = make_solver("fv/sedov", o);
    const Totals a = totals(*s);
    const double levels0 = diagnostic(*s, "blocks_level_1");
    // mean_mach is a volume average: the refined mesh's is the uniform mesh's but for the
    // blast's better resolved sphere (a mean over cells would weigh the refined blast, where
    // the flow is slower, 8 to 64 times more, and come out far lower).
    std::vector<std::string> u = o;
    u[0] = "fv.mesh=uniform";
    const double mean_amr = diagnostic(*s, "mean_mach"),
                 mean_uniform = diagnostic(*make_solver("fv/sedov", u), "mean_mach");
    std::printf("%s: mean Mach %.6f on the adaptive mesh, %.6f on the uniform one\n", c.name,
                mean_amr, mean_uniform);
    // Measured 0.5% apart in 3D and 1.2% in 2D.
    EXPECT_NEAR(mean_amr, mean_uniform, 0.03 * mean_uniform);
    s->advance(24);
    const Totals b = totals(*s);
    std::printf(
        "%s: %g regrids, %g blocks (%g at level 1 at the start), mass drift %.2e, energy "
        "drift %.2e\n",
        c.name, diagnostic(*s, "regrids"), diagnostic(*s, "blocks"), levels0,
        (b.mass - a.mass) / a.mass, (b.energy - a.energy) / a.energy);
    EXPECT_GE(diagnostic(*s, "regrids"), 4);
    EXPECT_GT(levels0, 0);
    const double tol = 1e-13;
    EXPECT_NEAR(b.mass, a.mass, tol * a.mass);
    EXPECT_NEAR(b.energy, a.energy, tol * a.energy);
    EXPECT_NEAR(b.tracer, a.tracer, tol * a.tracer);
    // Momentum: relative to the mass times the largest speed.
    EXPECT_NEAR(b.mx, a.mx, tol * a.mass);
    EXPECT_NEAR(b.my, a.my, tol * a.mass);
    EXPECT_NEAR(b.mz, a.mz, tol * a.mass);
    EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0);
  }
}

TEST(AmrParams, BadParametersAreRefusedNamingTheKey) {
  auto refused = [](const std::vector<std::string>& o) {
    try {
      auto s = make_solver("fv/sedov", o);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=40", "fv.amr.block=16"})
                .find("grid.nx = 40 is not a multiple of fv.amr.block = 16"),
            std::string::npos);
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=32", "fv.amr.block=12"}).find("fv.amr.block = 12"),
            std::string::npos);
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=32", "fv.amr.derefine=0.9"}).find("fv.amr.derefine"),
            std::string::npos);
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=32", "fv.amr.max_level=20"}).find("fv.amr.max_level"),
            std::string::npos);
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=32", "fv.amr.min_level=3", "fv.amr.max_level=2"})
                .find("fv.amr.min_level"),
            std::string::npos);
  EXPECT_NE(refused({"fv.mesh=amr", "grid.n=32", "fv.amr.outside_level=3", "fv.amr.max_level=2"})
                .find("fv.amr.outside_level = 3 is deeper than fv.amr.max_level = 2"),
            std::string::npos);
  // Too deep for the memory there is: the initial blast refines past what fits.
  const std::string deep = refused({"fv.mesh=amr", "grid.n=32", "fv.amr.block=8",
                                    "fv.amr.max_level=4", "fv.amr.max_blocks=200"});
  EXPECT_NE(deep.find("fv.amr.max_level = 4"), std::string::npos) << deep;
  EXPECT_NE(deep.find("fit in host memory"), std::string::npos) << deep;
  // And the uniform mesh ignores the AMR keys.
  EXPECT_EQ(refused({"grid.n=20", "fv.amr.block=12"}), "");
}

TEST(AmrPlanes, EachCellOfAPlaneFromTheLeafHoldingItFinerThanTheView) {
  // Top grid 16^3 in blocks of 8 and five levels: the view grid stops at level 4 (256^3),
  // the planes go to level 5 (512^2), where the blast's blocks are.
  auto s = make_solver("fv/sedov", {"grid.n=16", "fv.mesh=amr", "fv.amr.block=8",
                                    "fv.amr.max_level=5", "fv.blast_radius=0.02"});
  s->advance(2);
  const amr::Hierarchy* h = amr::hierarchy_of(*s);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(s->grid().n[0], 256);
  ASSERT_EQ(h->plane_level(), 5);
  const auto blocks = h->local_blocks();
  int deepest = 0;
  std::map<std::array<int, 4>, std::size_t> index;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    deepest = std::max(deepest, blocks[k].level);
    index[{blocks[k].level, blocks[k].idx[0], blocks[k].idx[1], blocks[k].idx[2]}] = k;
  }
  ASSERT_EQ(deepest, 5);
  const int B = 8, n = 16 << 5;
  for (const std::string field : {"rho", "p"}) {
    const HostArray values = h->block_values(field);
    for (int axis = 0; axis < 3; ++axis) {
      // Through the blast's centre: the cell holding 0.5 + a quarter cell.
      const FieldView plane = h->plane_view(field, axis, 0.5 + 0.25 / n);
      ASSERT_EQ(plane.layout.n[axis], 1);
      const HostArray got = gather_interior(plane);
      const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
      ASSERT_EQ(plane.layout.n[u], n);
      ASSERT_EQ(plane.layout.n[v], n);
      int mismatches = 0, finer = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          std::array<double, 3> x;
          x[axis] = (n / 2 + 0.5) / n;
          x[u] = (i + 0.5) / n;
          x[v] = (j + 0.5) / n;
          // The leaf holding x: the deepest level with a block there.
          double expected = std::nan("");
          for (int l = 5; l >= 0 && std::isnan(expected); --l) {
            const int cells = 16 << l;
            std::array<int, 4> key{l, 0, 0, 0};
            std::array<int, 3> c;
            for (int a = 0; a < 3; ++a) {
              c[a] = int(x[a] * cells);
              key[a + 1] = c[a] / B;
            }
            const auto it = index.find(key);
            if (it == index.end()) continue;
            const int cell = (c[0] % B) + B * ((c[1] % B) + B * (c[2] % B));
            expected = values.at(std::int64_t(it->second) * B * B * B + cell);
            finer += l == 5;
          }
          mismatches += got.at(std::int64_t(j) * n + i) != expected;
        }
      EXPECT_EQ(mismatches, 0) << field << " normal to axis " << axis;
      EXPECT_GT(finer, 0) << "no level-5 cell on the plane normal to axis " << axis;
    }
  }
}

TEST(AmrGuard, FindsABadCellFinerThanTheViewGridAndNamesItsBlock) {
  amr::test::expect_guard_finds_a_cell_the_views_miss(BackendKind::cpu);
}

}  // namespace

// Effective 128^3: the CI-sized run (the uniform 64^3-equivalent octant measures +4.4%);
// effective 256^3 is AmrCuda.SedovShockRadiusWithinTwoPercentAtEffective256 (the GPU).
TEST(AmrSedov, OctantAtEffective128WithinFourPercent) {
  EXPECT_LT(std::fabs(fluxview::amr::test::octant_sedov_error(1)), 0.04);
}
