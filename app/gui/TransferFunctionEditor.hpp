#pragma once
#include "render/ViewSettings.hpp"

namespace fluxview::app {

// The volume's transfer function in the View section: a preset (density, temperature,
// vorticity, ...), the colormap, log scale, and the opacity curve drawn over the
// colormap, edited with the mouse: drag a point, double-click to add one, right-click
// one to remove it. Everything lands in the view, so `save view` keeps it.
void transfer_function_editor(render::ViewSettings& v, float ui_scale);

}  // namespace fluxview::app
