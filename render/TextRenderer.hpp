#pragma once
#include <epoxy/gl.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "render/GlResources.hpp"
#include "render/Mat4.hpp"

namespace fluxview::render {

// Text in the pictures fluxview draws without ImGui (headless frames, the colour bar's
// labels): DejaVu Sans, embedded at build time where the font was found (fonts-dejavu-
// core), rasterised by stb_truetype into an atlas per pixel size; otherwise
// stb_easy_font's quads. ASCII only. Needs a current GL context.
class TextRenderer {
 public:
  TextRenderer();
  ~TextRenderer();
  TextRenderer(const TextRenderer&) = delete;
  TextRenderer& operator=(const TextRenderer&) = delete;

  // Draws `text` with the left end of its baseline at (x, y), `px` pixels from the top
  // of a capital to the baseline and below, in the coordinates `pixels` maps (y up).
  // Blends over what is there.
  void draw(const std::string& text, float x, float y, float px, const Mat4& pixels,
            std::array<float, 4> colour);
  // The width `draw` takes for the text.
  float width(const std::string& text, float px);
  // "DejaVu Sans" or "stb_easy_font": what the text is drawn with.
  const char* face() const;

 private:
  struct Atlas;
  Atlas& atlas(int px);
  std::vector<unsigned char> font_;  // the TrueType file, empty without one
  std::map<int, std::unique_ptr<Atlas>> atlases_;
  std::unique_ptr<ShaderProgram> program_, solid_;
  GLuint vao_ = 0, vbo_ = 0;
};

}  // namespace fluxview::render
