#pragma once
#include <string>

#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Parameters": every parameter of the pending scenario, grouped by key prefix, with its
// meaning, unit and range on hover; edits apply on reset.
class ParametersPanel : public Panel {
 public:
  const char* title() const override { return "Parameters"; }
  void draw(PanelContext& c) override;

 private:
  std::string error_;  // the last refused edit, shown until dismissed
};

}  // namespace fluxview::app
