#pragma once
#include <epoxy/gl.h>
#include <vector>

#include <memory>
#include <string>

#include "render/GlResources.hpp"
#include "render/SceneCamera.hpp"
#include "render/ViewSettings.hpp"
#include "render/VolumeTexture.hpp"

namespace fluxview::render {

// The range values are coloured over: linear or log between lo and hi.
struct ColourRange {
  double lo = 0, hi = 1;
  bool log = false;
};
// The field's min and max where the view's range is automatic, else the view's own,
// widened where it is empty and clamped for a log scale.
ColourRange resolve_colour_range(double field_min, double field_max, bool automatic, double lo,
                                 double hi, bool log_scale);

// The 3D view's ray-cast layer (shaders/volume.frag.glsl): the volume through the transfer
// function and the isosurfaces, in one pass over the pixels, composed with the opaque
// geometry drawn before it by reading that geometry's depth.
//
// Isosurfaces are ray cast in this pass rather than extracted by marching cubes: the pass
// already samples the field along every ray, so a surface costs a sign test a sample and
// a few refining samples where a ray crosses it, with no triangle buffer to build,
// store or refresh when the field or the iso-value changes (marching cubes on CUDA would
// rebuild and re-register a vertex buffer each time the solver steps, and emits
// millions of triangles at 512^3). Surfaces are exact to the trilinear field, and a
// second field colours them for the price of one more sample per hit.
class VolumeRenderer {
 public:
  VolumeRenderer();
  ~VolumeRenderer();

  // Refreshes the values the pass reads: the field, and the field colouring the
  // isosurfaces (nullptr: none). `host_into_buffer`: see VolumeTexture::update.
  void update(const FieldView& field, const FieldView* colour_field, UploadPath path,
              bool host_into_buffer);
  // Draws into the bound framebuffer (the scene's, sized as the camera's viewport),
  // reading the opaque geometry's depth from `scene_depth`. `colour` is the second
  // field's range.
  void draw(const SceneCamera& cam, const ViewSettings& vs, const ColourRange& range,
            const ColourRange& colour, GLuint scene_depth);

  const VolumeTexture& values() const { return *field_; }
  // Whether the last draw skipped empty bricks (Skipping::automatic decides per frame).
  bool skipped() const { return skipped_; }
  // The iso-values the last draw used (the view's, or the middle of the range).
  const std::vector<double>& iso_values() const { return iso_values_; }

 private:
  ShaderProgram& program(VolumeStorage s);
  void update_transfer(const ViewSettings& vs);

  std::unique_ptr<ShaderProgram> texture_program_, buffer_program_;
  std::unique_ptr<VolumeTexture> field_, colour_;
  bool has_colour_ = false;
  GLuint vao_ = 0, transfer_ = 0, max_opacity_ = 0, colormap_ = 0;
  std::string transfer_key_;
  bool any_transparent_ = true;
  bool skipped_ = false;
  std::vector<double> iso_values_;
};

}  // namespace fluxview::render
