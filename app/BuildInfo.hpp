#pragma once
// What this executable was built with, for `fluxview --version`, run.json and bug reports.
// The definitions are generated at configure time (cmake/BuildInfo.cpp.in).
#include <string>

namespace fluxview::app {

struct BuildInfo {
  std::string version;     // project version, and `git describe` where known
  std::string cuda;        // "nvcc 13.0.88, architectures 90", or "not built"
  std::string components;  // "GUI yes, headless EGL yes, Catalyst no, ..."
  std::string compiler;    // "GNU 12.2.0"
  std::string build_type;  // "Release"
};
const BuildInfo& build_info();

}  // namespace fluxview::app
