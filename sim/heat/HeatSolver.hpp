#pragma once
#include <memory>

#include "sim/core/Solver.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::heat {

// The heat family for the registry: parameters, checks and the factory.
SolverFamily family();

// Makes a heat solver for a backend and precision (HeatSolver<T> in HeatSolver.cpp).
std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision);

// Largest stable dt for a grid: alpha dt sum_a 1/d_a^2 <= 1/2 (d = alpha dt/dx^2 <= 1/6
// for cubic cells), over the axes that are not reduced.
double max_stable_dt(const ParamSet& p);

}  // namespace fluxview::heat
