#pragma once
#include <string>

#include "app/gui/Panel.hpp"
#include "app/gui/Recorder.hpp"

namespace fluxview::app {

// "Output": a screenshot of the window, recording (a film or PNGs), saving and loading
// the view, and a snapshot of every field. GuiApp takes the screenshot and feeds the
// recorder after drawing, since both read the finished frame.
class OutputPanel : public Panel {
 public:
  const char* title() const override { return "Output"; }
  void draw(PanelContext& c) override;

  std::string screenshot_path = "fluxview-screenshot.png";
  bool screenshot_requested = false;  // by the button or key p: taken after this frame
  Recorder recorder;
  std::string status;  // the last output action, shown under the panel

 private:
  std::string record_target_ = "fluxview-frames";  // a folder of PNGs, or a film (.mp4, ...)
  std::string view_path_ = "fluxview-view.json";
  std::string snapshot_dir_ = "fluxview-snapshots";
};

}  // namespace fluxview::app
