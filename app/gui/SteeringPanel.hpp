#pragma once
#include <map>
#include <optional>
#include <string>

#include "app/gui/BrushPoint.hpp"
#include "app/gui/Panel.hpp"

namespace fluxview::app {

// "Steering tools" (docs/gui.md): the tools of the run's family with their brush radius and
// other arguments, the journal of the session, and the chosen tool applied where the view
// is clicked (the 2D view, a slice or surface of the 3D view, the plot of a 1D run), with a
// preview of the brush under the cursor. The run state the tools act on is Session's
// (Session::apply_tool), which records each stroke in the journal.
class SteeringPanel : public Panel {
 public:
  const char* title() const override { return "Steering tools"; }
  // Open at the start where --tool armed a tool, so that the class sees which.
  bool open_at_start() const override { return armed_; }
  void draw(PanelContext& c) override;

  // Called once a frame after the view is drawn, with where the brush is over it (GuiApp
  // finds it for the view shown, BrushPoint.hpp; nothing where the cursor is off the
  // field): where the tool is armed, draws the brush's preview and applies the tool on a
  // stroke.
  void use_in_view(PanelContext& c, const std::optional<BrushPoint>& brush);
  // Whether a click in the view applies the tool (the probes then leave clicks alone).
  bool armed() const { return armed_; }
  // Chooses the tool of this name and arms it (--tool); ConfigError naming the family's
  // tools for a name that is not one of them.
  void arm(PanelContext& c, const std::string& tool_name);

 private:
  // The brush radius within its slider's range (half a cell to half the box), 5% of the
  // box until one is chosen.
  void keep_radius_in_range(const Grid& g);

  int tool_index_ = 0;
  double radius_ = 0;                   // the brush radius (m)
  std::map<std::string, double> args_;  // the other arguments, by "tool.argument"
  bool armed_ = false;                  // whether a click in the view applies the tool
  std::string message_;                 // what the last stroke did, or why it was refused
};

}  // namespace fluxview::app
