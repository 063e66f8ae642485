#pragma once
#include <map>
#include <string>

#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Steering tools" (docs/gui.md): the tools of the run's family with their brush radius and
// other arguments, the journal of the session, and the chosen tool applied where the 2D
// view is clicked, with a preview circle under the cursor. The run state the tools act on
// is Session's (Session::apply_tool), which records each stroke in the journal.
class SteeringPanel : public Panel {
 public:
  const char* title() const override { return "Steering tools"; }
  void draw(PanelContext& c) override;

  // Called once a frame after the scene is drawn, with the framebuffer pixels a window
  // pixel (`sx`, `sy`) and the framebuffer's height: where the tool is armed and the cursor
  // is over the 2D view, draws the brush and applies the tool on a left click.
  void use_in_view(PanelContext& c, double sx, double sy, int fb_height);
  // Whether a click in the 2D view applies the tool (the probes then leave clicks alone).
  bool armed() const { return armed_; }

 private:
  int tool_index_ = 0;
  double radius_ = 0;                   // the brush radius (m)
  std::map<std::string, double> args_;  // the other arguments, by "tool.argument"
  bool armed_ = false;                  // whether a click in the 2D view applies the tool
  std::string message_;                 // what the last stroke did, or why it was refused
};

}  // namespace fluxview::app
