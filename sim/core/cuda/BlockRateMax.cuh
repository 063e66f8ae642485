#pragma once
// The CFL signal rate's maximum over a stage kernel's cells, joined on the device: each
// thread holds the largest rate of the cells it updated; the block joins them and one
// atomic per block (per thread where the block is no whole number of warps) raises the
// maximum in *bits. Used by the uniform grid's and the adaptive mesh's stage kernels, so
// that both join the rates the same way.
//
// NaN propagates throughout (fmax would drop it): a NaN rate is how a broken state reaches
// the time-step control, which then stops the run rather than stepping with a bad dt.
#include <cuda_runtime.h>

#include "sim/core/Exec.hpp"

namespace fluxview::cuda {

// Non-negative doubles (and NaN, whose bits are larger still) order like their bits, so
// an integer atomicMax on the bits is a maximum of the values. *bits starts at 0 (+0.0).
__device__ inline void atomic_max_rate(unsigned long long* bits, double v) {
  atomicMax(bits, static_cast<unsigned long long>(__double_as_longlong(v)));
}

// Called by every thread of the block (it synchronises the block when `threads` is a
// multiple of 32): `tid` is the thread's index in the block, `warp_slots` shared memory
// for threads / 32 doubles.
__device__ inline void block_max_rate(unsigned long long* bits, double rate, int tid, int threads,
                                      double* warp_slots) {
  if (threads % 32 != 0) {  // tiles narrower than a warp (1D and thin 2D blocks)
    atomic_max_rate(bits, rate);
    return;
  }
  for (int o = 16; o > 0; o >>= 1)
    rate = exec::max_keep_nan(rate, __shfl_down_sync(0xffffffffu, rate, o));
  if ((tid & 31) == 0) warp_slots[tid >> 5] = rate;
  __syncthreads();
  if (tid == 0) {
    double m = 0;
    for (int w = 0; w < threads / 32; ++w) m = exec::max_keep_nan(m, warp_slots[w]);
    atomic_max_rate(bits, m);
  }
}

}  // namespace fluxview::cuda
