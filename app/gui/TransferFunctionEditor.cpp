#include "app/gui/TransferFunctionEditor.hpp"

#include <imgui.h>
#include <array>
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

#include <algorithm>
#include <cmath>
#include <string>

#include "render/GlResources.hpp"

namespace fluxview::app {

namespace {

// The curve's vertical scale: opacities are per hundredth of the box, so useful values
// are often small.
constexpr float kScales[] = {0.05f, 0.1f, 0.25f, 0.5f, 1.0f};

}  // namespace

void transfer_function_editor(render::ViewSettings& v, float ui_scale) {
  render::TransferFunction& tf = v.volume.transfer;
  if (ImGui::BeginCombo("preset", "choose...")) {
    for (const auto& p : render::transfer_presets()) {
      if (ImGui::Selectable(p.name)) {
        tf = p.function;
        v.colormap = p.colormap;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", p.description, p.colormap);
    }
    ImGui::EndCombo();
  }
  if (ImGui::BeginCombo("colormap##tf", v.colormap.c_str())) {
    for (const auto& c : render::colormap_names())
      if (ImGui::Selectable(c.c_str(), c == v.colormap)) v.colormap = c;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("log##tf", &v.log_scale);
  static int scale_index = 3;
  ImGui::SetNextItemWidth(90 * ui_scale);
  const std::string scale_label = "max " + std::to_string(kScales[scale_index]).substr(0, 4);
  if (ImGui::BeginCombo("curve scale", scale_label.c_str())) {
    for (int i = 0; i < int(std::size(kScales)); ++i)
      if (ImGui::Selectable(std::to_string(kScales[i]).substr(0, 4).c_str(), i == scale_index))
        scale_index = i;
    ImGui::EndCombo();
  }
  const float top = kScales[scale_index];

  // The canvas: the colormap as the background strip, the curve over it.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(100.0f, ImGui::GetContentRegionAvail().x), 110 * ui_scale);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto table = render::colormap_table(v.colormap);
  const int segments = 64;
  for (int i = 0; i < segments; ++i) {
    const auto& a = table[std::size_t(i * 255 / segments)];
    const auto& b = table[std::size_t((i + 1) * 255 / segments)];
    const float x0 = origin.x + size.x * i / segments, x1 = origin.x + size.x * (i + 1) / segments;
    dl->AddRectFilledMultiColor(ImVec2(x0, origin.y + size.y * 0.82f),
                                ImVec2(x1, origin.y + size.y), IM_COL32(a[0], a[1], a[2], 255),
                                IM_COL32(b[0], b[1], b[2], 255), IM_COL32(b[0], b[1], b[2], 255),
                                IM_COL32(a[0], a[1], a[2], 255));
  }
  dl->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y * 0.82f),
                    IM_COL32(30, 30, 34, 255));
  const float plot_h = size.y * 0.8f;
  const auto to_screen = [&](float t, float a) {
    return ImVec2(origin.x + t * size.x, origin.y + plot_h * (1 - std::min(a / top, 1.0f)));
  };
  for (int i = 0; i <= 64; ++i) {
    const float t0 = i / 64.0f;
    if (i > 0)
      dl->AddLine(to_screen(t0 - 1 / 64.0f, tf.opacity_at(t0 - 1 / 64.0f)),
                  to_screen(t0, tf.opacity_at(t0)), IM_COL32(235, 235, 235, 255), 1.5f * ui_scale);
  }
  ImGui::InvisibleButton("##curve", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float mt = std::clamp((mouse.x - origin.x) / size.x, 0.0f, 1.0f);
  const float ma = std::clamp((1 - (mouse.y - origin.y) / plot_h) * top, 0.0f, 1.0f);
  // The point under the cursor (within 8 pixels), and the one being dragged.
  static int dragged = -1;
  int near = -1;
  float best = 8 * ui_scale;
  for (std::size_t i = 0; i < tf.points.size(); ++i) {
    const ImVec2 p = to_screen(tf.points[i].t, tf.points[i].opacity);
    const float d = std::hypot(p.x - mouse.x, p.y - mouse.y);
    if (d < best) {
      best = d;
      near = int(i);
    }
  }
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) dragged = near;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragged = -1;
  if (dragged >= 0 && dragged < int(tf.points.size())) {
    // The ends stay at t = 0 and 1 when they are there; inner points keep their order.
    auto& p = tf.points[std::size_t(dragged)];
    const float lo = dragged > 0 ? tf.points[std::size_t(dragged - 1)].t + 1e-3f : 0.0f;
    const float hi =
        dragged + 1 < int(tf.points.size()) ? tf.points[std::size_t(dragged + 1)].t - 1e-3f : 1.0f;
    if (!(p.t == 0.0f && dragged == 0) && !(p.t == 1.0f && dragged + 1 == int(tf.points.size())))
      p.t = std::clamp(mt, lo, hi);
    p.opacity = ma;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && near < 0)
    tf.add_point(mt, ma);
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right) && near >= 0)
    tf.remove_point(std::size_t(near));
  for (std::size_t i = 0; i < tf.points.size(); ++i)
    dl->AddCircleFilled(
        to_screen(tf.points[i].t, tf.points[i].opacity), 4.5f * ui_scale,
        int(i) == near ? IM_COL32(255, 200, 80, 255) : IM_COL32(250, 250, 250, 255));
  if (hovered) {
    ImGui::BeginTooltip();
    if (near >= 0)
      ImGui::Text("t = %.3f, opacity %.3f\nright-click: remove", tf.points[std::size_t(near)].t,
                  tf.points[std::size_t(near)].opacity);
    else
      ImGui::Text("t = %.3f\ndouble-click: add a point", mt);
    ImGui::EndTooltip();
  }
  ImGui::TextDisabled("opacity per 1%% of the box; t: place in the colour range");
}

}  // namespace fluxview::app
