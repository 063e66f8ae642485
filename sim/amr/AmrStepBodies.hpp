#pragma once
// Per-cell bodies of the adaptive mesh's reductions, resampling and packing, written once
// for both execution spaces (AmrLoops.hpp). Bodies over the whole pool take the z index of
// the all-blocks box (AmrLoops.hpp): block k / nz, cell k % nz.
#include <array>
#include <cmath>
#include <cstdint>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/AmrOperators.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/core/Brush.hpp"
#include "sim/core/Exec.hpp"
#include "sim/fv/FvLoops.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/FvTools.hpp"

namespace fluxview::amr {

// 1/dx of a block's level.
template <class T>
FLUXVIEW_HD void level_inv_dx(const T inv_dx0[3], int level, T out[3]) {
  const T s = T(1 << level);
#pragma unroll
  for (int a = 0; a < 3; ++a) out[a] = inv_dx0[a] * s;
}

// The pool's variables as fv's field set (the cell index then counts from the pool's start).
template <class T>
FLUXVIEW_HD fv::Conserved<T> pool_fields(const PoolView<T>& u) {
  fv::Conserved<T> c;
  for (int m = 0; m < u.nv; ++m) c.f[m] = u.f[m];
  return c;
}

// What div B of a block's cell reads: the pool's strides and the block's 1/dx.
template <class T>
FLUXVIEW_HD fv::DivergenceStencil<T> block_divergence_stencil(const PoolView<T>& u,
                                                              const T inv_dx[3]) {
  const FieldLayout& l = u.layout;
  return {{l.n[0] > 1 ? 1 : 0, l.n[1] > 1 ? l.sy : 0, l.n[2] > 1 ? l.sz : 0},
          {inv_dx[0], inv_dx[1], inv_dx[2]}};
}

// The value of `what` (kDensity or an fv::Derived) at cell c of a block whose cells are
// 1/inv_dx wide; div B from the face neighbours (the block's ghosts filled).
template <class T, int NV>
FLUXVIEW_HD T field_value(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph, int what,
                          const T inv_dx[3]) {
  if (what == kDensity) return u.f[fv::kRho][c];
  if (what == int(fv::Derived::divergence_b))
    return T(fv::divergence_b(pool_fields(u), c, block_divergence_stencil(u, inv_dx)));
  T tracer_density = T(0);
  if constexpr (fv::has_tracer<NV>) tracer_density = u.f[fv::tracer_slot<NV>][c];
  return fv::cell_derived_value(fv::cons_to_prim(load_cell<NV>(u, c), ph), tracer_density,
                                fv::Derived(what));
}

// Loehner's estimate of a cell (the larger of its values for density and pressure), from
// the cell and its face neighbours; `step` the index strides along x, y, z (0 along an
// inactive axis, where the terms vanish). Reduced per block by its maximum.
template <class T, int NV>
struct IndicatorBody {
  PoolView<T> u;
  fv::Physics<T> ph;
  T eps = T(0.01);
  std::int64_t step[3] = {1, 0, 0};

  FLUXVIEW_HD void operator()(int b, int i, int j, int k, exec::Max<T>& acc) const {
    const std::int64_t c = u.cell(b, i, j, k);
    T num_r = 0, den_r = 0, num_p = 0, den_p = 0;
    const State<T, NV> q0 = fv::cons_to_prim(load_cell<NV>(u, c), ph);
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      if (step[a] == 0) continue;
      const State<T, NV> qm = fv::cons_to_prim(load_cell<NV>(u, c - step[a]), ph);
      const State<T, NV> qp = fv::cons_to_prim(load_cell<NV>(u, c + step[a]), ph);
      lohner_axis(qm.v[fv::kRho], q0.v[fv::kRho], qp.v[fv::kRho], eps, num_r, den_r);
      lohner_axis(qm.v[fv::kPressure], q0.v[fv::kPressure], qp.v[fv::kPressure], eps, num_p, den_p);
    }
    const T er = lohner_value(num_r, den_r), ep = lohner_value(num_p, den_p);
    acc.add(er > ep ? er : ep);
  }
};

// The CFL signal rate of a cell at its block's level.
template <class T, int NV>
struct RateBody {
  PoolView<T> u;
  const BlockInfo* info = nullptr;
  fv::Physics<T> ph;
  T inv_dx0[3] = {0, 0, 0};

  FLUXVIEW_HD void operator()(int i, int j, int kk, exec::MaxKeepNaN<double>& acc) const {
    const int nz = u.layout.n[2], b = kk / nz, k = kk % nz;
    T inv[3];
    level_inv_dx(inv_dx0, info[b].level, inv);
    acc.add(fv::cell_signal_rate(load_cell<NV>(u, u.cell(b, i, j, k)), ph, inv));
  }
};

// A cell's share of its block's totals (sums of cell values; the block is weighted by its
// cell volume afterwards); div B of MHD cells at the block's level (its ghosts filled).
template <class T, int NV>
struct TotalsBody {
  PoolView<T> u;
  const BlockInfo* info = nullptr;
  fv::Physics<T> ph;
  T inv_dx0[3] = {0, 0, 0};

