#pragma once
// Refluxing (Berger & Colella 1989): at a face between a coarse block and finer ones, the
// coarse cell's update used the coarse flux, the fine cells' updates the fine fluxes; the
// coarse cell is corrected by the difference, so the flux leaving one side is the flux
// entering the other and the sums of mass, momentum and energy change only through the
// domain's boundary, to round-off.
//
// The fluxes are recomputed here from the stage's input (ghosts filled) with the same
// pointwise functions and inputs as the stage used, rather than stored by the stage: the
// stage kernels then need no knowledge of the mesh. (A cell the stage recomputed at first
// order, or held at the floors, used other fluxes; those are counted in corrected_cells.)
// With a global time step the correction is applied in every RK stage, scaled by the
// stage's weight b: out += b dt (F_coarse - mean F_fine) / dx_coarse (sign by side).
// The flux of a face is the stage's: fv::face_flux from the four cells across it (PLM or
// constant), or fv::wenoz_face_flux from the six (WENO-Z); the blocks' ghost layers (3 for
// WENO-Z) hold the cells beyond a block on either side.
#include <cstdint>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/BlockPool.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/amr/Topology.hpp"
#include "sim/fv/EulerPolicies.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/WenoZFaceFlux.hpp"

namespace fluxview::amr {

template <class T, int NV>
struct RefluxBody {
  PoolView<T> in, out;
  const RefluxTask* tasks = nullptr;
  const BlockInfo* info = nullptr;  // per slot
  fv::Physics<T> ph;
  BlockScheme scheme;
  T coef = 0;                // b dt
  T inv_dx0[3] = {0, 0, 0};  // 1/dx of the top level (0 along an inactive axis)
  int block = 16;
  bool active[3] = {true, true, true};

  // The coarse cells along the face.
  FLUXVIEW_HD void box(int t, int lo[3], int hi[3]) const {
    const RefluxTask& task = tasks[t];
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = 0;
      hi[a] = active[a] ? block : 1;
    }
    lo[task.axis] = task.side == 0 ? 0 : block - 1;
    hi[task.axis] = lo[task.axis] + 1;
  }

  // The flux along D through the face below cell `face` of the column through c (the
  // face between cells face - 1 and face of block `slot`).
  template <int D>
  FLUXVIEW_HD State<T, NV> flux(const PoolView<T>& u, int slot, const int c[3], int face) const {
    const std::int64_t step = D == 0 ? 1 : (D == 1 ? u.layout.sy : u.layout.sz);
    int s[3] = {c[0], c[1], c[2]};
    s[D] = face;
    const std::int64_t o = u.cell(slot, s[0], s[1], s[2]);
    if (scheme.path == fv::StagePath::wenoz_faces) {
      State<T, NV> w[6];
#pragma unroll
      for (int m = 0; m < 6; ++m) w[m] = load_cell<NV>(u, o + (m - 3) * step);
      return fv::wenoz_face_flux<D, NV>(w, fv::EulerFaceSolver<T, NV>{ph}, scheme.vars);
    }
    State<T, NV> q[4];
#pragma unroll
    for (int m = 0; m < 4; ++m) q[m] = fv::cons_to_prim(load_cell<NV>(u, o + (m - 2) * step), ph);
    return fv::face_flux<D>(q[0], q[1], q[2], q[3], ph);
  }

  template <int D>
  FLUXVIEW_HD void correct(const RefluxTask& task, const int c[3]) const {
    const int n = block;
    // Coarse flux through the face: side 1 is between c and c + 1, side 0 between c - 1 and c.
    const State<T, NV> fc = flux<D>(in, task.coarse, c, task.side == 1 ? c[D] + 1 : c[D]);
    // The 2^(d-1) fine faces covering this coarse face cell.
    State<T, NV> sum;
#pragma unroll
    for (int v = 0; v < NV; ++v) sum.v[v] = T(0);
    int sub = 0, q = 0, tb[2] = {-1, -1};
#pragma unroll
    for (int b = 0; b < 3; ++b)
      if (b != D && active[b]) {
        sub |= (c[b] / (n / 2)) << q;
        tb[q++] = b;
      }
    const int fine = task.fine[sub];
    const int count = 1 << q;
#pragma unroll
    for (int f = 0; f < 4; ++f) {
      if (f >= count) break;
      int fc3[3] = {0, 0, 0};
#pragma unroll
      for (int r = 0; r < 2; ++r)
        if (tb[r] >= 0) fc3[tb[r]] = 2 * c[tb[r]] - (c[tb[r]] / (n / 2)) * n + ((f >> r) & 1);
      // Fine side: the block above (side 1) meets the face at its low side, the one below
      // at its high side.
      const State<T, NV> ff = flux<D>(in, fine, fc3, task.side == 1 ? 0 : n);
#pragma unroll
      for (int v = 0; v < NV; ++v) sum.v[v] += ff.v[v];
    }
    const T inv_dx = inv_dx0[D] * T(1 << info[task.coarse].level);
    const T w = (task.side == 1 ? -coef : coef) * inv_dx;
    const T mean = T(1) / T(count);
    const std::int64_t o = out.cell(task.coarse, c[0], c[1], c[2]);
#pragma unroll
    for (int v = 0; v < NV; ++v) out.f[v][o] += w * (sum.v[v] * mean - fc.v[v]);
  }

  FLUXVIEW_HD void operator()(int t, int i, int j, int k) const {
    const RefluxTask& task = tasks[t];
    const int c[3] = {i, j, k};
    if (task.axis == 0)
      correct<0>(task, c);
    else if (task.axis == 1)
      correct<1>(task, c);
    else
      correct<2>(task, c);
  }
};

}  // namespace fluxview::amr
