#pragma once
// Helpers of the adaptive-mesh tests: a mesh on the host, cell centres, a field set from a
// function of position, totals over the blocks, the face-ghost cells of a block, and
// whether two solvers hold the same blocks; the guard finding a cell the views miss.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include <string>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/amr/AmrMesh.hpp"
#include "sim/core/Health.hpp"
#include "sim/core/Reduce.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::amr::test {

using Fn = std::function<State<double, 5>(const std::array<double, 3>&)>;

inline MeshShape shape(std::array<int, 3> trees, std::array<bool, 3> active, int block,
                       int max_level, Boundary bc = Boundary::linear) {
  MeshShape s;
  s.trees = trees;
  s.active = active;
  s.block = block;
  s.ghost = 2;
  s.max_level = max_level;
  for (int a = 0; a < 3; ++a) s.boundary[a][0] = s.boundary[a][1] = bc;
  return s;
}

inline FillParams euler_flips() {
  FillParams p;
  for (int a = 0; a < 3; ++a) p.flip[a] = 1 + a;
  return p;
}

// The domain is the unit box; cell (i, j, k) of a block (ghosts at negative or >= B).
inline std::array<double, 3> centre(const MeshShape& s, const BlockInfo& b, int i, int j, int k) {
  const int c[3] = {i, j, k};
  std::array<double, 3> x{0.5, 0.5, 0.5};
  for (int a = 0; a < 3; ++a)
    if (s.active[a]) {
      const double dx = 1.0 / (double(s.trees[a]) * s.block * double(1 << b.level));
      x[a] = (double(b.idx[a]) * s.block + c[a] + 0.5) * dx;
    }
  return x;
}

inline double cell_volume(const MeshShape& s, int level) {
  double v = 1;
  for (int a = 0; a < 3; ++a)
    if (s.active[a]) v /= double(s.trees[a]) * s.block * double(1 << level);
  return v;
}

// Sets the interior of every local block of the state from f.
inline void set_field(AmrMesh<double>& m, const Fn& f) {
  BlockPool<double>& p = m.state();
  const FieldLayout& l = p.layout();
  for (int b = 0; b < m.blocks(); ++b)
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j)
        for (int i = 0; i < l.n[0]; ++i) {
          const State<double, 5> u = f(centre(m.shape(), m.info()[std::size_t(b)], i, j, k));
          for (int v = 0; v < 5; ++v) p.block(v, b)[l.index(i, j, k)] = u.v[v];
        }
}

// Volume integrals of the five variables over the local blocks.
inline std::array<double, 5> totals(AmrMesh<double>& m) {
  std::array<double, 5> t{};
  const BlockPool<double>& p = m.state();
  const FieldLayout& l = p.layout();
  for (int b = 0; b < m.blocks(); ++b) {
    const double vol = cell_volume(m.shape(), m.info()[std::size_t(b)].level);
    for (int v = 0; v < 5; ++v) {
      double s = 0;
      for (int k = 0; k < l.n[2]; ++k)
        for (int j = 0; j < l.n[1]; ++j)
          for (int i = 0; i < l.n[0]; ++i) s += p.block(v, b)[l.index(i, j, k)];
      t[std::size_t(v)] += s * vol;
    }
  }
  return t;
}

// Calls f(block, i, j, k) for every face-ghost cell of every local block.
inline void for_each_face_ghost(AmrMesh<double>& m,
                                const std::function<void(int, int, int, int)>& f) {
  const FieldLayout& l = m.state().layout();
  const MeshShape& s = m.shape();
  for (int b = 0; b < m.blocks(); ++b)
    for (int a = 0; a < 3; ++a) {
      if (!s.active[a]) continue;
      for (int side = 0; side < 2; ++side)
        for (int h = 0; h < s.ghost; ++h) {
          int lo[3] = {0, 0, 0}, hi[3] = {l.n[0], l.n[1], l.n[2]};
          lo[a] = side == 0 ? -1 - h : l.n[a] + h;
          hi[a] = lo[a] + 1;
          for (int k = lo[2]; k < hi[2]; ++k)
            for (int j = lo[1]; j < hi[1]; ++j)
              for (int i = lo[0]; i < hi[0]; ++i) f(b, i, j, k);
        }
    }
}

