#include <omp.h>

#include <iostream>

#include "app/RunOptions.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"

namespace fluxview::app {

BackendKind choose_backend(const std::optional<std::string>& asked, bool quiet) {
  if (asked) {
    const auto b = parse_backend(*asked);
    if (!b) throw ConfigError("--backend " + *asked + ": unknown backend; allowed: cpu, cuda");
    if (*b == BackendKind::cuda && cuda::device_count() == 0)
      throw ConfigError("--backend cuda: no CUDA device is usable (" + cuda::no_device_reason() +
                        "); allowed here: --backend cpu");
    return *b;
  }
  if (cuda::device_count() > 0) {
    if (!quiet) std::cerr << "fluxview: using the GPU: " << cuda::device_description(0) << "\n";
    return BackendKind::cuda;
  }
  if (!quiet)
    std::cerr << "fluxview: no CUDA device (" << cuda::no_device_reason()
              << "); running on the CPU with " << omp_get_max_threads() << " threads\n";
  return BackendKind::cpu;
}

Precision choose_precision(const std::string& asked) {
  const auto p = parse_precision(asked);
  if (!p) throw ConfigError("--precision " + asked + ": unknown precision; allowed: float, double");
  return *p;
}

std::string device_name(BackendKind b) {
  if (b == BackendKind::cuda) return cuda::device_description(0);
  return "cpu (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)";
}

}  // namespace fluxview::app
