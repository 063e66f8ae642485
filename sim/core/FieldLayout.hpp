#pragma once
#include <array>
#include <cstdint>

#include "sim/core/HostDevice.hpp"

namespace fluxview {

// Byte alignment of the first interior cell of every row: one 128-byte memory
// transaction on NVIDIA GPUs, two cache lines on x86, so a warp (or a vector loop)
// reading a row's interior starts on a boundary.
inline constexpr int kRowAlignBytes = 128;

// Structure-of-arrays layout of one scalar field with ghost zones.
// Element (i, j, k), interior indices in [0, n) and ghosts in [-ghost, 0) and
// [n, n + ghost), sits at origin + i + j * sy + k * sz. The row stride sy is padded so
// that (0, j, k) is 128-byte aligned for every j and k.
struct FieldLayout {
  std::array<int, 3> n{1, 1, 1};
  int ghost = 0;
  int elem_bytes = 8;
  std::int64_t sy = 1, sz = 1;  // strides in elements
  std::int64_t origin = 0;      // element offset of interior (0, 0, 0)
  std::int64_t size = 0;        // elements to allocate

  FLUXVIEW_HD std::int64_t index(int i, int j, int k) const { return origin + i + j * sy + k * sz; }
  // The storage index of the c-th interior cell counted x fastest, then y, then z: what
  // grid-stride loops over the interior (reductions, derived fields) need.
  FLUXVIEW_HD std::int64_t interior_index(std::int64_t c) const {
    const std::int64_t r = c / n[0];
    return index(int(c % n[0]), int(r % n[1]), int(r / n[1]));
  }
  std::int64_t bytes() const { return size * elem_bytes; }
  std::int64_t interior_cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }

  // Axes with a single cell get no ghost layers: a 2D or 1D problem wastes no memory,
  // and solvers drop the derivatives along such an axis (see ghost_along).
  static FieldLayout make(std::array<int, 3> n, int ghost, int elem_bytes) {
    FieldLayout l;
    l.n = n;
    l.ghost = ghost;
    l.elem_bytes = elem_bytes;
    const std::int64_t a = kRowAlignBytes / elem_bytes;  // alignment in elements
    auto up = [a](std::int64_t v) { return (v + a - 1) / a * a; };
    const int gx = n[0] > 1 ? ghost : 0;
    const int gy = n[1] > 1 ? ghost : 0;
    const int gz = n[2] > 1 ? ghost : 0;
    const std::int64_t lead = up(gx);  // room for the left ghosts, keeps (0,j,k) aligned
    l.sy = up(lead + n[0] + gx);
    l.sz = l.sy * (n[1] + 2 * gy);
    l.origin = lead + gy * l.sy + gz * l.sz;
    l.size = l.sz * (n[2] + 2 * gz);
    return l;
  }
  // Ghost layers allocated along an axis: 0 for a reduced (single-cell) axis.
  FLUXVIEW_HD int ghost_along(int axis) const { return n[axis] > 1 ? ghost : 0; }
};

}  // namespace fluxview
