#pragma once
// What a headless run writes as it goes (snapshots, frames and the movie, checkpoints,
// Catalyst, run.json): the step loop (StepLoop.hpp) knows its outputs only through this
// interface. docs/dev/architecture.md, "Adding an output", says how to add one.
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/RunFolders.hpp"
#include "insitu/snapshot/RunRecord.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::app {

// Where the run stands when an output is asked for the state.
enum class RunMoment {
  opening,    // before the first check of the state; nothing of it may be read
  start,      // the initial (or restarted) state, checked
  step,       // after a stretch of steps, at a step the output asked for, checked
  interrupt,  // a signal stops the run, at this step, checked
  end,        // the run reached its end (or a steady state), checked
  salvage,    // an output failed on a state that was checked: what keeps states may keep it
};

// How the run goes, as the step loop tells it: what run.json and the closing lines say.
struct RunState {
  std::int64_t steps_run = 0;
  double wall_seconds = 0;
  // running | completed | steady | interrupted | unstable | failed (RunSummary::status)
  std::string status = "running";
  std::string message;
};

// Thrown by an output whose failure leaves the state sound (a Catalyst pipeline that
// raised): the run stops as failed, and the outputs that keep states are offered the
// checked state (RunMoment::salvage).
class SoundStateFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Periodic outputs write at steps that are multiples of their period; 0 or less: never.
inline bool due(std::int64_t step, std::int64_t every) {
  return every > 0 && step % every == 0;
}
inline std::int64_t steps_to_next(std::int64_t step, std::int64_t every) {
  return every > 0 ? every - step % every : std::numeric_limits<std::int64_t>::max();
}

class RunOutput {
 public:
  virtual ~RunOutput() = default;

  // Folders this output writes into besides the run's output folder, each named by the
  // option that chose it: checked, made and locked before anything is written.
  virtual std::vector<RunFolder> folders() const { return {}; }

  // Steps from `step` to the next step at which this output wants the state; the loop
  // stops there. Default: none.
  virtual std::int64_t steps_to_next_write(std::int64_t step) const {
    (void)step;
    return std::numeric_limits<std::int64_t>::max();
  }
  // Whether write() is called at this moment and step. Called on every rank alike (it may
  // be collective).
  virtual bool wants(RunMoment moment, std::int64_t step) = 0;
  // Whether the state must pass the instability guard before write() (true: it is written
  // or shown). The loop checks it once a step, before the first output that needs it.
  virtual bool reads_state() const { return true; }
  // Writes what this output writes of the solver's state. Collective under MPI: a failure
  // on one rank is thrown on every rank (insitu/EveryRank.hpp). The solver is not const
  // because its diagnostics() are computed in its own scratch space; an output reads the
  // state and never changes it.
  virtual void write(Solver& solver, RunMoment moment, const RunState& run) = 0;
  // Once the loop has ended, whatever ended it (`run.status` says how), in the order the
  // outputs were added: closes what is open (a movie), writes the last word (run.json).
  // Not collective: one rank may fail where others do not.
  virtual void close(const Solver& solver, const RunState& run) {
    (void)solver;
    (void)run;
  }

  // What run.json records of this output (its files, its settings, its statistics); the
  // step loop reads the last good snapshot and checkpoint from it too.
  virtual void describe(RunSummary& summary) const { (void)summary; }
  // Lines on stderr (not under --quiet): what it will write, before the run starts, and
  // what it did, once the run has ended.
  virtual void announce(std::ostream& err) const { (void)err; }
  virtual void report(std::ostream& err) const { (void)err; }
};

}  // namespace fluxview::app
