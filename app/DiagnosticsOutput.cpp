#include "app/DiagnosticsOutput.hpp"

#include <utility>
#include <vector>

#include "sim/core/Solver.hpp"

namespace fluxview::app {

DiagnosticsOutput::DiagnosticsOutput(std::filesystem::path dir, std::int64_t every,
                                     std::int64_t snapshot_every, std::int64_t keep_until)
    : every_(every), snapshot_every_(snapshot_every), table_(std::move(dir), keep_until) {}

std::int64_t DiagnosticsOutput::steps_to_next_write(std::int64_t step) const {
  return steps_to_next(step, every_);
}

bool DiagnosticsOutput::wants(RunMoment moment, std::int64_t step) {
  switch (moment) {
    case RunMoment::start:
      return true;
    case RunMoment::step:
      return due(step, every_);
    case RunMoment::end:
    case RunMoment::interrupt:
    case RunMoment::salvage:
      return last_ != step;
    case RunMoment::opening:
      return false;
  }
  return false;
}

void DiagnosticsOutput::write(Solver& solver, RunMoment moment, const RunState&) {
  // Collective under MPI: every rank reduces, the root writes.
  const std::vector<Diagnostic> d = solver.diagnostics();
  last_ = solver.step();
  table_.add(solver.step(), solver.time(), d,
             moment != RunMoment::step || due(solver.step(), snapshot_every_));
}

void DiagnosticsOutput::close(const Solver&, const RunState&) {
  table_.flush();
}

}  // namespace fluxview::app
