#pragma once
// The device versions of ../TaskLoops.hpp: one thread block per task (or per block of the
// mesh), its threads striding over the box, x fastest so that a warp reads consecutive
// cells of a row. Launched on the space's stream; no synchronisation.
#include <cuda_runtime.h>

#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/core/cuda/ExecDevice.cuh"

namespace fluxview::amr {

namespace detail {

constexpr int kTaskThreads = 128;
constexpr int kReduceThreads = 256;

template <class Body>
__global__ void __launch_bounds__(kTaskThreads) task_cells_kernel(int begin, Body body) {
  const int t = begin + int(blockIdx.x);
  int lo[3], hi[3];
  body.box(t, lo, hi);
  const int nx = hi[0] - lo[0], ny = hi[1] - lo[1], nz = hi[2] - lo[2];
  const int cells = nx * ny * nz;
  for (int c = int(threadIdx.x); c < cells; c += kTaskThreads) {
    const int i = c % nx, r = c / nx;
    body(t, lo[0] + i, lo[1] + r % ny, lo[2] + r / ny);
  }
}

template <class Acc, class Body>
__global__ void __launch_bounds__(kReduceThreads)
    per_block_kernel(FieldLayout l, Acc identity, Body body, Acc* out) {
  const int b = int(blockIdx.x);
  const int cells = l.n[0] * l.n[1] * l.n[2];
  Acc acc = identity;
  for (int c = int(threadIdx.x); c < cells; c += kReduceThreads) {
    const int i = c % l.n[0], r = c / l.n[0];
    body(b, i, r % l.n[1], r / l.n[1], acc);
  }
  acc = exec::detail::join_block<kReduceThreads>(acc);
  if (threadIdx.x == 0) out[b] = acc;
}

}  // namespace detail

template <class Body>
void for_each_task_cell(const exec::Device& d, int begin, int end, const Body& body) {
  if (end <= begin) return;
  detail::task_cells_kernel<<<end - begin, detail::kTaskThreads, 0,
                              static_cast<cudaStream_t>(d.stream)>>>(begin, body);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

// `out` in device memory.
template <class Acc, class Body>
void reduce_per_block(const exec::Device& d, int blocks, const FieldLayout& l, const Acc& identity,
                      const Body& body, Acc* out) {
  if (blocks <= 0) return;
  detail::
      per_block_kernel<<<blocks, detail::kReduceThreads, 0, static_cast<cudaStream_t>(d.stream)>>>(
          l, identity, body, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace fluxview::amr
