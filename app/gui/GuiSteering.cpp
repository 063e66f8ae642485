// The GUI's steering (docs/gui.md): the pace and the scenario's end in the Run section,
// the tools of the run's family with their radius and strength, the tool applied where
// the 2D view is clicked with a preview circle under the cursor, and the markers of
// changes on the time series. The run state they act on is app/gui/Session.
#include <epoxy/gl.h>  // before GLFW, which would include GL/gl.h

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "app/gui/GuiApp.hpp"
#include "render/ViewRenderer.hpp"
#include "sim/core/Steering.hpp"

namespace fluxview::app {

namespace {

// The hover text of the item just drawn.
void hover_text(const std::string& text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool is_brush_arg(const std::string& name) {
  return name == "x" || name == "y" || name == "z" || name == "radius";
}

}  // namespace

void GuiApp::pace_controls() {
  // The pace: simulated seconds a second of wall time, on a logarithmic slider about the
  // run's dt (a tenth of a step to ten thousand steps a second).
  bool fastest = session_.pace <= 0;
  if (ImGui::Checkbox("as fast as possible", &fastest))
    session_.set_pace(fastest ? 0.0 : std::max(session_.status.dt, 1e-300) * 60);
  hover_text(
      "Off: the run goes at the pace below, in simulated seconds a second of wall time, so a "
      "shock tube or a hot spot unfolds at a speed a class can follow. Whole steps are taken, "
      "so a paced run steps exactly as an unpaced one.");
  if (!fastest) {
    const double dt = std::max(session_.status.dt, 1e-300);
    float steps_per_second = float(session_.pace / dt);
    char shown[64];
    std::snprintf(shown, sizeof shown, "%.3g sim s / s", session_.pace);
    if (ImGui::SliderFloat("pace", &steps_per_second, 0.1f, 10000.0f, shown,
                           ImGuiSliderFlags_Logarithmic))
      session_.set_pace(double(steps_per_second) * dt);
    hover_text("about " + std::to_string(int(std::lround(session_.pace / dt))) +
               " steps a second at the present dt");
  }
  ImGui::Checkbox("pause at the scenario's end", &session_.stop_at_end);
  const ParamSet& p = session_.scenario().params;
  const double until = p.get_real("run.until");
  hover_text(until > 0 ? "run.until = " + format_value(until) + " s"
                       : "run.steps = " + std::to_string(p.get_int("run.steps")));
}

void GuiApp::tools_section() {
  const std::vector<ToolSpec> tools = session_.solver().tools();  // fixed until a reset
  if (tools.empty()) {
    ImGui::TextDisabled("this family has no tools");
    return;
  }
  tool_index_ = std::clamp(tool_index_, 0, int(tools.size()) - 1);
  const ToolSpec& tool = tools[std::size_t(tool_index_)];
  if (ImGui::BeginCombo("tool", tool.label.c_str())) {
    for (std::size_t i = 0; i < tools.size(); ++i)
      if (ImGui::Selectable(tools[i].label.c_str(), int(i) == tool_index_)) tool_index_ = int(i);
    ImGui::EndCombo();
  }
  hover_text(tool.name + ": " + tool.description);
  ImGui::Checkbox("apply where the 2D view is clicked", &tool_armed_);
  hover_text(
      "A preview circle follows the cursor over the 2D view; a left click applies the "
      "tool there, at the next step boundary, and records it in the journal.");
  // The brush radius: from half a cell to half the box.
  const Grid& g = session_.solver().grid();
  double cell = 1e300, box = 1e300;
  for (int a = 0; a < 3; ++a)
    if (g.n[a] > 1) {
      cell = std::min(cell, g.spacing[a]);
      box = std::min(box, g.spacing[a] * g.n[a]);
    }
  if (tool_radius_ <= 0 || tool_radius_ > 0.5 * box) tool_radius_ = 0.05 * box;
  float r = float(tool_radius_);
  if (ImGui::SliderFloat("radius [m]", &r, float(0.5 * cell), float(0.5 * box), "%.4g",
                         ImGuiSliderFlags_Logarithmic))
    tool_radius_ = r;
  for (const ParamSpec& a : tool.args) {
    if (is_brush_arg(a.key)) continue;
    const std::string key = tool.name + "." + a.key;
    if (!tool_args_.count(key)) {
      const double* d = std::get_if<double>(&a.default_value);
      tool_args_[key] = d ? *d : 0.0;
    }
    double v = tool_args_[key];
    const std::string label = a.key + (a.unit.empty() ? "" : " [" + a.unit + "]") +
                              (a.key == tool.strength ? " (strength)" : "");
    if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g")) tool_args_[key] = v;
    hover_text(a.description + "\nallowed: " + a.allowed());
  }
  if (!tool_message_.empty()) ImGui::TextWrapped("%s", tool_message_.c_str());
  ImGui::Text("journal: %zu entries", session_.journal().entries.size());
  hover_text(session_.journal().empty() ? "nothing changed since the last reset"
                                        : session_.journal().to_lines());
}

void GuiApp::tool_in_view() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!tool_armed_ || io.WantCaptureMouse || view_.mode != render::ViewMode::slice2d) return;
  int fbw = 0, fbh = 0, ww = 1, wh = 1;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glfwGetWindowSize(window_, &ww, &wh);
  const double sx = fbw / double(ww), sy = fbh / double(wh);
  const double fx = io.MousePos.x * sx, fy = fbh - io.MousePos.y * sy;
  const auto here = renderer_->probe(fx, fy);
  if (!here) return;
  // Metres a window pixel: from a second probe a few pixels to the side (or above).
  double metres_per_pixel = 0;
  for (const auto& [dx, dy] : {std::pair{8.0, 0.0}, std::pair{-8.0, 0.0}, std::pair{0.0, 8.0}})
    if (const auto there = renderer_->probe(fx + dx * sx, fy + dy * sy)) {
      double d2 = 0;
      for (int a = 0; a < 3; ++a)
        d2 += (there->position[a] - here->position[a]) * (there->position[a] - here->position[a]);
      metres_per_pixel = std::sqrt(d2) / 8.0;
      if (metres_per_pixel > 0) break;
    }
  if (metres_per_pixel > 0)
    ImGui::GetForegroundDrawList()->AddCircle(io.MousePos, float(tool_radius_ / metres_per_pixel),
                                              IM_COL32(255, 255, 255, 220), 64, 1.5f);
  if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
  const std::vector<ToolSpec> tools = session_.solver().tools();
  if (tools.empty()) return;
  const ToolSpec& tool = tools[std::size_t(std::clamp(tool_index_, 0, int(tools.size()) - 1))];
  ToolCall call{tool.name, {}};
  call.args["x"] = here->position[0];
  call.args["y"] = here->position[1];
  call.args["z"] = here->position[2];
  call.args["radius"] = tool_radius_;
  for (const ParamSpec& a : tool.args)
    if (const auto it = tool_args_.find(tool.name + "." + a.key); it != tool_args_.end())
      call.args[a.key] = it->second;
  try {
    tool_message_ = session_.apply_tool(call).summary;
    needs_upload_ = true;
  } catch (const std::exception& e) {
    tool_message_ = e.what();  // refused: the state is as it was
  }
}

void GuiApp::time_series_markers(std::size_t samples) {
  // Vertical lines on the plot just drawn, at the samples where a change took effect.
  if (samples < 2) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Session::Marker& m : session_.markers) {
    if (m.sample >= samples) continue;
    const float x = lo.x + (hi.x - lo.x) * float(m.sample) / float(samples - 1);
    draw->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), IM_COL32(255, 200, 60, 200), 1.0f);
  }
}

}  // namespace fluxview::app
