#pragma once
// Error checking for CUDA runtime calls in fluxview's .cu files: a failed call throws
// a std::runtime_error naming the call, the file and line, and CUDA's own message.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace fluxview::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* what, const char* file,
                                          int line) {
  throw std::runtime_error(std::string("CUDA error in ") + what + " (" + file + ":" +
                           std::to_string(line) + "): " + cudaGetErrorString(e));
}

}  // namespace fluxview::cuda

#define FLUXVIEW_CUDA_CHECK(call)                                                   \
  do {                                                                              \
    cudaError_t fluxview_err_ = (call);                                             \
    if (fluxview_err_ != cudaSuccess)                                               \
      ::fluxview::cuda::throw_cuda_error(fluxview_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches bad launch configurations at once.
#define FLUXVIEW_CUDA_LAUNCH_CHECK() FLUXVIEW_CUDA_CHECK(cudaGetLastError())
