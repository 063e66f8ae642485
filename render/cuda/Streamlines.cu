// Streamlines on the device (Streamlines.hpp): a thread per seed and direction, the RK4
// of StreamlineMath.hpp shared with the host loop.
#include <cuda_runtime.h>

#include "render/RenderKernels.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::render::cuda_kernels {

namespace {

template <class T>
__global__ void integrate(VectorField<T> f, LineGeometry g, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * g.seeds()) return;
  const int s = t / 2;
  integrate_half_line(f, g, s, t % 2 ? 1 : -1, out + std::int64_t(s) * g.vertices_per_line() * 4);
}

template <class T>
void launch(const FieldView u[3], const std::array<double, 3>& spacing, const LineGeometry& g,
            float* out) {
  VectorField<T> f;
  for (int c = 0; c < 3; ++c) f.c[c] = static_cast<const T*>(u[c].data);
  f.layout = u[0].layout;
  for (int a = 0; a < 3; ++a) f.inv_h[a] = float(1.0 / spacing[a]);
  const int threads = 2 * g.seeds();
  integrate<<<(threads + 127) / 128, 128>>>(f, g, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

void integrate_streamlines_device(const FieldView u[3], const std::array<double, 3>& spacing,
                                  const LineGeometry& g, float* out) {
  if (u[0].precision == Precision::f64)
    launch<double>(u, spacing, g, out);
  else
    launch<float>(u, spacing, g, out);
  FLUXVIEW_CUDA_CHECK(cudaStreamSynchronize(0));  // before GL draws the vertices
}

}  // namespace fluxview::render::cuda_kernels
