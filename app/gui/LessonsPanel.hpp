#pragma once
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Teaching presets": one button a lesson (Lessons.hpp) that loads its scenario, resets
// and chooses its view.
class LessonsPanel : public Panel {
 public:
  const char* title() const override { return "Teaching presets"; }
  void draw(PanelContext& c) override;
};

}  // namespace fluxview::app
