#pragma once
// What a headless run says about its own size and pace: before it starts, how much it will
// write; once the first steps have been timed, how long it will take (with a warning when a
// scenario sized for a GPU would take long on the CPU, and a grid that would not); while it
// runs, how far along it is and when it will end.
#include <chrono>
#include <cstdint>
#include <string>

#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::app {

// What the run is asked to do, in the terms the estimates need.
struct RunPlan {
  std::int64_t max_steps = 0;  // when bounded by steps
  double until = 0;            // when bounded by simulated time (> 0)
  std::int64_t snapshot_every = 0;
  std::int64_t checkpoint_every = 0;
  int checkpoints_kept = 2;
  std::int64_t frame_every = 0;
};

// Before a large grid is set up (seconds on the CPU): one line saying so.
void announce_setup(const Scenario& sc, BackendKind backend);
// "2 h 51 min", "3 min 20 s", "12 s".
std::string format_duration(double seconds);
// "5.6 GB", "41 MB", "800 kB".
std::string format_bytes(double bytes);
// The grid a run line names: "grid NXxNYxNZ", or on the adaptive mesh its top grid, levels,
// blocks now and the views' grid.
std::string grid_summary(const Solver& solver);

class RunProgress {
 public:
  RunProgress(const Solver& solver, const RunPlan& plan, bool quiet);

  // Bytes of one snapshot and of all the run will write (snapshots and checkpoints).
  double snapshot_bytes() const { return snapshot_bytes_; }
  double output_bytes() const;
  // Snapshots the run will write (estimated for runs bounded by time).
  double snapshots() const;
  // The steps the run will take (estimated from dt for runs bounded by time).
  double expected_steps() const;
  // For the start-of-run banner: "41 snapshots of 134 MB, about 5.6 GB in all".
  std::string output_summary() const;

  // After each stretch of steps: `steps_run` steps since the start, `stepping_seconds` of
  // wall time since the first step began (the outputs written on the way included, since
  // they recur; the first ones not). Prints the time estimate once the first steps are
  // timed, then a progress line every couple of seconds.
  void after_steps(std::int64_t steps_run, double stepping_seconds);

 private:
  double fraction_done(std::int64_t steps_run) const;
  void announce_estimate(std::int64_t steps_run, double stepping_seconds);

  const Solver& solver_;
  RunPlan plan_;
  bool quiet_;
  double start_time_;
  double snapshot_bytes_ = 0;
  double checkpoint_bytes_ = 0;
  bool estimated_ = false;
  std::chrono::steady_clock::time_point last_line_;
};

}  // namespace fluxview::app
