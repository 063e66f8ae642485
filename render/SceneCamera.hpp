#pragma once
#include <algorithm>
#include <array>
#include <cmath>

#include "render/Mat4.hpp"
#include "render/ViewSettings.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview::render {

// The 3D view's orbit camera over the box of a grid. Box coordinates: the box centred at
// the origin, scaled so that its longest side is 1, z up; a cell of a field sits at
// texture coordinate (p + half) / (2 half). The picture of the box is centred in the
// viewport: after the perspective projection the box's eight corners are shifted so that
// their bounding rectangle's centre is the viewport's centre (a box seen from above
// would otherwise sit low, its near corner being drawn larger than its far one).
struct SceneCamera {
  std::array<float, 3> half{0.5f, 0.5f, 0.5f};  // half extents of the box
  std::array<float, 3> eye{0, 0, 0};
  Mat4 mvp, inverse_mvp;
  int width = 1, height = 1;  // the viewport in pixels
  float focal_px = 1;         // pixels per unit of size over distance at the centre

  static SceneCamera make(const Grid& grid, const ViewSettings& vs, int width, int height);
  // The box's longest side (m): the 3D view's unit of length.
  static double unit_length(const Grid& grid);
  // Viewport pixel (x right, y up) and window depth in [0, 1] of a point of the box.
  std::array<float, 3> project(std::array<float, 3> p) const;
  // Pixels a unit of length facing the camera takes at `p`: the radius of the picture of a
  // ball centred there (for a small ball), whatever the surface under it is slanted by.
  float pixels_per_unit(std::array<float, 3> p) const;
};

inline double SceneCamera::unit_length(const Grid& grid) {
  double longest = 0;
  for (int a = 0; a < 3; ++a) longest = std::max(longest, std::max(1, grid.n[a]) * grid.spacing[a]);
  return longest;
}

inline SceneCamera SceneCamera::make(const Grid& grid, const ViewSettings& vs, int width,
                                     int height) {
  SceneCamera c;
  c.width = std::max(1, width);
  c.height = std::max(1, height);
  const double longest = unit_length(grid);
  for (int a = 0; a < 3; ++a)
    c.half[a] = float(0.5 * std::max(1, grid.n[a]) * grid.spacing[a] / longest);
  const float d = vs.distance * 1.7320508f;
  c.eye = {d * std::cos(vs.pitch) * std::cos(vs.yaw), d * std::cos(vs.pitch) * std::sin(vs.yaw),
           d * std::sin(vs.pitch)};
  // Straight up or down the up vector would be parallel to the view: tilt it.
  const std::array<float, 3> up = std::abs(std::sin(vs.pitch)) > 0.999f
                                      ? std::array<float, 3>{1, 0, 0}
                                      : std::array<float, 3>{0, 0, 1};
  constexpr float fovy = 0.6f;
  c.focal_px = 0.5f * float(c.height) / std::tan(fovy / 2);
  Mat4 m = Mat4::perspective(fovy, float(c.width) / float(c.height), 0.05f, 50.0f) *
           Mat4::look_at(c.eye, {0, 0, 0}, up);
  float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
  for (int corner = 0; corner < 8; ++corner) {
    const std::array<float, 3> p{corner & 1 ? c.half[0] : -c.half[0],
                                 corner & 2 ? c.half[1] : -c.half[1],
                                 corner & 4 ? c.half[2] : -c.half[2]};
    const auto q = m.apply(p);
    if (q[3] <= 0) continue;
    x0 = std::min(x0, q[0] / q[3]);
    x1 = std::max(x1, q[0] / q[3]);
    y0 = std::min(y0, q[1] / q[3]);
    y1 = std::max(y1, q[1] / q[3]);
  }
  if (x1 > x0) {
    // Clip x' = x + s w shifts NDC by s.
    const float sx = -(x0 + x1) / 2, sy = -(y0 + y1) / 2;
    for (int col = 0; col < 4; ++col) {
      m.at(0, col) += sx * m.at(3, col);
      m.at(1, col) += sy * m.at(3, col);
    }
  }
  c.mvp = m;
  c.inverse_mvp = m.inverse();
  return c;
}

inline std::array<float, 3> SceneCamera::project(std::array<float, 3> p) const {
  const auto q = mvp.apply(p);
  const float w = q[3] != 0 ? q[3] : 1e-30f;
  return {(q[0] / w * 0.5f + 0.5f) * width, (q[1] / w * 0.5f + 0.5f) * height,
          q[2] / w * 0.5f + 0.5f};
}

inline float SceneCamera::pixels_per_unit(std::array<float, 3> p) const {
  // The camera looks at the origin: a length at p facing it is scaled by the focal length
  // over p's depth along the view axis (the centring shift of make() moves, not scales).
  const float d = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
  float depth = 0;
  for (int k = 0; k < 3; ++k) depth += (eye[k] - p[k]) * eye[k] / d;
  return focal_px / std::max(depth, 1e-6f);
}

}  // namespace fluxview::render
