#pragma once
// The loops of the adaptive mesh as the two backends run them: ghost filling, regrid
// remapping and the refinement indicator. The bodies (MeshTasks.hpp, and the indicator
// below) are written once; AmrCpu.cpp runs them in OpenMP loops and cuda/AmrKernels.cu in
// kernels that take the task lists from device memory. The state is the fv solver's
// (rho, rho u, E [, rho c]); its admissibility test keeps prolongation positive.
#include <cstdint>

#include "sim/amr/BlockPool.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::amr {

// The states prolongation may produce: density and pressure above the floors.
template <class T>
struct EulerAdmissible {
  fv::Physics<T> ph;
  template <int NV>
  FLUXVIEW_HD bool operator()(const State<T, NV>& u) const {
    return fv::admissible(u, ph);
  }
};

// Loehner's estimator of a cell (the larger of its values for density and pressure), from
// the cell and its face neighbours; `step` are the index strides along x, y, z (0 along an
// inactive axis, where the terms vanish).
template <class T, int NV>
FLUXVIEW_HD T cell_indicator(const PoolView<T>& u, std::int64_t c, const std::int64_t step[3],
                             const fv::Physics<T>& ph, T eps) {
  T num_r = 0, den_r = 0, num_p = 0, den_p = 0;
  const State<T, NV> q0 = fv::cons_to_prim(load_cell<NV>(u, c), ph);
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    if (step[a] == 0) continue;
    const State<T, NV> qm = fv::cons_to_prim(load_cell<NV>(u, c - step[a]), ph);
    const State<T, NV> qp = fv::cons_to_prim(load_cell<NV>(u, c + step[a]), ph);
    lohner_axis(qm.v[0], q0.v[0], qp.v[0], eps, num_r, den_r);
    lohner_axis(qm.v[4], q0.v[4], qp.v[4], eps, num_p, den_p);
  }
  const T er = lohner_value(num_r, den_r), ep = lohner_value(num_p, den_p);
  return er > ep ? er : ep;
}

// ---- CPU (AmrCpu.cpp) ------------------------------------------------------------------
// Ghost tasks [begin, end) of `tasks`; host memory.
template <class T>
void fill_ghosts_cpu(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                     const FillParams& params, const fv::Physics<T>& ph);
// New blocks of `to` from `from` (whose ghosts are filled).
template <class T>
void remap_cpu(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks, int count,
               const FillParams& params, const fv::Physics<T>& ph);
// Per block in slots [0, blocks): the largest Loehner estimate over its interior.
template <class T>
void indicators_cpu(const PoolView<T>& u, int blocks, const FillParams& params,
                    const fv::Physics<T>& ph, T eps, T* out);

// ---- CUDA (cuda/AmrKernels.cu; AmrKernelsAbsent.cpp throws without CUDA) ---------------
// The same on the default stream; task lists and `out` in device memory.
template <class T>
void fill_ghosts_cuda(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                      const FillParams& params, const fv::Physics<T>& ph);
template <class T>
void remap_cuda(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks, int count,
                const FillParams& params, const fv::Physics<T>& ph);
template <class T>
void indicators_cuda(const PoolView<T>& u, int blocks, const FillParams& params,
                     const fv::Physics<T>& ph, T eps, T* out);

}  // namespace fluxview::amr
