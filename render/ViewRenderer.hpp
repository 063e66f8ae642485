#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "render/BlockOutlines.hpp"
#include "render/DerivedFields.hpp"
#include "render/GatheredSlices.hpp"
#include "render/Rect.hpp"
#include "render/SceneCamera.hpp"
#include "render/SliceRenderer.hpp"
#include "render/Streamlines.hpp"
#include "render/TextRenderer.hpp"
#include "render/ViewSettings.hpp"
#include "render/VolumeRenderer.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

// What a picture says it shows, written along its top: the scenario, the field with its
// unit (known to the renderer), the simulated time and the step.
struct FrameTitle {
  std::string scenario;
  double time = 0;
  std::int64_t step = 0;
};

// Draws a view of a field: the 2D slice, or the 3D view composing slices, volume,
// isosurfaces, streamlines, the box and its axes with correct depth; a colour bar with
// round tick labels; a title. The 3D scene is drawn into a framebuffer of its own (so
// that the ray caster can read the depth of what was drawn before it) and copied into
// the target. Needs a current GL 4.5 context.
class ViewRenderer {
 public:
  ViewRenderer();
  ~ViewRenderer();

  // Copies what `vs` shows from the solver: slices into textures, the whole field into
  // the volume where the 3D view ray casts, streamlines; resolves the colour range.
  // `path` (--upload-path) applies to device fields; a host field takes the host path.
  // Throws std::out_of_range for an unknown field, naming the fields there are.
  void update(const Solver& s, const ViewSettings& vs, UploadPath path = UploadPath::automatic);
  // The same from slices already on the host (what rank 0 of an MPI run gathered):
  // slices only.
  void update(const GatheredSlices& g, const ViewSettings& vs);
  // Draws into the rectangle (x, y, w, h) of the bound framebuffer, GL pixels (y up);
  // `title`: written along the top (nullptr: none).
  void draw(const ViewSettings& vs, int x, int y, int w, int h, const FrameTitle* title = nullptr);

  // The colour range of the last update (after log-scale clamping) and where the last
  // draw put the slice (2D view), the 3D scene and the colour bar, in GL pixels.
  double lo() const { return range_.lo; }
  double hi() const { return range_.hi; }
  Rect slice_rect() const { return slice_rect_; }
  Rect scene_rect() const { return scene_rect_; }
  Rect colorbar_rect() const { return bar_rect_; }
  const std::string& field_name() const { return field_; }
  const std::string& field_unit() const { return unit_; }
  // The camera of the last 3D draw (its viewport is scene_rect()).
  const SceneCamera& camera() const { return camera_; }

  // The cell under a pixel of the 2D view, its value read back from the texture.
  struct Probe {
    std::array<int, 3> cell{};
    std::array<double, 3> position{};
    double value = 0;
  };
  std::optional<Probe> probe(double px, double py) const;
  // The point of the 3D view under a pixel, as fractions of the box: where the last draw
  // put something opaque there (a slice, a surface), else the middle of the ray's path
  // through the box; nothing where the ray misses the box.
  std::optional<std::array<float, 3>> pick(double px, double py) const;
  // The same where the last draw put something opaque under the pixel (a slice, an
  // isosurface, a streamline, the box's edges), else nothing: where a steering tool
  // applies, which must be a point the person sees, not a guess along the ray.
  std::optional<std::array<float, 3>> pick_surface(double px, double py) const;

  const SliceTexture& texture(int axis) const { return slices_->texture(axis); }
  const SliceTexture& shown_texture() const { return slices_->shown_texture(); }
  // The layers' state (nullptr until first used).
  const VolumeRenderer* volume() const { return volume_.get(); }
  const StreamlineRenderer* lines() const { return lines_.get(); }
  // Whether the volume's host path fills the storage buffer (the default: the storage
  // and interpolation of the shared-memory path, so that a CPU run and a CUDA run draw
  // the same picture) or the 3D texture (the mapped-texture path's, filtered by the
  // texture units).
  void set_volume_host_buffer(bool on) { volume_host_buffer_ = on; }

  // The fields a view can show of a solver: its own, then the derived ones.
  static std::vector<FieldInfo> viewable_fields(const Solver& s);

 private:
  struct SceneTarget;
  FieldView resolve_field(const Solver& s, const std::string& name, DerivedField& derived) const;
  void draw_scene(const ViewSettings& vs, const Rect& area, GLuint outer, int x, int y);
  void draw_box(const SceneCamera& cam);
  void draw_rects(const std::vector<Rect>& rects, const Mat4& mvp, std::array<float, 4> tint);
  void draw_colorbar(const Rect& bar, float text_px, const Mat4& pixels);
  // The block outlines of the last update over the 2D slice at `slice` (GL pixels).
  void draw_outlines(const Rect& slice, const Mat4& pixels, float width);
  GLuint colormap_texture(const std::string& name);
  // The pixel of the scene under (px, py) and the depth the last draw left there (1:
  // nothing); nothing where the pixel is outside the scene.
  struct ScenePixel {
    float nx = 0, ny = 0;  // normalised device coordinates of the pixel's centre
    float depth = 1;
  };
  std::optional<ScenePixel> scene_pixel(double px, double py) const;
  std::array<float, 3> unproject(float nx, float ny, float z) const;
  std::array<float, 3> box_fractions(const std::array<float, 3>& p) const;

  std::unique_ptr<SliceRenderer> slices_;
  std::unique_ptr<VolumeRenderer> volume_;
  std::unique_ptr<StreamlineRenderer> lines_;
  std::unique_ptr<TextRenderer> text_;
  std::unique_ptr<ShaderProgram> line_program_;
  std::unique_ptr<SceneTarget> target_;
  GLuint vao_ = 0, vbo_ = 0;
  std::vector<std::pair<std::string, GLuint>> colormaps_;
  DerivedField derived_, colour_derived_;
  Grid grid_;
  std::string field_, unit_;
  ColourRange range_, colour_range_;
  bool volume_host_buffer_ = true;
  bool drew_volume_ = false, drew_lines_ = false;
  std::string current_colormap_ = "viridis";
  int axis_2d_ = 2;
  Rect slice_rect_, scene_rect_, bar_rect_;
  SceneCamera camera_;
  std::vector<std::pair<std::string, std::array<float, 3>>> axis_labels_;
  std::vector<BlockOutline> outlines_;  // of the adaptive mesh, where the view asks
};

}  // namespace fluxview::render
