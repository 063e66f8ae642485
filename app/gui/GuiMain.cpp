// gui_available() and gui_command() of app/GuiEntry.hpp in a build with GLFW and ImGui.
#include <GLFW/glfw3.h>
#include <exception>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/GuiEntry.hpp"
#include "app/RunOptions.hpp"
#include "app/gui/GuiApp.hpp"
#include "app/gui/Probes.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Journal.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

bool gui_available(std::string* why_not) {
  // The display the user's session names (user-facing, docs/gui.md "Starting it").
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
    if (why_not) *why_not = "no display: DISPLAY and WAYLAND_DISPLAY are unset";
    return false;
  }
  if (!glfwInit()) {
    if (why_not) *why_not = "GLFW could not open the display";
    return false;
  }
  // GLFW stays initialised: the window opens on this connection (GuiApp's glfwInit does
  // nothing then, and its destructor ends it). Closing it here would leave the display
  // without a client for a moment, and an X server resets when its last client goes (Xvfb
  // under xvfb-run does): a connection made during the reset is refused ("X11: Failed to
  // open display"; seen in CI, and in 9 of 60 windows started four at a time on two cores).
  return true;
}

namespace {

// A view saved by `save view`; ConfigError naming the file and what is wrong.
render::ViewSettings read_view_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("--view-file " + path + ": cannot be read");
  try {
    return render::view_settings_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw ConfigError("--view-file " + path + ": " + e.what());
  }
}

// Probes saved by the Probes panel; ConfigError naming the file and what is wrong.
nlohmann::json read_probe_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("--probe-file " + path + ": cannot be read");
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    Probes().load_json(j);  // checked before a window opens
    return j;
  } catch (const std::exception& e) {
    throw ConfigError("--probe-file " + path + ": " + e.what());
  }
}

}  // namespace

int gui_command(const GuiOptions& o) {
  std::string why;
  if (!gui_available(&why)) {
    std::cerr << "fluxview gui: " << why << "; use `fluxview run` for headless runs\n";
    return kExitFailure;
  }
  // Everything about the run is checked before a window opens.
  const Scenario sc = load_scenario(o.scenario, o.overrides);
  const BackendKind backend = choose_backend(o.backend, false);
  const Precision precision = choose_precision(o.precision);
  const std::optional<render::ViewSettings> view =
      o.view_file.empty() ? std::nullopt : std::optional(read_view_file(o.view_file));
  const std::optional<Journal> steering =
      o.steer.empty() ? std::nullopt : std::optional(read_journal_file(o.steer));
  const std::optional<nlohmann::json> probes =
      o.probe_file.empty() ? std::nullopt : std::optional(read_probe_file(o.probe_file));
  GuiApp app(sc, backend, precision);
  if (view) app.set_view(*view);
  if (probes) app.set_probes(*probes);
  app.set_upload_path(render::parse_upload_path(o.upload_path));  // checked by the command line
  if (steering) app.steer_with(*steering, "--steer " + o.steer);
  // The tools are the solver's, known once it is built: checked here, before a frame.
  if (!o.tool.empty()) app.arm_tool(o.tool);
  const int code = app.run(o.exit_after_frames, o.screenshot);
  // What was applied (a steering file's entries, strokes, live changes), for a script: to
  // compare with `fluxview run --steer` of the same file, or to see where a click went.
  if (steering || !app.journal().empty())
    std::cout << "fluxview: journal of this session (" << app.journal().entries.size()
              << " entries):\n"
              << app.journal().to_lines();
  return code;
}

}  // namespace fluxview::app
