#include "app/gui/PanelFont.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cmath>
#include <cstdio>
#include <string_view>

#include "render/EmbeddedFont.hpp"

namespace fluxview::app {

void PanelFont::prepare(float ui_scale) {
  ImGuiIO& io = ImGui::GetIO();
  const std::string_view ttf = render::embedded_ui_font();
  if (ttf.empty()) {
    io.FontGlobalScale = ui_scale;
    std::snprintf(description_, sizeof description_, "ImGui's built-in bitmap font x %.2f",
                  double(ui_scale));
    return;
  }
  io.FontGlobalScale = 1.0f;
  const int pixels = int(std::lround(kPixels * ui_scale));
  if (pixels == pixels_) return;
  io.Fonts->Clear();
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the bytes live in the library for the whole run
  std::snprintf(config.Name, sizeof config.Name, "DejaVu Sans %d px", pixels);
  // ImGui's signature takes a mutable pointer; with FontDataOwnedByAtlas false it only reads.
  io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(ttf.data()), int(ttf.size()), float(pixels),
                                 &config);
  // The backend makes the atlas's texture with its other objects in its first NewFrame;
  // afterwards a new atlas needs a new texture.
  if (pixels_ != 0) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  pixels_ = pixels;
  std::snprintf(description_, sizeof description_, "DejaVu Sans %d px", pixels);
}

}  // namespace fluxview::app
