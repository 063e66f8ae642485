#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "insitu/snapshot/SnapshotSeries.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::app {

// The run the GUI shows and steers: the scenario, the parameters being edited (applied
// on reset, with the backend and precision), the solver, and the stepping policy that
// keeps the window responsive. Knows nothing of ImGui or GL.
class Session {
 public:
  Session(const Scenario& sc, BackendKind backend, Precision precision);

  // --- what is being edited, applied by reset() ---
  Scenario pending;  // scenario name, solver, params as edited
  BackendKind pending_backend;
  Precision pending_precision;
  // Loads a built-in scenario (or .toml) into `pending` with overrides; throws ConfigError.
  void choose_scenario(const std::string& name, const std::vector<std::string>& overrides = {});
  // Makes a new solver from `pending`; throws ConfigError (the old run stays).
  void reset();

  // --- stepping ---
  bool running = false;
  bool fit_to_budget = true;  // as many steps as fit in budget_ms, else steps_per_frame
  int steps_per_frame = 1;    // steps a frame when not fitting to the budget
  double budget_ms = 10.0;    // stepping time a frame may take (60 fps leaves ~16 ms)
  // Steps as the policy says; returns the steps taken. A NaN or a steady state pauses
  // the run and sets `message`.
  std::int64_t frame_steps();
  std::int64_t step_once();

  Solver& solver() { return *solver_; }
  const Scenario& scenario() const { return active_; }
  BackendKind backend() const { return solver_->backend(); }
  std::string message;  // the last pause reason or error, shown until cleared

  // --- measured rates (smoothed over about half a second) ---
  double steps_per_second = 0, cell_updates_per_second = 0;
  double last_step_ms = 0;  // wall time of the stepping in the last frame

  // --- diagnostics history, sampled about ten times a second ---
  struct Series {
    std::string unit;
    std::vector<float> values;
  };
  std::map<std::string, Series> history;
  void sample_diagnostics(bool force = false);

  // --- output ---
  // Writes a snapshot of every field to DIR (series.pvd + .vti); returns the file.
  std::string write_snapshot(const std::string& dir);

 private:
  Scenario active_;
  std::unique_ptr<Solver> solver_;
  std::int64_t chunk_ = 1;
  std::unique_ptr<SnapshotSeries> series_;
  std::string series_dir_;
  using Clock = std::chrono::steady_clock;
  Clock::time_point rate_t0_ = Clock::now(), last_sample_ = Clock::time_point{};
  std::int64_t rate_steps_ = 0;
};

}  // namespace fluxview::app
