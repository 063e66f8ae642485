#include "app/gui/LessonsPanel.hpp"

#include <imgui.h>
#include <vector>

#include <cstddef>
#include <exception>
#include <memory>
#include <string>

#include "app/gui/Lessons.hpp"
#include "app/gui/Tooltips.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

namespace {

bool is_builtin(const std::string& name) {
  for (const auto& b : builtin_scenarios())
    if (b.name == name) return true;
  return false;
}

}  // namespace

void LessonsPanel::draw(PanelContext& c) {
  ImGui::TextWrapped(
      "Ready-made runs for a class: each loads a scenario sized for a laptop, resets and "
      "chooses the view. Press space to start.");
  for (const Lesson& l : lessons()) {
    if (!is_builtin(l.scenario)) continue;
    if (ImGui::Button(l.label, ImVec2(-1, 0))) {
      try {
        c.session.choose_scenario(l.scenario, l.overrides);
        c.session.reset();
        c.view = render::ViewSettings{};
        c.view.mode = l.mode;
        c.view.block_outlines = l.block_outlines;
        c.needs_upload = true;
        shown_ = int(&l - lessons().data());
      } catch (const std::exception& e) {
        c.session.message = std::string(l.label) + ": " + e.what();
      }
    }
    help_marker(std::string(l.scenario) + "\n" + l.text);
  }
  // The lesson of the preset loaded last, and what to try with the steering tools.
  if (shown_ >= 0 && shown_ < int(lessons().size()) &&
      c.session.scenario().name == lessons()[std::size_t(shown_)].scenario) {
    const Lesson& l = lessons()[std::size_t(shown_)];
    ImGui::Separator();
    ImGui::TextWrapped("%s", l.text);
    ImGui::TextWrapped("%s", l.action);
  }
}

}  // namespace fluxview::app
