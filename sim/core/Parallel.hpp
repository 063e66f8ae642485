#pragma once
// Domain decomposition over MPI ranks: a 3D Cartesian split of the global grid, ghost
// exchange between neighbouring ranks, and global reductions. Without MPI (or when
// fluxview is not started by mpirun) there is one rank and every call is trivial.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/FieldLayout.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::parallel {

// Starts MPI when fluxview was launched by mpirun (or always when `force`), and on a
// machine with GPUs binds this rank to GPU (node-local rank mod device count).
void init(int* argc, char*** argv);
void finalize();
int rank();
int size();
inline bool is_root() {
  return rank() == 0;
}

// This rank's box of the global grid.
struct LocalBox {
  std::array<int, 3> global_n{1, 1, 1};
  std::array<int, 3> n{1, 1, 1};       // cells (points) on this rank
  std::array<int, 3> offset{0, 0, 0};  // global index of local (0, 0, 0)
  std::array<int, 3> dims{1, 1, 1};    // ranks per axis
  std::array<int, 3> coords{0, 0, 0};  // this rank's place
  std::array<bool, 3> periodic{false, false, false};
  bool at_low_edge(int a) const { return coords[a] == 0; }
  bool at_high_edge(int a) const { return coords[a] == dims[a] - 1; }
};

// Splits a global grid over all ranks (MPI_Dims_create over the axes with more than
// one cell, so 2D problems split in 2D). Every rank gets at least `min_cells` along a
// split axis, else ConfigError. Sets up the neighbours used by exchange_ghosts.
LocalBox split(std::array<int, 3> global_n, std::array<bool, 3> periodic, int min_cells);

// Fills the ghost layers of a field from the neighbouring ranks, axis by axis (so edges
// and corners are filled too); at a non-periodic global edge the ghosts are left alone
// (the solver's physical boundary owns them). Device fields are staged through the host.
void exchange_ghosts(const LocalBox& box, void* data, const FieldLayout& layout, Location where);

double allreduce_max(double v);
double allreduce_min(double v);
double allreduce_sum(double v);
std::int64_t allreduce_sum(std::int64_t v);
// Every rank's `mine` (the same count on each), concatenated in rank order.
std::vector<int> allgather(const std::vector<int>& mine);
// The root's value on every rank.
std::int64_t broadcast(std::int64_t v);
void barrier();

// ---- Gathers to the root (headless frames under MPI: render/GatheredSlices) ----------
// Every rank's `mine` (any length, zero included) concatenated in rank order on the
// root, with each rank's length in `counts` when given; empty on the other ranks.
std::vector<float> gather_to_root(const std::vector<float>& mine,
                                  std::vector<int>* counts = nullptr);

}  // namespace fluxview::parallel
