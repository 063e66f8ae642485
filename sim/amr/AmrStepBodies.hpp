#pragma once
// Per-cell bodies of the AMR solver's reductions and resampling, written once for the CPU
// loops (AmrStepCpu.cpp) and the kernels (cuda/AmrStage.cu).
#include <cmath>
#include <cstdint>

#include "sim/amr/AmrStep.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::amr {

// 1/dx of a block's level.
template <class T>
FLUXVIEW_HD void level_inv_dx(const T inv_dx0[3], int level, T out[3]) {
  const T s = T(1 << level);
#pragma unroll
  for (int a = 0; a < 3; ++a) out[a] = inv_dx0[a] * s;
}

// The CFL signal rate of one cell.
template <class T, int NV>
FLUXVIEW_HD double cell_rate(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph,
                             const T inv_dx[3]) {
  return double(fv::signal_rate(fv::cons_to_prim(load_cell<NV>(u, c), ph), ph.gamma, inv_dx));
}

// Adds one cell to the kBlockTotals accumulators.
template <class T, int NV>
FLUXVIEW_HD void add_to_totals(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph,
                               double acc[kBlockTotals]) {
  const State<T, NV> s = load_cell<NV>(u, c);
  bool finite = true;
#pragma unroll
  for (int m = 0; m < 5; ++m) finite = finite && std::isfinite(double(s.v[m]));
  if (!finite) {
    acc[7] += 1;
    return;
  }
#pragma unroll
  for (int m = 0; m < 5; ++m) acc[m] += double(s.v[m]);
  const State<T, NV> q = fv::cons_to_prim(s, ph);
  const double v2 = double(q.v[1]) * q.v[1] + double(q.v[2]) * q.v[2] + double(q.v[3]) * q.v[3];
  const double mach = std::sqrt(v2) / double(fv::sound_speed(q.v[0], q.v[4], ph.gamma));
  acc[8] = mach > acc[8] ? mach : acc[8];
  if constexpr (NV > 5) {
    const double rc = s.v[5], conc = rc / double(s.v[0]);
    acc[5] += rc;
    if (conc > 0.1 && conc < 0.9) acc[6] += rc;
  }
}

template <class T>
FLUXVIEW_HD T field_value(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph, int what);

// One cell of the uniform grid from the block cell containing its centre.
template <class T, int NV>
struct ResampleBody {
  PoolView<T> u;
  const ResampleTask* tasks = nullptr;
  FieldLayout grid;
  fv::Physics<T> ph;
  int what = kResampleDensity;
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
      if (!active[a]) {
        s[a] = 0;
        continue;
      }
      const int f = task.shift >= 0
                        ? (task.shift == 0 ? g[a] : (g[a] << task.shift) + (1 << (task.shift - 1)))
                        : (g[a] >> -task.shift);
      s[a] = f - task.origin[a];
    }
    out[grid.index(i, j, k)] = field_value(u, u.cell(task.slot, s[0], s[1], s[2]), ph, what);
  }
};

// The value of `what` (as for resampling) at a cell.
template <class T>
FLUXVIEW_HD T field_value(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph,
                          int what) {
  if (what == kResampleDensity) return u.f[0][c];
  const State<T, 5> q = fv::cons_to_prim(load_cell<5>(u, c), ph);
  return fv::derived_value(q, what == int(fv::Derived::tracer) ? u.f[5][c] : T(0),
                           fv::Derived(what));
}

// One interior cell of a block into a packed array: block after block, x fastest.
template <class T>
struct PackBody {
  PoolView<T> u;
  fv::Physics<T> ph;
  int what = kResampleDensity;
  T* out = nullptr;

  FLUXVIEW_HD void box(int, int lo[3], int hi[3]) const {
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = 0;
      hi[a] = u.layout.n[a];
    }
  }
  FLUXVIEW_HD void operator()(int b, int i, int j, int k) const {
    const FieldLayout& l = u.layout;
    const std::int64_t cells = std::int64_t(l.n[0]) * l.n[1] * l.n[2];
    out[b * cells + (std::int64_t(k) * l.n[1] + j) * l.n[0] + i] =
        field_value(u, u.cell(b, i, j, k), ph, what);
  }
};

}  // namespace fluxview::amr
