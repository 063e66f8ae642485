#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/CatalystControl.hpp"
#include "app/gui/Recorder.hpp"
#include "app/gui/Session.hpp"
#include "render/ViewSettings.hpp"

struct GLFWwindow;

namespace fluxview::render {
class ViewRenderer;
}

namespace fluxview::app {

// The interactive window: a side panel of ImGui controls (run, parameters, view,
// output, diagnostics) and the view of the field beside it. Stepping happens on this
// thread within a time budget per frame (Session::frame_steps), so drawing and input
// stay smooth whatever the grid size, as long as one step fits in the budget.
class GuiApp {
 public:
  GuiApp(const Scenario& sc, BackendKind backend, Precision precision);
  ~GuiApp();
  // Runs until the window closes, or for `frames` frames when > 0; saves the last
  // frame to `screenshot` when given. Returns the exit code.
  int run(std::int64_t frames, const std::string& screenshot);
  // Shows this view (a saved view file, --view-file).
  void set_view(const render::ViewSettings& v) { view_ = v; }

 private:
  void panel();
  void run_section();
  void parameter_section();
  void view_section();
  void output_section();
  void diagnostics_section();
  void presets_section();
  void catalyst_section();
  void handle_shortcuts();
  void handle_scene_mouse(float scene_x, float scene_w);
  void probe_tooltip();
  void read_state();                              // owning Session::access: slices, range, profile
  bool save_window_png(const std::string& path);  // false (and a message) on failure
  void do_reset();

  GLFWwindow* window_ = nullptr;
  Session session_;
  CatalystControl catalyst_;
  std::string catalyst_script_ = "assets/catalyst/slice_png.py";
  std::string catalyst_message_;
  render::ViewSettings view_;
  std::unique_ptr<render::ViewRenderer> renderer_;
  float ui_scale_ = 1.0f;
  float panel_width_ = 420.0f;
  // Output paths typed into the panel.
  std::string screenshot_path_ = "fluxview-screenshot.png";
  std::string record_dir_ = "fluxview-frames";  // a folder of PNGs, or a film (.mp4, ...)
  std::string view_path_ = "fluxview-view.json";
  std::string snapshot_dir_ = "fluxview-snapshots";
  Recorder recorder_;
  bool screenshot_requested_ = false;
  std::string status_;  // the last output action, shown under the output section
  // Frame timing.
  double fps_ = 0, frame_ms_ = 0;
  double update_ms_ = 0;  // slice update (renderer_->update), smoothed
  std::string last_view_json_;
  std::int64_t drawn_step_ = -1;
  bool needs_upload_ = true;
  std::vector<float> profile_;  // the line of a 1D run
};

}  // namespace fluxview::app
