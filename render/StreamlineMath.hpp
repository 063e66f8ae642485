#pragma once
// Streamlines (or field lines) of a vector field stored as three cell-centred components,
// written once for the CUDA kernel and the host loop (Streamlines.hpp): seeds, trilinear
// sampling and RK4 steps along the normalised field.
//
// Positions are in index space: cell (i, j, k)'s centre at (i, j, k), the field defined
// on [-0.5, n - 0.5] per axis. A line follows dx/ds = w / |w| with w_a = u_a / h_a (the
// field in cells per unit time), so a step of length `step` moves `step` cells whatever
// the field's magnitude; it ends where it leaves the box, where the field vanishes or is
// not finite, or after its steps.
#include <cmath>
#include <cstdint>

#include "sim/core/FieldLayout.hpp"
#include "sim/core/HostDevice.hpp"

namespace fluxview::render {

template <class T>
struct VectorField {
  const T* c[3];
  FieldLayout layout;  // of all three components
  float inv_h[3];      // 1 / spacing
};

// How the seeds are placed and where the vertices go.
struct LineGeometry {
  int n[3];
  bool plane;       // seeds on a plane, else in a ball around a point
  int axis;         // plane: its normal
  float position;   // plane: its place along the normal, a fraction of the box
  int side;         // plane: seeds per side of the grid; point: seeds = side^2
  float centre[3];  // point: the ball's centre, fractions of the box
  float radius[3];  // point: the ball's radius along each axis, in cells
  int steps;        // RK4 steps each way
  float step;       // cells a step
  float half[3];    // box half extents (SceneCamera): vertices are in box coordinates
  FLUXVIEW_HD int seeds() const { return side * side; }
  FLUXVIEW_HD int vertices_per_line() const { return 2 * steps + 1; }
};

FLUXVIEW_HD void seed_position(const LineGeometry& g, int s, float p[3]) {
  if (g.plane) {
    const int b = g.axis == 0 ? 1 : 0, c = g.axis == 2 ? 1 : 2;
    p[g.axis] = g.position * g.n[g.axis] - 0.5f;
    p[b] = (float(s % g.side) + 0.5f) / float(g.side) * g.n[b] - 0.5f;
    p[c] = (float(s / g.side) + 0.5f) / float(g.side) * g.n[c] - 0.5f;
    return;
  }
  // A golden-angle spiral through the ball: even cover, no random numbers.
  const int count = g.side * g.side;
  const float u = (float(s) + 0.5f) / float(count);
  const float r = cbrtf(u);
  const float z = 1.0f - 2.0f * u;
  const float ring = sqrtf(fmaxf(0.0f, 1.0f - z * z));
  const float phi = 2.39996323f * float(s);
  const float dir[3] = {ring * cosf(phi), ring * sinf(phi), z};
  for (int a = 0; a < 3; ++a) p[a] = g.centre[a] * g.n[a] - 0.5f + r * g.radius[a] * dir[a];
}

template <class T>
FLUXVIEW_HD float component_at(const VectorField<T>& f, int c, const float p[3]) {
  int i0[3];
  float w[3];
  for (int a = 0; a < 3; ++a) {
    const int n = f.layout.n[a];
    const float x = fminf(fmaxf(p[a], 0.0f), float(n - 1));
    i0[a] = n > 1 ? (int(x) < n - 1 ? int(x) : n - 2) : 0;
    w[a] = n > 1 ? x - float(i0[a]) : 0.0f;
  }
  const int d[3] = {f.layout.n[0] > 1, f.layout.n[1] > 1, f.layout.n[2] > 1};
  float v = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const int cx = corner & 1, cy = (corner >> 1) & 1, cz = (corner >> 2) & 1;
    if ((cx && !d[0]) || (cy && !d[1]) || (cz && !d[2])) continue;
    const float wt = (cx ? w[0] : 1 - w[0]) * (cy ? w[1] : 1 - w[1]) * (cz ? w[2] : 1 - w[2]);
    v += wt * float(f.c[c][f.layout.index(i0[0] + cx, i0[1] + cy, i0[2] + cz)]);
  }
  return v;
}

// The unit direction of the field (in cells) at p; false where it vanishes or is not finite.
template <class T>
FLUXVIEW_HD bool line_direction(const VectorField<T>& f, const float p[3], float d[3]) {
  float len2 = 0;
  for (int a = 0; a < 3; ++a) {
    d[a] = f.layout.n[a] > 1 ? component_at(f, a, p) * f.inv_h[a] : 0.0f;
    len2 += d[a] * d[a];
  }
  if (!(len2 > 1e-30f) || !(len2 < 1e30f)) return false;
  const float inv = 1.0f / sqrtf(len2);
  for (int a = 0; a < 3; ++a) d[a] *= inv;
  return true;
}

FLUXVIEW_HD bool inside(const LineGeometry& g, const float p[3]) {
  for (int a = 0; a < 3; ++a)
    if (g.n[a] > 1 && (p[a] < -0.5f || p[a] > g.n[a] - 0.5f)) return false;
  return true;
}

// One classical RK4 step of length h along the normalised field; false where any stage
// finds no direction.
template <class T>
FLUXVIEW_HD bool rk4_step(const VectorField<T>& f, float p[3], float h) {
  float k1[3], k2[3], k3[3], k4[3], q[3];
  if (!line_direction(f, p, k1)) return false;
  for (int a = 0; a < 3; ++a) q[a] = p[a] + 0.5f * h * k1[a];
  if (!line_direction(f, q, k2)) return false;
  for (int a = 0; a < 3; ++a) q[a] = p[a] + 0.5f * h * k2[a];
  if (!line_direction(f, q, k3)) return false;
  for (int a = 0; a < 3; ++a) q[a] = p[a] + h * k3[a];
  if (!line_direction(f, q, k4)) return false;
  for (int a = 0; a < 3; ++a) p[a] += h / 6.0f * (k1[a] + 2 * k2[a] + 2 * k3[a] + k4[a]);
  return true;
}

FLUXVIEW_HD void store_vertex(const LineGeometry& g, const float p[3], float* out) {
  for (int a = 0; a < 3; ++a)
    out[a] = -g.half[a] + 2.0f * g.half[a] * (p[a] + 0.5f) / float(g.n[a] > 0 ? g.n[a] : 1);
  out[3] = 1.0f;
}

// Half of line s: forward (direction +1: the seed and the vertices after it) or backward
// (-1: the vertices before it, nearest the seed last). Vertices are 4 floats (x, y, z in
// box coordinates, 1); a line that ends early repeats its last vertex, so every line has
// the same count and draws as one strip.
template <class T>
FLUXVIEW_HD void integrate_half_line(const VectorField<T>& f, const LineGeometry& g, int s,
                                     int direction, float* line) {
  float p[3];
  seed_position(g, s, p);
  const int mid = g.steps;
  if (direction > 0) store_vertex(g, p, line + 4 * mid);
  bool alive = inside(g, p);
  float last[4];
  store_vertex(g, p, last);
  for (int k = 1; k <= g.steps; ++k) {
    if (alive) {
      alive = rk4_step(f, p, direction * g.step) && inside(g, p);
      if (alive) store_vertex(g, p, last);
    }
    float* v = line + 4 * (mid + direction * k);
    for (int i = 0; i < 4; ++i) v[i] = last[i];
  }
}

}  // namespace fluxview::render
