#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/gui/Panel.hpp"
#include "app/gui/Probes.hpp"

namespace fluxview::app {

// "Probes" (docs/gui.md): a line dragged in the 2D view and its live profile, points pinned
// with shift + click and their time series, both plotted here and exported as CSV. The
// sampling and the files are Probes'; GuiApp has it sample while it owns the state.
class ProbePanel : public Panel {
 public:
  const char* title() const override { return "Probes"; }
  // Open where the window starts with probes (--probe-file).
  bool open_at_start() const override {
    return probes_.line().has_value() || !probes_.points().empty();
  }
  void draw(PanelContext& c) override;

  // Called once a frame after the scene is drawn, with the framebuffer pixels a window
  // pixel (`sx`, `sy`) and the framebuffer's height: over the 2D view, a left drag draws
  // the line and shift + click pins a point (unless a steering tool is armed, which takes
  // the clicks); draws the line and the points over the view.
  void use_in_view(PanelContext& c, double sx, double sy, int fb_height, bool tool_armed);

  Probes& probes() { return probes_; }
  std::string status;  // the last export, save or load, or why it failed

 private:
  Probes probes_;
  std::optional<Point3> drag_start_;  // where the line being dragged began
  std::string probe_file_ = "fluxview-probes.json";
};

}  // namespace fluxview::app
