// The CUDA backend of the adaptive mesh: the bodies of MeshTasks.hpp and the indicator of
// AmrBackend.hpp in kernels, on the default stream. Task lists live in device memory
// (uploaded once per regrid); each task is one thread block.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/cuda/TaskLoops.cuh"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::amr {

namespace {

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

constexpr int kIndicatorThreads = 256;

// One thread block per AMR block: the largest estimate over its interior, reduced in
// shared memory.
template <class T, int NV>
__global__ void __launch_bounds__(kIndicatorThreads)
    indicator_kernel(PoolView<T> u, FillParams params, fv::Physics<T> ph, T eps, T* out) {
  __shared__ T best[kIndicatorThreads];
  const FieldLayout& l = u.layout;
  const std::int64_t step[3] = {params.active[0] ? 1 : 0, params.active[1] ? l.sy : 0,
                                params.active[2] ? l.sz : 0};
  const int b = int(blockIdx.x);
  const int cells = l.n[0] * l.n[1] * l.n[2];
  T worst = 0;
  for (int c = int(threadIdx.x); c < cells; c += kIndicatorThreads) {
    const int i = c % l.n[0], r = c / l.n[0];
    const T e = cell_indicator<T, NV>(u, u.cell(b, i, r % l.n[1], r / l.n[1]), step, ph, eps);
    worst = e > worst ? e : worst;
  }
  best[threadIdx.x] = worst;
  __syncthreads();
  for (int s = kIndicatorThreads / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s && best[threadIdx.x + s] > best[threadIdx.x])
      best[threadIdx.x] = best[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[b] = best[0];
}

}  // namespace

template <class T>
void fill_ghosts_cuda(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                      const FillParams& params, const fv::Physics<T>& ph) {
  with_nv(u.nv, [&]<int NV>() {
    const GhostFillBody<T, NV, EulerAdmissible<T>> body{u, tasks, params, {ph}};
    for_each_task_cell_device(begin, end, body);
  });
}

template <class T>
void remap_cuda(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks, int count,
                const FillParams& params, const fv::Physics<T>& ph) {
  with_nv(from.nv, [&]<int NV>() {
    const RemapBody<T, NV, EulerAdmissible<T>> body{from, to, tasks, params, {ph}};
    for_each_task_cell_device(0, count, body);
  });
}

template <class T>
void indicators_cuda(const PoolView<T>& u, int blocks, const FillParams& params,
                     const fv::Physics<T>& ph, T eps, T* out) {
  if (blocks <= 0) return;
  with_nv(u.nv, [&]<int NV>() {
    indicator_kernel<T, NV><<<blocks, kIndicatorThreads>>>(u, params, ph, eps, out);
    FLUXVIEW_CUDA_LAUNCH_CHECK();
  });
}

#define FLUXVIEW_AMR_CUDA(T)                                                                 \
  template void fill_ghosts_cuda<T>(const PoolView<T>&, const GhostTask*, int, int,          \
                                    const FillParams&, const fv::Physics<T>&);               \
  template void remap_cuda<T>(const PoolView<T>&, const PoolView<T>&, const RemapTask*, int, \
                              const FillParams&, const fv::Physics<T>&);                     \
  template void indicators_cuda<T>(const PoolView<T>&, int, const FillParams&,               \
                                   const fv::Physics<T>&, T, T*);
FLUXVIEW_AMR_CUDA(float)
FLUXVIEW_AMR_CUDA(double)
#undef FLUXVIEW_AMR_CUDA

}  // namespace fluxview::amr
