#include "app/gui/OutputPanel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <map>
#include <vector>

#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "app/gui/Tooltips.hpp"
#include "fileio/AtomicFile.hpp"

namespace fluxview::app {

void OutputPanel::draw(PanelContext& c) {
  ImGui::InputText("screenshot", &screenshot_path);
  ImGui::SameLine();
  if (ImGui::Button("save##shot")) screenshot_requested = true;
  help_marker("The whole window as a PNG (key p).");
  ImGui::InputText("record to", &record_target_);
  ImGui::SameLine();
  if (ImGui::Button(recorder.recording() ? "stop##rec" : "record##rec"))
    status = recorder.recording() ? recorder.stop() : recorder.start(record_target_);
  help_marker(
      "The window for every frame in which the run stepped: into a film where the name ends "
      "in .mp4, .mkv, .mov or .avi, else into that folder as frame_000000.png, ...");
  ImGui::InputText("view file", &view_path_);
  if (ImGui::Button("save view")) {
    try {
      const std::string text = render::to_json(c.view).dump(2);
      write_file_atomic(view_path_, [&](std::ostream& out) { out << text << "\n"; });
      status = "view saved to " + view_path_;
    } catch (const std::exception& e) {
      status = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("load view")) {
    try {
      std::ifstream in(view_path_);
      if (!in) throw std::runtime_error("cannot read " + view_path_);
      c.view = render::view_settings_from_json(nlohmann::json::parse(in));
      status = "view loaded from " + view_path_;
    } catch (const std::exception& e) {
      status = e.what();
    }
  }
  ImGui::InputText("snapshot dir", &snapshot_dir_);
  ImGui::SameLine();
  if (ImGui::Button("write##snap")) {
    try {
      auto lock = c.session.access(-1);
      try {
        status = "wrote " + c.session.write_snapshot(snapshot_dir_);
      } catch (...) {
        c.session.release(lock);
        throw;
      }
      c.session.release(lock);
    } catch (const std::exception& e) {
      status = e.what();
    }
  }
  help_marker("Every field at this step as VTK ImageData (.vti) plus series.pvd, for ParaView.");
  if (!status.empty()) ImGui::TextWrapped("%s", status.c_str());
}

}  // namespace fluxview::app
