#pragma once
#include <string>

#include "app/gui/CatalystControl.hpp"
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Catalyst": load ParaView Catalyst scripts, switch each on or off, how often the state
// is offered, where the example scripts write, and each script's runs and errors. GuiApp
// offers the state through control() once a frame.
class CatalystPanel : public Panel {
 public:
  const char* title() const override { return "Catalyst"; }
  void draw(PanelContext& c) override;
  CatalystControl& control() { return catalyst_; }

 private:
  CatalystControl catalyst_;
  std::string script_ = "assets/catalyst/slice_png.py";
  std::string message_;  // the last load's outcome
};

}  // namespace fluxview::app
