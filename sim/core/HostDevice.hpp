#pragma once
// FLUXVIEW_HD marks the pointwise physics that both backends share: compiled for the
// host by the C++ compiler and for the device by nvcc ("physics written once",
// docs/dev/architecture.md).
#if defined(__CUDACC__)
#define FLUXVIEW_HD __host__ __device__ __forceinline__
#else
#define FLUXVIEW_HD inline
#endif

// The body of a loop of the execution layer (sim/core/Exec.hpp) written as a lambda:
// `[=] FLUXVIEW_LAMBDA (int i, int j, int k) { ... }`. nvcc compiles it for both sides
// (an extended lambda: fluxview_sim builds its CUDA sources with --extended-lambda); the
// C++ compiler sees a plain lambda. It captures by value: on the device there is no
// host stack to refer to.
#if defined(__CUDACC__)
#define FLUXVIEW_LAMBDA __host__ __device__
#else
#define FLUXVIEW_LAMBDA
#endif

#include <cmath>

namespace fluxview {

// Neither NaN nor infinite, with the same meaning on both sides.
template <class T>
FLUXVIEW_HD bool is_finite(T x) {
#if defined(__CUDA_ARCH__)
  return isfinite(x);
#else
  return std::isfinite(x);
#endif
}

// A read of memory that no thread writes during the loop: through the read-only data
// cache on the device (what the hand-written kernels used __ldg for), a plain load on
// the host.
template <class T>
FLUXVIEW_HD T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

}  // namespace fluxview
