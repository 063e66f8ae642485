#pragma once
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/GatheredSlices.hpp"
#include "render/GlResources.hpp"
#include "render/Mat4.hpp"
#include "render/SliceTexture.hpp"
#include "render/ViewSettings.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

// Draws a field as colormapped slices: one slice (2D view) or three orthogonal slices
// in the box seen by an orbit camera (3D view), with a colour bar carrying tick labels
// for min, middle and max. Needs a current GL 4.5 context.
class SliceRenderer {
 public:
  SliceRenderer();
  ~SliceRenderer();

  // Copies the slices `vs` shows from the solver into textures and resolves the range
  // (the field's min and max where vs.auto_range). Throws std::out_of_range for an
  // unknown field, naming the solver's fields.
  void update(const Solver& s, const ViewSettings& vs, UploadPath path = UploadPath::automatic);
  // The same from slices already on the host: what rank 0 of an MPI run gathered from
  // every rank (gather_slices with the same settings). Draws the same picture.
  void update(const GatheredSlices& g, const ViewSettings& vs);
  // Draws into the rectangle (x, y, w, h) of the bound framebuffer, GL pixels (y up).
  void draw(const ViewSettings& vs, int x, int y, int w, int h);

  struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
    bool contains(double px, double py) const {
      return px >= x && px < x + w && py >= y && py < y + h;
    }
  };
  // The colour range of the last update (after log-scale clamping) and where the last
  // draw put the slice (2D view) and the colour bar, in GL pixels.
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  Rect slice_rect() const { return slice_rect_; }
  Rect colorbar_rect() const { return bar_rect_; }
  const std::string& field_name() const { return field_; }
  const std::string& field_unit() const { return unit_; }

  // The cell under a pixel of the 2D view, its value read back from the texture.
  struct Probe {
    std::array<int, 3> cell{};
    std::array<double, 3> position{};
    double value = 0;
  };
  std::optional<Probe> probe(double px, double py) const;
  const SliceTexture& texture(int axis) const { return *slices_[axis]; }
  // The path the shown slices took in the last update (of the first shown one; they
  // differ only where one texture failed where another did not) and why the preferred
  // device paths were not used, for the GUI.
  const SliceTexture& shown_texture() const;

 private:
  // `values`: the slice drawn (nullptr for the colour bar, `ramp`).
  void draw_quad(const std::array<std::array<float, 3>, 4>& corners, const Mat4& mvp,
                 SliceTexture* values, bool ramp);
  void draw_rects(const std::vector<Rect>& rects, const Mat4& mvp, std::array<float, 4> tint);
  void draw_text(const std::string& text, float x, float y, float scale, const Mat4& mvp,
                 std::array<float, 4> tint);
  void draw_colorbar(int w, int h, const Rect& bar);
  GLuint colormap_texture(const std::string& name);
  void resolve_range(double field_min, double field_max, const ViewSettings& vs);

  std::unique_ptr<ShaderProgram> slice_program_, line_program_;
  GLuint vao_ = 0, vbo_ = 0;
  std::map<std::string, GLuint> colormaps_;
  std::array<std::unique_ptr<SliceTexture>, 3> slices_;
  std::array<bool, 3> shown_{false, false, false};
  std::array<int, 3> index_{0, 0, 0};
  Grid grid_;
  std::string field_, unit_;
  double lo_ = 0, hi_ = 1;
  bool log_ = false;
  int axis_2d_ = 2;
  Rect slice_rect_, bar_rect_;
};

}  // namespace fluxview::render
