#pragma once
// The set-up of a headless run, fresh or restarted: everything that can be wrong with the
// input is found here, before anything is written, and the solver is made and holds the
// state the run starts from.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/RunOptions.hpp"
#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

// Where a run ends: at step `end_step`, or at simulated time `until` (> 0).
struct RunEnd {
  std::int64_t end_step = 0;
  double until = 0;
};

struct RunSetup {
  Scenario scenario;  // resolved: the options' overrides applied, run.steps set to the end
  BackendKind backend = BackendKind::cpu;
  Precision precision = Precision::f64;
  std::optional<Checkpoint> restart;  // the checkpoint a restart continues (headers only)
  std::unique_ptr<Solver> solver;     // reset, and for a restart holding the checkpoint's state
  RunEnd end;
  // --steer or --replay (or a steered run's checkpoint): its journal checked against the
  // scenario and the solver before anything is written; empty when the run is not steered.
  std::optional<Steerer> steerer;
  std::int64_t max_steps = 0;          // steps from where the run starts to end_step
  std::int64_t snapshot_every = 0;     // run.every
  std::int64_t diagnostics_every = 0;  // --diagnostics-every, else snapshot_every
  std::int64_t checkpoint_every = 0;   // run.checkpoint_every (--checkpoint-every sets it)
  std::int64_t check_every = 0;        // run.check_every
  std::filesystem::path output_dir;    // --output, else fluxview-out/<scenario>
};

// Reads the options, the scenario (or the checkpoint's) and, for a restart, every piece's
// header and this rank's box of the state; makes and resets the solver. Throws ConfigError
// (exit 2) naming what is wrong; writes nothing. Collective under MPI.
RunSetup set_up_run(const RunOptions& o, bool quiet);

}  // namespace fluxview::app
