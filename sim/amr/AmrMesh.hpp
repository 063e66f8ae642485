#pragma once
// The adaptive mesh as a solver uses it: the forest, the blocks of the state and of one
// scratch register (two for the three-register Runge-Kutta schemes) in pools on the
// solver's backend, the neighbour lists (host and device copies), and the operations
// between steps: fill ghosts, estimate, regrid.
//
// Slots of every pool are the forest's local leaves in curve order, then the ghost blocks
// (other ranks' leaves across a face of ours, BlockExchange.hpp). Regrid writes the new
// blocks from the state into the scratch pool and swaps the two, so the pool stays dense
// (compacted) and in curve order, and a regrid needs no pool beyond the step's; under MPI
// the blocks that the repartition gives to another rank then move there the same way.
// The third pool only ever holds a stage's register within a step: a regrid lays it out
// again for the new leaves and keeps nothing in it.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/BlockExchange.hpp"
#include "sim/amr/BlockPool.hpp"
#include "sim/amr/Forest.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/amr/Regrid.hpp"
#include "sim/amr/Topology.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Types.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::amr {

template <class T>
class AmrMesh {
 public:
  // `shape`: the brick, block size, ghosts, boundaries; `nv` conserved variables;
  // `params.flip`: the momentum component a reflecting face negates, per axis.
  AmrMesh(const MeshShape& shape, int nv, Location where, const fv::Physics<T>& ph,
          const FillParams& params);
  // The same brick refined to the leaves of a checkpoint (all ranks', curve order).
  AmrMesh(const MeshShape& shape, int nv, Location where, const fv::Physics<T>& ph,
          const FillParams& params, const std::vector<LeafKey>& all_leaves);

  // Refines the forest wherever `want` holds (recursively, then balanced and partitioned)
  // and lays out the pools for it; block contents are undefined until written.
  void refine_initial(const std::function<bool(const LeafKey&)>& want);

  const Forest& forest() const { return forest_; }
  const MeshShape& shape() const { return shape_; }
  int blocks() const { return int(forest_.leaves().size()); }
  const std::vector<BlockInfo>& info() const { return info_; }
  // The same on the device (the host vector's data on the CPU backend).
  const BlockInfo* info_on_backend() const;
  const MeshPlan& plan() const { return plan_; }
  const RefluxTask* reflux_on_backend() const;

  BlockPool<T>& state() { return state_; }
  BlockPool<T>& scratch() { return scratch_; }
  // The registers a step uses (fv::RkScheme::registers, 2 or 3): with 3 the third pool
  // is allocated and laid out for the leaves from now on. Register r is state(),
  // scratch(), third() for r = 0, 1, 2.
  void use_registers(int registers);
  int registers() const { return third_.capacity() > 0 ? 3 : 2; }
  BlockPool<T>& third() { return third_; }
  // A scheme whose result is in the third register (RK4) makes it the state.
  void take_third_as_state() { state_.swap(third_); }
  Location where() const { return where_; }
  // The loops over the blocks' cells, on the pools' side.
  AmrBackend<T>& backend() { return *backend_; }

  // How ghost blocks travel between ranks on the device (BlockExchange.hpp); re-plans the
  // exchange (collective: every rank calls it at the same point).
  void set_block_transport(BlockTransport t);
  BlockTransport block_transport() const { return exchange_.transport(); }

  // Live changes (steering, AmrFvSolver::set_live): the physics that ghost filling and
  // regrids read, and the kind of each non-periodic face of the domain (outflow or
  // reflecting), which the ghost tasks carry: planned again when one changes (collective
  // under MPI, as after a regrid).
  void set_physics(const fv::Physics<T>& ph) { ph_ = ph; }
  void set_boundaries(const Boundary (&boundary)[3][2]);

  // Fills the face ghosts of every local block of `u` (the state or the scratch pool).
  // Under MPI the ghost blocks are refreshed from their owners before the first group of
  // tasks and after each (a prolongation reads its coarse block's ghosts, filled by an
  // earlier group on the coarse block's rank; refluxing reads a fine ghost block's ghosts).
  void fill_ghosts(const PoolView<T>& u);
  // Loehner's estimate per local block on the state (ghosts must be filled); host copy.
  std::vector<double> indicators(double eps);
  // Adapts the forest to `flags`, remaps the state onto the new leaves, repartitions.
  // Fills the state's ghosts first unless the caller just did. Returns whether the mesh
  // changed.
  bool regrid(const std::vector<std::int8_t>& flags, bool ghosts_current = false);
  // Adapts the forest and lays out the pools without keeping any data (the initial mesh,
  // whose blocks are then set from the initial condition). Returns whether it changed.
  bool adapt_discarding_data(const std::vector<std::int8_t>& flags);

 private:
  void layout_for_leaves();
  void upload_plan();

  MeshShape shape_;
  int nv_;
  Location where_;
  fv::Physics<T> ph_;
  FillParams params_;
  std::unique_ptr<AmrBackend<T>> backend_;
  Forest forest_;
  BlockExchange<T> exchange_;
  FieldLayout layout_;
  BlockPool<T> state_, scratch_, third_;  // third_: empty (capacity 0) unless use_registers(3)
  MeshPlan plan_;
  std::vector<BlockInfo> info_;
  Buffer ghost_tasks_dev_, reflux_dev_, info_dev_, indicator_dev_;
};

}  // namespace fluxview::amr