// A linear state with positive density and pressure over the unit box.
inline State<double, 5> linear_state(const std::array<double, 3>& x) {
  return {{2 + 0.5 * x[0] - 0.3 * x[1] + 0.2 * x[2], 0.1 + 0.4 * x[0] + 0.2 * x[1] - 0.1 * x[2],
           -0.2 + 0.1 * x[0] - 0.3 * x[1] + 0.5 * x[2], 0.3 * x[0] - 0.2 * x[1] + 0.1 * x[2],
           10 + x[0] + 2 * x[1] - 1.5 * x[2]}};
}

// The same leaves in the same order (levels and block positions); otherwise the first
// difference, for ASSERT_TRUE / EXPECT_TRUE.
inline ::testing::AssertionResult same_blocks(const Hierarchy& a, const Hierarchy& b) {
  const std::vector<BlockBox> x = a.local_blocks(), y = b.local_blocks();
  if (x.size() != y.size())
    return ::testing::AssertionFailure()
           << x.size() << " blocks against " << y.size() << " (refined differently)";
  for (std::size_t k = 0; k < x.size(); ++k)
    if (x[k].level != y[k].level || x[k].idx != y[k].idx)
      return ::testing::AssertionFailure()
             << "block " << k << ": level " << x[k].level << " at (" << x[k].idx[0] << ", "
             << x[k].idx[1] << ", " << x[k].idx[2] << ") against level " << y[k].level << " at ("
             << y[k].idx[0] << ", " << y[k].idx[1] << ", " << y[k].idx[2] << ")";
  return ::testing::AssertionSuccess();
}

// Five levels below a 16^3 top grid, the view grid at level 4: a level-5 cell with an even
// index along x holds no view cell's centre, so the views never see it. Its density set to
// -1 through a state round trip on `backend`: the instability guard must name it all the
// same, by block, level, position and cell.
inline void expect_guard_finds_a_cell_the_views_miss(BackendKind backend) {
  const Scenario sc = load_scenario("fv/sedov", {"grid.n=16", "fv.mesh=amr", "fv.amr.block=8",
                                                 "fv.amr.max_level=5", "fv.blast_radius=0.04"});
  auto s = find_family(sc.solver).create(backend, Precision::f64);
  s->reset(sc.params);
  ASSERT_FALSE(check_health(*s).has_value());
  const Hierarchy* h = hierarchy_of(*s);
  ASSERT_NE(h, nullptr);
  const auto blocks = h->local_blocks();
  std::size_t fine = blocks.size();
  for (std::size_t b = 0; b < blocks.size() && fine == blocks.size(); ++b)
    if (blocks[b].level == 5) fine = b;
  ASSERT_LT(fine, blocks.size());
  SolverState st = s->save_state();
  const int cell = 0 + 8 * (3 + 8 * 5);  // (0, 3, 5) of the block: global x even
  double* rho = reinterpret_cast<double*>(st.arrays.at(1).values.bytes.data());
  rho[fine * 512 + cell] = -1.0;
  s->load_state(st);
  EXPECT_LT(first_bad_cell(s->view("rho"), true), 0) << "the view grid should miss the cell";
  const auto bad = check_health(*s);
  ASSERT_TRUE(bad.has_value());
  const BlockBox& b = blocks[fine];
  const std::string where = "field rho is -1 (must be positive) at block " + std::to_string(fine) +
                            " of rank 0 (level 5, position " + std::to_string(b.idx[0]) + " " +
                            std::to_string(b.idx[1]) + " " + std::to_string(b.idx[2]) +
                            "), cell 0 3 5";
  EXPECT_NE(bad->find(where), std::string::npos) << *bad;
}

}  // namespace fluxview::amr::test
