// `fluxview run`: the headless runner. Loads and checks everything before the first
// byte is written, then steps in chunks sized to take a fraction of a second so that
// progress lines and Ctrl-C are answered promptly, writing snapshots as asked.
// What is written when, and what each run.json status means: docs/reliability.md.
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>

#include "app/Commands.hpp"
#include "app/RunFolders.hpp"
#include "app/RunProgress.hpp"
#include "fileio/FolderLock.hpp"
#include "insitu/EveryRank.hpp"
#include "insitu/catalyst/CatalystAdaptor.hpp"
#include "insitu/checkpoint/Checkpoint.hpp"
#include "insitu/snapshot/RunRecord.hpp"
#include "insitu/snapshot/SnapshotSeries.hpp"
#include "render/FrameWriter.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Health.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/fd/FdSolver.hpp"

namespace fluxview::app {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  g_signal = sig;
}

std::string slug(const std::string& scenario) {
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

// Where a run ends: at step `end_step`, or at simulated time `until` (> 0).
struct RunEnd {
  std::int64_t end_step = 0;
  double until = 0;
};

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

// The snapshots of the run a restart continues, when its output folder is that run's
// (its run.json names the same solver, scenario and grid): those before the restart's
// step stay in series.pvd, the later ones are replaced by the new run's.
std::vector<SnapshotRecord> earlier_snapshots(const std::filesystem::path& dir, const Scenario& sc,
                                              const Solver& s, bool quiet) {
  std::vector<SnapshotRecord> kept;
  if (!parallel::is_root()) return kept;  // only the root writes series.pvd
  try {
    std::ifstream in(dir / "run.json");
    if (!in) return kept;
    const auto j = nlohmann::json::parse(in);
    if (j.at("solver") != sc.solver || j.at("scenario") != sc.name ||
        j.at("grid").at("n") != nlohmann::json(s.grid().n))
      return kept;
  } catch (const std::exception&) {
    return kept;  // not a run.json this fluxview can read: a series of its own starts
  }
  for (const SnapshotRecord& r : SnapshotSeries::read_series(dir))
    if (r.step < s.step()) kept.push_back(r);
  if (!quiet && !kept.empty())
    std::cerr << "fluxview: continuing the series in " << dir.string() << " (" << kept.size()
              << " earlier snapshots kept, those from step " << s.step() << " on replaced)\n";
  return kept;
}

// Checkpoints of a run: checkpoint_NNNNNN.h5, keeping the newest `keep` so that a failure
// while writing one, or a bad state found later, leaves a good one. A checkpoint is counted
// only once it has been written whole and read back (write_checkpoint), and only then is
// the oldest removed. Collective under MPI: a failure on any rank stops every rank.
class CheckpointRing {
 public:
  CheckpointRing(std::filesystem::path dir, std::int64_t keep)
      : dir_(std::move(dir)), keep_(std::size_t(keep)) {}
  void write(const Scenario& sc, const Solver& s) {
    char name[64];
    std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(s.step()));
    const auto path = dir_ / name;
    if (!written_.empty() && written_.back() == path) return;
    on_every_rank([&] { write_checkpoint(path, sc, s); });
    written_.push_back(path);
    while (written_.size() > keep_) {
      std::error_code ec;
      std::filesystem::remove(checkpoint_piece_path(written_.front()), ec);
      written_.erase(written_.begin());
    }
  }
  std::filesystem::path last() const {
    return written_.empty() ? std::filesystem::path() : written_.back();
  }

 private:
  std::filesystem::path dir_;
  std::size_t keep_;
  std::vector<std::filesystem::path> written_;
};

