#pragma once
// Headless frames under MPI (docs/parallel.md). Each rank holds a box of the grid, so
// a slice is cut into pieces: every rank copies the piece of each shown slice that its
// box cuts to the host (from the device only that piece crosses the bus), and rank 0
// assembles the whole slices, each piece placed by its rank's offset, for its
// SliceRenderer to draw exactly as a serial run does. No GL here: ranks other than 0
// never open a context.
#include <array>
#include <string>
#include <vector>

#include "render/BlockOutlines.hpp"
#include "render/ViewSettings.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

// The slices a view shows, of the whole field, on the host.
struct GatheredSlices {
  std::string field, unit;
  Grid grid;  // the whole grid, offset 0
  SlicePlan plan;
  // Each shown slice, n[u] x n[v] floats, u fastest (the texture axes of slice_axes);
  // empty on ranks other than 0 and for slices not shown.
  std::array<std::vector<float>, 3> values;
  // Each shown slice's texels (u, v) where it is finer than the grid (FinerPlanes: every
  // rank holds the whole plane, rank 0 takes its own); {0, 0}: the grid's cells.
  std::array<std::array<int, 2>, 3> size{};
  // The whole field's min and max (where the view's range is automatic): the same
  // numbers a serial run's field_stats gives, reduced over the ranks.
  double min = 0, max = 0;
  // On the adaptive mesh with vs.block_outlines: the outlines of every rank's blocks the
  // slice cuts (on rank 0).
  std::vector<BlockOutline> outlines;
};

// Collective: every rank calls it with the same settings, the solver at the same step.
// Throws std::out_of_range for an unknown field (on every rank alike).
GatheredSlices gather_slices(const Solver& s, const ViewSettings& vs);

}  // namespace fluxview::render
