// The device side of the derived fields (DerivedFields.hpp): one thread a cell, the
// pointwise formula shared with the host loop (DerivedFieldMath.hpp).
#include <cuda_runtime.h>

#include "render/RenderKernels.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::render::cuda_kernels {

namespace {

template <class T>
__global__ void derive(DerivedKind kind, VelocityField<T> f, float* out, FieldLayout ol) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  if (i >= f.layout.n[0] || j >= f.layout.n[1]) return;
  out[ol.index(i, j, k)] = derived_value(kind, f, i, j, k);
}

template <class T>
void launch(DerivedKind kind, const FieldView u[3], const std::array<double, 3>& spacing,
            float* out, const FieldLayout& ol) {
  VelocityField<T> f;
  for (int c = 0; c < 3; ++c) f.u[c] = static_cast<const T*>(u[c].data);
  f.layout = u[0].layout;
  for (int a = 0; a < 3; ++a) f.inv_h[a] = float(1.0 / spacing[a]);
  const auto& n = f.layout.n;
  const dim3 block(32, 8);
  const dim3 grid((n[0] + 31) / 32, (n[1] + 7) / 8, n[2]);
  derive<<<grid, block>>>(kind, f, out, ol);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

void compute_derived_device(DerivedKind kind, const FieldView u[3],
                            const std::array<double, 3>& spacing, float* out,
                            const FieldLayout& out_layout) {
  if (u[0].precision == Precision::f64)
    launch<double>(kind, u, spacing, out, out_layout);
  else
    launch<float>(kind, u, spacing, out, out_layout);
}

}  // namespace fluxview::render::cuda_kernels
