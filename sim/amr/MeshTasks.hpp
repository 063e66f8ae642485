#pragma once
// The work lists of the adaptive mesh, built on the host once per regrid (Topology.cpp,
// Regrid.cpp) and handed to the loops of either backend, and the per-cell bodies that
// do each task. A task names a box of destination cells in one block and where their
// values come from; a loop runs body(task, i, j, k) over every cell of every task's box
// (CPU: OpenMP over tasks; CUDA: one thread block per task). The bodies are the only
// place the index arithmetic is written.
//
// Ghost filling (face ghosts only: the stencil is a cross) runs in groups:
//   group 0: same-level copies, restrictions from finer neighbours, physical boundaries;
//            they read only the interiors of other blocks (or the block itself), so all
//            run at once;
//   group l (l = 1 .. max level): prolongation into the ghosts of level-l blocks from
//            their coarser neighbours, whose interiors and face ghosts are complete by
//            then (group 0 and group l-1): the slopes of a coarse cell read its face
//            neighbours, which lie in the coarse block or its face ghosts.
#include <cstdint>

#include "sim/amr/AmrOperators.hpp"
#include "sim/amr/BlockPool.hpp"
#include "sim/core/HostDevice.hpp"

namespace fluxview::amr {

// Level and position of the block in a slot (what kernels need for coordinates and dx).
struct BlockInfo {
  int level = 0;
  int idx[3] = {0, 0, 0};
};

enum class Fill : int { copy = 0, restrict_fine = 1, prolong = 2, boundary = 3 };

// Physical boundary of a face of the domain. `periodic` never reaches a task (the forest
// wraps); `linear` extrapolates the two edge cells linearly (exact for linear data: the
// tests use it to check ghost filling everywhere).
enum class Boundary : int { outflow = 0, reflecting = 1, periodic = 2, linear = 3 };

struct GhostTask {
  int dst = 0;  // slot filled
  int src = 0;  // slot read (dst itself for a boundary)
  int kind = 0;
  int axis = 0, side = 0;                    // the face of dst (side 0: low, 1: high)
  int boundary = 0;                          // Boundary, for kind boundary
  int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};  // the dst cells filled
  // copy:     source cell = d + shift
  // restrict: source fine cells = 2 d + shift + {0, 1} per active axis
  // prolong:  f = d + shift is the fine cell's index from the coarse block's corner in
  //           fine cells; the coarse cell is f / 2, the offset -1/4 or +1/4 by f's parity
  int shift[3] = {0, 0, 0};
};

// What ghost filling needs besides the pool and the tasks.
struct FillParams {
  int block = 16;
  bool active[3] = {true, true, true};
  // The variables whose sign a reflecting face normal to axis a flips (the normal
  // momentum; for MHD also the normal magnetic field), -1 for none.
  int flip[3] = {-1, -1, -1};
  int flip_field[3] = {-1, -1, -1};
};

template <int NV, class T>
FLUXVIEW_HD State<T, NV> load_cell(const PoolView<T>& u, std::int64_t c) {
  State<T, NV> s;
#pragma unroll
  for (int v = 0; v < NV; ++v) s.v[v] = u.f[v][c];
  return s;
}
template <int NV, class T>
FLUXVIEW_HD void store_cell(const PoolView<T>& u, std::int64_t c, const State<T, NV>& s) {
#pragma unroll
  for (int v = 0; v < NV; ++v) u.f[v][c] = s.v[v];
}

// The value of fine cell (fi, fj, fk), given in fine cells from the corner of coarse block
// `src`, prolongated from the coarse cell containing it. `up` levels between them (1 for
// ghosts, more where a regrid refines a block twice).
template <int NV, class T, class Admissible>
FLUXVIEW_HD State<T, NV> prolongated_cell(const PoolView<T>& u, int src, const int f[3], int up,
                                          const bool active[3], const Admissible& admissible) {
  int c[3];
  T o[3];
  const int mask = (1 << up) - 1;
  const T inv = T(1) / T(1 << up);
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    c[a] = active[a] ? (f[a] >> up) : 0;
    o[a] = active[a] ? (T((f[a] & mask)) + T(0.5)) * inv - T(0.5) : T(0);
  }
  const std::int64_t cc = u.cell(src, c[0], c[1], c[2]);
  const std::int64_t step[3] = {1, u.layout.sy, u.layout.sz};
  State<T, NV> m[3], p[3];
  const State<T, NV> mid = load_cell<NV>(u, cc);
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    if (active[a]) {
      m[a] = load_cell<NV>(u, cc - step[a]);
      p[a] = load_cell<NV>(u, cc + step[a]);
    } else {
      m[a] = mid;
      p[a] = mid;
    }
  }
  const T reach = T(0.5) - T(0.5) * inv;
  return prolongate(mid, m, p, active, o, reach, admissible);
}

// The mean of the 2^d fine cells starting at fine cell (f0, f1, f2) of block `src`.
template <int NV, class T>
FLUXVIEW_HD State<T, NV> restricted_cell(const PoolView<T>& u, int src, const int f[3],
                                         const bool active[3]) {
  State<T, NV> sum;
#pragma unroll
  for (int v = 0; v < NV; ++v) sum.v[v] = T(0);
  int count = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    const int b0 = c & 1, b1 = (c >> 1) & 1, b2 = (c >> 2) & 1;
    if ((b0 && !active[0]) || (b1 && !active[1]) || (b2 && !active[2])) continue;
    const std::int64_t fc = u.cell(src, f[0] + b0, f[1] + b1, f[2] + b2);
#pragma unroll
    for (int v = 0; v < NV; ++v) sum.v[v] += u.f[v][fc];
    ++count;
  }
  const T inv = T(1) / T(count);
