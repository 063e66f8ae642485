#pragma once
// The main view of a 1D run (docs/gui.md "A 1D run"): the field along the run's one axis
// as a line plot with axes, and the exact solution beside it where one is known
// (ExactProfile.hpp). A strip one cell high says little; a curve shows the shock, the
// contact and the rarefaction where they are and how high.
#include <imgui.h>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/ExactProfile.hpp"
#include "app/gui/LinePlot.hpp"
#include "render/DerivedFields.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::app {

// The colours of the two curves (the render tests look for them in the window's pixels).
inline constexpr ImU32 kFieldCurveColour = IM_COL32(255, 160, 40, 255);
inline constexpr ImU32 kExactCurveColour = IM_COL32(80, 190, 255, 255);

// What the plot shows, copied from the solver while the window owns the state.
struct RunLine {
  std::string field, unit;
  int axis = 0;                  // the run's one axis
  std::vector<double> x, value;  // cell centres (m) and the field there
  std::optional<ExactCurve> exact;
};

// The field `field` (the solver's own or a derived one) along the run's axis, and its exact
// solution where one is known. Owning Session::access.
RunLine read_run_line(const Solver& s, const Scenario& sc, const std::string& field, bool steered,
                      render::DerivedField& derived);

// Draws the plot into the window rectangle [lo, hi] (ImGui's background, behind the
// panels), with `title` along its top; hovering it shows the value under the cursor.
// Returns where the data went, for the steering brush to find the coordinate under the
// cursor.
PlotArea draw_run_line(const RunLine& line, const std::string& title, ImVec2 lo, ImVec2 hi);

}  // namespace fluxview::app
