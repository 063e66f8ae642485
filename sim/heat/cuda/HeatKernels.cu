// PLACEHOLDER until the seven kernels land: every variant runs the 3DBase kernel.
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/heat/HeatStencil.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

namespace {
template <class T>
__global__ void base3d(HeatStepArgs<T> a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  const FieldLayout& l = a.layout;
  if (i >= l.n[0] || j >= l.n[1] || k >= l.n[2]) return;
  const long long o = l.index(i, j, k);
  const long long sx = l.n[0] > 1, sy = l.n[1] > 1 ? l.sy : 0, sz = l.n[2] > 1 ? l.sz : 0;
  const T* in = a.in;
  a.out[o] = ftcs_update(in[o], in[o - sx], in[o + sx], in[o - sy], in[o + sy], in[o - sz], in[o + sz], a.cx, a.cy, a.cz);
}
}  // namespace

template <class T>
void step_cuda(HeatKernel, const HeatStepArgs<T>& a) {
  const dim3 block(32, 4, 2);
  const dim3 grid((a.layout.n[0] + 31) / 32, (a.layout.n[1] + 3) / 4, (a.layout.n[2] + 1) / 2);
  base3d<<<grid, block>>>(a);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}
template void step_cuda<float>(HeatKernel, const HeatStepArgs<float>&);
template void step_cuda<double>(HeatKernel, const HeatStepArgs<double>&);

}  // namespace fluxview::heat
