// The one piece of the device execution layer that is not a template: the scratch memory
// of reductions (sim/core/cuda/ExecDevice.cuh).
#include <utility>

#include "sim/core/Buffer.hpp"
#include "sim/core/cuda/ExecDevice.cuh"

namespace fluxview::exec::detail {

void* reduction_scratch(std::size_t bytes, cuda::Stream stream) {
  thread_local Buffer buf;
  if (buf.bytes() < bytes) {
    buf = Buffer(Location::device, std::max<std::size_t>(bytes, 64 * 1024));
    // The arrival counter starts at zero; each reduction leaves it there.
    FLUXVIEW_CUDA_CHECK(
        cudaMemsetAsync(buf.data(), 0, kScratchHeader, static_cast<cudaStream_t>(stream)));
  }
  return buf.data();
}

}  // namespace fluxview::exec::detail