// Periodic actions (snapshots, checks, checkpoints, Catalyst, frames) happen at steps
// that are multiples of their period; a period of 0 or less means never.
bool due(std::int64_t step, std::int64_t every) {
  return every > 0 && step % every == 0;
}
std::int64_t steps_to_next(std::int64_t step, std::int64_t every) {
  return every > 0 ? every - step % every : std::numeric_limits<std::int64_t>::max();
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// run.json is rewritten at least this often while a run goes (its heartbeat).
constexpr double kHeartbeatSeconds = 10;

// What `--render-every`, `--render-dir`, `--render-view`, `--view-file`, `--movie` and
// `--render-size` ask for. PNGs go to DIR/frames unless only a movie is asked for.
render::FrameOptions frame_options_of(const RunOptions& o, const std::filesystem::path& dir,
                                      const std::string& scenario) {
  render::FrameOptions f;
  f.every = o.render_every;
  f.dir = !o.render_dir.empty()                    ? std::filesystem::path(o.render_dir)
          : o.movie.empty() || o.render_every <= 0 ? dir / "frames"
                                                   : std::filesystem::path();
  f.field = o.render_field;
  f.view = o.render_view;
  f.view_file = o.view_file;
  f.movie = o.movie;
  f.scenario = scenario;
  if (!o.render_size.empty()) {
    int w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(o.render_size.c_str(), "%dx%d%c", &w, &h, &tail) != 2)
      throw ConfigError("--render-size " + o.render_size + ": expected WxH, e.g. 1280x720");
    f.width = w;
    f.height = h;
  }
  return f;
}

}  // namespace

