#pragma once
// Regridding decisions and the remap of blocks from an old forest to a new one.
//
// Flags: a block is refined where its indicator exceeds `refine` and it may go deeper
// (below max_level, and inside the refinement region or below the level allowed outside
// it); it may be coarsened where the indicator is below `derefine` (or it is deeper than
// its place allows). p4est coarsens a family only when every sibling asks.
//
// Remap: every leaf of the new forest is one of
//   an old leaf (copy),
//   a descendant of an old leaf (prolongation from that ancestor, any number of levels:
//     balance can refine a block twice in one regrid),
//   the parent of 2^d old leaves (restriction).
// Both forests cover the same region on this rank (adapting moves nothing between ranks),
// so every new leaf finds its source here.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/amr/LeafKey.hpp"
#include "sim/amr/MeshTasks.hpp"

namespace fluxview::amr {

struct RefineCriteria {
  double refine = 0.8;    // Loehner threshold above which a block refines
  double derefine = 0.2;  // below which it may coarsen
  int max_level = 0;
  int min_level = 0;  // blocks never coarsen below it (and are refined to it)
  // Refinement region, fractions of the domain per axis: blocks overlapping it may reach
  // max_level; blocks outside it at most outside_level.
  std::array<double, 3> region_lo{0, 0, 0}, region_hi{1, 1, 1};
  int outside_level = 0;
};

// Whether a block overlaps the refinement region; `trees` are top-grid blocks per axis.
bool in_region(const LeafKey& k, const RefineCriteria& c, const std::array<int, 3>& trees,
               const std::array<bool, 3>& active);
// The deepest level a block at this place may have.
int level_limit(const LeafKey& k, const RefineCriteria& c, const std::array<int, 3>& trees,
                const std::array<bool, 3>& active);

// Flags (+1 refine, -1 coarsen, 0 keep) of the local leaves from their indicators.
// At most `max_new_blocks` blocks are added by refinement (each refined block adds
// 2^d - 1); where more ask, those with the largest indicators go first.
std::vector<std::int8_t> refine_flags(const std::vector<LeafKey>& leaves,
                                      const std::vector<double>& indicator, const RefineCriteria& c,
                                      const std::array<int, 3>& trees,
                                      const std::array<bool, 3>& active,
                                      std::int64_t max_new_blocks);

// Which of `values` (indicators of blocks that ask to refine, in curve order) may refine when
// only `allowed` of them may: a flag per value, set for the largest values, ties in the
// order given, so that every rank count decides alike (refine_flags on one rank, the
// adaptive solver over every rank's blocks gathered in rank order).
std::vector<char> strongest(const std::vector<double>& values, std::int64_t allowed);

// The tasks that make each new leaf's block from the old leaves' blocks (slots are leaf
// indices in each list). Throws std::logic_error if a new leaf has no source.
std::vector<RemapTask> remap_tasks(const std::vector<LeafKey>& old_leaves,
                                   const std::vector<LeafKey>& new_leaves,
                                   const std::array<bool, 3>& active);

}  // namespace fluxview::amr
