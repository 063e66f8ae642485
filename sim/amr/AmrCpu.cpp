// The CPU backend of the adaptive mesh: the bodies of MeshTasks.hpp and the indicator of
// AmrBackend.hpp in OpenMP loops.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/TaskLoops.hpp"

namespace fluxview::amr {

namespace {

// Runs f.template operator()<NV>() for the pool's variable count (5 or 6).
template <class F>
void with_nv(int nv, F&& f) {
  if (nv == 5)
    f.template operator()<5>();
  else if (nv == 6)
    f.template operator()<6>();
  else
    throw std::invalid_argument("AMR: " + std::to_string(nv) +
                                " variables (the fv state has 5, or 6 with a tracer)");
}

}  // namespace

template <class T>
void fill_ghosts_cpu(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                     const FillParams& params, const fv::Physics<T>& ph) {
  with_nv(u.nv, [&]<int NV>() {
    const GhostFillBody<T, NV, EulerAdmissible<T>> body{u, tasks, params, {ph}};
    for_each_task_cell(begin, end, body);
  });
}

template <class T>
void remap_cpu(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks, int count,
               const FillParams& params, const fv::Physics<T>& ph) {
  with_nv(from.nv, [&]<int NV>() {
    const RemapBody<T, NV, EulerAdmissible<T>> body{from, to, tasks, params, {ph}};
    for_each_task_cell(0, count, body);
  });
}

template <class T>
void indicators_cpu(const PoolView<T>& u, int blocks, const FillParams& params,
                    const fv::Physics<T>& ph, T eps, T* out) {
  const FieldLayout& l = u.layout;
  const std::int64_t step[3] = {params.active[0] ? 1 : 0, params.active[1] ? l.sy : 0,
                                params.active[2] ? l.sz : 0};
  with_nv(u.nv, [&]<int NV>() {
#pragma omp parallel for schedule(dynamic, 4) if (blocks >= 32)
    for (int b = 0; b < blocks; ++b) {
      T worst = 0;
      for (int k = 0; k < l.n[2]; ++k)
        for (int j = 0; j < l.n[1]; ++j)
          for (int i = 0; i < l.n[0]; ++i)
            worst = std::max(worst, cell_indicator<T, NV>(u, u.cell(b, i, j, k), step, ph, eps));
      out[b] = worst;
    }
  });
}

#define FLUXVIEW_AMR_CPU(T)                                                                 \
  template void fill_ghosts_cpu<T>(const PoolView<T>&, const GhostTask*, int, int,          \
                                   const FillParams&, const fv::Physics<T>&);               \
  template void remap_cpu<T>(const PoolView<T>&, const PoolView<T>&, const RemapTask*, int, \
                             const FillParams&, const fv::Physics<T>&);                     \
  template void indicators_cpu<T>(const PoolView<T>&, int, const FillParams&,               \
                                  const fv::Physics<T>&, T, T*);
FLUXVIEW_AMR_CPU(float)
FLUXVIEW_AMR_CPU(double)
#undef FLUXVIEW_AMR_CPU

}  // namespace fluxview::amr
