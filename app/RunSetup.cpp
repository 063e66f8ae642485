#include "app/RunSetup.hpp"

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "app/RunProgress.hpp"
#include "app/RunSteering.hpp"
#include "insitu/EveryRank.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Health.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

namespace {

// "heat/hot-wall" -> "heat-hot-wall", "my/case.toml" -> "case": the default output folder.
std::string folder_name_of(const std::string& scenario) {
  std::string s = std::filesystem::path(scenario).stem().string();
  if (scenario.find('/') != std::string::npos && !scenario.ends_with(".toml")) {
    s = scenario;
    for (char& c : s)
      if (c == '/') c = '-';
  }
  return s;
}

// What a restart may not change: the scenario and the precision are the checkpoint's (the
// backend may differ: the state is copied to the one chosen). Naming them the same is fine.
void refuse_restart_changes(const RunOptions& o, const Checkpoint& c) {
  if (o.scenario_given && o.scenario != c.scenario)
    throw ConfigError("--restart " + o.restart + ": the checkpoint is of " + c.scenario +
                      ", not of " + o.scenario +
                      "; allowed: no SCENARIO with --restart (the checkpoint names it)");
  if (o.precision_given) {
    choose_precision(o.precision);  // an unknown name is refused as such
    if (o.precision != c.precision)
      throw ConfigError("--precision " + o.precision + ": the checkpoint " + o.restart + " holds " +
                        c.precision + " state; allowed: --precision " + c.precision +
                        " or none (a restart continues in the checkpoint's precision)");
  }
}

// The scenario of a checkpoint; only run.* keys (how long to go on, how often to write)
// may change on a restart, since anything else would not continue the same run.
Scenario scenario_for_restart(const Checkpoint& c, const std::vector<std::string>& overrides) {
  Scenario s = scenario_of(c);
  for (const auto& o : overrides) {
    if (!o.starts_with("run."))
      throw ConfigError(
          "--set " + o +
          ": only run.* keys can change on --restart (the checkpoint fixes the rest)");
    apply_override(s, o);
  }
  return s;
}

// One meaning for every run, fresh or restarted: --steps N runs N steps from where the run
// starts, --until T runs to simulated time T; without either the run goes to the end its
// scenario (or its checkpoint) says: run.until, else step run.steps, counted from step 0.
// run.steps is set to that end step, so that run.json and the checkpoints record where
// the run was going (for a run from step 0 it is the steps it runs). Throws ConfigError
// when a restart has nothing left to run.
RunEnd resolve_end(const RunOptions& o, Scenario& sc, const Solver& s) {
  const std::int64_t start = s.step();
  if (o.steps) {
    if (!o.until) sc.params.assign("run.until", 0.0, "--steps");
    sc.params.assign("run.steps", start + *o.steps, "--steps");
  }
  if (o.until) sc.params.assign("run.until", *o.until, "--until");
  RunEnd end;
  end.until = sc.params.get_real("run.until");
  end.end_step = sc.params.get_int("run.steps");
  if (o.restart.empty()) return end;
  const std::string next = "; say how far to go on: --steps N (N more steps) or --until T";
  if (end.until > 0 && s.time() >= end.until * (1 - 1e-12))
    throw ConfigError(
        (o.until ? "--until " + format_value(end.until) + ": " : "--restart " + o.restart + ": ") +
        "the checkpoint is at t = " + format_value(s.time()) + " s, not before " +
        (o.until ? "that time"
                 : "the end of its run (run.until = " + format_value(end.until) + " s)") +
        (o.until ? "; allowed: a time later than " + format_value(s.time()) + " s" : next));
  if (end.until <= 0 && end.end_step <= start)
    throw ConfigError(
        "--restart " + o.restart + ": the checkpoint is at step " + std::to_string(start) +
        ", the end of its run (run.steps = " + std::to_string(end.end_step) + ")" + next);
  return end;
}

}  // namespace

