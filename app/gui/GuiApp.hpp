#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/BrushPoint.hpp"
#include "app/gui/CatalystPanel.hpp"
#include "app/gui/OutputPanel.hpp"
#include "app/gui/Panel.hpp"
#include "app/gui/PanelFont.hpp"
#include "app/gui/ProbePanel.hpp"
#include "app/gui/ProfileView.hpp"
#include "app/gui/Session.hpp"
#include "app/gui/SteeringPanel.hpp"
#include "render/SliceSpec.hpp"
#include "render/ViewSettings.hpp"

struct GLFWwindow;

namespace fluxview::render {
class ViewRenderer;
}

namespace fluxview::app {

// The interactive window: a side bar of panels (Panel.hpp: run, steering tools, lessons,
// parameters, view, diagnostics, output, Catalyst) and the view of the field beside it. Stepping
// happens on this thread within a time budget per frame (Session::frame_steps), so drawing and
// input stay smooth whatever the grid size, as long as one step fits in the budget.
class GuiApp {
 public:
  GuiApp(const Scenario& sc, BackendKind backend, Precision precision);
  ~GuiApp();
  // Runs until the window closes, or for `frames` frames when > 0; saves the last
  // frame to `screenshot` when given. Returns the exit code.
  int run(std::int64_t frames, const std::string& screenshot);
  // Shows this view (a saved view file, --view-file).
  void set_view(const render::ViewSettings& v) { view_ = v; }
  // How device fields reach GL (--upload-path; the Diagnostics panel changes it).
  void set_upload_path(render::UploadPath p) { upload_path_ = p; }
  // Applies a steering file's entries as the run reaches their steps (Session::plan).
  void steer_with(const Journal& j, const std::string& origin) { session_.plan(j, origin); }
  const Journal& journal() const { return session_.journal(); }
  // Starts with these probes (--probe-file: Probes::load_json's JSON, checked there); a
  // scripted run (frames > 0) exports them after its last frame.
  void set_probes(const nlohmann::json& j);
  // Starts with this steering tool chosen and armed (--tool); ConfigError naming the run's
  // tools for another name. Before run().
  void arm_tool(const std::string& name);

 private:
  void side_bar();
  void handle_shortcuts();
  void handle_scene_mouse(float scene_x, float scene_w);
  void probe_tooltip();
  // The Steering tools panel's tool, where the view shown is clicked (BrushPoint.hpp).
  void tool_in_view(const WindowToFramebuffer& w);
  void sample_probes();  // owning Session::access
  bool export_probes();  // false (and a message) on failure
  void report_scripted_run(std::int64_t frames, double seconds, std::int64_t step0);
  void read_state();  // owning Session::access: slices, range, the line of a 1D run
  bool one_dimensional() { return session_.solver().grid().active_dims() == 1; }
  bool save_window_png(const std::string& path);  // false (and a message) on failure
  void reset_run();
  PanelContext panel_context();

  GLFWwindow* window_ = nullptr;
  Session session_;
  render::ViewSettings view_;
  std::unique_ptr<render::ViewRenderer> renderer_;
  render::UploadPath upload_path_ = render::UploadPath::automatic;
  float ui_scale_ = 1.0f;
  PanelFont font_;
  float panel_width_ = 420.0f;
  // The side bar, top to bottom; output_, catalyst_ and steering_ are also used by the
  // frame loop.
  OutputPanel* output_ = nullptr;
  SteeringPanel* steering_ = nullptr;
  CatalystPanel* catalyst_ = nullptr;
  ProbePanel* probes_ = nullptr;
  bool export_probes_at_end_ = false;
  std::vector<std::unique_ptr<Panel>> panels_;
  FrameTimes times_;
  std::string last_view_json_;
  std::int64_t drawn_step_ = -1;
  bool needs_upload_ = true;
  // A 1D run: its line, drawn as a plot in place of the strip of the 2D view.
  std::optional<RunLine> run_line_;
  std::optional<PlotArea> plot_area_;  // where this frame drew its plot (a 1D run)
  render::DerivedField line_derived_;
};

}  // namespace fluxview::app
