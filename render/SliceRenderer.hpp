#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/FinerPlanes.hpp"
#include "render/GatheredSlices.hpp"
#include "render/GlResources.hpp"
#include "render/Mat4.hpp"
#include "render/Rect.hpp"
#include "render/SceneCamera.hpp"
#include "render/SliceTexture.hpp"
#include "render/ViewSettings.hpp"
#include "render/VolumeRenderer.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview::render {

// Colormapped slices of a field: the textures of the slices a view shows (SliceTexture)
// and the quads that draw them, in a 2D rectangle or in the 3D view's box; also the
// colour bar's ramp, drawn by the same shader so that bar and slices never disagree.
// Needs a current GL 4.5 context.
class SliceRenderer {
 public:
  SliceRenderer();
  ~SliceRenderer();

  // Copies the slices `plan` shows from the field into textures. From the device all
  // shown slices at once: written by one batch of kernels with one host wait into shared
  // memory, or with one map of their textures.
  void update(const FieldView& v, const SlicePlan& plan, UploadPath path = UploadPath::automatic);
  // The same, where a given plane (n[axis] = 1; FinerPlanes) replaces the slice of `v`
  // normal to its axis; each slice then takes its own upload. `v` may be the plane itself
  // where it is the only slice shown (the 2D view).
  void update(const FieldView& v, const SlicePlan& plan, const FinerPlanes& planes,
              UploadPath path = UploadPath::automatic);
  // The same from slices already on the host: what rank 0 of an MPI run gathered.
  void update(const GatheredSlices& g);

  // The slice normal to `axis` filling `r` (coordinates of `pixels`).
  void draw_2d(int axis, const Rect& r, const Mat4& pixels, const ColourRange& range,
               GLuint colormap);
  // The shown slices at their places in the box seen by `cam`, depth tested.
  void draw_3d(const SceneCamera& cam, const ColourRange& range, GLuint colormap);
  // The colour bar's ramp, bottom to top, filling `r`.
  void draw_ramp(const Rect& r, const Mat4& pixels, GLuint colormap);

  const SliceTexture& texture(int axis) const { return *slices_[axis]; }
  const SlicePlan& plan() const { return plan_; }
  // The first shown slice's texture (they differ in path only where one texture failed
  // where another did not).
  const SliceTexture& shown_texture() const;

 private:
  // `values`: the slice drawn (nullptr for the colour bar, `ramp`).
  void draw_quad(const std::array<std::array<float, 3>, 4>& corners, const Mat4& mvp,
                 SliceTexture* values, const ColourRange& range, bool ramp);

  std::unique_ptr<ShaderProgram> program_;
  GLuint vao_ = 0, vbo_ = 0;
  std::array<std::unique_ptr<SliceTexture>, 3> slices_;
  SlicePlan plan_;
  std::array<int, 3> cells_{1, 1, 1};  // of the view grid, per axis (places the 3D slices)
};

}  // namespace fluxview::render
