#pragma once
// The forest of the adaptive mesh: which blocks exist, on which rank, and who borders
// whom. It is p4est (2D quadtrees) or p8est (3D octrees) over a brick of trees, one tree
// per top-grid block, behind this small class; nothing else in fluxview includes a p4est
// header. A 1D problem uses a 2D forest of which only the row of leaves touching y = 0
// carries blocks (p4est has no 1D forest): refining such a leaf splits it along x, and the
// leaves above the row, which balance may create, hold nothing.
//
// Leaves are named by LeafKey (level and block position per physical axis), so the rest of
// the mesh code is written once for every dimension. The forest is 2:1 balanced across
// faces after every change: the finite-volume stencil is a cross (each face flux reads
// cells along its normal only), so only face neighbours ever exchange data.
//
// Every call that changes the forest is collective over the ranks (MPI_COMM_WORLD); in a
// run not started by mpirun MPI is started here as a singleton, since Debian's p4est is
// built with MPI.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/amr/LeafKey.hpp"

namespace fluxview::amr {

class ForestImpl;

class Forest {
 public:
  // A leaf of another rank that shares a face with one of ours.
  struct Ghost {
    LeafKey key;
    int owner = 0;
  };
  // The leaves a rank sends to another for that rank's ghosts, in the order that rank
  // lists those ghosts (both sort by the space-filling curve).
  struct Mirror {
    int rank = 0;
    std::vector<int> leaves;  // indices into leaves()
  };

  // A brick of trees[a] top-grid blocks along each physical axis (1 along a reduced
  // axis: the dimension of the forest is the number of axes with more than one block,
  // or with `active`), periodic where asked, refined up to max_level.
  Forest(std::array<int, 3> trees, std::array<bool, 3> active, std::array<bool, 3> periodic,
         int max_level);
  // The same brick, refined to exactly the given leaves (all ranks' leaves in curve
  // order, as all_leaves() returns them): a checkpoint's forest on any rank count.
  Forest(std::array<int, 3> trees, std::array<bool, 3> active, std::array<bool, 3> periodic,
         int max_level, const std::vector<LeafKey>& all);
  ~Forest();
  Forest(Forest&&) noexcept;
  Forest& operator=(Forest&&) noexcept;

  int dims() const;  // 1, 2 or 3
  const std::array<bool, 3>& active() const;
  const std::array<int, 3>& trees() const;
  const std::array<bool, 3>& periodic() const;
  int max_level() const;
  // The deepest level p4est allows in this dimension (P4EST_QMAXLEVEL or P8EST_QMAXLEVEL).
  static int deepest_level(int dims);

  // This rank's leaves in space-filling-curve order.
  const std::vector<LeafKey>& leaves() const;
  // Leaves of other ranks across a face of one of ours, sorted by owner, then curve.
  const std::vector<Ghost>& ghosts() const;
  // For each other rank that has ghosts of ours: which of our leaves, in its order.
  const std::vector<Mirror>& mirrors() const;
  // First global leaf index of every rank, and the total at the end (ranks + 1 entries).
  const std::vector<std::int64_t>& offsets() const;
  std::int64_t global_count() const { return offsets().back(); }

  // One adaptation: each local leaf's flag says refine (+1; ignored at max_level), coarsen
  // (-1; a family of siblings is replaced by its parent when every one of them asks and
  // they are on one rank, which partition() guarantees) or keep (0). Then the forest is
  // 2:1 balanced across faces, which may refine further leaves. Returns whether the mesh
  // changed anywhere (the same answer on every rank).
  bool adapt(const std::vector<std::int8_t>& flags);
  // Refines, recursively and then balanced, every leaf below max_level for which `want`
  // holds: the initial mesh from an initial condition.
  void refine_where(const std::function<bool(const LeafKey&)>& want);
  // Spreads the leaves evenly over the ranks along the curve, never splitting a family.
  // Leaves keep their global index; offsets() before and after say who sends what where.
  void partition();

  // Every rank's leaves in curve order (collective); what a checkpoint stores.
  std::vector<LeafKey> all_leaves() const;

  int rank() const;
  int ranks() const;

 private:
  std::unique_ptr<ForestImpl> impl_;
};

// Starts MPI as a singleton where the process was not started by mpirun (and finalizes it
// at exit), and silences p4est's and libsc's logging; idempotent.
void ensure_mpi_for_p4est();

}  // namespace fluxview::amr
