#include "sim/core/Solver.hpp"

#include <stdexcept>

namespace fluxview {

SolverState Solver::save_state() const {
  throw std::runtime_error("this solver cannot write checkpoints yet");
}

void Solver::load_state(const SolverState&) {
  throw std::runtime_error("this solver cannot restart from checkpoints yet");
}

}  // namespace fluxview
