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

// The boundary condition of one face ("outflow", "reflecting" or "periodic") after the
// fallbacks fv.bc_<axis><side> -> fv.bc_<axis> -> fv.bc. axis 0..2, side 0 (min) or 1 (max).
std::string resolved_bc(const ParamSet& p, int axis, int side);

}  // namespace fluxview::fv
