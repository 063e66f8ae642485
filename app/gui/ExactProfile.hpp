#pragma once
// The exact solution of a 1D run, where one is known, for the main view's line plot:
// a shock tube (fv.init = shock-tube along the run's one axis, without the ripple) is
// the Riemann problem of its two states, solved exactly (sim/fv/ExactRiemann.hpp); a
// heat sine mode between walls at 0 degC decays exponentially. Knows nothing of ImGui.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/Grid.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

struct ExactCurve {
  std::string name;  // what the legend says, e.g. "exact (Riemann)"
  std::vector<double> x, value;
};

// The exact `field` along the run's axis at `time`, on `samples` points evenly across
// the box (cell faces at both ends), or nothing where there is none: another kind of
// run, a field the solution does not give, or a run steered away from its scenario
// (`steered`: the journal has entries). Fields: of a shock tube rho, p, the velocity
// along the tube, tracer (1 left of the contact); of a sine mode T.
std::optional<ExactCurve> exact_profile(const Scenario& sc, const Grid& g, const std::string& field,
                                        double time, bool steered, int samples = 1201);

}  // namespace fluxview::app
