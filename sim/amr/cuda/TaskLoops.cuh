#pragma once
// The device loop over the cells of a list of tasks (see ../TaskLoops.hpp): one thread
// block per task, its threads striding over the task's box, x fastest so that a warp
// reads consecutive cells of a row.
#include <cuda_runtime.h>

#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::amr {

template <class Body>
__global__ void __launch_bounds__(128) task_cells_kernel(int begin, Body body) {
  const int t = begin + int(blockIdx.x);
  int lo[3], hi[3];
  body.box(t, lo, hi);
  const int nx = hi[0] - lo[0], ny = hi[1] - lo[1], nz = hi[2] - lo[2];
  const int cells = nx * ny * nz;
  for (int c = int(threadIdx.x); c < cells; c += int(blockDim.x)) {
    const int i = c % nx, r = c / nx;
    body(t, lo[0] + i, lo[1] + r % ny, lo[2] + r / ny);
  }
}

template <class Body>
void for_each_task_cell_device(int begin, int end, const Body& body) {
  if (end <= begin) return;
  task_cells_kernel<<<end - begin, 128>>>(begin, body);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace fluxview::amr
