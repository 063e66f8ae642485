// `fluxview run`: the headless runner. Loads and checks everything before the first
// byte is written, then steps in chunks sized to take a fraction of a second so that
// progress lines and Ctrl-C are answered promptly, writing snapshots as asked.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#include "app/Commands.hpp"
#include "insitu/catalyst/CatalystAdaptor.hpp"
#include "insitu/checkpoint/Checkpoint.hpp"
#include "insitu/snapshot/AtomicFile.hpp"
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

// Checkpoints of a run: checkpoint_NNNNNN.h5, keeping the newest two so that a failure
// while writing one, or a bad state saved just before a blow-up, leaves a good one.
class CheckpointRing {
 public:
  explicit CheckpointRing(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void write(const Scenario& sc, const Solver& s) {
    char name[64];
    std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(s.step()));
    const auto path = dir_ / name;
    if (!written_.empty() && written_.back() == path) return;
    write_checkpoint(path, sc, s);
    written_.push_back(path);
    if (written_.size() > 2) {
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
  // Everything that can be wrong with the input is found here, before any output.
  // A restart's headers are read here (every piece, on any number of ranks); its arrays
  // once the solver has split the grid, still before any output.
  std::optional<Checkpoint> restart;
  if (!o.restart.empty()) restart = open_checkpoint(o.restart);
  Scenario sc = restart ? scenario_for_restart(*restart, o.overrides)
                        : load_scenario(o.scenario, o.overrides);
  if (o.steps) sc.params.assign("run.steps", *o.steps, "--steps");
  if (o.until) sc.params.assign("run.until", *o.until, "--until");
  if (o.steps && !o.until) sc.params.assign("run.until", 0.0, "--steps");
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
  solver->reset(sc.params);
  if (restart) {
    // This rank's box, read from the pieces that overlap it, whatever rank count wrote them.
    solver->load_state(read_checkpoint_state(*restart, *solver));
    if (!quiet)
      std::cerr << "fluxview: restarting " << sc.name << " from " << o.restart << " at step "
                << solver->step() << ", t = " << solver->time() << " s\n";
  }

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
  prepare_output_dir(dir);

  const std::int64_t max_steps = sc.params.get_int("run.steps");
  const double until = sc.params.get_real("run.until");
  const std::int64_t every = sc.params.get_int("run.every");

  const std::int64_t check_every = sc.params.get_int("run.check_every");
  const std::filesystem::path checkpoint_dir =
      o.checkpoint_dir.empty() ? dir : std::filesystem::path(o.checkpoint_dir);
  if (o.checkpoint_every > 0) prepare_output_dir(checkpoint_dir);
  CheckpointRing checkpoints(checkpoint_dir);

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  SnapshotSeries series(dir);
  RunSummary summary;
  summary.device = device_name(backend);
  if (parallel::size() > 1) summary.extra.push_back({"parallel", parallel_facts(backend)});
  std::unique_ptr<CatalystAdaptor> catalyst;  // destroyed before the solver it may alias
  const auto write_record = [&] {
    if (catalyst) {
      std::erase_if(summary.extra, [](const auto& e) { return e.first == "catalyst"; });
      summary.extra.emplace_back("catalyst", catalyst->summary_json());
    }
    if (parallel::is_root())
      write_run_json(dir / "run.json", make_run_json(sc, *solver, summary, series.records()));
  };

  // A snapshot, and with it the family's own per-output files (the fd family's
  // kinetic-energy spectrum), named by step like the snapshot.
  const auto write_snapshot = [&] {
    series.write(*solver);
    summary.diagnostics = solver->diagnostics();  // collective under MPI: every rank calls it
    if (fd::writes_spectrum(sc.params)) {         // collective under MPI: rank 0 writes it
      char name[48];
      std::snprintf(name, sizeof name, "spectrum_%06lld.csv",
                    static_cast<long long>(solver->step()));
      fd::write_spectrum_csv(*solver, (dir / name).string());
    }
  };

  if (!quiet) {
    std::cerr << "fluxview: " << sc.name << " on " << to_string(backend) << " ("
              << to_string(precision) << "), grid " << solver->grid().n[0] << "x"
              << solver->grid().n[1] << "x" << solver->grid().n[2] << ", dt " << solver->dt()
              << " s, "
              << (until > 0 ? "until t = " + format_value(until) + " s"
                            : std::to_string(max_steps) + " steps")
              << "\n";
  }
  if (!o.catalyst_scripts.empty()) {
    try {
      catalyst = std::make_unique<CatalystAdaptor>(CatalystOptions{
          .scripts = o.catalyst_scripts,
          .every = o.catalyst_every,
          .on_error = o.catalyst_on_error == "continue" ? CatalystOnError::drop_script
                                                        : CatalystOnError::stop,
          .output_dir = (dir / "catalyst").string()});
    } catch (const CatalystError& e) {
      summary.status = "failed";
      summary.message = e.what();
      write_record();
      std::cerr << "fluxview: error: " << e.what() << "\n";
      return kExitBadInput;
    }
  }
  // Headless frames: the context is opened, and the options checked, before stepping.
  std::unique_ptr<render::FrameWriter> frames;
  if (draws) {
    if (!frame_options.dir.empty()) prepare_output_dir(frame_options.dir);
    frames = render::make_frame_writer(frame_options, *solver);
    if (!quiet)
      std::cerr << "fluxview: frames in "
                << (frame_options.dir.empty() ? frame_options.movie : frame_options.dir).string()
                << " (" << frames->context_description() << ")\n";
    frames->write(*solver);
  }
  write_snapshot();
  write_record();

  const auto t0 = Clock::now();
  auto last_progress = t0;
  std::int64_t chunk = 1;
  std::int64_t run = 0;
  const bool to_time = until > 0;
  int code = kExitOk;
  summary.status = "completed";
  try {
    if (catalyst) catalyst->execute(*solver);
    while (true) {
      if (to_time ? solver->time() >= until * (1 - 1e-12) : run >= max_steps) break;
      if (solver->finished()) {
        summary.status = "steady";
        summary.message = solver->finish_reason();
        break;
      }
      // Every rank stops at the same step, whichever rank the signal reached.
      if (parallel::allreduce_max(double(g_signal.load())) > 0) {
        if (!g_signal) g_signal = SIGTERM;
        if (o.checkpoint_every > 0) checkpoints.write(sc, *solver);
        summary.status = "interrupted";
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
      if (frames && due(now, o.render_every)) frames->write(*solver);
      // The guard runs before any output, so a bad state is never written.
      if (due(now, check_every))
        if (auto bad = check_health(*solver);
            parallel::allreduce_sum(std::int64_t(bad ? 1 : 0)) > 0)
          throw InstabilityError(bad ? *bad : "instability on another MPI rank");
      if (catalyst) catalyst->execute(*solver);  // after the guard: pipelines see no NaN state
      if (due(now, o.checkpoint_every)) checkpoints.write(sc, *solver);
      if (due(now, every)) {
        write_snapshot();
        summary.steps_run = run;
        summary.wall_seconds = seconds_since(t0);
        write_record();
      }
      if (!quiet && seconds_since(last_progress) > 2.0) {
        last_progress = Clock::now();
        const double el = seconds_since(t0);
        char line[256];
        std::snprintf(line, sizeof line,
                      "  step %lld  t = %.6g s  %.3g steps/s  %.3g cell-updates/s\n",
                      static_cast<long long>(solver->step()), solver->time(), run / el,
                      run * double(solver->grid().cells()) / el);
        std::cerr << line;
      }
    }
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
  }
  summary.steps_run = run;
  summary.wall_seconds = seconds_since(t0);
  if (code != kExitUnstable &&
      (series.records().empty() || series.records().back().step != solver->step()))
    write_snapshot();
  // A frame of the final state always (not of a state that failed the guard), and the
  // movie closed.
  if (frames) try {
      frames->finish(*solver, code != kExitUnstable);
    } catch (const std::exception& e) {
      summary.status = "failed";
      summary.message = e.what();
      code = kExitFailure;
      std::cerr << "fluxview: " << e.what() << "\n";
    }
  write_record();

  if (!quiet) {
    if (!summary.message.empty() && code != kExitUnstable)
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
