#include "app/gui/SteeringPanel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "app/gui/Tooltips.hpp"
#include "sim/core/Steering.hpp"

namespace fluxview::app {

namespace {

// Arguments the brush gives (where it is clicked and its radius), not edited in the panel.
bool is_brush_arg(const std::string& name) {
  return name == "x" || name == "y" || name == "z" || name == "radius";
}

// The brush radius's range (m): from half a cell to half the box, along the run's axes.
std::pair<double, double> radius_range(const Grid& g) {
  double cell = 1e300, box = 1e300;
  for (int a = 0; a < 3; ++a)
    if (g.n[a] > 1) {
      cell = std::min(cell, g.spacing[a]);
      box = std::min(box, g.spacing[a] * g.n[a]);
    }
  return {0.5 * cell, 0.5 * box};
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
  ImGui::Checkbox("apply where the view is clicked", &armed_);
  help_marker(
      "Where the view is clicked: the 2D view, a slice or surface of the 3D view (a click "
      "released where it was pressed; a drag still turns the box), the plot of a 1D run. A "
      "preview of the brush follows the cursor (a band across the plot of a 1D run); a left "
      "click applies the tool there, at the next step boundary, and records it in the "
      "journal.");
  keep_radius_in_range(session.solver().grid());
  const auto [cell, box] = radius_range(session.solver().grid());
  float r = float(radius_);
  if (ImGui::SliderFloat("radius [m]", &r, float(cell), float(box), "%.4g",
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

void SteeringPanel::keep_radius_in_range(const Grid& g) {
  // With a margin for the slider's float, which may round just outside either end.
  const auto [lo, hi] = radius_range(g);
  if (radius_ < lo * (1 - 1e-6) || radius_ > hi * (1 + 1e-6)) radius_ = std::max(0.1 * hi, lo);
}

void SteeringPanel::arm(PanelContext& c, const std::string& tool_name) {
  const std::vector<ToolSpec> tools = c.session.solver().tools();
  const ToolSpec& tool = find_tool(
      tools, tool_name, "--tool " + tool_name + " (a " + c.session.scenario().solver + " run)");
  tool_index_ = int(&tool - tools.data());
  armed_ = true;
}

void SteeringPanel::use_in_view(PanelContext& c, const std::optional<BrushPoint>& brush) {
  if (!armed_ || !brush) return;
  keep_radius_in_range(c.session.solver().grid());
  if (brush->metres_per_pixel > 0) {
    const float r = float(radius_ / brush->metres_per_pixel);
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    if (brush->along_line) {
      // A 1D run: the brush covers x +- radius, whatever the height in the plot.
      const ImVec2 lo(brush->cursor.x - r, brush->band_top),
          hi(brush->cursor.x + r, brush->band_bottom);
      draw->AddRectFilled(lo, hi, IM_COL32(255, 255, 255, 40));
      draw->AddRect(lo, hi, IM_COL32(255, 255, 255, 160));
    } else {
      draw->AddCircle(brush->cursor, r, IM_COL32(255, 255, 255, 220), 64, 1.5f);
    }
  }
  if (!brush->stroke) return;
  const std::vector<ToolSpec> tools = c.session.solver().tools();
  if (tools.empty()) return;
  const ToolSpec& tool = tools[std::size_t(std::clamp(tool_index_, 0, int(tools.size()) - 1))];
  ToolCall call{tool.name, {}};
  call.args["x"] = brush->position[0];
  call.args["y"] = brush->position[1];
  call.args["z"] = brush->position[2];
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
