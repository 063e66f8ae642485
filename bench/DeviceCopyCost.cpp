// What the Catalyst adaptor's device-to-host copy costs on a GPU, measured where
// ParaView is not installed (the GPU machine): the same copy the adaptor makes for a
// field a pipeline needs (one cudaMemcpy2D per z plane of the interior rows, ghosts
// skipped, into a persistent host array), timed against the solver's own step.
// Not a test; prints one JSON object per grid (docs/performance.md, insitu section).
//   insitu_device_copy_cost [N ...]      (default 64 128 256)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "insitu/catalyst/FieldCopy.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (cuda::device_count() == 0) {
    std::printf("{\"skipped\": \"no CUDA device: %s\"}\n", cuda::no_device_reason().c_str());
    return 0;
  }
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {64, 128, 256};
  for (const int n : sizes) {
    Scenario sc = load_scenario("heat/hot-spot", {"grid.n=" + std::to_string(n)});
    auto solver = find_family("heat").create(BackendKind::cuda, Precision::f64);
    solver->reset(sc.params);
    const FieldView v = solver->view("T");
    std::vector<unsigned char> host(std::size_t(v.layout.interior_cells()) * bytes_of(v.precision));
    auto copy = [&] { copy_field_box(v, v.layout.n, host.data()); };  // the adaptor's copy
    copy();  // first touch of the host pages
    const int reps = 10;
    auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) copy();
    const double copy_s = std::chrono::duration<double>(Clock::now() - t0).count() / reps;
    solver->advance(10);
    solver->synchronize();
    const int steps = n <= 128 ? 200 : 50;
    t0 = Clock::now();
    solver->advance(steps);
    solver->synchronize();
    const double step_s = std::chrono::duration<double>(Clock::now() - t0).count() / steps;
    const double mb = double(host.size()) / 1e6;
    std::printf(
        "{\"grid\": %d, \"field_MB\": %.2f, \"copy_s\": %.6f, \"copy_ms_per_MB\": %.4f, "
        "\"copy_GB_per_s\": %.2f, "
        "\"solver_step_s\": %.7f, \"copy_in_steps\": %.1f, \"device\": \"%s\"}\n",
        n, mb, copy_s, 1e3 * copy_s / mb, mb / 1e3 / copy_s, step_s, copy_s / step_s,
        cuda::device_description().c_str());
  }
  return 0;
}
