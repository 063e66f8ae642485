#include "app/gui/Tooltips.hpp"

#include <imgui.h>

namespace fluxview::app {

void help_marker(const std::string& text) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

std::string tooltip_of(const ParamSpec& s) {
  std::string t = s.key + "\n" + s.description;
  if (!s.unit.empty()) t += "\nunit: " + s.unit;
  t += "\nallowed: " + s.allowed() + "\ndefault: " + format_value(s.default_value);
  t += s.live ? "\nlive: takes effect at the next step"
              : "\nfixed while the run goes: " + s.fixed_because;
  return t;
}

}  // namespace fluxview::app
