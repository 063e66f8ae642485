#include "app/gui/ProbePanel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/gui/LinePlot.hpp"
#include "app/gui/Tooltips.hpp"
#include "fileio/AtomicFile.hpp"
#include "render/SliceSpec.hpp"
#include "render/ViewRenderer.hpp"

namespace fluxview::app {

namespace {

constexpr ImU32 kLineColour = IM_COL32(255, 255, 255, 255);
// One colour a pinned point, in the view and on the time series.
constexpr ImU32 kPointColours[] = {IM_COL32(255, 90, 90, 255),   IM_COL32(90, 220, 120, 255),
                                   IM_COL32(110, 160, 255, 255), IM_COL32(255, 200, 60, 255),
                                   IM_COL32(220, 120, 255, 255), IM_COL32(80, 220, 220, 255)};
ImU32 point_colour(std::size_t i) {
  return kPointColours[i % std::size(kPointColours)];
}

// Between the 2D view's framebuffer pixels (GL, y up) and the box's coordinates: the
// slice rectangle spans the grid's cells along its two axes; the plane is where the
// renderer's probe says the slice lies.
struct SliceMap {
  render::Rect rect;
  Grid grid;
  int normal = 2;
  double plane = 0;
  Point3 world(double fx, double fy) const {
    const auto ax = render::slice_axes(normal);
    Point3 p{};
    p[normal] = plane;
    const double f[2] = {std::clamp((fx - rect.x) / rect.w, 0.0, 1.0),
                         std::clamp((fy - rect.y) / rect.h, 0.0, 1.0)};
    for (int k = 0; k < 2; ++k)
      p[ax[k]] = grid.origin[ax[k]] + (f[k] * grid.n[ax[k]] - 0.5) * grid.spacing[ax[k]];
    return p;
  }
  // Framebuffer pixels of a point (its coordinate along the normal ignored).
  std::array<double, 2> pixels(const Point3& p) const {
    const auto ax = render::slice_axes(normal);
    return {rect.x + ((p[ax[0]] - grid.origin[ax[0]]) / grid.spacing[ax[0]] + 0.5) / grid.n[ax[0]] *
                         rect.w,
            rect.y + ((p[ax[1]] - grid.origin[ax[1]]) / grid.spacing[ax[1]] + 0.5) / grid.n[ax[1]] *
                         rect.h};
  }
};

std::string unit_of(const Solver& s, const std::string& field) {
  for (const auto& f : render::ViewRenderer::viewable_fields(s))
    if (f.name == field) return f.unit;
  return "";
}

std::string with_unit(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : name + " [" + unit + "]";
}

}  // namespace

void ProbePanel::draw(PanelContext& c) {
  Solver& s = c.session.solver();
  const auto fields = render::ViewRenderer::viewable_fields(s);
  const std::string shown = c.renderer.field_name();
  if (ImGui::BeginCombo("probe field", probes_.field.empty() ? ("as the view: " + shown).c_str()
                                                             : probes_.field.c_str())) {
    if (ImGui::Selectable("as the view", probes_.field.empty())) probes_.field.clear();
    for (const auto& f : fields)
      if (ImGui::Selectable(f.name.c_str(), f.name == probes_.field)) probes_.field = f.name;
    ImGui::EndCombo();
  }
  int count = probes_.count;
  if (ImGui::InputInt("line points", &count, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue))
    probes_.count = std::clamp(count, 2, Probes::kMaxCount);
  help_marker("How many points the profile samples, both ends included (2 to " +
              std::to_string(Probes::kMaxCount) +
              "); the field is interpolated linearly between "
              "cell centres.");
  ImGui::TextDisabled("2D view: drag for a line, shift + click to pin a point");
  const std::string field = probes_.field.empty() ? shown : probes_.field;
  const std::string unit = unit_of(s, field);

  if (const auto& p = probes_.profile(); p && probes_.line()) {
    const auto& [a, b] = *probes_.line();
    ImGui::Text("line (%.4g, %.4g, %.4g) to (%.4g, %.4g, %.4g) m", a[0], a[1], a[2], b[0], b[1],
                b[2]);
    PlotAxes axes;
    axes.x_label = "distance along the line [m]";
    axes.y_label = with_unit(p->field, p->unit);
    PlotCurve curve;
    curve.x = p->distance;
    curve.y = p->value;
    curve.colour = kLineColour;
    line_plot("##probe line", 190 * c.ui_scale, axes, {curve});
    if (ImGui::SmallButton("clear line")) probes_.clear_line();
  }

  const PointSeries& series = probes_.series();
  for (std::size_t i = 0; i < probes_.points().size(); ++i) {
    const Point3& x = probes_.points()[i];
    ImGui::PushID(int(i));
    ImGui::ColorButton("##colour", ImGui::ColorConvertU32ToFloat4(point_colour(i)),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(ImGui::GetFontSize(), 0));
    ImGui::SameLine();
    if (!series.values.empty())
      ImGui::Text("P%zu (%.4g, %.4g, %.4g): %.6g", i + 1, x[0], x[1], x[2],
                  series.values.back()[i]);
    else
      ImGui::Text("P%zu (%.4g, %.4g, %.4g)", i + 1, x[0], x[1], x[2]);
    ImGui::SameLine();
    const bool unpin = ImGui::SmallButton("unpin");
    ImGui::PopID();
    if (unpin) {
      probes_.unpin(i);
      break;
    }
  }
  if (!series.time.empty()) {
    PlotAxes axes;
    axes.x_label = "t [s]";
    axes.y_label = with_unit(series.field, unit);
    std::vector<PlotCurve> curves(series.points.size());
    for (std::size_t k = 0; k < curves.size(); ++k) {
      curves[k].x = series.time;
      curves[k].colour = point_colour(k);
      for (const auto& row : series.values) curves[k].y.push_back(row[k]);
    }
    line_plot("##probe series", 190 * c.ui_scale, axes, curves);
    ImGui::Text("%zu samples, one a step shown", series.time.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("clear points")) probes_.clear_points();
  }

  ImGui::InputText("probe folder", &probes_.folder);
  ImGui::SameLine();
  if (ImGui::Button("export CSV")) {
    try {
      status.clear();
      for (const std::string& f : probes_.export_csv())
        status += (status.empty() ? "wrote " : ", ") + f;
    } catch (const std::exception& e) {
      status = e.what();
    }
  }
  help_marker(
      "probe_line_SSSSSS.csv (distance, x, y, z and the field at each point) and "
      "probe_points_SSSSSS.csv (time and one column a pinned point), S the step; each written "
      "whole (a temporary renamed), holding the folder's lock as snapshots do.");
  ImGui::InputText("probe file", &probe_file_);
  if (ImGui::Button("save probes")) {
    try {
      const std::string text = probes_.to_json().dump(2);
      write_file_atomic(probe_file_, [&](std::ostream& out) { out << text << "\n"; });
      status = "probes saved to " + probe_file_;
    } catch (const std::exception& e) {
      status = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("load probes")) {
    try {
      std::ifstream in(probe_file_);
      if (!in) throw std::runtime_error("cannot read " + probe_file_);
      probes_.load_json(nlohmann::json::parse(in));
      status = "probes loaded from " + probe_file_;
    } catch (const std::exception& e) {
      status = probe_file_ + ": " + e.what();
    }
  }
  help_marker(
      "The line, the points, the field, the count and the folder as JSON; "
      "`fluxview gui --probe-file FILE` starts with them.");
  if (!status.empty()) ImGui::TextWrapped("%s", status.c_str());
}

void ProbePanel::use_in_view(PanelContext& c, double sx, double sy, int fb_height,
                             bool tool_armed) {
  if (c.view.mode != render::ViewMode::slice2d) {
    drag_start_.reset();
    return;
  }
  const render::Rect rect = c.renderer.slice_rect();
  if (rect.w <= 0 || rect.h <= 0) return;
  // The plane of the slice, from the renderer's probe at the rectangle's middle.
  const auto middle = c.renderer.probe(rect.x + 0.5 * rect.w, rect.y + 0.5 * rect.h);
  if (!middle) return;
  const SliceMap map{rect, c.session.solver().grid(), c.view.axis, middle->position[c.view.axis]};
  const auto to_window = [&](const Point3& p) {
    const auto px = map.pixels(p);
    return ImVec2(float(px[0] / sx), float((fb_height - px[1]) / sy));
  };

  const ImGuiIO& io = ImGui::GetIO();
  const double fx = io.MousePos.x * sx, fy = fb_height - io.MousePos.y * sy;
  if (!tool_armed && !io.WantCaptureMouse) {
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && rect.contains(fx, fy)) {
      if (io.KeyShift)
        probes_.pin(map.world(fx, fy));
      else
        drag_start_ = map.world(fx, fy);
    }
    if (drag_start_ && ImGui::IsMouseDown(ImGuiMouseButton_Left) &&
        ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f))
      probes_.set_line(*drag_start_, map.world(fx, fy));
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) drag_start_.reset();

  ImDrawList* draw = ImGui::GetForegroundDrawList();
  if (const auto& line = probes_.line()) {
    const ImVec2 a = to_window(line->first), b = to_window(line->second);
    draw->AddLine(a, b, IM_COL32(0, 0, 0, 200), 4.0f);
    draw->AddLine(a, b, kLineColour, 2.0f);
    draw->AddCircleFilled(a, 4.0f, kLineColour);
    draw->AddText(ImVec2(a.x + 5, a.y + 2), kLineColour, "A");
    draw->AddText(ImVec2(b.x + 5, b.y + 2), kLineColour, "B");
  }
  for (std::size_t i = 0; i < probes_.points().size(); ++i) {
    const ImVec2 p = to_window(probes_.points()[i]);
    draw->AddCircleFilled(p, 5.0f, IM_COL32(0, 0, 0, 200));
    draw->AddCircleFilled(p, 4.0f, point_colour(i));
    char label[24];
    std::snprintf(label, sizeof label, "P%zu", i + 1);
    draw->AddText(ImVec2(p.x + 6, p.y - 6), point_colour(i), label);
  }
}

}  // namespace fluxview::app
