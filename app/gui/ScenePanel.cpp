#include "app/gui/ScenePanel.hpp"

#include <imgui.h>
#include <cstddef>

#include <algorithm>
#include <array>
#include <string>

#include "app/gui/TransferFunctionEditor.hpp"

namespace fluxview::app {

namespace {

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

bool has_field(const std::vector<FieldInfo>& fields, const std::string& name) {
  for (const auto& f : fields)
    if (f.name == name) return true;
  return false;
}

void volume_settings(render::ViewSettings& v, float ui_scale) {
  transfer_function_editor(v, ui_scale);
  ImGui::SliderFloat("step [cells]", &v.volume.step, 0.25f, 2.0f, "%.2f");
  tooltip("Distance between samples along a ray, in cells: smaller is finer and slower.");
  ImGui::Checkbox("lighting", &v.volume.lighting);
  tooltip("Shade by the field's gradient, a light at the eye: shows the shape of fronts.");
  int skip = int(v.volume.skipping);
  ImGui::Text("skip empty bricks");
  ImGui::SameLine();
  ImGui::RadioButton("auto", &skip, int(render::Skipping::automatic));
  ImGui::SameLine();
  ImGui::RadioButton("on", &skip, int(render::Skipping::on));
  ImGui::SameLine();
  ImGui::RadioButton("off", &skip, int(render::Skipping::off));
  v.volume.skipping = render::Skipping(skip);
}

void iso_settings(render::ViewSettings& v, const std::vector<FieldInfo>& fields) {
  auto& values = v.iso.values;
  if (values.empty()) ImGui::TextDisabled("one surface at the middle of the colour range");
  for (std::size_t i = 0; i < values.size(); ++i) {
    ImGui::PushID(int(i));
    ImGui::InputDouble("value", &values[i], 0, 0, "%.6g");
    ImGui::SameLine();
    const bool remove = ImGui::SmallButton("x");
    ImGui::PopID();
    if (remove) {
      values.erase(values.begin() + std::ptrdiff_t(i));
      break;
    }
  }
  if (int(values.size()) < render::kMaxIsoValues && ImGui::SmallButton("add an iso-value"))
    values.push_back(values.empty() ? 0.5 * (v.lo + v.hi) : values.back());
  ImGui::SliderFloat("opacity##iso", &v.iso.opacity, 0.05f, 1.0f, "%.2f");
  tooltip("Below 1 the surfaces are see-through: nested surfaces show.");
  const std::string shown = v.iso.color_field.empty() ? "its iso-value" : v.iso.color_field;
  if (ImGui::BeginCombo("colour by", shown.c_str())) {
    if (ImGui::Selectable("its iso-value", v.iso.color_field.empty())) v.iso.color_field.clear();
    for (const auto& f : fields)
      if (ImGui::Selectable(f.name.c_str(), f.name == v.iso.color_field))
        v.iso.color_field = f.name;
    ImGui::EndCombo();
  }
  tooltip("A second field painted on the surfaces through the colormap, over its own range.");
}

void line_settings(render::ViewSettings& v, const std::vector<FieldInfo>& fields) {
  auto& l = v.lines;
  // The vector fields a solver can have: the velocity, and the magnetic field under MHD.
  const std::array<std::array<std::string, 3>, 2> vectors{{{"ux", "uy", "uz"}, {"bx", "by", "bz"}}};
  const std::string shown = l.field[0] + ", " + l.field[1] + ", " + l.field[2];
  if (ImGui::BeginCombo("vector field", shown.c_str())) {
    for (const auto& vec : vectors)
      if (has_field(fields, vec[0]) && has_field(fields, vec[1]) && has_field(fields, vec[2]) &&
          ImGui::Selectable((vec[0] + ", " + vec[1] + ", " + vec[2]).c_str(), vec == l.field))
        l.field = vec;
    ImGui::EndCombo();
  }
  int seed = l.seed == render::SeedKind::plane;
  ImGui::RadioButton("seeds on a plane", &seed, 1);
  ImGui::SameLine();
  ImGui::RadioButton("around a point", &seed, 0);
  l.seed = seed ? render::SeedKind::plane : render::SeedKind::point;
  if (l.seed == render::SeedKind::plane) {
    ImGui::Text("normal");
    for (int a = 0; a < 3; ++a) {
      ImGui::SameLine();
      ImGui::RadioButton(a == 0 ? "x##seed" : a == 1 ? "y##seed" : "z##seed", &l.seed_axis, a);
    }
    ImGui::SliderFloat("plane position", &l.seed_position, 0.0f, 1.0f, "%.3f");
  } else {
    ImGui::SliderFloat3("point", l.seed_point.data(), 0.0f, 1.0f, "%.2f");
    ImGui::SliderFloat("radius", &l.seed_radius, 0.0f, 0.5f, "%.2f");
  }
  ImGui::TextDisabled("shift-click in the view: seeds around the point under the cursor");
  ImGui::SliderInt("seeds a side", &l.seeds, 1, 32);
  ImGui::SliderInt("steps each way", &l.steps, 10, 2000, "%d", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("step [cells]##lines", &l.step, 0.1f, 2.0f, "%.2f");
  tooltip("RK4 along the normalised field: each step moves this many cells.");
}

}  // namespace

void scene_panel(render::ViewSettings& v, const std::vector<FieldInfo>& fields, float ui_scale) {
  ImGui::Checkbox("slices", &v.layers.slices);
  ImGui::SameLine();
  ImGui::Checkbox("volume", &v.layers.volume);
  ImGui::SameLine();
  ImGui::Checkbox("isosurfaces", &v.layers.iso);
  ImGui::SameLine();
  const bool has_vectors = has_field(fields, v.lines.field[0]) &&
                           has_field(fields, v.lines.field[1]) &&
                           has_field(fields, v.lines.field[2]);
  ImGui::BeginDisabled(!has_vectors);
  ImGui::Checkbox("streamlines", &v.layers.lines);
  ImGui::EndDisabled();
  if (!has_vectors) {
    v.layers.lines = false;
    tooltip(
        "Streamlines follow a vector field (ux, uy, uz, or bx, by, bz under MHD); this solver has "
        "none.");
  }
  if (v.layers.slices) ImGui::SliderFloat3("slices x y z", v.position.data(), 0.0f, 1.0f, "%.2f");
  if (v.layers.volume && ImGui::TreeNodeEx("Volume", ImGuiTreeNodeFlags_DefaultOpen)) {
    volume_settings(v, ui_scale);
    ImGui::TreePop();
  }
  if (v.layers.iso && ImGui::TreeNodeEx("Isosurfaces", ImGuiTreeNodeFlags_DefaultOpen)) {
    iso_settings(v, fields);
    ImGui::TreePop();
  }
  if (v.layers.lines && ImGui::TreeNodeEx("Streamlines", ImGuiTreeNodeFlags_DefaultOpen)) {
    line_settings(v, fields);
    ImGui::TreePop();
  }
}

}  // namespace fluxview::app
