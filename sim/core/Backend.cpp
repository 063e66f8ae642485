#include "sim/core/Backend.hpp"

#include <stdexcept>

#include "sim/core/CudaRuntime.hpp"

namespace fluxview {

void Backend::require_memory(std::size_t bytes) const {
  if (where_ == Location::device) cuda::require_device_memory(bytes);
}

void Backend::wait() const {
  if (where_ == Location::device) cuda::synchronize();
}

void Backend::check(const char* what) const {
  if (where_ == Location::device) cuda::check_last_error(what);
}

void throw_no_cuda_build() {
  throw std::runtime_error("this fluxview was built without CUDA; use --backend cpu");
}

}  // namespace fluxview
