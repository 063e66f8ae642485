#pragma once
#include <memory>

#include "sim/core/Solver.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::heat {

// The heat family for the registry: parameters, checks and the factory.
SolverFamily family();

// Makes a heat solver for a backend and precision (HeatSolver<T> in HeatSolver.cpp).
std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision);

}  // namespace fluxview::heat
