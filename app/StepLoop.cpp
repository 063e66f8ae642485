#include "app/StepLoop.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "app/RunOptions.hpp"
#include "insitu/EveryRank.hpp"
#include "sim/core/Health.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  g_signal = sig;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The instability guard: checks the state once a step, on every rank.
class Guard {
 public:
  explicit Guard(const Solver& solver) : solver_(solver) {}
  void check() {
    if (solver_.step() == checked_step_) return;
    on_every_rank([&] {
      if (const auto bad = check_health(solver_)) throw InstabilityError(*bad);
    });
    checked_step_ = solver_.step();
  }
  bool checked_now() const { return checked_step_ == solver_.step(); }

 private:
  const Solver& solver_;
  std::int64_t checked_step_ = -1;
};

// Gives the state to every output that wants it at `moment`, in order, the guard run first
// when any of them reads the state (or `check` asks for it).
void write_outputs(Solver& solver, RunMoment moment, bool check,
                   const std::vector<RunOutput*>& outputs, Guard& guard, const RunState& run) {
  std::vector<RunOutput*> wanting;
  for (RunOutput* o : outputs)
    if (o->wants(moment, solver.step())) wanting.push_back(o);
  if (check || std::any_of(wanting.begin(), wanting.end(),
                           [](const RunOutput* o) { return o->reads_state(); }))
    guard.check();
  for (RunOutput* o : wanting) o->write(solver, moment, run);
}

// The last snapshot and checkpoint the outputs wrote, for the message of an unstable run.
std::string last_good(const std::vector<RunOutput*>& outputs) {
  RunSummary s;
  for (const RunOutput* o : outputs) o->describe(s);
  return "; last good snapshot: " + (s.snapshots.empty() ? "none" : s.snapshots.back().file) +
         (s.last_checkpoint.empty() ? "" : "; last good checkpoint: " + s.last_checkpoint);
}

}  // namespace

void stop_on_signals() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

int run_steps(Solver& solver, const StepPlan& plan, const std::vector<RunOutput*>& outputs,
              RunProgress& progress, RunState& run) {
  Guard guard(solver);
  const auto t0 = Clock::now();
  std::int64_t chunk = 1;
  const bool to_time = plan.until > 0;
  int code = kExitOk;
  std::string final_status = "completed";
  try {
    // run.json says running before anything of the state is read; the initial (or
    // restarted) state is checked before it is written.
    write_outputs(solver, RunMoment::opening, false, outputs, guard, run);
    // Entries at the first step apply before it is written, as later ones do before the
    // outputs of their step: a snapshot of step N shows what was done at step N.
    if (plan.steerer) plan.steerer->apply_due(solver);
    guard.check();
    write_outputs(solver, RunMoment::start, false, outputs, guard, run);
    // Progress and its estimate count from the first step: the first outputs are written
    // once (the first snapshot of a deep adaptive mesh takes seconds, and an estimate that
    // counted it said 5 h for a cloud run that was 62% done after 7 min); later ones recur,
    // so they count.
    const auto t_steps = Clock::now();
    while (true) {
      if (to_time ? solver.time() >= plan.until * (1 - 1e-12) : run.steps_run >= plan.max_steps)
        break;
      if (solver.finished()) {
        final_status = "steady";
        run.message = solver.finish_reason();
        break;
      }
      // Every rank stops at the same step, whichever rank the signal reached.
      if (parallel::allreduce_max(double(g_signal.load())) > 0) {
        if (!g_signal) g_signal = SIGTERM;
        write_outputs(solver, RunMoment::interrupt, false, outputs, guard, run);
        final_status = "interrupted";
        run.message = std::string("stopped by signal ") +
                      (g_signal == SIGINT ? "SIGINT" : "SIGTERM") + " at step " +
                      std::to_string(solver.step());
        code = kExitInterrupted;
        break;
      }
      // The next stop: the step budget, the chunk size, or the next step an output wants.
      const std::int64_t s = solver.step();
      std::int64_t n = to_time ? chunk : std::min(chunk, plan.max_steps - run.steps_run);
      n = std::min(n, steps_to_next(s, plan.check_every));
      for (const RunOutput* o : outputs) n = std::min(n, o->steps_to_next_write(s));
      if (plan.steerer) n = std::min(n, plan.steerer->steps_to_next(solver));  // the next entry
      n = parallel::broadcast(n);  // chunk sizes follow the root's clock on every rank
      const auto c0 = Clock::now();
      const std::int64_t taken =
          to_time ? solver.advance_until(plan.until, n) : (solver.advance(n), n);
      solver.synchronize();
      run.steps_run += taken;
      if (taken == 0) break;
      if (plan.steerer) plan.steerer->apply_due(solver);
      // Aim for chunks of about 0.2 s.
      const double dtc = seconds_since(c0);
      chunk = dtc < 0.1   ? std::min<std::int64_t>(chunk * 2, 1 << 20)
              : dtc > 0.4 ? std::max<std::int64_t>(1, chunk / 2)
                          : chunk;
      run.wall_seconds = seconds_since(t0);
      // The guard runs before any output, so a bad state is never written.
      write_outputs(solver, RunMoment::step, due(solver.step(), plan.check_every), outputs, guard,
                    run);
      progress.after_steps(run.steps_run, seconds_since(t_steps));
    }
    // The end of every run is checked, so that a state gone bad since the last check is
    // neither written nor called completed.
    guard.check();
    write_outputs(solver, RunMoment::end, false, outputs, guard, run);
    run.status = final_status;
  } catch (const InstabilityError& e) {
    run.status = "unstable";
    run.message = std::string(e.what()) + last_good(outputs);
    code = kExitUnstable;
    std::cerr << "fluxview: " << e.what() << "\n";
  } catch (const SoundStateFailure& e) {
    run.status = "failed";
    run.message = e.what();
    code = kExitFailure;
    std::cerr << "fluxview: " << e.what() << (run.message.ends_with('\n') ? "" : "\n");
    // The state the output failed on passed the guard: what keeps states may keep it.
    try {
      if (guard.checked_now())
        write_outputs(solver, RunMoment::salvage, false, outputs, guard, run);
    } catch (const std::exception& w) {
      std::cerr << "fluxview: failed: " << w.what() << "\n";
    }
  } catch (const std::exception& e) {
    // A failed write (a full disk, an I/O error): what was written before stays, and the
    // message names the file and the operating system's error.
    run.status = "failed";
    run.message = e.what();
    code = kExitFailure;
    if (parallel::is_root()) std::cerr << "fluxview: failed: " << e.what() << "\n";
  }
  run.wall_seconds = seconds_since(t0);
  // Every output is closed whatever ended the run (a movie is finished, run.json has the
  // last word); a failure here fails the run, unless it had failed already.
  for (RunOutput* o : outputs) try {
      o->close(solver, run);
    } catch (const std::exception& e) {
      std::cerr << "fluxview: failed: " << e.what() << "\n";
      run.status = "failed";
      run.message = e.what();
      if (code == kExitOk || code == kExitInterrupted) code = kExitFailure;
    }
  return code;
}

}  // namespace fluxview::app
