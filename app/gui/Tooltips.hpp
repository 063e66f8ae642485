#pragma once
// Hover help shared by the panels.
#include <string>

#include "sim/core/Parameter.hpp"

namespace fluxview::app {

// A tooltip with `text` (wrapped) while the last item drawn is hovered.
void help_marker(const std::string& text);
// A parameter's key, meaning, unit, range and default, for its tooltip.
std::string tooltip_of(const ParamSpec& s);

}  // namespace fluxview::app
