#pragma once
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Run": scenario, backend and precision (applied on reset), run/pause, step, reset, the
// stepping policy, where the run stands, and the UI scale.
class RunPanel : public Panel {
 public:
  const char* title() const override { return "Run"; }
  bool open_at_start() const override { return true; }
  void draw(PanelContext& c) override;
};

}  // namespace fluxview::app
