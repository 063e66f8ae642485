#include "app/RunRecordOutput.hpp"

#include <string>
#include <type_traits>
#include <utility>

#include "insitu/EveryRank.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

namespace {

// run.json is rewritten at least this often while a run goes (its heartbeat).
constexpr double kHeartbeatSeconds = 10;

}  // namespace

RunRecordOutput::RunRecordOutput(std::filesystem::path dir, const Scenario& scenario,
                                 RunSummary summary, std::int64_t snapshot_every,
                                 std::vector<const RunOutput*> others)
    : path_(std::move(dir) / "run.json"),
      scenario_(scenario),
      summary_(std::move(summary)),
      every_(snapshot_every),
      others_(std::move(others)),
      last_write_(std::chrono::steady_clock::now()) {}

bool RunRecordOutput::wants(RunMoment moment, std::int64_t step) {
  switch (moment) {
    case RunMoment::opening:
    case RunMoment::start:
      return true;
    case RunMoment::step: {
      if (due(step, every_)) return true;
      // Every rank writes (collectively) when the root's clock says so.
      const double since =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
      return parallel::broadcast(std::int64_t(since > kHeartbeatSeconds)) != 0;
    }
    case RunMoment::interrupt:
    case RunMoment::end:
    case RunMoment::salvage:
      return false;
  }
  return false;
}

void RunRecordOutput::write(Solver& solver, RunMoment, const RunState& run) {
  // Collective under MPI, so that a failure on the root stops every rank.
  on_every_rank([&] { write_here(solver, run); });
}

void RunRecordOutput::close(const Solver& solver, const RunState& run) {
  write_here(solver, run);
}

void RunRecordOutput::write_here(const Solver& solver, const RunState& run) {
  for (const RunOutput* o : others_) o->describe(summary_);
  summary_.steps_run = run.steps_run;
  summary_.wall_seconds = run.wall_seconds;
  summary_.status = run.status;
  summary_.message = run.message;
  if (parallel::is_root()) write_run_json(path_, make_run_json(scenario_, solver, summary_));
  last_write_ = std::chrono::steady_clock::now();
}

}  // namespace fluxview::app