  FLUXVIEW_HD void operator()(int b, int i, int j, int k, fv::TotalsAcc& acc) const {
    const std::int64_t c = u.cell(b, i, j, k);
    fv::add_cell_totals<NV>(load_cell<NV>(u, c), ph, acc);
    if constexpr (fv::is_mhd<NV>) {
      T inv[3];
      level_inv_dx(inv_dx0, info[b].level, inv);
      fv::add_cell_divergence(pool_fields(u), c, block_divergence_stencil(u, inv), acc);
    }
  }
};

// A stroke of a steering tool (fv::Paint: count, blast or cloud) on every block cell whose
// centre the brush reaches, through fv::paint_cell as on the uniform grid. `brush` holds
// the centre, reach and periodic lengths; each block's cells get its level's origin and
// spacing. The sums are per block and per unit volume (the host weights each block by its
// cell volume).
template <class T, int NV>
struct PaintBody {
  PoolView<T> u;
  const BlockInfo* info = nullptr;
  Brush brush;
  double dx0[3] = {1, 1, 1};  // cell size at level 0
  fv::Paint paint;

  FLUXVIEW_HD void operator()(int b, int i, int j, int k, fv::PaintAcc& acc) const {
    Brush at = brush;
    const int block[3] = {u.layout.n[0], u.layout.n[1], u.layout.n[2]};
    for (int a = 0; a < 3; ++a) {
      at.spacing[a] = dx0[a] / double(1 << info[b].level);
      at.origin[a] = (double(info[b].idx[a]) * block[a] + 0.5) * at.spacing[a];
      at.offset[a] = 0;
    }
    if (!at.inside(i, j, k)) return;
    acc.cells.add(1);
    if (paint.kind == fv::PaintKind::count) return;
    const std::int64_t c = u.cell(b, i, j, k);
    store_cell<NV>(u, c, fv::paint_cell(load_cell<NV>(u, c), paint, acc));
  }
};

// One cell of a uniform grid from the block cell containing its centre.
template <class T, int NV>
struct ResampleBody {
  PoolView<T> u;
  const ResampleTask* tasks = nullptr;
  const BlockInfo* info = nullptr;
  FieldLayout grid;
  fv::Physics<T> ph;
  T inv_dx0[3] = {0, 0, 0};
  int what = kDensity;
  bool active[3] = {true, true, true};
  T* out = nullptr;

  FLUXVIEW_HD void box(int t, int lo[3], int hi[3]) const {
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = tasks[t].lo[a];
      hi[a] = tasks[t].hi[a];
    }
  }

  FLUXVIEW_HD void operator()(int t, int i, int j, int k) const {
    const ResampleTask& task = tasks[t];
    const int g[3] = {i, j, k};
    int s[3];
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      // The block-level cell holding the grid cell's centre, (g + 1/2) 2^shift.
      const int f = task.shift >= 0
                        ? (task.shift == 0 ? g[a] : (g[a] << task.shift) + (1 << (task.shift - 1)))
                        : (g[a] >> -task.shift);
      s[a] = active[a] ? f - task.origin[a] : 0;
    }
    T inv[3];
    level_inv_dx(inv_dx0, info[task.slot].level, inv);
    out[grid.index(i - task.first[0], j - task.first[1], k - task.first[2])] =
        field_value<T, NV>(u, u.cell(task.slot, s[0], s[1], s[2]), ph, what, inv);
  }
};

// One interior cell of a block into a packed array: block after block, x fastest.
template <class T, int NV>
struct PackBody {
  PoolView<T> u;
  const BlockInfo* info = nullptr;
  fv::Physics<T> ph;
  T inv_dx0[3] = {0, 0, 0};
  int what = kDensity;
  T* out = nullptr;

  FLUXVIEW_HD void operator()(int i, int j, int kk) const {
    const FieldLayout& l = u.layout;
    const int b = kk / l.n[2], k = kk % l.n[2];
    const std::int64_t cells = std::int64_t(l.n[0]) * l.n[1] * l.n[2];
    T inv[3];
    level_inv_dx(inv_dx0, info[b].level, inv);
    out[b * cells + (std::int64_t(k) * l.n[1] + j) * l.n[0] + i] =
        field_value<T, NV>(u, u.cell(b, i, j, k), ph, what, inv);
  }
};

// Whole blocks (every variable, ghost layers and padding included) of the listed slots into
// a message for another rank, variable after variable: element e of variable m of the
// b-th listed block at out[(m * count + b) * stride + e]. The box is (e, b, m).
template <class T>
struct GatherBlocksBody {
  PoolView<T> u;
  const int* slots = nullptr;
  int count = 0;
  T* out = nullptr;

  FLUXVIEW_HD void operator()(int e, int b, int m) const {
    out[(std::int64_t(m) * count + b) * u.stride + e] = u.f[m][slots[b] * u.stride + e];
  }
};

}  // namespace fluxview::amr
