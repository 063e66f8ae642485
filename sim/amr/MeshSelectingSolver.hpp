#pragma once
// The fv family's solver as the registry makes it: which mesh a run uses (fv.mesh) is a
// parameter, known only at reset(), while the family's factory sees only the backend and
// the precision. This solver makes the uniform or the adaptive one at reset() and hands
// every call to it.
#include <functional>
#include <memory>

#include "sim/core/Solver.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

using SolverFactory = std::function<std::unique_ptr<Solver>(BackendKind, Precision)>;

// `uniform` makes the uniform-grid solver (fv::make_solver).
std::unique_ptr<Solver> make_mesh_selecting_solver(BackendKind backend, Precision precision,
                                                   SolverFactory uniform);

}  // namespace fluxview::amr
