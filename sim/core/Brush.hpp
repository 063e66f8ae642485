#pragma once
// Where a tool acts (sim/core/Steering.hpp): a ball of `radius` about a centre, measured
// only along the axes that have more than one cell (a disc in a 2D run, a segment in 1D),
// across a periodic boundary by the nearest image. The distance is worked out per cell by
// the tools' loops on either backend, so it is a FLUXVIEW_HD function of plain values.
#include <array>
#include <cmath>
#include <cstdint>

#include "sim/core/Exec.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/HostDevice.hpp"

namespace fluxview {

struct Brush {
  double centre[3] = {0, 0, 0};
  double radius = 1;
  double reach = 1;  // cells farther than this from the centre are left alone
  // Coordinate of local index i along axis a: origin[a] + (offset[a] + i) * spacing[a].
  double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
  int offset[3] = {0, 0, 0};
  double period[3] = {0, 0, 0};  // the box length along a periodic axis, else 0
  bool active[3] = {true, true, true};

  // The signed distance along axis a of local index `idx` from the centre (the nearest
  // image along a periodic axis; 0 along a reduced one).
  FLUXVIEW_HD double delta(int a, int idx) const {
    if (!active[a]) return 0;
    double d = origin[a] + double(offset[a] + idx) * spacing[a] - centre[a];
    if (period[a] > 0) d -= period[a] * floor(d / period[a] + 0.5);
    return d;
  }
  // Squared distance of local cell (i, j, k) from the centre.
  FLUXVIEW_HD double distance2(int i, int j, int k) const {
    const double dx = delta(0, i), dy = delta(1, j), dz = delta(2, k);
    return dx * dx + dy * dy + dz * dz;
  }
  FLUXVIEW_HD bool inside(int i, int j, int k) const { return distance2(i, j, k) <= reach * reach; }
  // The volume a cell stands for: the product of the spacings (of a reduced axis too: its
  // one cell spans the box along it, as the solvers' totals count it).
  FLUXVIEW_HD double cell_volume() const { return spacing[0] * spacing[1] * spacing[2]; }
};

// A brush over the grid of a solver: centre and radius in the box's coordinates, reach in
// radii (1 for a sharp ball, 3 for a Gaussian's tail), periodic axes wrapping.
inline Brush make_brush(const Grid& g, const std::array<double, 3>& centre, double radius,
                        double reach_in_radii, const std::array<bool, 3>& periodic) {
  Brush b;
  b.radius = radius;
  b.reach = radius * reach_in_radii;
  for (int a = 0; a < 3; ++a) {
    b.centre[a] = centre[a];
    b.origin[a] = g.origin[a];
    b.spacing[a] = g.spacing[a];
    b.offset[a] = g.offset[a];
    b.active[a] = g.n[a] > 1;
    b.period[a] = periodic[a] && g.n[a] > 1 ? g.spacing[a] * g.n[a] : 0;
  }
  return b;
}

// The local interior cells a brush can reach: its bounding box clamped to this rank's
// cells, or the whole axis where the ball wraps around a periodic boundary. Empty when
// the ball misses this rank's box.
inline exec::Box brush_box(const Brush& b, const std::array<int, 3>& local_n) {
  exec::Box box{{0, 0, 0}, local_n};
  for (int a = 0; a < 3; ++a) {
    if (!b.active[a]) continue;
    const double first = b.origin[a] + b.offset[a] * b.spacing[a];  // local cell 0
    double lo = (b.centre[a] - b.reach - first) / b.spacing[a];
    double hi = (b.centre[a] + b.reach - first) / b.spacing[a];
    if (b.period[a] > 0) {
      if (2 * b.reach >= b.period[a]) continue;  // the ball covers the axis
      // The image of the centre nearest the local box's middle.
      const double mid = first + 0.5 * (local_n[a] - 1) * b.spacing[a];
      const double shift = b.period[a] * std::floor((mid - b.centre[a]) / b.period[a] + 0.5);
      lo += shift / b.spacing[a];
      hi += shift / b.spacing[a];
      // Wraps past this rank's box on either side: keep the whole axis, the distance test
      // picks the cells.
      if (lo < 0 || hi > local_n[a] - 1) continue;
    }
    box.lo[a] = int(std::fmax(0.0, std::ceil(lo)));
    box.hi[a] = int(std::fmin(double(local_n[a]), std::floor(hi) + 1));
    if (box.hi[a] < box.lo[a]) box.hi[a] = box.lo[a];
  }
  return box;
}

}  // namespace fluxview
