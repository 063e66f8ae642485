#pragma once
// Helpers of the tests that run the window as a script does: under xvfb-run (no display in
// CI), in a fresh folder of their own.
#include <filesystem>
#include <string>

#include "tests/support/RunFluxview.hpp"

namespace fluxview::test {

// Whether xvfb-run was found at configure time (XVFB_RUN); the tests skip without it.
inline bool have_xvfb() {
  const std::string xvfb = XVFB_RUN;
  return !xvfb.empty() && xvfb.find("NOTFOUND") == std::string::npos;
}

// `fluxview ARGS` on a virtual 1280x800 screen; its exit code and output.
inline CommandResult run_gui(const std::string& args) {
  return run_fluxview(args, std::string(XVFB_RUN) + " -a -s '-screen 0 1280x800x24' ");
}

// An empty folder of this name under the system's temporary folder.
inline std::filesystem::path fresh_folder(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace fluxview::test
