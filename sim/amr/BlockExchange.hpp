#pragma once
// Blocks between MPI ranks on the adaptive mesh: the ghost blocks (copies of other ranks'
// blocks across a face of one of ours, in the pool's slots after the local ones), refreshed
// while ghosts are filled, and the blocks that change owner when the forest is
// repartitioned after a regrid.
//
// Blocks travel whole (every variable, ghost layers included), through host memory: on the
// device a gather kernel packs the blocks a rank sends into one buffer, one copy brings it
// to the host, MPI carries it, and one copy per variable and sender puts the received
// blocks in their slots (a sender's ghosts are consecutive slots, as Forest::ghosts lists
// them by owner). Device-to-device transports (CUDA-aware MPI, CUDA IPC) as the uniform
// grid has (GhostTransport.hpp) are not used here yet: a ghost layer of blocks is not a
// slab of a box, and one GPU per node was all this was measured on.
//
// Everything here is exact (copies), so a run's blocks are the same, bit for bit, on any
// number of ranks; with one rank nothing is sent and nothing is done.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/BlockPool.hpp"
#include "sim/amr/Forest.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

template <class T>
class BlockExchange {
 public:
  // What to send and receive after the forest changed: this rank's mirrors (Forest::mirrors)
  // to each rank that has them as ghosts, and its ghosts (slots local + i, i the index in
  // Forest::ghosts) from their owners. Uploads the mirror slot lists on the device.
  void plan(const Forest& forest, Location where);
  // Copies every ghost slot of `u` from its owner's block as it is there now. Point to
  // point: every rank calls it at the same points of a step (AmrMesh::fill_ghosts).
  void refresh(const PoolView<T>& u, AmrBackend<T>& backend);
  // Whether this rank sends or receives anything.
  bool active() const { return !sends_.empty() || !recvs_.empty(); }

 private:
  struct Peer {
    int rank = 0;
    int first = 0;           // sends: index into mirror_slots_; receives: ghost index
    int count = 0;           // blocks
    std::size_t offset = 0;  // first element in the host buffer
  };
  Location where_ = Location::host;
  int local_ = 0;
  std::vector<Peer> sends_, recvs_;
  std::vector<int> mirror_slots_;
  Buffer slots_dev_, send_dev_;
  std::vector<T> send_host_, recv_host_;
};

// After Forest::partition(): moves the blocks (all variables, ghost layers included) of
// `from`, whose slots [0, n) hold this rank's leaves with global indices [before[rank],
// before[rank + 1]), into `to` at the slots of this rank's leaves after, [after[rank],
// after[rank + 1]); `to` must have room. Collective (every rank calls it after the same
// partition). `before` and `after` have ranks + 1 entries (Forest::offsets).
template <class T>
void move_partitioned_blocks(BlockPool<T>& from, BlockPool<T>& to,
                             const std::vector<std::int64_t>& before,
                             const std::vector<std::int64_t>& after);

}  // namespace fluxview::amr
