// The fd family's tools on the host, and the choice of where they run.
#include <memory>

#include "sim/core/ExecHost.hpp"
#include "sim/fd/FdTools.hpp"

namespace fluxview::fd {

template <class T>
std::unique_ptr<FdTools<T>> make_tools(BackendKind backend) {
  if (backend == BackendKind::cpu) return std::make_unique<FdToolsOn<exec::Host, T>>();
#if FLUXVIEW_HAVE_CUDA
  return make_device_tools<T>();
#else
  throw_no_cuda_build();
#endif
}

template std::unique_ptr<FdTools<float>> make_tools<float>(BackendKind);
template std::unique_ptr<FdTools<double>> make_tools<double>(BackendKind);

}  // namespace fluxview::fd
