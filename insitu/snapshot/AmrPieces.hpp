#pragma once
// The datasets of a vtkOverlappingAMR snapshot, made from one rank's leaf blocks: the
// leaves and every ancestor of theirs whose leaves all lie on this rank. VTK's overlapping
// AMR wants each level to underlie the finer ones (its reader crashes on an empty level 0
// and blanks covered cells itself), so an ancestor carries the average of its children's
// cells: the conservative restriction for densities, a display value for the others
// (covered cells are hidden by the reader's blanking anyway).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
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

// The level and position of each piece, in the pieces' order (for the gathers of
// sim/amr/BlockBoxes.hpp).
std::vector<amr::BlockBox> piece_boxes(const std::vector<AmrPiece>& pieces);

// How VTK's overlapping AMR (files and Catalyst) lays the blocks out: the AMR box of a
// block is its cells at its level; along an axis the run does not have a dataset is flat.
// VTK's AMR has no 1D grids (its reader refuses X_LINE pieces), so a 1D run is given as a
// 2D strip as wide as the box along the next axis, refined along it like along the run's
// axis (2^level cells, each holding the line's value), so that VTK's blanking, which
// coarsens boxes by the refinement ratio along every axis, finds what a finer level covers.
struct AmrVtkGeometry {
  std::array<int, 3> block{1, 1, 1}, top{1, 1, 1};
  std::array<double, 3> length{1, 1, 1};
  int strip_axis = -1;  // the axis a 1D run is one cell thick along; -1 in 2D and 3D
  bool active(int a) const { return top[a] > 1; }
  // Axes the VTK file has: the active ones and a 1D run's strip axis.
  bool shown(int a) const { return active(a) || a == strip_axis; }
  // Cells of a piece at `level` along axis a (1 along an axis the file does not have).
  int cells(int a, int level) const {
    return active(a) ? block[a] : a == strip_axis ? 1 << level : 1;
  }
  double spacing(int a, int level) const {
    const double refined = double(std::int64_t(1) << level);
    return active(a)         ? length[a] / (double(top[a]) * refined)
           : a == strip_axis ? length[a] / refined
                             : length[a];
  }
  // Lower corner of the block at `idx` of `level` along axis a (0 along the others).
  double origin(int a, int level, const std::array<int, 3>& idx) const {
    return active(a) ? double(idx[std::size_t(a)]) * block[a] * spacing(a, level) : 0.0;
  }
  void choose_strip_axis() {
    int dims = 0;
    for (int a = 0; a < 3; ++a) dims += active(a);
    if (dims != 1) return;
    for (int a = 0; a < 3 && strip_axis < 0; ++a)
      if (!active(a)) strip_axis = a;
  }
};

AmrVtkGeometry amr_vtk_geometry(const amr::Hierarchy& h);

// The pieces of this rank's hierarchy with the fields `names`, as VTK takes them: leaves
// and ancestors (amr_pieces), a 1D run's blocks spread across its strip.
std::vector<AmrPiece> amr_vtk_pieces(const amr::Hierarchy& h, const std::vector<std::string>& names,
                                     const AmrVtkGeometry& g);

}  // namespace fluxview
