#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fileio/FolderLock.hpp"
#include "insitu/snapshot/SnapshotSeries.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

// The run the GUI shows and steers: the scenario, the parameters being edited (applied
// on reset, with the backend and precision), the solver, and the stepping policy that
// keeps the window responsive. Knows nothing of ImGui or GL.
//
// Stepping is decoupled from drawing in two ways. On the CPU backend a worker thread
// steps in chunks of a few milliseconds; the GUI thread reads the state (slices,
// diagnostics) between chunks through access(), which never waits for a long step:
// when a step outlasts the wait, the frame is drawn from the previous textures. On the
// CUDA backend the GUI thread steps itself, within a time budget per frame
// (frame_steps), since the slice textures are written by CUDA on the GL thread anyway.
class Session {
 public:
  Session(const Scenario& sc, BackendKind backend, Precision precision);
  ~Session();

  // --- what is being edited, applied by reset() ---
  Scenario pending;  // scenario name, solver, params as edited
  BackendKind pending_backend;
  Precision pending_precision;
  // Loads a built-in scenario (or .toml) into `pending` with overrides; throws ConfigError.
  void choose_scenario(const std::string& name, const std::vector<std::string>& overrides = {});
  // Makes a new solver from `pending`; throws ConfigError (the old run stays).
  void reset();

  // --- stepping ---
  bool running() const { return running_; }
  void set_running(bool on);
  bool fit_to_budget = true;  // as many steps as fit in budget_ms, else steps_per_frame
  int steps_per_frame = 1;    // steps a frame when not fitting to the budget
  double budget_ms = 10.0;    // stepping time a frame may take (60 fps leaves ~16 ms)
  // GUI thread, once a frame: on the CUDA backend steps as the policy says; returns the
  // steps taken since the last call (by either thread). A NaN or a steady state pauses
  // the run and sets `message`.
  std::int64_t frame_steps();
  std::int64_t step_once();
  // The scenario's end (run.until, else run.steps): a run pauses there, landing on
  // run.until exactly, and says so in `message`; Run goes on past it. Off: runs on.
  bool stop_at_end = true;
  // Pace: simulated seconds a second of wall time (0: as fast as possible), so that a
  // shock tube or a hot spot unfolds at a speed a class can follow. Whole steps are
  // taken (never a shortened one), so a paced run steps exactly as an unpaced one.
  double pace = 0;
  void set_pace(double sim_seconds_per_second);
  bool threaded() const { return solver_->backend() == BackendKind::cpu; }

  // Exclusive use of the state while the returned lock owns it: the worker pauses after
  // its current chunk. Waits at most `wait_ms` (then owns_lock() is false); a negative
  // wait blocks. While owned, also brings `status`, `message` and the rates up to date.
  std::unique_lock<std::timed_mutex> access(double wait_ms);
  // Released: the worker goes on.
  void release(std::unique_lock<std::timed_mutex>& lock);

  // Read the solver only while owning access() (immutable facts such as grid() and
  // fields() may be read any time).
  Solver& solver() { return *solver_; }
  const Scenario& scenario() const { return active_; }
  struct Status {
    std::int64_t step = 0;
    double time = 0, dt = 0;
  };
  Status status;        // as of the last access
  std::string message;  // the last pause reason or error, shown until cleared

  // --- measured rates (smoothed over about half a second) ---
  double steps_per_second = 0, cell_updates_per_second = 0;
  double last_step_ms = 0;  // wall time of the last frame's stepping, or the last chunk's

  // --- diagnostics history, sampled about ten times a second (owning access) ---
  struct Series {
    std::string unit;
    std::vector<float> values;
  };
  std::map<std::string, Series> history;
  void sample_diagnostics(bool force = false);
  // On the adaptive mesh: the latest blocks of each level from 0 and all of them, as the
  // Diagnostics panel shows them ("24 244 516 (784)"); empty on a uniform grid.
  std::string blocks_per_level() const;

  // --- steering (docs/gui.md): live changes and tool strokes, each applied at once
  // between steps (waiting for the worker's chunk) and recorded with its step. Throw
  // SteeringError (nothing changed, nothing recorded) when the solver refuses. ---
  void set_live(const std::string& key, const ParamValue& value);
  // A steering file's entries, applied as the run reaches their steps (`fluxview gui
  // --steer FILE`): checked against the run first (ConfigError naming `origin` and the
  // entry); an entry the solver refuses later pauses the run with its message. Kept
  // until the next reset.
  void plan(const Journal& j, const std::string& origin);
  ToolReport apply_tool(const ToolCall& call);
  // What tool strokes cost (docs/performance.md): the wall time from the call to the
  // changed state (the solver synchronised), the totals its report gives included; the
  // GUI's and a steering file's strokes alike, since the last reset. As of the last access.
  struct StrokeCost {
    int count = 0;
    double total_ms = 0, max_ms = 0, last_ms = 0;
    void add(int strokes, double ms);
  };
  StrokeCost strokes;
  // Everything applied since the last reset, as `fluxview run --replay` plays it.
  const Journal& journal() const { return steerer_.record(); }
  // Where the time series show a change: the index in each history series of the first
  // sample after it (kept in step with the samples as old ones are dropped), and what.
  struct Marker {
    std::size_t sample = 0;
    std::int64_t step = 0;
    std::string what;
  };
  std::vector<Marker> markers;

  // --- output (owning access) ---
  // Writes a snapshot of every field to DIR (series.pvd + .vti); returns the file.
  std::string write_snapshot(const std::string& dir);

 private:
  using Clock = std::chrono::steady_clock;
  std::int64_t advance_chunk(double target_ms);  // under the lock; updates rates
  void worker_loop();
  void sync_locked();
  // Steps the next chunk may take: up to the scenario's end and the pace. 0 with
  // `end_reached_` set at the end, 0 with paced_ahead_ while the pace is ahead.
  std::int64_t allowed_steps(std::int64_t wanted);
  void mark(const std::string& what);  // under the lock
  // Applies the planned entries due now; false (the run paused, `message` set) when the
  // solver refuses one.
  bool apply_planned();

  Scenario active_;
  std::unique_ptr<Solver> solver_;
  Steerer steerer_;
  StrokeCost stroke_cost_;  // under the lock (the worker applies planned strokes)
  std::vector<std::pair<std::int64_t, std::string>> planned_marks_;  // step, what
  bool end_reached_ = false;  // paused at the end once; Run then goes on past it
  std::atomic<bool> paced_ahead_{false};
  Clock::time_point pace_t0_ = Clock::now();
  double pace_time0_ = 0;  // simulated time at pace_t0_
  std::int64_t chunk_ = 1;
  // The snapshot folder's lock (one writer per folder, as for `fluxview run`), declared
  // before the series so that it is released after it.
  std::unique_ptr<FolderLock> series_lock_;
  std::unique_ptr<SnapshotSeries> series_;
  std::string series_dir_;
  Clock::time_point rate_t0_ = Clock::now(), last_sample_ = Clock::time_point{};
  std::int64_t rate_steps_ = 0;

  // Shared with the worker, guarded by mutex_ (or atomic).
  std::timed_mutex mutex_;
  std::condition_variable_any wake_;
  std::atomic<bool> running_{false};
  std::atomic<bool> reader_waiting_{false};
  bool quit_ = false;
  std::atomic<std::int64_t> steps_unreported_{0};
  std::string worker_message_;
  double worker_rate_ = 0, worker_chunk_ms_ = 0;
  std::thread worker_;
};

}  // namespace fluxview::app
