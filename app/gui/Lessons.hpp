#pragma once
// The teaching presets: ready-made runs for a class, each a scenario sized for a laptop
// and the view that shows it best, with a line or two on what to watch.
#include <string>
#include <vector>

#include "render/ViewSettings.hpp"

namespace fluxview::app {

struct Lesson {
  const char* label;                   // the button
  const char* scenario;                // a built-in scenario
  std::vector<std::string> overrides;  // --set key=value, sized for a laptop
  render::ViewMode mode;
  bool block_outlines;  // the 2D view outlines the adaptive mesh's blocks
  const char* text;     // what to watch, shown on hover
  const char* action;   // a suggested steering action (docs/gui.md, Steering tools)
};

// In the order the panel shows them; a lesson whose scenario is not built in (its family
// not compiled in) is not shown.
const std::vector<Lesson>& lessons();

}  // namespace fluxview::app
