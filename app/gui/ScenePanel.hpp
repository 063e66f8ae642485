#pragma once
#include <vector>

#include "render/ViewSettings.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::app {

// The 3D view's layers in the View section: slices, volume (with the transfer-function
// editor), isosurfaces and streamlines, each with its settings. `fields`: what the view
// can show (the solver's and the derived ones).
void scene_panel(render::ViewSettings& v, const std::vector<FieldInfo>& fields, float ui_scale);

}  // namespace fluxview::app
