#include "app/gui/ViewPanel.hpp"

#include <imgui.h>
#include <array>
#include <memory>
#include <vector>

#include <string>

#include "app/gui/ScenePanel.hpp"
#include "app/gui/Tooltips.hpp"
#include "render/ViewRenderer.hpp"
#include "sim/amr/AmrHierarchy.hpp"

namespace fluxview::app {

void ViewPanel::draw(PanelContext& c) {
  render::ViewSettings& view = c.view;
  Solver& s = c.session.solver();
  const auto fields = render::ViewRenderer::viewable_fields(s);
  const std::string shown = view.field.empty() ? fields.at(0).name : view.field;
  if (ImGui::BeginCombo("field", shown.c_str())) {
    for (const auto& f : fields) {
      if (ImGui::Selectable(f.name.c_str(), f.name == shown)) view.field = f.name;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s [%s]", f.description.c_str(), f.unit.c_str());
    }
    ImGui::EndCombo();
  }
  int mode = view.mode == render::ViewMode::slices3d;
  ImGui::RadioButton("2D slice", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("3D view", &mode, 1);
  view.mode = mode ? render::ViewMode::slices3d : render::ViewMode::slice2d;
  if (view.mode == render::ViewMode::slice2d) {
    ImGui::Text("normal");
    for (int a = 0; a < 3; ++a) {
      ImGui::SameLine();
      ImGui::RadioButton(a == 0 ? "x" : a == 1 ? "y" : "z", &view.axis, a);
    }
    const char* names[3] = {"x position", "y position", "z position"};
    ImGui::SliderFloat(names[view.axis], &view.position[view.axis], 0.0f, 1.0f, "%.3f");
    if (amr::hierarchy_of(s)) {
      ImGui::Checkbox("block outlines", &view.block_outlines);
      help_marker(
          "Each block of the adaptive mesh that the slice cuts, outlined in its level's colour: "
          "level 0 white, then cyan, green, yellow, orange, red, magenta, violet.");
    }
  } else {
    scene_panel(view, fields, c.ui_scale);
    ImGui::SliderAngle("yaw", &view.yaw, -180, 180);
    ImGui::SliderAngle("pitch", &view.pitch, -85, 85);
    ImGui::SliderFloat("distance", &view.distance, 0.6f, 8.0f, "%.2f");
    help_marker("Or drag in the view to turn the box, and use the wheel to come closer.");
  }
  // With the volume shown, colormap and log scale sit in its transfer-function editor.
  const bool in_editor = view.mode == render::ViewMode::slices3d && view.layers.volume;
  if (!in_editor && ImGui::BeginCombo("colormap", view.colormap.c_str())) {
    for (const auto& name : render::colormap_names())
      if (ImGui::Selectable(name.c_str(), name == view.colormap)) view.colormap = name;
    ImGui::EndCombo();
  }
  ImGui::Checkbox("auto range", &view.auto_range);
  help_marker(
      "On: the field's current min and max. Off: the fixed range below (compare runs, or keep "
      "colours from drifting as a field decays).");
  if (!view.auto_range) {
    ImGui::InputDouble("min", &view.lo, 0, 0, "%.6g");
    ImGui::InputDouble("max", &view.hi, 0, 0, "%.6g");
  } else if (ImGui::SmallButton("freeze current range")) {
    view.auto_range = false;
    view.lo = c.renderer.lo();
    view.hi = c.renderer.hi();
  }
  if (!in_editor) {
    ImGui::Checkbox("log scale", &view.log_scale);
    help_marker(
        "Colours by log(value); a bottom at or below 0 is raised to six decades under the top.");
    ImGui::SameLine();
  }
  ImGui::Checkbox("colour bar", &view.colorbar);
  if (s.grid().active_dims() == 1) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("a 1D run: the view plots the field along its axis (hover it for values)");
    ImGui::PopStyleColor();
  } else if (view.mode == render::ViewMode::slice2d)
    ImGui::TextDisabled("hover the slice for the value under the cursor");
}

}  // namespace fluxview::app
