// `fluxview run`: the headless runner. The set-up (RunSetup.hpp) finds everything wrong
// with the input before the first byte is written; then the outputs asked for are made
// (RunOutput.hpp), their folders locked, and the step loop (StepLoop.hpp) drives them.
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/CatalystOutput.hpp"
#include "app/CheckpointOutput.hpp"
#include "app/Commands.hpp"
#include "app/DiagnosticsOutput.hpp"
#include "app/FrameOutput.hpp"
#include "app/JournalOutput.hpp"
#include "app/RunFolders.hpp"
#include "app/RunProgress.hpp"
#include "app/RunRecordOutput.hpp"
#include "app/RunSetup.hpp"
#include "app/SnapshotOutput.hpp"
#include "app/StepLoop.hpp"
#include "fileio/FolderLock.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

namespace {

// What run.json says of the run from its start: the device, the process, where a restart
// came from, the ranks.
RunSummary summary_at_start(const RunOptions& o, const RunSetup& r) {
  RunSummary summary;
  summary.device = device_name(r.backend);
  summary.pid = long(::getpid());
  summary.host = host_name();
  summary.started = utc_now();
  if (r.restart)
    summary.restarted_from = {{"checkpoint", std::filesystem::absolute(o.restart).string()},
                              {"step", r.restart->state.step},
                              {"time", r.restart->state.time},
                              {"backend", r.restart->backend}};
  if (parallel::size() > 1) summary.extra.push_back({"parallel", parallel_facts(r.backend)});
  return summary;
}

}  // namespace

int run_command(const RunOptions& o) {
  // Under MPI every rank runs this; only the root prints and writes run.json.
  const bool quiet = o.quiet || !parallel::is_root();
  stop_on_signals();
  RunSetup setup = set_up_run(o, quiet);
  Solver& solver = *setup.solver;
  const Scenario& sc = setup.scenario;
  const std::filesystem::path& dir = setup.output_dir;

  // The outputs, in the order they are given the state at a step. Frames and Catalyst are
  // set up before any folder is made: a field the solver lacks, no GL context, a missing
  // or broken script leave nothing behind.
  std::vector<std::unique_ptr<RunOutput>> outputs;
  if (o.render_every > 0 || !o.movie.empty())
    outputs.push_back(std::make_unique<FrameOutput>(o, dir, sc.name, solver));
  if (!o.catalyst_scripts.empty()) outputs.push_back(std::make_unique<CatalystOutput>(o, dir));
  if (setup.checkpoint_every > 0)
    outputs.push_back(std::make_unique<CheckpointOutput>(
        o.checkpoint_dir.empty() ? dir : std::filesystem::path(o.checkpoint_dir),
        o.checkpoint_dir.empty() ? "--output" : "--checkpoint-dir", sc, setup.checkpoint_every,
        o.checkpoint_keep, setup.steerer ? &*setup.steerer : nullptr));

  // The folders: checked, made and locked (one run per folder) before anything is written.
  std::vector<RunFolder> folders{{dir, "--output"}};
  for (const auto& out : outputs)
    for (RunFolder& f : out->folders()) folders.push_back(std::move(f));
  const RunFolders locked(folders, quiet);

  std::vector<SnapshotRecord> earlier =
      setup.restart ? earlier_snapshots(dir, sc, solver, quiet) : std::vector<SnapshotRecord>{};
  // A restart into its run's folder keeps the earlier rows of diagnostics.csv too.
  const std::int64_t rows_kept = earlier.empty() ? -1 : solver.step() - 1;
  auto snapshots =
      std::make_unique<SnapshotOutput>(dir, sc, setup.snapshot_every, std::move(earlier));
  const SnapshotOutput& series = *snapshots;
  outputs.push_back(std::move(snapshots));
  outputs.push_back(std::make_unique<DiagnosticsOutput>(dir, setup.diagnostics_every,
                                                        setup.snapshot_every, rows_kept));
  if (setup.steerer) outputs.push_back(std::make_unique<JournalOutput>(o, *setup.steerer));
  std::vector<const RunOutput*> described;
  for (const auto& out : outputs) described.push_back(out.get());
  outputs.push_back(std::make_unique<RunRecordOutput>(dir, sc, summary_at_start(o, setup),
                                                      setup.snapshot_every, described));

  RunProgress progress(solver,
                       {.max_steps = setup.max_steps,
                        .until = setup.end.until,
                        .snapshot_every = setup.snapshot_every,
                        .checkpoint_every = setup.checkpoint_every,
                        .checkpoints_kept = int(o.checkpoint_keep),
                        .frame_every = o.render_every},
                       quiet);
  if (!quiet) {
    std::cerr << "fluxview: " << sc.name << " on " << to_string(setup.backend) << " ("
              << to_string(setup.precision) << "), " << grid_summary(solver) << ", dt "
              << solver.dt() << " s, "
              << (setup.end.until > 0 ? "until t = " + format_value(setup.end.until) + " s"
                                      : std::to_string(setup.max_steps) + " steps")
              << "; " << progress.output_summary() << "\n";
    for (const auto& out : outputs) out->announce(std::cerr);
  }

  std::vector<RunOutput*> in_order;
  for (const auto& out : outputs) in_order.push_back(out.get());
  RunState run;
  const int code = run_steps(solver,
                             {.max_steps = setup.max_steps,
                              .until = setup.end.until,
                              .check_every = setup.check_every,
                              .steerer = setup.steerer ? &*setup.steerer : nullptr},
                             in_order, progress, run);

  if (!quiet) {
    if (setup.steerer && setup.steerer->pending())
      std::cerr << "fluxview: "
                << setup.steerer->plan().entries.size() - setup.steerer->record().entries.size()
                << " steering entries come after the run's end and were not applied\n";
    if (!run.message.empty() && code != kExitUnstable && code != kExitFailure)
      std::cerr << "fluxview: " << run.message << "\n";
    std::cerr << "fluxview: " << run.steps_run << " steps in " << run.wall_seconds << " s ("
              << (run.wall_seconds > 0 ? run.steps_run * solver.cells_per_step() / run.wall_seconds
                                       : 0)
              << " cell-updates/s)\n";
    for (const auto& out : outputs) out->report(std::cerr);
  }
  if (parallel::is_root())
    std::cout << "fluxview: output in "
              << std::filesystem::absolute(dir).lexically_normal().string() << " ("
              << series.count() << " snapshots, series.pvd, run.json)\n";
  return code;
}

}  // namespace fluxview::app
