#pragma once
#include <optional>
#include <string>

#include "sim/core/Solver.hpp"

namespace fluxview {

// The instability guard: checks every field of a solver where it lives for NaN, Inf
// and, for fields that must be positive (density, pressure), values <= 0. Returns
// nothing when the state is sound, else one line: step, time, field, first bad cell
// (i, j, k; on the adaptive mesh block, level, position and cell) and its value. One pass
// over each field; only indices cross the bus. Solver::first_unsound_cell does the work.
std::optional<std::string> check_health(const Solver& solver);

}  // namespace fluxview
