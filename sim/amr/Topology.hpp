#pragma once
// The neighbour lists of the adaptive mesh, built on the host once per regrid from the
// forest's leaves: for every face of every local block, whether the cells beyond it come
// from a block of the same level (copy), a finer one (restriction), a coarser one
// (prolongation) or the domain's boundary, as ghost-filling tasks; and the coarse-fine
// faces where fluxes are corrected (refluxing).
#include <array>
#include <cstdint>
#include <vector>

#include "sim/amr/LeafKey.hpp"
#include "sim/amr/MeshTasks.hpp"

namespace fluxview::amr {

// A face of a local block with finer blocks beyond it: the coarse side's fluxes through
// it are replaced by the mean of the fine side's (Berger & Colella 1989).
struct RefluxTask {
  int coarse = 0;          // slot of the coarse block
  int axis = 0, side = 0;  // its face
  // The 2^(d-1) fine blocks across the face, by position along the face: bit 0 the half
  // along the first tangential active axis, bit 1 along the second.
  int fine[4] = {0, 0, 0, 0};
};

struct MeshShape {
  std::array<int, 3> trees{1, 1, 1};  // top-grid blocks per axis
  std::array<bool, 3> active{true, true, true};
  std::array<bool, 3> periodic{false, false, false};
  Boundary boundary[3][2] = {};  // of non-periodic faces of the domain
  int block = 16;
  int ghost = 2;
  int max_level = 0;
};

struct MeshPlan {
  // Ghost tasks in fill order: group 0 (copy, restrict, boundary), then one group per
  // level for prolongation; group g is tasks[group_begin[g], group_begin[g + 1]).
  std::vector<GhostTask> ghost_tasks;
  std::vector<int> group_begin;
  // Reflux tasks by face: those of face f = 2 axis + side are
  // reflux[reflux_begin[f], reflux_begin[f + 1]). A block has one face of each kind, so
  // no two tasks of a group touch the same cell, and the groups run in a fixed order.
  std::vector<RefluxTask> reflux;
  std::array<int, 7> reflux_begin{};
  int groups() const { return int(group_begin.size()) - 1; }
};

// Blocks: slots [0, local.size()) are `local`, then `ghosts` (other ranks' leaves).
// Throws std::logic_error if a face has no neighbour the forest should have given
// (unbalanced forest, or a ghost layer missing a block).
MeshPlan build_plan(const MeshShape& shape, const std::vector<LeafKey>& local,
                    const std::vector<LeafKey>& ghosts);

// Blocks along axis a at a level: trees[a] << level (1 on a reduced axis).
inline int blocks_along(const MeshShape& s, int axis, int level) {
  return s.active[axis] ? s.trees[axis] << level : 1;
}

}  // namespace fluxview::amr
