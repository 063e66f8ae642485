#pragma once
// The value range of each brick of 8^3 cells, for the ray marcher's empty-space skipping
// (VolumeTexture): per brick the min and max of its own cells (a block reduction on the
// device, a loop on the host), then widened by its 26 neighbours, since a trilinear
// sample near a brick's face reads the next brick's cells too. Written once for both
// backends.
#include <cmath>
#include <cstdint>

#include "sim/core/HostDevice.hpp"

namespace fluxview::render {

inline constexpr int kBrickCells = 8;

FLUXVIEW_HD int bricks_along(int n) {
  return (n + kBrickCells - 1) / kBrickCells;
}

// A NaN or infinite cell makes its brick's range everything, so that the brick is never
// skipped and the bad cell shows (the shader paints it magenta).
FLUXVIEW_HD void include_value(float& lo, float& hi, float v) {
  if (!(v == v) || v - v != 0.0f) {
    lo = -INFINITY;
    hi = INFINITY;
    return;
  }
  lo = v < lo ? v : lo;
  hi = v > hi ? v : hi;
}

// The range of brick (bx, by, bz) widened by its neighbours: `raw` holds (min, max) of
// each brick's own cells, brick index bx + nb[0] * (by + nb[1] * bz).
FLUXVIEW_HD void dilated_range(const float* raw, const int nb[3], int bx, int by, int bz, float& lo,
                               float& hi) {
  lo = INFINITY;
  hi = -INFINITY;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = bx + dx, y = by + dy, z = bz + dz;
        if (x < 0 || y < 0 || z < 0 || x >= nb[0] || y >= nb[1] || z >= nb[2]) continue;
        const std::int64_t b = x + std::int64_t(nb[0]) * (y + std::int64_t(nb[1]) * z);
        lo = raw[2 * b] < lo ? raw[2 * b] : lo;
        hi = raw[2 * b + 1] > hi ? raw[2 * b + 1] : hi;
      }
}

}  // namespace fluxview::render
