#include "app/gui/CatalystPanel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <cstddef>
#include <vector>

#include <algorithm>
#include <filesystem>

#include "app/gui/Tooltips.hpp"

namespace fluxview::app {

void CatalystPanel::draw(PanelContext&) {
  if (!CatalystControl::available()) {
    ImGui::TextDisabled("this build has no Catalyst (ParaView 5.11 was not found)");
    return;
  }
  ImGui::InputText("script", &script_);
  ImGui::SameLine();
  if (ImGui::Button("load##catalyst")) {
    const std::string error = catalyst_.load(script_);
    message_ = error.empty() ? "loaded " + script_ : error;
  }
  help_marker(
      "A ParaView Catalyst pipeline (Python): the examples in assets/catalyst/ or one saved "
      "with ParaView's File > Save Catalyst State. It runs inside the simulation "
      "(docs/insitu.md).");
  int every = int(catalyst_.every);
  if (ImGui::InputInt("every N steps", &every)) catalyst_.every = std::max(1, every);
  ImGui::InputText("output dir", &catalyst_.output_dir);
  help_marker(
      "Where the example scripts write (FLUXVIEW_CATALYST_OUTPUT); set it before the first load.");
  if (ImGui::BeginCombo("script output", catalyst_log_name(catalyst_.log))) {
    for (CatalystLog l : {CatalystLog::normal, CatalystLog::quiet, CatalystLog::verbose})
      if (ImGui::Selectable(catalyst_log_name(l), l == catalyst_.log)) catalyst_.log = l;
    ImGui::EndCombo();
  }
  help_marker(
      "normal: what the scripts print; quiet: their errors only; verbose: also ParaView's "
      "warnings (--catalyst-log of fluxview run). Set it before the first load.");
  const auto scripts = catalyst_.status();
  if (!scripts.empty() &&
      ImGui::BeginTable("catalyst", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("on");
    ImGui::TableSetupColumn("script");
    ImGui::TableSetupColumn("runs");
    ImGui::TableSetupColumn("last step");
    ImGui::TableSetupColumn("last ms");
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < scripts.size(); ++i) {
      const auto& s = scripts[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      bool on = s.enabled && !s.failed;
      ImGui::BeginDisabled(s.failed);
      if (ImGui::Checkbox(("##on" + std::to_string(i)).c_str(), &on)) catalyst_.set_enabled(i, on);
      ImGui::EndDisabled();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::filesystem::path(s.script).filename().string().c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.script.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(s.runs));
      ImGui::TableNextColumn();
      if (s.last_step >= 0)
        ImGui::Text("%lld", static_cast<long long>(s.last_step));
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", s.last_seconds * 1e3);
    }
    ImGui::EndTable();
    for (const auto& s : scripts)
      if (!s.last_error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s failed and was dropped:\n%s",
                           std::filesystem::path(s.script).filename().string().c_str(),
                           s.last_error.c_str());
  }
  if (!message_.empty()) ImGui::TextWrapped("%s", message_.c_str());
}

}  // namespace fluxview::app
