#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fluxview::app {

struct GuiOptions {
  std::string scenario;
  std::vector<std::string> overrides;
  std::optional<std::string> backend;
  std::string precision = "double";
  std::int64_t exit_after_frames = 0;  // 0: run until the window closes
  std::string screenshot;              // saved after the last frame
  std::string view_file;               // a saved view to start with (JSON)
  std::string upload_path = "auto";    // how device fields reach GL: auto | shared | map | host
  std::string steer;                   // a steering file applied as the run goes
  std::string probe_file;              // probes to start with (JSON), exported at a scripted end
  std::string tool;                    // a steering tool to start with, armed
};

// True where this build has the GUI and a display can be opened.
bool gui_available(std::string* why_not);
int gui_command(const GuiOptions& o);

}  // namespace fluxview::app
