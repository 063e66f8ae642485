#include <omp.h>
#include <array>
#include <cstddef>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <iostream>
#include <sstream>

#include "app/RunOptions.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

BackendKind choose_backend(const std::optional<std::string>& asked, bool quiet) {
  if (asked) {
    const auto b = parse_backend(*asked);
    if (!b) throw ConfigError("--backend " + *asked + ": unknown backend; allowed: cpu, cuda");
    if (*b == BackendKind::cuda)
      if (const std::string why = cuda::current_device_unusable_reason(); !why.empty())
        throw ConfigError("--backend cuda: " + why + "; allowed here: --backend cpu");
    return *b;
  }
  const std::string why = cuda::current_device_unusable_reason();
  if (why.empty()) {
    if (!quiet) std::cerr << "fluxview: using the GPU: " << cuda::device_description(0) << "\n";
    return BackendKind::cuda;
  }
  if (!quiet)
    std::cerr << "fluxview: " << why << ": running on the CPU with " << omp_get_max_threads()
              << (omp_get_max_threads() == 1 ? " thread\n" : " threads\n");
  return BackendKind::cpu;
}

Precision choose_precision(const std::string& asked) {
  const auto p = parse_precision(asked);
  if (!p) throw ConfigError("--precision " + asked + ": unknown precision; allowed: float, double");
  return *p;
}

std::array<int, 3> parse_mpi_dims(const std::string& text) {
  const ConfigError bad("--mpi-dims " + text +
                        ": expected three positive rank counts X,Y,Z (e.g. 1,2,2) whose product "
                        "is the number of MPI ranks");
  std::array<int, 3> d{0, 0, 0};
  std::istringstream in(text);
  std::string part;
  int count = 0;
  while (std::getline(in, part, ',')) {
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (count >= 3 || used != part.size() || part.empty() || v < 1 || v > 65536) throw bad;
    d[count++] = int(v);
  }
  if (count != 3) throw bad;
  return d;
}

nlohmann::json parallel_facts(BackendKind b) {
  nlohmann::json j;
  j["ranks"] = parallel::size();
  j["ranks_per_axis"] = parallel::dims();
  if (b == BackendKind::cuda)
    j["device_ghosts"] = std::string(to_string(parallel::device_transport()));
  return j;
}

std::string device_name(BackendKind b) {
  if (b == BackendKind::cuda) return cuda::device_description(0);
  const int threads = omp_get_max_threads();
  return "cpu (" + std::to_string(threads) + (threads == 1 ? " OpenMP thread)" : " OpenMP threads)");
}

}  // namespace fluxview::app
