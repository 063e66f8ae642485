#pragma once
// Helpers of the tests that run the window as a script does: on a virtual X server (no display in
// CI), in a fresh folder of their own.
#include <filesystem>
#include <string>

#include "tests/support/RunFluxview.hpp"

namespace fluxview::test {

// Whether Xvfb was found at configure time (XVFB); the tests skip without it.
inline bool have_xvfb() {
  const std::string xvfb = XVFB;
  return !xvfb.empty() && xvfb.find("NOTFOUND") == std::string::npos;
}

// The prefix that runs a command on a virtual X server of its own with one screen of SCREEN
// (e.g. "1600x1000x24"): tests/support/own-xvfb.sh, which, unlike `xvfb-run -a`, cannot hand
// two tests started at once the same display.
inline std::string on_own_display(const std::string& screen) {
  return "sh " + std::string(OWN_XVFB_SCRIPT) + " " + screen + " ";
}

// `fluxview ARGS` on a virtual 1280x800 screen; its exit code and output.
inline CommandResult run_gui(const std::string& args) {
  return run_fluxview(args, on_own_display("1280x800x24"));
}

// An empty folder of this name under the system's temporary folder.
inline std::filesystem::path fresh_folder(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace fluxview::test
