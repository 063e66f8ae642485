#pragma once
// Domain decomposition over MPI ranks: a 3D Cartesian split of the global grid, ghost
// exchange between neighbouring ranks, and global reductions. Without MPI (or when
// fluxview is not started by mpirun) there is one rank and every call is trivial.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
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

// Splits a global grid over all ranks: MPI_Dims_create over the axes with more than one
// cell (a 2D problem splits in 2D), its largest factor on the slowest axis (z, then y,
// then x), because a z slab is contiguous in memory and an x slab is the most scattered
// one to pack. set_requested_dims() overrides the factors. Every rank gets at least
// `min_cells` along a split axis, else ConfigError.
LocalBox split(std::array<int, 3> global_n, std::array<bool, 3> periodic, int min_cells);

// Ranks per axis chosen by the user (`--mpi-dims X,Y,Z`); {0, 0, 0} (the default) lets
// split() choose. Checked by split(): the product must be the rank count and a
// single-cell axis gets one rank.
void set_requested_dims(std::array<int, 3> dims);
// Ranks per axis of the last split() ({1, 1, 1} on one rank).
std::array<int, 3> dims();

// The rank next to this one along `axis` in direction `dir` (-1 or +1) of the split made
// by the last split(), wrapping on a periodic axis; -1 where there is none (a global
// edge, or one rank). The ghost exchange (GhostExchange.hpp) talks to these.
int neighbour(int axis, int dir);

double allreduce_max(double v);
double allreduce_min(double v);
double allreduce_sum(double v);
std::int64_t allreduce_sum(std::int64_t v);
// Every rank's `mine` (the same count on each), concatenated in rank order.
std::vector<int> allgather(const std::vector<int>& mine);
// Element by element, in place: the sum over the ranks of `n` values.
void allreduce_sum(float* v, std::size_t n);
void allreduce_sum(double* v, std::size_t n);
// Whether every rank runs on this rank's node (the processor names agree): the same answer
// on every rank, where they share one node. Collective.
bool all_ranks_on_one_node();
// Every rank's `mine` (any count each), concatenated in rank order, on every rank.
std::vector<double> allgather_varying(const std::vector<double>& mine);
// The root's value on every rank.
std::int64_t broadcast(std::int64_t v);
void barrier();

// ---- Collectives for whole-grid work (checkpoint restarts, fd spectra) ------------------
// Kept apart from the split and the ghost exchange above; all are collective over every
// rank (MPI_COMM_WORLD, whose ranks are those of the split) and trivial on one rank.

// The root's `s` on every rank (any length).
std::string broadcast(const std::string& s, int root = 0);
// For code that may fail on some ranks only: each rank passes its error message (empty
// when it succeeded); every rank gets the message of the lowest failing rank, or "" when
// none failed. Lets every rank throw the same error instead of leaving the others waiting
// in the next collective.
std::string first_error(const std::string& mine);
// Every rank's `count` elements of `elem_bytes` bytes each, concatenated in rank order on
// the root; empty on the other ranks. Throws std::runtime_error when the total does not fit
// MPI's int counts (2^31 - 1 elements).
// With `counts`, the root also gets each rank's element count (headless frames under MPI,
// render/GatheredSlices, place the pieces with them).
std::vector<unsigned char> gather_to_root(const void* data, std::size_t count, int elem_bytes,
                                          std::vector<int>* counts = nullptr);
inline std::vector<float> gather_to_root(const std::vector<float>& mine,
                                         std::vector<int>* counts = nullptr) {
  const auto bytes = gather_to_root(mine.data(), mine.size(), int(sizeof(float)), counts);
  std::vector<float> out(bytes.size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace fluxview::parallel
