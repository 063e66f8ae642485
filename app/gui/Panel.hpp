#pragma once
// A section of the GUI's side bar. GuiApp draws its panels top to bottom, each under a
// collapsing header; a new panel is a class deriving from Panel in a file of its own,
// added to GuiApp's list (GuiApp.cpp, the constructor).
#include <functional>
#include <vector>

#include "app/gui/Session.hpp"
#include "render/SliceSpec.hpp"
#include "render/ViewSettings.hpp"

namespace fluxview::render {
class ViewRenderer;
}

namespace fluxview::app {

// How fast the window goes, for the Diagnostics panel.
struct FrameTimes {
  double fps = 0;        // frames a second, over about half a second
  double frame_ms = 0;   // the last frame, stepping and drawing
  double update_ms = 0;  // the view's texture update (ViewRenderer::update), smoothed
};

// What a panel may read and change: the run, the view and how it reaches the screen.
// Panels draw while GuiApp does not hold Session::access: they read the solver only for
// facts that do not change while it steps (grid, fields, backend).
struct PanelContext {
  Session& session;
  render::ViewSettings& view;
  render::ViewRenderer& renderer;
  float& ui_scale;
  // How device fields reach GL textures (--upload-path; the Diagnostics panel changes it).
  render::UploadPath& upload_path;
  // Set to have the view's textures rebuilt at the next frame (a new solver or view).
  bool& needs_upload;
  const FrameTimes& times;
  // Session::reset, then a view of the new solver's fields; a refused reset leaves the old
  // run and says why in Session::message.
  std::function<void()> reset_run;
};

class Panel {
 public:
  virtual ~Panel() = default;
  // The collapsing header's label, and whether it starts open.
  virtual const char* title() const = 0;
  virtual bool open_at_start() const { return false; }
  virtual void draw(PanelContext& c) = 0;
};

}  // namespace fluxview::app
