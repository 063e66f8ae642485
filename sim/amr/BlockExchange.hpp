#pragma once
// Blocks between MPI ranks on the adaptive mesh: the ghost blocks (copies of other ranks'
// blocks across a face of one of ours, in the pool's slots after the local ones), refreshed
// while ghosts are filled, and the blocks that change owner when the forest is
// repartitioned after a regrid.
//
// Blocks travel whole (every variable, ghost layers included). A gather kernel (a loop on
// the host) packs the blocks a rank sends into one buffer, receiver after receiver, and
// one copy per variable and sender puts the received blocks in their slots (a sender's
// ghosts are consecutive slots, as Forest::ghosts lists them by owner). Between the two:
//   - host: the buffer (copied to the host from the device) carried by MPI;
//   - ipc (device pools, every rank on one node): each rank maps its senders' device
//     buffers through CUDA IPC (the handles exchanged at every plan, re-mapped when a
//     sender's buffer was reallocated) and copies the blocks device to device from them;
//     MPI carries an empty "packed" note per sender and an empty "pulled" note back, as the
//     uniform grid's IPC transport does (GhostTransport.hpp).
// CUDA-aware MPI (the uniform grid's third transport) is not offered here.
// The blocks that move at a repartition (move_partitioned_blocks) go through host memory.
//
// Everything here is exact (copies), so a run's blocks are the same, bit for bit, on any
// number of ranks; with one rank nothing is sent and nothing is done.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/BlockPool.hpp"
#include "sim/amr/Forest.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

enum class BlockTransport { host, ipc };
const char* to_string(BlockTransport t);

template <class T>
class BlockExchange {
 public:
  BlockExchange() = default;
  ~BlockExchange();
  BlockExchange(const BlockExchange&) = delete;
  BlockExchange& operator=(const BlockExchange&) = delete;
  // How device pools' blocks travel (host pools always go through MPI); before plan().
  void set_transport(BlockTransport t) { transport_ = t; }
  BlockTransport transport() const { return transport_; }
  // What to send and receive after the forest changed: this rank's mirrors (Forest::mirrors)
  // to each rank that has them as ghosts, and its ghosts (slots local + i, i the index in
  // Forest::ghosts) from their owners, for blocks of `nv` variables of `stride` elements
  // each. Uploads the mirror slot lists on the device; with ipc, shares the send buffer's
  // handle with the receivers (collective: every rank plans after the same change).
  void plan(const Forest& forest, Location where, int nv, std::int64_t stride);
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
  void share_send_buffer();  // ipc: handles and offsets to receivers, senders' mapped
  void refresh_ipc(const PoolView<T>& u, AmrBackend<T>& backend);
  // Gathers every receiver's blocks into the device send buffer (queued); returns it.
  T* pack_on_device(const PoolView<T>& u, AmrBackend<T>& backend);

  Location where_ = Location::host;
  BlockTransport transport_ = BlockTransport::host;
  int local_ = 0, nv_ = 0;
  std::int64_t stride_ = 0;
  struct Mapped {
    unsigned char handle[64] = {};
    void* ptr = nullptr;
    std::uint64_t offset = 0;  // of our blocks in the sender's buffer, elements
  };
  std::map<int, Mapped> senders_;  // ipc: each sender's buffer mapped here
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
