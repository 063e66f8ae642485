#pragma once
// The keys every family shares (grid.*, run.*; common_params() in SolverFamily.hpp lists
// them), read once into typed values. A family's own configuration (HeatConfig,
// FdConfig, FvConfig) holds these beside its own keys.
#include <array>

#include "sim/core/Parameter.hpp"

namespace fluxview {

// grid.nx/ny/nz and grid.lx/ly/lz: cells (or points) per axis and the box's size.
struct GridConfig {
  std::array<int, 3> n{1, 1, 1};
  std::array<double, 3> length{1, 1, 1};
};
GridConfig grid_config(const ParamSet& p);

// run.ghosts: how the ghost layers of device fields travel between MPI ranks
// (docs/parallel.md). automatic: CUDA-aware MPI where the library reports it, else CUDA IPC
// where every neighbour runs on this node, else page-locked host buffers.
enum class GhostTransportChoice { automatic, host, ipc, mpi };
// run.mpi_overlap: whether a CUDA run under MPI updates interior cells while the ghosts
// travel. automatic: the family's measured default (docs/performance.md).
enum class OverlapChoice { automatic, on, off };

struct ParallelConfig {
  GhostTransportChoice ghosts = GhostTransportChoice::automatic;
  OverlapChoice overlap = OverlapChoice::automatic;
};
ParallelConfig parallel_config(const ParamSet& p);

}  // namespace fluxview
