#pragma once
#include <epoxy/gl.h>
#include <array>
#include <cstddef>

#include <memory>
#include <string>
#include <vector>

#include "render/GlResources.hpp"
#include "render/SceneCamera.hpp"
#include "render/SharedGlBuffer.hpp"
#include "render/SliceSpec.hpp"
#include "render/StreamlineMath.hpp"
#include "render/ViewSettings.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

// The geometry of a view's streamlines for a grid and box (seeds, steps, box extents).
LineGeometry line_geometry(const LineSettings& ls, const Grid& grid,
                           const std::array<float, 3>& half);

// Integrates every line of `g` through the vector field u (three views of one layout,
// location and precision) into `out`: g.seeds() lines of g.vertices_per_line() vertices,
// 4 floats each, on the field's side (device memory for a device field). One code path:
// StreamlineMath.hpp's functions in a CUDA kernel or an OpenMP loop.
void integrate_streamlines(const FieldView u[3], const std::array<double, 3>& spacing,
                           const LineGeometry& g, float* out);

// The 3D view's streamline layer: lines recomputed from the solver's state at every
// update ("live"), drawn as line strips with depth. On the CUDA backend the kernel
// writes the vertex buffer itself where shared memory can be had (SharedGlBuffer), else
// the vertices cross the bus once (a few MB at most). Needs a current GL context.
class StreamlineRenderer {
 public:
  StreamlineRenderer();
  ~StreamlineRenderer();
  StreamlineRenderer(const StreamlineRenderer&) = delete;
  StreamlineRenderer& operator=(const StreamlineRenderer&) = delete;

  // Throws std::out_of_range naming the solver's fields when one of ls.field is missing.
  void update(const Solver& s, const LineSettings& ls, const std::array<float, 3>& half,
              UploadPath path);
  void draw(const SceneCamera& cam, std::array<float, 4> colour);
  // The vertices of the last update (tests): lines() x vertices_per_line() x 4 floats.
  std::vector<float> read_vertices() const;
  int lines() const { return geometry_.seeds(); }
  int vertices_per_line() const { return geometry_.vertices_per_line(); }
  UploadPath last_path() const { return last_path_; }

 private:
  std::unique_ptr<ShaderProgram> program_;
  GLuint vao_ = 0, host_vbo_ = 0;
  std::size_t host_bytes_ = 0;
  SharedGlBuffer shared_;
  bool shared_failed_ = false;
  Buffer device_;  // where the kernel writes when there is no shared memory
  LineGeometry geometry_{};
  UploadPath last_path_ = UploadPath::host;
  bool has_lines_ = false;
};

}  // namespace fluxview::render
