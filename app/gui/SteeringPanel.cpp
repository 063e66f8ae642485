#include "app/gui/SteeringPanel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "app/gui/Tooltips.hpp"
#include "render/ViewRenderer.hpp"
#include "sim/core/Steering.hpp"

namespace fluxview::app {

namespace {

// Arguments the brush gives (where it is clicked and its radius), not edited in the panel.
bool is_brush_arg(const std::string& name) {
  return name == "x" || name == "y" || name == "z" || name == "radius";
}

}  // namespace

void SteeringPanel::draw(PanelContext& c) {
  Session& session = c.session;
  const std::vector<ToolSpec> tools = session.solver().tools();  // fixed until a reset
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
  help_marker(tool.name + ": " + tool.description);
  ImGui::Checkbox("apply where the 2D view is clicked", &armed_);
  help_marker(
      "A preview circle follows the cursor over the 2D view; a left click applies the "
      "tool there, at the next step boundary, and records it in the journal.");
  // The brush radius: from half a cell to half the box.
  const Grid& g = session.solver().grid();
  double cell = 1e300, box = 1e300;
  for (int a = 0; a < 3; ++a)
    if (g.n[a] > 1) {
      cell = std::min(cell, g.spacing[a]);
      box = std::min(box, g.spacing[a] * g.n[a]);
    }
  if (radius_ <= 0 || radius_ > 0.5 * box) radius_ = 0.05 * box;
  float r = float(radius_);
  if (ImGui::SliderFloat("radius [m]", &r, float(0.5 * cell), float(0.5 * box), "%.4g",
                         ImGuiSliderFlags_Logarithmic))
    radius_ = r;
  for (const ParamSpec& a : tool.args) {
    if (is_brush_arg(a.key)) continue;
    const std::string key = tool.name + "." + a.key;
    if (!args_.count(key)) {
      const double* d = std::get_if<double>(&a.default_value);
      args_[key] = d ? *d : 0.0;
    }
    double v = args_[key];
    const std::string label = a.key + (a.unit.empty() ? "" : " [" + a.unit + "]") +
                              (a.key == tool.strength ? " (strength)" : "");
    if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g")) args_[key] = v;
    help_marker(a.description + "\nallowed: " + a.allowed());
  }
  if (!message_.empty()) ImGui::TextWrapped("%s", message_.c_str());
  ImGui::Text("journal: %zu entries", session.journal().entries.size());
  help_marker(session.journal().empty() ? "nothing changed since the last reset"
                                        : session.journal().to_lines());
}

void SteeringPanel::use_in_view(PanelContext& c, double sx, double sy, int fb_height) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!armed_ || io.WantCaptureMouse || c.view.mode != render::ViewMode::slice2d) return;
  const double fx = io.MousePos.x * sx, fy = fb_height - io.MousePos.y * sy;
  const auto here = c.renderer.probe(fx, fy);
  if (!here) return;
  // Metres a window pixel: from a second probe a few pixels to the side (or above).
  double metres_per_pixel = 0;
  for (const auto& [dx, dy] : {std::pair{8.0, 0.0}, std::pair{-8.0, 0.0}, std::pair{0.0, 8.0}})
    if (const auto there = c.renderer.probe(fx + dx * sx, fy + dy * sy)) {
      double d2 = 0;
      for (int a = 0; a < 3; ++a)
        d2 += (there->position[a] - here->position[a]) * (there->position[a] - here->position[a]);
      metres_per_pixel = std::sqrt(d2) / 8.0;
      if (metres_per_pixel > 0) break;
    }
  if (metres_per_pixel > 0)
    ImGui::GetForegroundDrawList()->AddCircle(io.MousePos, float(radius_ / metres_per_pixel),
                                              IM_COL32(255, 255, 255, 220), 64, 1.5f);
  if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
  const std::vector<ToolSpec> tools = c.session.solver().tools();
  if (tools.empty()) return;
  const ToolSpec& tool = tools[std::size_t(std::clamp(tool_index_, 0, int(tools.size()) - 1))];
  ToolCall call{tool.name, {}};
  call.args["x"] = here->position[0];
  call.args["y"] = here->position[1];
  call.args["z"] = here->position[2];
  call.args["radius"] = radius_;
  for (const ParamSpec& a : tool.args)
    if (const auto it = args_.find(tool.name + "." + a.key); it != args_.end())
      call.args[a.key] = it->second;
  try {
    message_ = c.session.apply_tool(call).summary;
    c.needs_upload = true;
  } catch (const std::exception& e) {
    message_ = e.what();  // refused: the state is as it was
  }
}

}  // namespace fluxview::app
