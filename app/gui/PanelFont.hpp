#pragma once

namespace fluxview::app {

// The panels' font: DejaVu Sans (render/EmbeddedFont.hpp) rasterised at the pixel size of
// the UI scale, so text is sharp at every scale (ImGui's built-in font is a 13-pixel
// bitmap that FontGlobalScale can only stretch); without an embedded font, that bitmap
// stretched as before.
class PanelFont {
 public:
  static constexpr float kPixels = 15.0f;  // at UI scale 1

  // Before ImGui's NewFrame of each frame (a font atlas cannot change within a frame):
  // builds the atlas when the pixel size changes, and its GL texture once the OpenGL
  // backend has made its own (after the first frame).
  void prepare(float ui_scale);
  // "DejaVu Sans 15 px" or "ImGui's built-in bitmap font x 1.50".
  const char* description() const { return description_; }

 private:
  int pixels_ = 0;  // of the atlas built, 0 before the first
  char description_[64] = "";
};

}  // namespace fluxview::app