int run_command(const RunOptions& o) {
  // Under MPI every rank runs this; only the root prints and writes run.json.
  const bool quiet = o.quiet || !parallel::is_root();
  // A signal during the set-up ends the run at its first step, like one later on.
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  // Everything that can be wrong with the input is found here, before any output.
  // A restart's headers are read here (every piece, on any number of ranks); its arrays
  // once the solver has split the grid, still before any output.
  check_run_options(o);
#ifndef FLUXVIEW_HAVE_HDF5
  if (o.checkpoint_every > 0)
    throw ConfigError(
        "--checkpoint-every: this fluxview was built without HDF5, so it cannot "
        "write checkpoints; allowed: --checkpoint-every 0");
#endif
  std::optional<Checkpoint> restart;
  if (!o.restart.empty()) {
    restart = open_checkpoint(o.restart);
    refuse_restart_changes(o, *restart);
  }
  Scenario sc = restart ? scenario_for_restart(*restart, o.overrides)
                        : load_scenario(o.scenario, o.overrides);
  if (o.every) sc.params.assign("run.every", *o.every, "--every");
  const BackendKind backend = choose_backend(o.backend, quiet);
  const Precision precision =
      restart ? choose_precision(restart->precision) : choose_precision(o.precision);
  if (parallel::size() > 1) {
    // What is not decomposed yet is refused up front rather than run N times over.
    if (!find_family(sc.solver).supports_mpi)
      throw ConfigError("the " + sc.solver + " family does not run on several MPI ranks yet (" +
                        std::to_string(parallel::size()) + " were started); allowed: one process");
  }

  // The solver is set up before any directory is made: what only the set-up can find
  // (a grid too small for the ranks, too little device memory, a bad checkpoint piece)
  // leaves nothing behind.
  auto solver = find_family(sc.solver).create(backend, precision);
  if (!quiet) announce_setup(sc, backend);
  solver->reset(sc.params);
  if (restart) {
    // This rank's box, read from the pieces that overlap it, whatever rank count wrote them.
    solver->load_state(read_checkpoint_state(*restart, *solver));
    // A checkpoint whose state is not finite or not admissible would only fail again.
    on_every_rank([&] {
      if (const auto bad = check_health(*solver))
        throw ConfigError("--restart " + o.restart + ": its state is not sound (" + *bad +
                          "); allowed: a checkpoint of a sound state (an earlier one)");
    });
    if (!quiet)
      std::cerr << "fluxview: restarting " << sc.name << " from " << o.restart << " at step "
                << solver->step() << ", t = " << solver->time() << " s\n";
  }
  const RunEnd end = resolve_end(o, sc, *solver);
  const double until = end.until;
  const std::int64_t max_steps = end.end_step - solver->step();
  const std::int64_t every = sc.params.get_int("run.every");
  const std::int64_t check_every = sc.params.get_int("run.check_every");

  const std::filesystem::path dir = o.output.empty()
                                        ? std::filesystem::path("fluxview-out") / slug(sc.name)
                                        : std::filesystem::path(o.output);
  // Headless frames and movie: options checked before anything is written.
  render::FrameOptions frame_options;
  const bool draws = o.render_every > 0 || !o.movie.empty();
  if (draws) {
    frame_options = frame_options_of(o, dir, sc.name);
    render::check_frame_options(frame_options, *solver);
  }
  const std::filesystem::path checkpoint_dir =
      o.checkpoint_dir.empty() ? dir : std::filesystem::path(o.checkpoint_dir);

  // Headless frames and Catalyst are set up before any folder is made too: a field the
  // solver lacks, no GL context, a missing or broken script leave nothing behind.
  std::unique_ptr<render::FrameWriter> frames;
  if (draws) frames = render::make_frame_writer(frame_options, *solver);
  std::unique_ptr<CatalystAdaptor> catalyst;  // destroyed before the solver it may alias
  if (!o.catalyst_scripts.empty()) {
    try {
      catalyst = std::make_unique<CatalystAdaptor>(CatalystOptions{
          .scripts = o.catalyst_scripts,
          .every = o.catalyst_every,
          .on_error = o.catalyst_on_error == "continue" ? CatalystOnError::drop_script
                                                        : CatalystOnError::stop,
          .output_dir = (dir / "catalyst").string()});
    } catch (const CatalystError& e) {
      throw ConfigError(e.what());
    }
  }

  // The folders: checked, made and locked (one run per folder) before anything is written.
  std::vector<RunFolder> folders{{dir, "--output"}};
  if (o.checkpoint_every > 0)
    folders.push_back({checkpoint_dir, o.checkpoint_dir.empty() ? "--output" : "--checkpoint-dir"});
  if (frames && !frame_options.dir.empty())
    folders.push_back({frame_options.dir, o.render_dir.empty() ? "--output" : "--render-dir"});
  const RunFolders locked(folders, quiet);

  CheckpointRing checkpoints(checkpoint_dir, o.checkpoint_keep);

  SnapshotSeries series(
      dir, restart ? earlier_snapshots(dir, sc, *solver, quiet) : std::vector<SnapshotRecord>{});
  RunSummary summary;
  summary.device = device_name(backend);
  summary.pid = long(::getpid());
  summary.host = host_name();
  summary.started = utc_now();
  if (restart)
    summary.restarted_from = {{"checkpoint", std::filesystem::absolute(o.restart).string()},
                              {"step", restart->state.step},
                              {"time", restart->state.time},
                              {"backend", restart->backend}};
  if (parallel::size() > 1) summary.extra.push_back({"parallel", parallel_facts(backend)});
  auto last_record = Clock::now();
  const auto write_record = [&] {
    if (catalyst) {
      std::erase_if(summary.extra, [](const auto& e) { return e.first == "catalyst"; });
      summary.extra.emplace_back("catalyst", catalyst->summary_json());
    }
    summary.last_checkpoint = checkpoints.last().string();
    if (parallel::is_root())
      write_run_json(dir / "run.json", make_run_json(sc, *solver, summary, series.records()));
    last_record = Clock::now();
  };
  // Every write below is collective under MPI, so its failure on one rank stops all.
  const auto write_record_everywhere = [&] { on_every_rank(write_record); };

  // A snapshot, and with it the family's own per-output files (the fd family's
  // kinetic-energy spectrum), named by step like the snapshot.
  const auto write_snapshot = [&] {
    series.write(*solver);
    summary.diagnostics = solver->diagnostics();  // collective under MPI: every rank calls it
    if (fd::writes_spectrum(sc.params)) {         // collective under MPI: rank 0 writes it
      char name[48];
      std::snprintf(name, sizeof name, "spectrum_%06lld.csv",
                    static_cast<long long>(solver->step()));
      on_every_rank([&] { fd::write_spectrum_csv(*solver, (dir / name).string()); });
    }
  };
  // The instability guard: the state is checked before anything of it is written and at
  // the end of every run, whatever run.check_every says (which adds checks in between).
  std::int64_t checked_step = -1;
  const auto guard = [&] {
    if (solver->step() == checked_step) return;
    on_every_rank([&] {
      if (const auto bad = check_health(*solver)) throw InstabilityError(*bad);
    });
    checked_step = solver->step();
  };

  RunProgress progress(*solver,
                       {.max_steps = max_steps,
                        .until = until,
                        .snapshot_every = every,
                        .checkpoint_every = o.checkpoint_every,
                        .checkpoints_kept = int(o.checkpoint_keep),
                        .frame_every = o.render_every},
                       quiet);
  if (!quiet) {
    std::cerr << "fluxview: " << sc.name << " on " << to_string(backend) << " ("
              << to_string(precision) << "), grid " << solver->grid().n[0] << "x"
              << solver->grid().n[1] << "x" << solver->grid().n[2] << ", dt " << solver->dt()
              << " s, "
              << (until > 0 ? "until t = " + format_value(until) + " s"
                            : std::to_string(max_steps) + " steps")
              << "; " << progress.output_summary() << "\n";
    if (frames)
      std::cerr << "fluxview: frames in "
                << (frame_options.dir.empty() ? frame_options.movie : frame_options.dir).string()
                << " (" << frames->context_description() << ")\n";
  }

  const auto t0 = Clock::now();
  std::int64_t chunk = 1;
  std::int64_t run = 0;
  const bool to_time = until > 0;
  int code = kExitOk;
  std::string final_status = "completed";
  try {
    write_record_everywhere();  // status running, before any snapshot
    guard();                    // the initial (or restarted) state, before it is written
    if (frames) frames->write(*solver);
    write_snapshot();
    write_record_everywhere();
    if (catalyst) catalyst->execute(*solver);
    while (true) {
      if (to_time ? solver->time() >= until * (1 - 1e-12) : run >= max_steps) break;
      if (solver->finished()) {
        final_status = "steady";
        summary.message = solver->finish_reason();
        break;
      }
      // Every rank stops at the same step, whichever rank the signal reached.
      if (parallel::allreduce_max(double(g_signal.load())) > 0) {
        if (!g_signal) g_signal = SIGTERM;
        if (o.checkpoint_every > 0) {
          guard();
          checkpoints.write(sc, *solver);
        }
        final_status = "interrupted";
        summary.message = std::string("stopped by signal ") +
                          (g_signal == SIGINT ? "SIGINT" : "SIGTERM") + " at step " +
                          std::to_string(solver->step());
        code = kExitInterrupted;
        break;
      }
      // The next stop: the step budget, the chunk size, or the next periodic action.
      const std::int64_t s = solver->step();
      std::int64_t n = to_time ? chunk : std::min(chunk, max_steps - run);
      for (const std::int64_t period :
           {every, check_every, o.checkpoint_every, catalyst ? o.catalyst_every : 0,
            frames ? o.render_every : 0})
        n = std::min(n, steps_to_next(s, period));
      n = parallel::broadcast(n);  // chunk sizes follow the root's clock on every rank
      const auto c0 = Clock::now();
      const std::int64_t taken =
          to_time ? solver->advance_until(until, n) : (solver->advance(n), n);
      solver->synchronize();
      run += taken;
      if (taken == 0) break;
      // Aim for chunks of about 0.2 s.
      const double dtc = seconds_since(c0);
      chunk = dtc < 0.1   ? std::min<std::int64_t>(chunk * 2, 1 << 20)
              : dtc > 0.4 ? std::max<std::int64_t>(1, chunk / 2)
                          : chunk;
      const std::int64_t now = solver->step();
      const bool frame_due = frames && due(now, o.render_every);
      const bool catalyst_due = catalyst && due(now, o.catalyst_every);
      // The guard runs before any output, so a bad state is never written.
      if (due(now, check_every) || frame_due || catalyst_due || due(now, o.checkpoint_every) ||
          due(now, every))
        guard();
      if (frame_due) frames->write(*solver);
      if (catalyst) catalyst->execute(*solver);  // after the guard: pipelines see no NaN state
      if (due(now, o.checkpoint_every)) checkpoints.write(sc, *solver);
      summary.steps_run = run;
      summary.wall_seconds = seconds_since(t0);
      if (due(now, every)) {
        write_snapshot();
        write_record_everywhere();
      } else if (parallel::broadcast(
                     std::int64_t(seconds_since(last_record) > kHeartbeatSeconds)) != 0) {
        write_record_everywhere();  // the heartbeat of a run between snapshots
      }
      progress.after_steps(run, seconds_since(t0));
    }
    // The end of every run is checked, so that a state gone bad since the last check is
    // neither written nor called completed.
    guard();
    if (series.records().empty() || series.records().back().step != solver->step())
      write_snapshot();
    if (frames) frames->finish(*solver, true);  // a frame of the final state, and the movie
    summary.status = final_status;
  } catch (const InstabilityError& e) {
    summary.status = "unstable";
    summary.message =
        std::string(e.what()) + "; last good snapshot: " +
        (series.records().empty() ? "none" : series.records().back().file) +
        (checkpoints.last().empty() ? ""
                                    : "; last good checkpoint: " + checkpoints.last().string());
    code = kExitUnstable;
    std::cerr << "fluxview: " << e.what() << "\n";
  } catch (const CatalystError& e) {
    summary.status = "failed";
    summary.message = e.what();
    code = kExitFailure;
    std::cerr << "fluxview: " << e.what() << (summary.message.ends_with('\n') ? "" : "\n");
    // The state a pipeline failed on passed the guard: it is kept as the last snapshot.
    try {
      if (checked_step == solver->step() &&
          (series.records().empty() || series.records().back().step != solver->step()))
        write_snapshot();
    } catch (const std::exception& w) {
      std::cerr << "fluxview: failed: " << w.what() << "\n";
    }
  } catch (const std::exception& e) {
    // A failed write (a full disk, an I/O error): what was written before stays, and the
    // message names the file and the operating system's error.
    summary.status = "failed";
    summary.message = e.what();
    code = kExitFailure;
    if (parallel::is_root()) std::cerr << "fluxview: failed: " << e.what() << "\n";
  }
  summary.steps_run = run;
  summary.wall_seconds = seconds_since(t0);
  // The movie is closed whatever ended the run (a completed run closed it after its final
  // frame, in the try above).
  if (frames) try {
      frames->finish(*solver, false);
    } catch (const std::exception& e) {
      std::cerr << "fluxview: failed: " << e.what() << "\n";
      summary.status = "failed";
      summary.message = e.what();
      if (code == kExitOk || code == kExitInterrupted) code = kExitFailure;
    }
  // The final record; on a full disk it may fail too, and the run.json left says running
  // with a pid that has ended (the lock, no longer held, says so too).
  try {
    write_record();
  } catch (const std::exception& e) {
    std::cerr << "fluxview: failed: " << e.what() << "\n";
    if (code == kExitOk || code == kExitInterrupted) code = kExitFailure;
  }

  if (!quiet) {
    if (!summary.message.empty() && code != kExitUnstable && code != kExitFailure)
      std::cerr << "fluxview: " << summary.message << "\n";
    std::cerr << "fluxview: " << run << " steps in " << summary.wall_seconds << " s ("
              << (summary.wall_seconds > 0
                      ? run * double(solver->grid().cells()) / summary.wall_seconds
                      : 0)
              << " cell-updates/s)\n";
    if (catalyst) {
      const CatalystStats& cs = catalyst->stats();
      std::cerr << "fluxview: Catalyst ran at " << cs.executed << " of " << cs.offered
                << " offered steps in " << cs.seconds_total << " s; "
                << (cs.bytes_device_to_host + cs.bytes_host_gathered) / 1e6 << " MB copied, "
                << cs.bytes_zero_copy / 1e6 << " MB zero-copy\n";
    }
  }
  if (parallel::is_root())
    std::cout << "fluxview: output in "
              << std::filesystem::absolute(dir).lexically_normal().string() << " ("
              << series.records().size() << " snapshots, series.pvd, run.json)\n";
  return code;
}

}  // namespace fluxview::app
