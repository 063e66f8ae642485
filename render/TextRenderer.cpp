#include "render/TextRenderer.hpp"
#include "render/EmbeddedFont.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

// Compiled from the headers Debian's libstb-dev ships, private to this file.
#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_easy_font.h>
#include <stb/stb_truetype.h>

namespace fluxview::render {

struct TextRenderer::Atlas {
  int size = 0, width = 0, height = 0;
  std::vector<stbtt_bakedchar> chars = std::vector<stbtt_bakedchar>(96);
  GLuint texture = 0;
  ~Atlas() { glDeleteTextures(1, &texture); }
};

TextRenderer::TextRenderer() {
  const std::string_view ttf = embedded_ui_font();
  font_.assign(reinterpret_cast<const unsigned char*>(ttf.data()),
               reinterpret_cast<const unsigned char*>(ttf.data()) + ttf.size());
  program_ = std::make_unique<ShaderProgram>("text.vert.glsl", "text.frag.glsl");
  solid_ = std::make_unique<ShaderProgram>("line.vert.glsl", "line.frag.glsl");
  glCreateVertexArrays(1, &vao_);
  glCreateBuffers(1, &vbo_);
  glVertexArrayVertexBuffer(vao_, 0, vbo_, 0, 4 * sizeof(float));
  glEnableVertexArrayAttrib(vao_, 0);
  glVertexArrayAttribFormat(vao_, 0, 2, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_, 0, 0);
  glEnableVertexArrayAttrib(vao_, 1);
  glVertexArrayAttribFormat(vao_, 1, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float));
  glVertexArrayAttribBinding(vao_, 1, 0);
}

TextRenderer::~TextRenderer() {
  atlases_.clear();
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

const char* TextRenderer::face() const {
  return font_.empty() ? "stb_easy_font" : "DejaVu Sans";
}

// The atlas for one pixel size, baked on first use (a few milliseconds).
TextRenderer::Atlas& TextRenderer::atlas(int px) {
  auto it = atlases_.find(px);
  if (it != atlases_.end()) return *it->second;
  auto a = std::make_unique<Atlas>();
  a->size = px;
  // The bake's height: glyphs a line of px at most, 95 of them.
  a->width = px <= 24 ? 256 : px <= 48 ? 512 : 1024;
  for (a->height = 64;; a->height *= 2) {
    std::vector<unsigned char> bitmap(std::size_t(a->width) * a->height);
    const int rows = stbtt_BakeFontBitmap(font_.data(), 0, float(px), bitmap.data(), a->width,
                                          a->height, 32, 95, a->chars.data());
    if (rows > 0 || a->height >= 4096) {
      glCreateTextures(GL_TEXTURE_2D, 1, &a->texture);
      glTextureStorage2D(a->texture, 1, GL_R8, a->width, a->height);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
      glTextureSubImage2D(a->texture, 0, 0, 0, a->width, a->height, GL_RED, GL_UNSIGNED_BYTE,
                          bitmap.data());
      glTextureParameteri(a->texture, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTextureParameteri(a->texture, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTextureParameteri(a->texture, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTextureParameteri(a->texture, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      break;
    }
  }
  return *atlases_.emplace(px, std::move(a)).first->second;
}

namespace {

// stb_easy_font's glyphs are 7 units from the top of a capital to the baseline.
constexpr float kEasyCap = 7.0f;

std::string printable(const std::string& text) {
  std::string s = text;
  for (char& c : s)
    if (c < 32 || c > 126) c = '?';
  return s;
}

}  // namespace

float TextRenderer::width(const std::string& text, float px) {
  const std::string s = printable(text);
  if (font_.empty()) {
    std::vector<char> buf(s.begin(), s.end());
    buf.push_back(0);
    return stb_easy_font_width(buf.data()) * px / kEasyCap;
  }
  // The font's size is its em square; a capital is about 0.73 of it in DejaVu Sans.
  const Atlas& a = atlas(int(std::lround(px / 0.73f)));
  float w = 0;
  for (char c : s) w += a.chars[std::size_t(c - 32)].xadvance;
  return w;
}

void TextRenderer::draw(const std::string& text, float x, float y, float px, const Mat4& pixels,
                        std::array<float, 4> colour) {
  const std::string s = printable(text);
  if (s.empty()) return;
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  std::vector<float> v;
  if (font_.empty()) {
    // Quads of unit squares, y down from the top of a capital: scaled and flipped.
    std::vector<char> buf(s.begin(), s.end());
    buf.push_back(0);
    std::vector<float> quads(s.size() * 270 * 4);
    const int n = stb_easy_font_print(0, 0, buf.data(), nullptr, quads.data(),
                                      int(quads.size() * sizeof(float)));
    const float k = px / kEasyCap;
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int q = 0; q < n; ++q)
      for (int i : order) {
        const float* p = &quads[std::size_t(q * 4 + i) * 4];  // x, y, z, colour
        v.insert(v.end(), {x + p[0] * k, y + (kEasyCap - p[1]) * k, 0.0f, 0.0f});
      }
    glNamedBufferData(vbo_, GLsizeiptr(v.size() * sizeof(float)), v.data(), GL_STREAM_DRAW);
    glUseProgram(solid_->id());
    glUniformMatrix4fv(solid_->uniform("mvp"), 1, GL_FALSE, pixels.m.data());
    glUniform4fv(solid_->uniform("tint"), 1, colour.data());
  } else {
    Atlas& a = atlas(int(std::lround(px / 0.73f)));
    float cx = 0, cy = 0;
    for (char c : s) {
      stbtt_aligned_quad q;
      stbtt_GetBakedQuad(a.chars.data(), a.width, a.height, c - 32, &cx, &cy, &q, 1);
      // stb's y runs down from the baseline; ours runs up.
      const float x0 = x + q.x0, x1 = x + q.x1, y0 = y - q.y1, y1 = y - q.y0;
      const float quad[6][4] = {{x0, y0, q.s0, q.t1}, {x1, y0, q.s1, q.t1}, {x1, y1, q.s1, q.t0},
                                {x0, y0, q.s0, q.t1}, {x1, y1, q.s1, q.t0}, {x0, y1, q.s0, q.t0}};
      for (const auto& p : quad) v.insert(v.end(), p, p + 4);
    }
    glNamedBufferData(vbo_, GLsizeiptr(v.size() * sizeof(float)), v.data(), GL_STREAM_DRAW);
    glUseProgram(program_->id());
    glUniformMatrix4fv(program_->uniform("mvp"), 1, GL_FALSE, pixels.m.data());
    glUniform4fv(program_->uniform("tint"), 1, colour.data());
    glUniform1i(program_->uniform("atlas"), 0);
    glBindTextureUnit(0, a.texture);
  }
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(v.size() / 4));
  glDisable(GL_BLEND);
}

}  // namespace fluxview::render