RunSetup set_up_run(const RunOptions& o, bool quiet) {
  // A restart's headers are read here (every piece, on any number of ranks); its arrays
  // once the solver has split the grid, still before any output.
  check_run_options(o);
  RunSetup r;
  if (!o.restart.empty()) {
    r.restart = open_checkpoint(o.restart);
    refuse_restart_changes(o, *r.restart);
  }
  r.scenario = r.restart ? scenario_for_restart(*r.restart, o.overrides)
                         : load_scenario(o.scenario, o.overrides);
  Scenario& sc = r.scenario;
  if (o.every) sc.params.assign("run.every", *o.every, "--every");
  if (o.checkpoint_every)
    sc.params.assign("run.checkpoint_every", *o.checkpoint_every, "--checkpoint-every");
  // Checkpoints asked for by the option or by the scenario (a restart keeps its run's).
  r.checkpoint_every = sc.params.get_int("run.checkpoint_every");
  const std::string checkpoints_asked =
      o.checkpoint_every ? "--checkpoint-every " + std::to_string(r.checkpoint_every)
                         : "run.checkpoint_every = " + std::to_string(r.checkpoint_every);
#ifndef FLUXVIEW_HAVE_HDF5
  if (r.checkpoint_every > 0)
    throw ConfigError(checkpoints_asked +
                      ": this fluxview was built without HDF5, so it cannot write checkpoints; "
                      "allowed: --checkpoint-every 0");
#endif
  r.backend = choose_backend(o.backend, quiet);
  r.precision = r.restart ? choose_precision(r.restart->precision) : choose_precision(o.precision);
  if (parallel::size() > 1) {
    // What is not decomposed yet is refused up front rather than run N times over.
    if (!find_family(sc.solver).supports_mpi)
      throw ConfigError("the " + sc.solver + " family does not run on several MPI ranks yet (" +
                        std::to_string(parallel::size()) + " were started); allowed: one process");
  }

  // The solver is set up before any directory is made: what only the set-up can find
  // (a grid too small for the ranks, too little device memory, a bad checkpoint piece)
  // leaves nothing behind.
  r.solver = find_family(sc.solver).create(r.backend, r.precision);
  Solver& solver = *r.solver;
  if (!quiet) announce_setup(sc, r.backend);
  solver.reset(sc.params);
  if (r.checkpoint_every > 0)
    if (const std::string why = solver.checkpoint_refusal(); !why.empty())
      throw ConfigError(checkpoints_asked + ": " + why +
                        "; allowed: --checkpoint-every 0 (no checkpoints)");
  if (r.restart) {
    // This rank's box, read from the pieces that overlap it, whatever rank count wrote them.
    solver.load_state(read_checkpoint_state(*r.restart, solver));
    // A checkpoint whose state is not finite or not admissible would only fail again.
    on_every_rank([&] {
      if (const auto bad = check_health(solver))
        throw ConfigError("--restart " + o.restart + ": its state is not sound (" + *bad +
                          "); allowed: a checkpoint of a sound state (an earlier one)");
    });
    if (!quiet)
      std::cerr << "fluxview: restarting " << sc.name << " from " << o.restart << " at step "
                << solver.step() << ", t = " << solver.time() << " s\n";
  }
  r.end = resolve_end(o, sc, solver);
  // A steering file or a replay: read and checked against this run before any output.
  r.steerer = make_run_steerer(o, sc, solver, r.restart ? r.restart->journal : std::string());
  r.max_steps = r.end.end_step - solver.step();
  r.snapshot_every = sc.params.get_int("run.every");
  r.diagnostics_every = o.diagnostics_every ? *o.diagnostics_every : r.snapshot_every;
  r.check_every = sc.params.get_int("run.check_every");
  r.output_dir = o.output.empty() ? std::filesystem::path("fluxview-out") / folder_name_of(sc.name)
                                  : std::filesystem::path(o.output);
  return r;
}

}  // namespace fluxview::app
