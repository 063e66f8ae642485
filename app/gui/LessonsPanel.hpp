#pragma once
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Teaching presets": one button a lesson (Lessons.hpp) that loads its scenario, resets
// and chooses its view; the lesson loaded last stays in view with its steering action.
class LessonsPanel : public Panel {
 public:
  const char* title() const override { return "Teaching presets"; }
  void draw(PanelContext& c) override;

 private:
  int shown_ = -1;  // the lesson loaded last (an index into lessons())
};

}  // namespace fluxview::app
