#pragma once
#include <array>
#include <cstdint>

#include "sim/core/Types.hpp"

namespace fluxview {

// The global grid of a run: interior cells (or points) per axis, the ghost width the
// solver's stencil needs, spacing and the coordinate of the first interior cell centre
// (or point). An axis with one cell is a reduced dimension (2D or 1D problems).
struct Grid {
  std::array<int, 3> n{1, 1, 1};
  int ghost = 0;
  std::array<double, 3> spacing{1, 1, 1};
  std::array<double, 3> origin{0, 0, 0};
  Centering centering = Centering::cell;
  // Under MPI decomposition (sim/core/Parallel.hpp) the global index of this process's
  // first cell; its fields' layouts say how many cells it holds. 0 in serial runs.
  std::array<int, 3> offset{0, 0, 0};

  std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }
  int active_dims() const { return (n[0] > 1) + (n[1] > 1) + (n[2] > 1); }
  // Coordinate of interior index i along axis a.
  double coord(int a, int i) const { return origin[a] + i * spacing[a]; }
};

}  // namespace fluxview
