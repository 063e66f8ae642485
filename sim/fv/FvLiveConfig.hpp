#pragma once
// A live change of the fv family's parameters (Solver::set_live), checked the same way on
// the uniform grid (FvSteering.cpp) and the adaptive mesh (sim/amr/AmrFvSolver.cpp).
#include <functional>
#include <string>

#include "sim/core/Parameter.hpp"
#include "sim/fv/FvConfig.hpp"

namespace fluxview::fv {

// `changed` is the run's parameters with the change made (live_change, Steering.hpp), `now`
// the run's config. Returns the new config, or throws SteeringError naming `key` and what is
// allowed where a face would change periodicity (periodic faces are joined at Reset) or a
// new gamma would take the lowest pressure to fv.p_floor or below (the conserved state is
// kept, so each pressure scales by (gamma' - 1) / (gamma - 1); lowest_pressure() gives the
// run's lowest, over every rank, and is called only then).
FvConfig live_config(const FvConfig& now, const ParamSet& changed, const std::string& key,
                     const ParamValue& value, const std::function<double()>& lowest_pressure);

}  // namespace fluxview::fv
