#pragma once
// The datasets of a vtkOverlappingAMR snapshot, made from one rank's leaf blocks: the
// leaves and every ancestor of theirs whose leaves all lie on this rank. VTK's overlapping
// AMR wants each level to underlie the finer ones (its reader crashes on an empty level 0
// and blanks covered cells itself), so an ancestor carries the average of its children's
// cells: the conservative restriction for densities, a display value for the others
// (covered cells are hidden by the reader's blanking anyway).
#include <array>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview {

struct AmrPiece {
  int level = 0;
  std::array<int, 3> idx{0, 0, 0};  // position among the blocks of its level
  bool leaf = true;
  std::vector<HostArray> values;  // per field, one block's cells, x fastest
};

// `fields`: per field, the leaves' interiors one block after another (as
// Hierarchy::block_values returns them); `block`: cells of a block per axis (1 along an
// inactive axis). Returns the pieces sorted by level, then z, y, x of their position.
std::vector<AmrPiece> amr_pieces(const std::vector<amr::BlockBox>& leaves,
                                 const std::vector<HostArray>& fields, std::array<int, 3> block);

}  // namespace fluxview
