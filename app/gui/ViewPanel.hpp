#pragma once
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "View": the field, 2D slice or 3D view (with the scene's layers, ScenePanel.hpp), the
// camera, colormap and range, the colour bar, and the profile plot of a 1D run.
class ViewPanel : public Panel {
 public:
  const char* title() const override { return "View"; }
  bool open_at_start() const override { return true; }
  void draw(PanelContext& c) override;
};

}  // namespace fluxview::app
