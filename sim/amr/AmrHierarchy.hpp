#pragma once
// What snapshot writers, Catalyst, views and tests see of a solver on the adaptive mesh:
// the blocks of this rank (level and position) and, per field, the values of their
// interiors. Everything else keeps seeing the solver through the Solver interface (its
// views resample the hierarchy onto a uniform grid; plane_view() gives finer slices).
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::amr {

struct BlockBox {
  int level = 0;
  std::array<int, 3> idx{0, 0, 0};  // position among the blocks of its level
};

class Hierarchy {
 public:
  virtual ~Hierarchy() = default;
  // Cells of a block along each axis (the block size, 1 along an inactive axis).
  virtual std::array<int, 3> block_cells() const = 0;
  // Cells of the top (level 0) grid, and the box lengths.
  virtual std::array<int, 3> top_cells() const = 0;
  virtual std::array<double, 3> lengths() const = 0;
  virtual int max_level() const = 0;
  // This rank's blocks in space-filling-curve order.
  virtual std::vector<BlockBox> local_blocks() const = 0;
  // One field (a name of Solver::fields()) of those blocks: the interiors one block after
  // another, x fastest, in the solver's precision; n = {cells per block, blocks, 1}.
  virtual HostArray block_values(const std::string& field) const = 0;
  // One field (a name of Solver::fields()) on the plane normal to `axis` (0, 1, 2) through
  // the cell at fraction `at` (0 to 1) of the box, on the uniform grid of plane_level():
  // each cell from the leaf block holding its centre, so a slice shows the finest blocks
  // where Solver::view() (coarser, to keep 3D grids small) cannot. n[axis] = 1; where the
  // solver computes; valid until the next call for the same axis. Under MPI every rank
  // gets the whole plane: collective.
  virtual FieldView plane_view(const std::string& field, int axis, double at) const = 0;
  // The level of plane_view()'s grid: the deepest whose largest plane has at most 4096^2
  // cells (so at least Solver::view()'s level).
  virtual int plane_level() const = 0;

  // For `fluxview bench`: with `on`, every phase of a step (stepping, ghost_filling,
  // flux_correction, regridding) waits for the device when it ends and its wall time is
  // added up from zero; the step is then slower than untimed. Off by default.
  virtual void time_phases(bool on) = 0;
  // Seconds per phase since time_phases(true), in the order above (this rank).
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
};

// The hierarchy of a solver made by the fv family with fv.mesh = amr; null otherwise.
const Hierarchy* hierarchy_of(const Solver& solver);
Hierarchy* hierarchy_of(Solver& solver);

}  // namespace fluxview::amr
