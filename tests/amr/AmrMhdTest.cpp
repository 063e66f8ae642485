// MHD on the adaptive mesh (CPU): a fully refined mesh steps as the uniform grid of its
// cells (every field, div B included, with periodic and with reflecting walls, which flip
// the normal field); a magnetised blast with periodic boundaries keeps mass, momentum,
// energy and the field integral to round-off over many regrids; Brio and Wu's tube along x,
// y and z no worse than 1.2 times the uniform run at the finest resolution while updating
// at most half its cells, the same bit for bit along every axis.
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
#include "tests/amr/AmrTestUtil.hpp"
#include "tests/amr/AmrTubeCheck.hpp"
#include "tests/amr/FullyRefinedPair.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// The largest |a - b| over two fields' interiors, and the largest |b|.
struct Difference {
  double max = 0, scale = 0;
};
Difference difference(const std::vector<double>& a, const std::vector<double>& b) {
  Difference d;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    d.max = std::max(d.max, std::fabs(a[i] - b[i]));
    d.scale = std::max(d.scale, std::fabs(b[i]));
  }
  return d;
}

TEST(AmrMhd, FullyRefinedMeshStepsAsTheUniformGridOfItsCells) {
  struct Case {
    const char* name;
    const char* scenario;
    std::vector<std::string> set;
  };
  const Case cases[] = {
      // Periodic: every ghost a copy of a neighbour block's cells.
      {"Orszag-Tang, periodic", "fv/orszag-tang", {}},
      // Reflecting walls, which flip the normal momentum and the normal field; an oblique
      // field and a blast off centre, so both flips matter.
      {"magnetised blast, reflecting walls",
       "fv/sedov",
       {"fv.physics=mhd", "fv.bc=reflecting", "fv.bx=0.6", "fv.by=-0.4", "fv.ambient_p=0.1",
        "fv.blast_x=0.3", "fv.blast_y=0.6", "fv.blast_radius=0.15", "fv.blast_energy=0.3"}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto [uniform, amr] = amr::test::fully_refined_pair(c.scenario, c.set);
    uniform->advance(20);
    amr->advance(20);
    EXPECT_EQ(amr->time(), uniform->time());  // the same steps: the same CFL rate
    std::vector<std::string> names;
    for (const FieldInfo& f : uniform->fields()) names.push_back(f.name);
    std::vector<std::string> amr_names;
    for (const FieldInfo& f : amr->fields()) amr_names.push_back(f.name);
    EXPECT_EQ(amr_names, names);
    for (const std::string& name : names) {
      SCOPED_TRACE(name);
      const std::vector<double> a = interior_values(*amr, name),
                                u = interior_values(*uniform, name);
      ASSERT_EQ(a.size(), u.size());
      const Difference d = difference(a, u);
      std::printf("%s, %s: largest difference %.3g of largest value %.3g\n", c.name, name.c_str(),
                  d.max, d.scale);
      // Measured: the same to the last bit (each block steps with fv's own stage, its
      // ghosts copies of the neighbours' cells, c_h from the same rate and cell size).
      EXPECT_LE(d.max, 1e-13 * std::max(d.scale, 1.0));
    }
    for (const char* key : {"mass", "energy", "magnetic_energy", "divergence_b_max"}) {
      SCOPED_TRACE(key);
      EXPECT_NEAR(diagnostic(*amr, key), diagnostic(*uniform, key),
                  1e-12 * std::max(std::fabs(diagnostic(*uniform, key)), 1.0));
    }
    // The runs reached something to compare: a field that moved, div B that is not 0.
    EXPECT_GT(diagnostic(*uniform, "divergence_b_max"), 1e-6);
  }
}

// The integral of a field over the leaves: each block's cells weighted by their volume.
double integral(const Solver& s, const std::string& field) {
  const amr::Hierarchy* h = amr::hierarchy_of(s);
  const HostArray v = h->block_values(field);
  const auto blocks = h->local_blocks();
  const std::array<int, 3> n = h->block_cells(), top = h->top_cells();
  const std::array<double, 3> len = h->lengths();
  const std::int64_t per = std::int64_t(n[0]) * n[1] * n[2];
  double sum = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    double vol = 1;
    for (int a = 0; a < 3; ++a)
      if (top[std::size_t(a)] > 1)
        vol *= len[std::size_t(a)] / (double(top[std::size_t(a)]) * (1 << blocks[b].level));
    double block = 0;
    for (std::int64_t c = 0; c < per; ++c) block += v.at(std::int64_t(b) * per + c);
    sum += block * vol;
  }
  return sum;
}

