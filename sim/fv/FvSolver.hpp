#pragma once
#include <memory>
#include <string>

#include "sim/core/Solver.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::fv {

// The fv family for the registry: compressible Euler, PLM + HLL/HLLC, TVD RK2.
SolverFamily family();

// Makes an fv solver for a backend and precision (FvSolver<T> in FvSolver.cpp).
std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision);

}  // namespace fluxview::fv
