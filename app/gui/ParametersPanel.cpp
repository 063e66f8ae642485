#include "app/gui/ParametersPanel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <vector>

#include <cstdint>
#include <exception>

#include "app/gui/Tooltips.hpp"

namespace fluxview::app {

void ParametersPanel::draw(PanelContext& c) {
  ImGui::TextWrapped(
      "Keys marked ~ are live: an edit takes effect at the next step and is recorded in the "
      "journal. The others apply on Reset (hover one for why). * marks a value changed from "
      "the run's.");
  ParamSet& ps = c.session.pending.params;
  const ParamSet& active = c.session.scenario().params;
  std::string group;
  bool open = false;
  for (const ParamSpec& spec : ps.specs()) {
    const std::string prefix = spec.key.substr(0, spec.key.find('.'));
    if (prefix != group) {
      if (open) ImGui::TreePop();
      group = prefix;
      open = ImGui::TreeNodeEx(
          group.c_str(), group == "heat" || group == "grid" ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    }
    if (!open) continue;
    const bool changed = active.has(spec.key) &&
                         format_value(active.get(spec.key)) != format_value(ps.get(spec.key));
    const bool live = spec.live && c.session.pending.name == c.session.scenario().name &&
                      c.session.pending.solver == c.session.scenario().solver;
    const std::string label = spec.key.substr(prefix.size() + 1) + (live ? " ~" : "") +
                              (changed ? " *" : "") +
                              (spec.unit.empty() ? "" : " [" + spec.unit + "]") + "##" + spec.key;
    try {
      switch (spec.type) {
        case ParamType::integer: {
          std::int64_t v = ps.get_int(spec.key);
          if (ImGui::InputScalar(label.c_str(), ImGuiDataType_S64, &v, nullptr, nullptr, "%lld",
                                 ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::real: {
          double v = ps.get_real(spec.key);
          if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g",
                                 ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::boolean: {
          bool v = ps.get_bool(spec.key);
          if (ImGui::Checkbox(label.c_str(), &v)) ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::choice: {
          const std::string v = ps.get_string(spec.key);
          if (ImGui::BeginCombo(label.c_str(), v.c_str())) {
            for (const auto& choice : spec.choices)
              if (ImGui::Selectable(choice.c_str(), choice == v))
                ps.assign(spec.key, choice, "GUI");
            ImGui::EndCombo();
          }
          break;
        }
        case ParamType::text: {
          std::string v = ps.get_string(spec.key);
          if (ImGui::InputText(label.c_str(), &v, ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
      }
      help_marker(tooltip_of(spec));
      // A live key edited: into the running solver now (the run's value stays when it is
      // refused).
      if (live && active.has(spec.key) &&
          format_value(active.get(spec.key)) != format_value(ps.get(spec.key))) {
        const ParamValue was = active.get(spec.key);
        try {
          c.session.set_live(spec.key, ps.get(spec.key));
        } catch (const std::exception& e) {
          ps.assign(spec.key, was, "GUI");
          throw;
        }
      }
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  if (open) ImGui::TreePop();
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 120, 255));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("ok")) error_.clear();
  }
}

}  // namespace fluxview::app
