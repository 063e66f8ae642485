#pragma once
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Diagnostics": frame and stepping rates, how the slices and the volume reach their
// textures (and why not by the preferred path), and the history of every diagnostic.
class DiagnosticsPanel : public Panel {
 public:
  const char* title() const override { return "Diagnostics"; }
  bool open_at_start() const override { return true; }
  void draw(PanelContext& c) override;
};

}  // namespace fluxview::app
