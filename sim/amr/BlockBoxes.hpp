#pragma once
// Block boxes (level and position) of every MPI rank in one place: what the snapshot's
// .vthb index, its split ancestors, Catalyst's vtkOverlappingAMR and the 2D view's block
// outlines need of the other ranks' blocks. Each box travels as four ints (level, x, y, z).
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"

namespace fluxview::amr {

// Every rank's boxes on rank 0, rank after rank, each rank's in its order; empty on the
// other ranks. Collective.
std::vector<BlockBox> gather_boxes_to_root(const std::vector<BlockBox>& mine);
// The same list on every rank. Collective.
std::vector<BlockBox> allgather_boxes(const std::vector<BlockBox>& mine);

}  // namespace fluxview::amr
