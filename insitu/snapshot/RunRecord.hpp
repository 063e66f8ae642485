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
// backend, device, precision, per-snapshot times, step counts, throughput, the process
// that runs it, where it was restarted from, and how it ended (docs/reliability.md).
struct RunSummary {
  std::string device;  // "cpu (N threads)" or the CUDA device's name
  // running while the run goes; completed | steady | interrupted | unstable | failed only
  // once it has ended. A run.json left at running by a process that died is told apart by
  // the folder's lock (fileio/FolderLock.hpp), which no process holds any more.
  std::string status = "running";
  std::string message;  // the finish reason or the error
  // The process writing the run (pid on host), when it started (UTC); each write of
  // run.json adds the time of writing as the heartbeat.
  long pid = 0;
  std::string host;
  std::string started;
  // The newest checkpoint written and read back whole ("" if none).
  std::string last_checkpoint;
  // Where a restarted run came from: {checkpoint, step, time, backend}; null otherwise.
  nlohmann::json restarted_from;
  double wall_seconds = 0;
  std::int64_t steps_run = 0;
  std::vector<SnapshotRecord> snapshots;  // written so far, the earlier run's first
  std::vector<Diagnostic> diagnostics;    // at the last snapshot (all ranks reduced)
  std::vector<std::pair<std::string, nlohmann::json>> extra;  // e.g. catalyst bytes
};

nlohmann::json make_run_json(const Scenario& scenario, const Solver& solver,
                             const RunSummary& summary);
// Parameters as a JSON object of dotted keys, with their resolved values.
nlohmann::json params_json(const ParamSet& p);
void write_run_json(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace fluxview
