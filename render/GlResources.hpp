#pragma once
#include <epoxy/gl.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace fluxview::render {

// A linked GLSL program built from the shaders embedded from shaders/*.glsl.
class ShaderProgram {
 public:
  // Names as in shaders/, e.g. "slice.vert.glsl"; `defines` ("#define X\n" lines) are
  // put after each shader's #version line. Throws std::runtime_error with the compiler's log.
  ShaderProgram(const std::string& vertex_file, const std::string& fragment_file,
                const std::string& defines = "");
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  GLuint id() const { return id_; }
  GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  GLuint id_ = 0;
};

// The text of an embedded asset ("shaders/slice.frag.glsl", "assets/colormaps/viridis.csv").
std::string_view embedded_asset(const std::string& path);

// Colormaps available to the views, in menu order.
const std::vector<std::string>& colormap_names();
// The 256 RGB entries of a colormap (0..255 each, low values first). Throws
// std::invalid_argument naming the allowed maps for an unknown name.
std::vector<std::array<unsigned char, 3>> colormap_table(const std::string& name);
// A 256x1 RGBA8 texture of a colormap, linear filtering, clamped.
GLuint make_colormap_texture(const std::string& name);

// An offscreen colour + depth target of a fixed size, read back as an Image.
class Framebuffer {
 public:
  Framebuffer(int width, int height);
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;
  void bind() const;
  GLuint id() const { return fbo_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GLuint fbo_ = 0, colour_ = 0, depth_ = 0;
  int width_, height_;
};

struct Image;
// Reads the bound read framebuffer's [0, w) x [0, h) into an Image (rows top first).
Image read_pixels(int width, int height);

}  // namespace fluxview::render
