#pragma once
// The finite-volume solver on the adaptive mesh (fv.mesh = amr): fv's scheme (PLM,
// HLL/HLLC/LLF, TVD RK2, its robustness layers) on every block of a p4est forest, with
// ghost filling between levels, refluxing at coarse-fine faces, one global time step, and
// regridding by Loehner's estimator every fv.amr.regrid_every steps. docs/amr.md.
#include <memory>

#include "sim/core/Solver.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

std::unique_ptr<Solver> make_amr_solver(BackendKind backend, Precision precision);

}  // namespace fluxview::amr
