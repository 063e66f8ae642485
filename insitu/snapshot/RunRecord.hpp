#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "insitu/snapshot/SnapshotSeries.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

// What run.json says of a run: solver, scenario, every resolved parameter, grid,
// backend, device, precision, per-snapshot times, step counts, throughput, and how
// the run ended.
struct RunSummary {
  std::string device;              // "cpu (N threads)" or the CUDA device's name
  std::string status = "running";  // running | completed | steady | interrupted | unstable | failed
  std::string message;             // the finish reason or the error
  double wall_seconds = 0;
  std::int64_t steps_run = 0;
  std::vector<Diagnostic> diagnostics;  // at the last snapshot (all ranks reduced)
  std::vector<std::pair<std::string, nlohmann::json>> extra;  // e.g. catalyst bytes
};

nlohmann::json make_run_json(const Scenario& scenario, const Solver& solver,
                             const RunSummary& summary,
                             const std::vector<SnapshotRecord>& snapshots);
// Parameters as a JSON object of dotted keys, with their resolved values.
nlohmann::json params_json(const ParamSet& p);
void write_run_json(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace fluxview
