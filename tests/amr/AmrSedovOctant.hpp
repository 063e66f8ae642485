#pragma once
// The Sedov blast on the adaptive mesh in the corner of an octant with reflecting faces
// through the centre: the same discrete problem as the full box by symmetry (as
// tests/fv/FvSedovTest.cpp does), at an eighth of the cost.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "tests/fv/FvTestUtil.hpp"

namespace fluxview::amr::test {

// Relative error of the shock radius at t = 0.05, top grid 32^3 over the octant (the
// resolution of a 64^3 box) in blocks of 8, with `max_level` levels.
inline double octant_sedov_error(int max_level) {
  using namespace fluxview::fv::test;
  const double t = 0.05;
  auto s = make_solver(
      "fv/sedov",
      {"grid.n=32", "grid.lx=0.5", "grid.ly=0.5", "grid.lz=0.5", "fv.blast_x=0", "fv.blast_y=0",
       "fv.blast_z=0", "fv.bc_xmin=reflecting", "fv.bc_ymin=reflecting", "fv.bc_zmin=reflecting",
       "fv.mesh=amr", "fv.amr.block=8", "fv.amr.max_level=" + std::to_string(max_level)});
  run_until(*s, t);
  const double c[3] = {0, 0, 0};
  const double r = shock_radius(*s, c, 1.0), want = sedov_radius(1.0, t, 1.0);
  std::printf(
      "Sedov AMR octant, top 32^3 + %d levels (effective %d^3 box): R = %.4f, "
      "similarity %.4f, error %+.2f%%, %g cell updates\n",
      max_level, 64 << max_level, r, want, 100 * (r / want - 1), diagnostic(*s, "cell_updates"));
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  return r / want - 1;
}

}  // namespace fluxview::amr::test
