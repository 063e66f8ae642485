// Ghost filling on meshes of several levels: every face-ghost cell of every block holds
// the linear field at its centre, whether it came from a block of the same level (copy),
// a finer one (restriction), a coarser one (prolongation, after that block's own ghosts)
// or the boundary; across periodic faces; and reflecting faces mirror and flip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/amr/AmrTestUtil.hpp"

namespace fluxview::amr {
namespace {

using test::centre;

// Refines the leaves containing `point` down to max level: a nest of levels whose
// coarse-fine faces include every case (faces, and the levels jumping along them).
void refine_around(AmrMesh<double>& m, std::array<double, 3> point) {
  const MeshShape& s = m.shape();
  m.refine_initial([&](const LeafKey& k) {
    for (int a = 0; a < 3; ++a) {
      if (!s.active[a]) continue;
      const double n = double(s.trees[a]) * double(1 << k.level);
      if (point[a] < k.idx[a] / n || point[a] >= (k.idx[a] + 1) / n) return false;
    }
    return true;
  });
}

struct Count {
  int cells = 0;
  double worst = 0;
};

Count check_ghosts(AmrMesh<double>& m, const test::Fn& f) {
  Count c;
  const FieldLayout& l = m.state().layout();
  test::for_each_face_ghost(m, [&](int b, int i, int j, int k) {
    const auto want = f(centre(m.shape(), m.info()[std::size_t(b)], i, j, k));
    for (int v = 0; v < 5; ++v)
      c.worst = std::max(c.worst, std::fabs(m.state().block(v, b)[l.index(i, j, k)] - want.v[v]));
    ++c.cells;
  });
  return c;
}

TEST(AmrGhostFill, ReproducesALinearFieldInEveryFaceGhostOnThreeLevels) {
  struct Case {
    std::array<int, 3> trees;
    std::array<bool, 3> active;
    int block;
  };
  const Case cases[] = {{{2, 2, 2}, {true, true, true}, 8},
                        {{3, 2, 1}, {true, true, false}, 16},
                        {{1, 3, 2}, {false, true, true}, 8},
                        {{4, 1, 1}, {true, false, false}, 8}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.block);
    AmrMesh<double> m(test::shape(c.trees, c.active, c.block, 3), 5, Location::host,
                      fv::Physics<double>{}, test::euler_flips());
    refine_around(m, {0.37, 0.52, 0.61});
    test::set_field(m, test::linear_state);
    // Every kind of task is there.
    int kinds[4] = {0, 0, 0, 0};
    for (const GhostTask& t : m.plan().ghost_tasks) ++kinds[t.kind];
    EXPECT_GT(kinds[int(Fill::copy)], 0);
    EXPECT_GT(kinds[int(Fill::restrict_fine)], 0);
    EXPECT_GT(kinds[int(Fill::prolong)], 0);
    EXPECT_GT(kinds[int(Fill::boundary)], 0);
    m.fill_ghosts(m.state().view());
    const Count got = check_ghosts(m, test::linear_state);
    EXPECT_GT(got.cells, 0);
    EXPECT_LT(got.worst, 1e-13);
  }
}

TEST(AmrGhostFill, CrossesPeriodicFacesAtEveryLevel) {
  // Periodic in x: a field constant along x, linear in y and z, is continuous across the
  // wrap; the blocks at x = 0 and x = 1 take their x ghosts from each other.
  MeshShape s = test::shape({2, 2, 2}, {true, true, true}, 8, 2);
  s.periodic[0] = true;
  AmrMesh<double> m(s, 5, Location::host, fv::Physics<double>{}, test::euler_flips());
  refine_around(m, {0.02, 0.4, 0.7});  // the nest touches the periodic face
  const test::Fn f = [](const std::array<double, 3>& x) {
    return test::linear_state({0.0, x[1], x[2]});
  };
  test::set_field(m, f);
  for (const GhostTask& t : m.plan().ghost_tasks)
    EXPECT_FALSE(t.kind == int(Fill::boundary) && t.axis == 0);
  m.fill_ghosts(m.state().view());
  const Count got = check_ghosts(m, [&](const std::array<double, 3>& x) {
    return f({0.0, x[1], x[2]});
  });
  EXPECT_LT(got.worst, 1e-13);
}

TEST(AmrGhostFill, ReflectingFacesMirrorTheCellsAndFlipTheNormalMomentum) {
  AmrMesh<double> m(test::shape({1, 1, 1}, {true, true, true}, 8, 0, Boundary::reflecting), 5,
                    Location::host, fv::Physics<double>{}, test::euler_flips());
  test::set_field(m, test::linear_state);
  m.fill_ghosts(m.state().view());
  const FieldLayout& l = m.state().layout();
  auto u = [&](int v, int i, int j, int k) { return m.state().block(v, 0)[l.index(i, j, k)]; };
  for (int h = 0; h < 2; ++h) {
    for (int v = 0; v < 5; ++v) {
      const double sx = v == 1 ? -1 : 1, sz = v == 3 ? -1 : 1;
      EXPECT_EQ(u(v, -1 - h, 3, 5), sx * u(v, h, 3, 5));
      EXPECT_EQ(u(v, 8 + h, 3, 5), sx * u(v, 7 - h, 3, 5));
      EXPECT_EQ(u(v, 2, 6, -1 - h), sz * u(v, 2, 6, h));
    }
  }
}

}  // namespace
}  // namespace fluxview::amr
