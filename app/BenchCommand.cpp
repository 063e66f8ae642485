// `fluxview bench`: times a solver's steps and prints one JSON object with its
// throughput and, measured in the same process, the device's copy bandwidth, so that
// every speed is also a ratio to the roofline (docs/performance.md).
#include <omp.h>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <chrono>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/Commands.hpp"
#include "insitu/snapshot/RunRecord.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

namespace {

using Clock = std::chrono::steady_clock;

// Host copy bandwidth (bytes read + written per second): every thread copies its share
// of a buffer larger than the caches, like the solver's own threads stream its fields.
double host_copy_bandwidth(std::size_t bytes) {
  Buffer a(Location::host, bytes), b(Location::host, bytes);
  auto* pa = static_cast<char*>(a.data());
  auto* pb = static_cast<char*>(b.data());
  auto copy = [&] {
#pragma omp parallel
    {
      const std::size_t nt = omp_get_num_threads(), t = omp_get_thread_num();
      const std::size_t lo = bytes * t / nt, hi = bytes * (t + 1) / nt;
      std::memcpy(pb + lo, pa + lo, hi - lo);
    }
  };
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < bytes; i += 4096) pa[i] = char(i), pb[i] = 0;  // first touch
  copy();
  const int reps = 5;
  const auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) copy();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return 2.0 * double(bytes) * reps / s;
}

double diagnostic_value(Solver& solver, const std::string& name) {
  for (const Diagnostic& d : solver.diagnostics())
    if (d.name == name) return d.value;
  return 0;
}

// The adaptive mesh (fv.mesh = amr): the blocks per level, and the same steps again with
// each phase timed (the device waited for after each phase, so this pass is slower than the
// throughput pass; the fractions are what counts). Cells: what the steps updated.
nlohmann::json amr_facts(Solver& solver, amr::Hierarchy& h, std::int64_t steps) {
  nlohmann::json j;
  nlohmann::json levels = nlohmann::json::object();
  for (const Diagnostic& d : solver.diagnostics())
    if (d.name.rfind("blocks_level_", 0) == 0) levels[d.name.substr(13)] = d.value;
  j["blocks_per_level"] = levels;
  j["block_cells"] = h.block_cells();
  j["max_level"] = h.max_level();
  parallel::barrier();
  h.time_phases(true);
  const auto t0 = Clock::now();
  solver.advance(steps);
  solver.synchronize();
  const double wall =
      parallel::allreduce_max(std::chrono::duration<double>(Clock::now() - t0).count());
  nlohmann::json seconds = nlohmann::json::object(), fractions = nlohmann::json::object();
  double timed = 0;
  for (const auto& phase : h.phase_seconds()) {
    const double s = parallel::allreduce_max(phase.second);
    seconds[phase.first] = s;
    fractions[phase.first] = wall > 0 ? s / wall : 0;
    timed += s;
  }
  fractions["other"] = wall > 0 ? std::max(0.0, wall - timed) / wall : 0;
  h.time_phases(false);
  j["phase_steps"] = steps;
  j["phase_wall_seconds"] = wall;
  j["phase_seconds"] = seconds;
  j["phase_fractions"] = fractions;
  return j;
}

}  // namespace

int bench_command(const RunOptions& o) {
  Scenario sc = load_scenario(o.scenario, o.overrides);
  const BackendKind backend = choose_backend(o.backend, true);
  const Precision precision = choose_precision(o.precision);
  auto solver = find_family(sc.solver).create(backend, precision);
  solver->reset(sc.params);

  solver->advance(o.warmup);
  solver->synchronize();
  // Time at least 0.5 s of stepping unless a step count is given. Under MPI the slowest
  // rank's time counts and every rank takes the same decision.
  std::int64_t steps = o.bench_steps.value_or(10);
  double seconds = 0;
  // On the adaptive mesh the cells a step updates change with every regrid: count them
  // (the solver's cell_updates) instead of the view grid's cells.
  amr::Hierarchy* hierarchy = amr::hierarchy_of(*solver);
  double updates = 0;
  while (true) {
    const double updates0 = hierarchy ? diagnostic_value(*solver, "cell_updates") : 0;
    parallel::barrier();
    const auto t0 = Clock::now();
    solver->advance(steps);
    solver->synchronize();
    seconds = parallel::allreduce_max(std::chrono::duration<double>(Clock::now() - t0).count());
    if (hierarchy) updates = diagnostic_value(*solver, "cell_updates") - updates0;
    if (o.bench_steps || seconds >= 0.5 || steps >= (std::int64_t(1) << 30)) break;
    steps *= seconds > 0 ? std::max<std::int64_t>(2, std::int64_t(0.6 / seconds) + 1) : 16;
  }
  const double cells = hierarchy ? updates / double(steps) : double(solver->grid().cells());
  const double cups = cells * double(steps) / seconds;
  const nlohmann::json amr = hierarchy ? amr_facts(*solver, *hierarchy, steps) : nlohmann::json();
  // Device memory in use when the steps are done (the whole device, this process's
  // context included): an upper bound of what the run holds, not a peak.
  std::size_t device_free = 0, device_total = 0;
  if (backend == BackendKind::cuda) cuda::memory_info(device_free, device_total);
  const double bytes_per = solver->bytes_per_cell_update();
  // A copy far larger than the caches (the L2 of an H100 is 50 MB), so the ratio is to
  // memory bandwidth; small grids that live in L2 can then exceed 1.
  const std::size_t copy_bytes = std::size_t(1) << (backend == BackendKind::cuda ? 30 : 28);
  // Under MPI every rank measures its own device at the same time and the roofline is
  // the sum (ranks sharing one device each see their share of it).
  parallel::barrier();
  const double copy_bw =
      parallel::allreduce_sum(backend == BackendKind::cuda ? cuda::copy_bandwidth(copy_bytes)
                                                           : host_copy_bandwidth(copy_bytes));
  if (!parallel::is_root()) return kExitOk;

  nlohmann::json j;
  j["scenario"] = sc.name;
  j["solver"] = sc.solver;
  j["backend"] = to_string(backend);
  j["device"] = device_name(backend);
  j["precision"] = to_string(precision);
  j["grid"] = solver->grid().n;
  j["cells"] = hierarchy ? nlohmann::json(cells) : nlohmann::json(solver->grid().cells());
  j["steps"] = steps;
  j["seconds"] = seconds;
  j["seconds_per_step"] = seconds / double(steps);
  j["cell_updates_per_second"] = cups;
  j["bytes_per_cell_update"] = bytes_per;
  j["effective_bytes_per_second"] = cups * bytes_per;
  j["copy_bytes_per_second"] = copy_bw;
  j["copy_buffer_bytes"] = copy_bytes;
  j["ratio_to_copy"] = cups * bytes_per / copy_bw;
  nlohmann::json facts = nlohmann::json::object();
  for (const auto& [k, v] : solver->run_facts()) facts[k] = v;
  j["solver_facts"] = facts;
  j["overrides"] = o.overrides;
  if (parallel::size() > 1) j["parallel"] = parallel_facts(backend);
  if (hierarchy) j["amr"] = amr;
  if (backend == BackendKind::cuda) j["device_memory_used_bytes"] = device_total - device_free;
  std::cout << j.dump() << std::endl;
  return kExitOk;
}

}  // namespace fluxview::app
