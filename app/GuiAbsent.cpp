// The GUI entry points in a build without GLFW, libepoxy or ImGui.
#include <iostream>
#include <string>

#include "app/GuiEntry.hpp"
#include "app/RunOptions.hpp"

namespace fluxview::app {

bool gui_available(std::string* why_not) {
  if (why_not)
    *why_not = "this fluxview was built without the GUI (GLFW, libepoxy or ImGui not found)";
  return false;
}

int gui_command(const GuiOptions&) {
  std::string why;
  gui_available(&why);
  std::cerr << "fluxview gui: " << why << "; use `fluxview run` for headless runs\n";
  return kExitBadInput;
}

}  // namespace fluxview::app