#pragma unroll
  for (int v = 0; v < NV; ++v) sum.v[v] *= inv;
  return sum;
}

// Fills one ghost cell (i, j, k) of a task's box.
template <class T, int NV, class Admissible>
struct GhostFillBody {
  PoolView<T> u;
  const GhostTask* tasks = nullptr;
  FillParams params;
  Admissible admissible;

  FLUXVIEW_HD void box(int t, int lo[3], int hi[3]) const {
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = tasks[t].lo[a];
      hi[a] = tasks[t].hi[a];
    }
  }

  FLUXVIEW_HD void operator()(int t, int i, int j, int k) const {
    const GhostTask& task = tasks[t];
    const int d[3] = {i, j, k};
    const std::int64_t dc = u.cell(task.dst, i, j, k);
    const bool* act = params.active;
    if (task.kind == int(Fill::copy)) {
      store_cell<NV>(u, dc,
                     load_cell<NV, T>(u, u.cell(task.src, i + task.shift[0], j + task.shift[1],
                                                k + task.shift[2])));
    } else if (task.kind == int(Fill::restrict_fine)) {
      int f[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) f[a] = act[a] ? 2 * d[a] + task.shift[a] : 0;
      store_cell<NV>(u, dc, restricted_cell<NV>(u, task.src, f, act));
    } else if (task.kind == int(Fill::prolong)) {
      int f[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) f[a] = d[a] + task.shift[a];
      store_cell<NV>(u, dc, prolongated_cell<NV>(u, task.src, f, 1, act, admissible));
    } else {
      fill_boundary(task, d, dc);
    }
  }

  FLUXVIEW_HD void fill_boundary(const GhostTask& task, const int d[3], std::int64_t dc) const {
    const int a = task.axis, n = params.block;
    const int h = task.side == 0 ? -1 - d[a] : d[a] - n;  // ghost layer, 0 next to the edge
    const int edge = task.side == 0 ? 0 : n - 1;
    const int inward = task.side == 0 ? 1 : -1;
    int s[3] = {d[0], d[1], d[2]};
    if (task.boundary == int(Boundary::linear)) {
      int s1[3] = {d[0], d[1], d[2]};
      s[a] = edge;
      s1[a] = edge + inward;
      const std::int64_t e0 = u.cell(task.dst, s[0], s[1], s[2]);
      const std::int64_t e1 = u.cell(task.dst, s1[0], s1[1], s1[2]);
#pragma unroll
      for (int v = 0; v < NV; ++v) u.f[v][dc] = u.f[v][e0] + T(h + 1) * (u.f[v][e0] - u.f[v][e1]);
      return;
    }
    const bool reflect = task.boundary == int(Boundary::reflecting);
    s[a] = reflect ? edge + inward * h : edge;
    const std::int64_t sc = u.cell(task.dst, s[0], s[1], s[2]);
    const int flip = reflect ? params.flip[a] : -1, flip_b = reflect ? params.flip_field[a] : -1;
#pragma unroll
    for (int v = 0; v < NV; ++v) u.f[v][dc] = v == flip || v == flip_b ? -u.f[v][sc] : u.f[v][sc];
  }
};

// ---- regrid: the new blocks from the old ----------------------------------------------

enum class Remap : int { copy = 0, prolong = 1, restrict_children = 2 };

struct RemapTask {
  int dst = 0;   // slot in the new pool
  int kind = 0;  // Remap
  int up = 0;    // prolong: levels between the old ancestor and the new block
  // copy, prolong: src[0]; restrict: the old children by position, bit a of the index the
  // child's half along axis a (inactive axes: bit 0)
  int src[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int offset[3] = {0, 0, 0};  // prolong: the new block's position inside the ancestor, in blocks
};

// One interior cell of a new block from the old pool (whose ghosts are filled).
template <class T, int NV, class Admissible>
struct RemapBody {
  PoolView<T> from, to;
  const RemapTask* tasks = nullptr;
  FillParams params;
  Admissible admissible;

  FLUXVIEW_HD void box(int, int lo[3], int hi[3]) const {
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = 0;
      hi[a] = to.layout.n[a];
    }
  }

  FLUXVIEW_HD void operator()(int t, int i, int j, int k) const {
    const RemapTask& task = tasks[t];
    const int d[3] = {i, j, k};
    const int n = params.block;
    const bool* act = params.active;
    const std::int64_t dc = to.cell(task.dst, i, j, k);
    if (task.kind == int(Remap::copy)) {
      store_cell<NV>(to, dc, load_cell<NV, T>(from, from.cell(task.src[0], i, j, k)));
    } else if (task.kind == int(Remap::prolong)) {
      int f[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) f[a] = act[a] ? task.offset[a] * n + d[a] : 0;
      store_cell<NV>(to, dc, prolongated_cell<NV>(from, task.src[0], f, task.up, act, admissible));
    } else {
      int child = 0, f[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        const int half = act[a] ? (2 * d[a]) / n : 0;
        child |= half << a;
        f[a] = act[a] ? 2 * d[a] - half * n : 0;
      }
      store_cell<NV>(to, dc, restricted_cell<NV>(from, task.src[child], f, act));
    }
  }
};

}  // namespace fluxview::amr
