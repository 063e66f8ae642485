#pragma once
#include <string_view>

namespace fluxview::render {

// The TrueType file of DejaVu Sans, embedded in the library at build time where
// fonts-dejavu-core was installed (render/CMakeLists.txt), or empty: the text of headless
// frames (TextRenderer) and the GUI's panels use it, so both read the same on a machine
// without fonts (a GPU node).
std::string_view embedded_ui_font();

}  // namespace fluxview::render
