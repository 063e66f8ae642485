#pragma once
// The step loop of a headless run: steps in chunks sized to take a fraction of a second
// (so that progress lines and Ctrl-C are answered promptly), stopping wherever an output
// wants the state; checks the state (the instability guard) before anything of it is
// written and at the end; and turns what ended the run into its status and exit code.
// What is written when, and what each status means: docs/reliability.md.
#include <cstdint>
#include <vector>

#include "app/RunOutput.hpp"
#include "app/RunProgress.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

struct StepPlan {
  std::int64_t max_steps = 0;    // steps to take (when not run to a time)
  double until = 0;              // simulated time to run to (> 0), else by steps
  std::int64_t check_every = 0;  // extra guard checks (run.check_every); 0: none
  // Steering (--steer, --replay): each entry applied at its step, before that step's
  // outputs; the loop stops at every entry. Null: not steered.
  Steerer* steerer = nullptr;
};

// SIGINT and SIGTERM end the run at its next step (after a checkpoint where checkpoints
// are written), with exit code 130. Call before the set-up, so that a signal during it
// ends the run at its first step too.
void stop_on_signals();

// Runs `solver` as `plan` says, giving each output the state when it asks, in the order
// of `outputs`, then closes them in that order. `run` follows the run (steps, wall time,
// status, message). Returns the exit code (RunOptions.hpp). Collective under MPI.
int run_steps(Solver& solver, const StepPlan& plan, const std::vector<RunOutput*>& outputs,
              RunProgress& progress, RunState& run);

}  // namespace fluxview::app