TEST(AmrMhd, PeriodicMagnetisedBlastConservesEverythingAndTheFieldToRoundOffOverRegrids) {
  struct Case {
    const char* name;
    std::vector<std::string> grid;
  };
  const Case cases[] = {{"3D", {"grid.n=32", "fv.amr.max_level=2"}},
                        {"2D", {"grid.nx=64", "grid.ny=32", "grid.nz=1", "fv.amr.max_level=3"}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> o = {
        "fv.physics=mhd",      "fv.mesh=amr",      "fv.amr.block=8",  "fv.amr.regrid_every=2",
        "fv.blast_x=0.3",      "fv.blast_y=0.6",   "fv.blast_z=0.45", "fv.blast_radius=0.2",
        "fv.blast_energy=0.3", "fv.ambient_p=0.1", "fv.ux=0.7",       "fv.uy=-0.4",
        "fv.uz=0.3",           "fv.bx=0.5",        "fv.by=0.3",       "fv.bz=-0.2",
        "fv.tracer=true",      "fv.bc=periodic"};
    o.insert(o.end(), c.grid.begin(), c.grid.end());
    auto s = make_solver("fv/sedov", o);
    const char* keys[] = {"mass",       "momentum_x", "momentum_y",
                          "momentum_z", "energy",     "tracer_mass"};
    std::vector<double> before, after;
    for (const char* k : keys) before.push_back(diagnostic(*s, k));
    std::array<double, 3> field0{};
    for (int a = 0; a < 3; ++a)
      field0[std::size_t(a)] = integral(*s, std::string("b") + char('x' + a));
    const double levels0 = diagnostic(*s, "blocks_level_1");
    s->advance(24);
    for (const char* k : keys) after.push_back(diagnostic(*s, k));
    std::printf(
        "%s: %g regrids, %g blocks (%g at level 1 at the start), mass drift %.2e, energy "
        "drift %.2e, div B mean %.3g max %.3g\n",
        c.name, diagnostic(*s, "regrids"), diagnostic(*s, "blocks"), levels0,
        (after[0] - before[0]) / before[0], (after[4] - before[4]) / before[4],
        diagnostic(*s, "divergence_b_mean"), diagnostic(*s, "divergence_b_max"));
    EXPECT_GE(diagnostic(*s, "regrids"), 4);
    EXPECT_GT(levels0, 0);
    const double tol = 1e-13, mass = before[0];
    EXPECT_NEAR(after[0], before[0], tol * mass);
    for (int a = 1; a <= 3; ++a)
      EXPECT_NEAR(after[std::size_t(a)], before[std::size_t(a)], tol * mass);
    EXPECT_NEAR(after[4], before[4], tol * before[4]);
    EXPECT_NEAR(after[5], before[5], tol * before[5]);
    // The field integral: its flux is conservative too (psi's share of it included). Relative
    // to the box's volume times |B| (1 in every case; the 2D box is 1 x 1 x 1 as well).
    for (int a = 0; a < 3; ++a) {
      SCOPED_TRACE(a);
      EXPECT_NEAR(integral(*s, std::string("b") + char('x' + a)), field0[std::size_t(a)], tol);
    }
    // The first-order fallback is a cell's own and so not conservative: it must not have
    // been needed for the test to mean what it says.
    EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0);
    // Cleaning keeps div B at the truncation error of the shocks (bounded, finite).
    EXPECT_TRUE(std::isfinite(diagnostic(*s, "divergence_b_max")));
    EXPECT_GT(diagnostic(*s, "magnetic_energy"), 0);
  }
}

// The mean of reference cells [first, first + count).
double mean_of(const std::vector<double>& reference, std::size_t first, std::size_t count) {
  double m = 0;
  for (std::size_t q = 0; q < count; ++q) m += reference[first + q];
  return m / double(count);
}

// Brio and Wu's tube along `axis` on n cells (the top grid's with AMR), to t = 0.1. L1(rho)
// against `reference` (a uniform run on more cells), each of the run's cells compared with
// the mean of the reference cells it covers and weighted by its width: on the mesh's own
// cells, so that coarse cells in smooth regions are not charged for resampling.
amr::test::TubeRun brio_wu(const std::string& axis, int n, const std::vector<std::string>& extra,
                           const std::vector<double>& reference = {}) {
  auto s = tube_run_to("fv/brio-wu", axis, n, extra, 0.1);
  amr::test::TubeRun r;
  r.rho = interior_values(*s, "rho");
  r.steps = s->step();
  const std::size_t ref = reference.size();
  if (const amr::Hierarchy* h = amr::hierarchy_of(*s)) {
    r.updates = diagnostic(*s, "cell_updates");
    const int a = axis[0] - 'x';
    const HostArray v = h->block_values("rho");
    const auto blocks = h->local_blocks();
    const int b = h->block_cells()[std::size_t(a)];
    for (std::size_t k = 0; ref > 0 && k < blocks.size(); ++k) {
      const std::size_t cells = std::size_t(n) << blocks[k].level, per = ref / cells;
      for (int i = 0; i < b; ++i) {
        const std::size_t c = std::size_t(blocks[k].idx[std::size_t(a)]) * b + std::size_t(i);
        r.l1 += std::fabs(v.at(std::int64_t(k) * b + i) - mean_of(reference, c * per, per)) /
                double(cells);
      }
    }
  } else {
    r.updates = double(r.rho.size()) * double(r.steps);
    const std::size_t per = ref / r.rho.size();
    for (std::size_t i = 0; ref > 0 && i < r.rho.size(); ++i)
      r.l1 += std::fabs(r.rho[i] - mean_of(reference, i * per, per)) / double(r.rho.size());
  }
  return r;
}

TEST(AmrMhd, BrioWuWithinTwentyPercentOfTheFinestUniformRunOnAtMostHalfItsCells) {
  // Top grid 64 cells in blocks of 8, three levels: the finest cells are those of a
  // uniform 512-cell tube. The reference: the uniform tube at 4096 cells.
  const std::vector<std::string> amr = {"fv.mesh=amr", "fv.amr.block=8", "fv.amr.max_level=3",
                                        "fv.amr.regrid_every=2"};
  const std::vector<double> reference = brio_wu("x", 4096, {}).rho;
  const amr::test::TubeRun uniform = brio_wu("x", 512, {}, reference);
  std::vector<double> first;
  for (const std::string axis : {"x", "y", "z"}) {
    SCOPED_TRACE(axis);
    amr::test::expect_tube_as_good_on_half_the_cells(
        "Brio-Wu", axis, brio_wu(axis, 64, amr, reference), uniform, first);
  }
}

}  // namespace
