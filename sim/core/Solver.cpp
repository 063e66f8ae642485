#include "sim/core/Solver.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

namespace fluxview {

void Solver::advance(std::int64_t steps) {
  for (std::int64_t s = 0; s < steps; ++s) step_by(dt());
}

std::int64_t Solver::advance_until(double t_end, std::int64_t steps) {
  std::int64_t taken = 0;
  // The relative slack keeps round-off in the accumulated time from adding a sliver step.
  while (taken < steps && time() < t_end * (1 - 1e-14)) {
    step_by(std::fmin(dt(), t_end - time()));
    ++taken;
  }
  return taken;
}

void Solver::step_by(double) {
  throw std::logic_error(
      "this solver overrides advance() and advance_until() instead of step_by()");
}

SolverState Solver::save_state() const {
  throw std::runtime_error("this solver cannot write checkpoints yet");
}

void Solver::load_state(const SolverState&) {
  throw std::runtime_error("this solver cannot restart from checkpoints yet");
}

void Solver::set_live(const std::string& key, const ParamValue&) {
  throw SteeringError(key + " cannot change while this solver runs: it takes no live changes");
}

ToolReport Solver::apply_tool(const ToolCall& call) {
  throw SteeringError("tool " + call.tool + ": this solver has no tools");
}

}  // namespace fluxview
