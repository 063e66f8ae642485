#include "app/gui/ProfileView.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace fluxview::app {

RunLine read_run_line(const Solver& s, const Scenario& sc, const std::string& field, bool steered,
                      render::DerivedField& derived) {
  const Grid& g = s.grid();
  RunLine line;
  line.axis = int(std::max_element(g.n.begin(), g.n.end()) - g.n.begin());
  const FieldView v = render::resolve_view_field(s, field, derived);
  line.field = field;
  line.unit = v.unit;
  const HostArray h = gather_interior(v);
  for (std::int64_t i = 0; i < h.count(); ++i) {
    line.x.push_back(g.coord(line.axis, int(i)));
    line.value.push_back(h.at(i));
  }
  line.exact = exact_profile(sc, g, field, s.time(), steered);
  return line;
}

PlotArea draw_run_line(const RunLine& line, const std::string& title, ImVec2 lo, ImVec2 hi) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float font = ImGui::GetFontSize();
  draw->AddText(ImVec2(lo.x + 0.8f * font, lo.y + 0.5f * font), IM_COL32(230, 230, 235, 255),
                title.c_str());
  const char* axis_name[3] = {"x [m]", "y [m]", "z [m]"};
  PlotAxes axes;
  axes.x_label = axis_name[line.axis];
  axes.y_label = line.field + (line.unit.empty() ? "" : " [" + line.unit + "]");
  std::vector<PlotCurve> curves(1);
  curves[0].x = line.x;
  curves[0].y = line.value;
  curves[0].colour = kFieldCurveColour;
  curves[0].label = line.field;
  curves[0].thickness = 3.0f;
  if (line.exact) {
    // Thin and dashed over the thicker curve of the field, so that both show where they
    // agree.
    PlotCurve e;
    e.x = line.exact->x;
    e.y = line.exact->value;
    e.colour = kExactCurveColour;
    e.label = line.exact->name;
    e.dashed = true;
    e.thickness = 1.0f;
    curves.push_back(std::move(e));
  }
  // The box's extent along the axis: half a cell beyond the outermost centres.
  if (line.x.size() >= 2) {
    const double h = 0.5 * (line.x[1] - line.x[0]);
    axes.x_lo = line.x.front() - h;
    axes.x_hi = line.x.back() + h;
  }
  const PlotArea area = draw_line_plot(draw, ImVec2(lo.x + font, lo.y + 2.2f * font),
                                       ImVec2(hi.x - font, hi.y - font), axes, curves);
  // The value under the cursor: the nearest cell's.
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse || line.x.empty() || !area.contains(io.MousePos)) return area;
  const double x = area.x_at(io.MousePos.x);
  const auto it = std::lower_bound(line.x.begin(), line.x.end(), x);
  std::size_t i = std::size_t(it - line.x.begin());
  if (i == line.x.size() || (i > 0 && x - line.x[i - 1] < line.x[i] - x)) i = i > 0 ? i - 1 : 0;
  ImGui::BeginTooltip();
  ImGui::Text("%s = %.6g %s", line.field.c_str(), line.value[i], line.unit.c_str());
  ImGui::Text("cell %zu, %c = %.4g m", i, "xyz"[line.axis], line.x[i]);
  if (line.exact) {
    const auto& e = *line.exact;
    const auto k = std::size_t(std::lower_bound(e.x.begin(), e.x.end(), line.x[i]) - e.x.begin());
    if (k < e.x.size()) ImGui::Text("exact: %.6g %s", e.value[k], line.unit.c_str());
  }
  ImGui::EndTooltip();
  return area;
}

}  // namespace fluxview::app
