#pragma once
// The outlines of the adaptive mesh's blocks in the 2D view: which blocks the slice plane
// cuts, as rectangles in fractions of the slice, with their level (the view colours each
// level its own way). Pure geometry, from the block list (Hierarchy::local_blocks, or all
// ranks' blocks gathered to rank 0 under MPI).
#include <array>
#include <vector>

#include "render/ViewSettings.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview::render {

struct BlockOutline {
  int level = 0;
  float u0 = 0, v0 = 0, u1 = 1, v1 = 1;  // along the slice's axes (slice_axes), fractions
};

// The blocks cut by the plane normal to `axis` through the centre of view-grid cell
// `index` of `view_n` cells along that axis (every block where the run has no such axis),
// sorted by level so that finer outlines are drawn over coarser ones. `block_cells` and
// `top_cells` as Hierarchy gives them (1 along an axis the run does not have).
std::vector<BlockOutline> block_outlines(const std::vector<amr::BlockBox>& blocks,
                                         const std::array<int, 3>& block_cells,
                                         const std::array<int, 3>& top_cells, int axis, int index,
                                         int view_n);

// What the 2D view of `vs` outlines of a solver on the adaptive mesh whose blocks are
// `blocks` (all of them), its view grid `grid`: nothing unless vs.block_outlines and the
// 2D view.
std::vector<BlockOutline> view_block_outlines(const amr::Hierarchy& h, const Grid& grid,
                                              const ViewSettings& vs,
                                              const std::vector<amr::BlockBox>& blocks);

// The colour of a level's outlines (RGBA), distinct for the first eight levels and cycling
// after: level 0 white, then cyan, green, yellow, orange, red, magenta, violet.
std::array<float, 4> level_colour(int level);

}  // namespace fluxview::render
