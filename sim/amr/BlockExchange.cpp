// Blocks between MPI ranks: ghost refresh and repartition moves (BlockExchange.hpp).
#include "sim/amr/BlockExchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/CudaRuntime.hpp"

namespace fluxview::amr {

namespace {

// Message tags of this file's point-to-point messages (nothing else is in flight then).
constexpr int kTagGhostBlocks = 7101;
constexpr int kTagMovedBlocks = 7102;
constexpr int kTagHandle = 7103;  // ipc: a send buffer's handle and our blocks' offset in it
constexpr int kTagPacked = 7104;  // ipc: the sender's blocks are packed
constexpr int kTagPulled = 7105;  // ipc: the receiver has copied them

// One variable of one block (the pool's stride of elements) as an MPI type, so that a
// message's count is blocks times variables and fits MPI's int however large it is.
class BlockType {
 public:
  explicit BlockType(std::size_t bytes) {
    if (bytes > std::size_t(1) << 30)
      throw std::runtime_error("AMR block exchange: a block of " + std::to_string(bytes) +
                               " bytes");
    MPI_Type_contiguous(int(bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~BlockType() { MPI_Type_free(&type_); }
  BlockType(const BlockType&) = delete;
  BlockType& operator=(const BlockType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

void wait_all(std::vector<MPI_Request>& requests, const char* what) {
  if (requests.empty()) return;
  if (MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    throw std::runtime_error(std::string("AMR block exchange: MPI failed while ") + what);
  requests.clear();
}

// Blocks in consecutive slots [slot, slot + count) of a pool, every variable, to or from a
// buffer that holds them variable after variable (what gather_blocks packs): one copy per
// variable. `buffer` is at `where`, the pool at its own place.
template <class T>
void put_blocks(const PoolView<T>& u, Location pool_where, int slot, int count, const T* buffer,
                Location where) {
  const std::size_t n = std::size_t(count) * std::size_t(u.stride);
  for (int v = 0; v < u.nv; ++v)
    copy_bytes(u.f[v] + std::int64_t(slot) * u.stride, pool_where, buffer + std::size_t(v) * n,
               where, n * sizeof(T));
}
template <class T>
void take_blocks(const PoolView<T>& u, Location pool_where, int slot, int count, T* buffer,
                 Location where) {
  const std::size_t n = std::size_t(count) * std::size_t(u.stride);
  for (int v = 0; v < u.nv; ++v)
    copy_bytes(buffer + std::size_t(v) * n, where, u.f[v] + std::int64_t(slot) * u.stride,
               pool_where, n * sizeof(T));
}

}  // namespace

const char* to_string(BlockTransport t) {
  return t == BlockTransport::ipc ? "device to device through CUDA IPC (ranks on one node)"
                                  : "through host memory and MPI";
}

template <class T>
BlockExchange<T>::~BlockExchange() {
  for (auto& [rank, m] : senders_) cuda::ipc_close(m.ptr);
}

template <class T>
void BlockExchange<T>::plan(const Forest& forest, Location where, int nv, std::int64_t stride) {
  where_ = where;
  nv_ = nv;
  stride_ = stride;
  local_ = int(forest.leaves().size());
  sends_.clear();
  recvs_.clear();
  mirror_slots_.clear();
  const std::size_t per_block = std::size_t(nv) * std::size_t(stride);
  std::size_t at = 0;
  for (const Forest::Mirror& m : forest.mirrors()) {
    Peer p;
    p.rank = m.rank;
    p.first = int(mirror_slots_.size());
    p.count = int(m.leaves.size());
    p.offset = at;
    at += std::size_t(p.count) * per_block;
    mirror_slots_.insert(mirror_slots_.end(), m.leaves.begin(), m.leaves.end());
    sends_.push_back(p);
  }
  const std::size_t send_total = at;
  const auto& ghosts = forest.ghosts();
  at = 0;
  for (std::size_t g = 0; g < ghosts.size();) {
    Peer p;
    p.rank = ghosts[g].owner;
    p.first = int(g);
    while (g < ghosts.size() && ghosts[g].owner == p.rank) ++g;
    p.count = int(g) - p.first;
    p.offset = at;
    at += std::size_t(p.count) * per_block;
    recvs_.push_back(p);
  }
  const std::size_t recv_total = at;
  if (where_ == Location::device) {
    if (!mirror_slots_.empty()) {
      const std::size_t bytes = mirror_slots_.size() * sizeof(int);
      if (slots_dev_.bytes() < bytes) slots_dev_ = Buffer(where_, bytes * 5 / 4);
      copy_bytes(slots_dev_.data(), where_, mirror_slots_.data(), Location::host, bytes);
    }
    if (send_dev_.bytes() < send_total * sizeof(T))
      send_dev_ = Buffer(where_, send_total * sizeof(T) * 5 / 4);
  }
  if (where_ != Location::device || transport_ == BlockTransport::host) {
    send_host_.resize(send_total);
    recv_host_.resize(recv_total);
  }
  if (where_ == Location::device && transport_ == BlockTransport::ipc) share_send_buffer();
}

template <class T>
void BlockExchange<T>::share_send_buffer() {
  struct Note {
    cuda::IpcHandle handle;
    std::uint64_t offset;
  };
  std::vector<Note> out(sends_.size()), in(recvs_.size());
  cuda::IpcHandle mine{};
  if (!sends_.empty()) mine = cuda::ipc_handle(send_dev_.data());
  std::vector<MPI_Request> requests;
  for (std::size_t i = 0; i < recvs_.size(); ++i) {
    requests.emplace_back();
    MPI_Irecv(&in[i], int(sizeof(Note)), MPI_BYTE, recvs_[i].rank, kTagHandle, MPI_COMM_WORLD,
              &requests.back());
  }
  for (std::size_t i = 0; i < sends_.size(); ++i) {
    out[i] = {mine, std::uint64_t(sends_[i].offset)};
    requests.emplace_back();
    MPI_Isend(&out[i], int(sizeof(Note)), MPI_BYTE, sends_[i].rank, kTagHandle, MPI_COMM_WORLD,
              &requests.back());
  }
  wait_all(requests, "sharing the ghost blocks' device buffers");
  // Keep a sender's mapping while its buffer is the same one; map new buffers; close the
  // rest (a sender that reallocated, or sends us nothing now).
  std::map<int, Mapped> next;
  for (std::size_t i = 0; i < recvs_.size(); ++i) {
    const int rank = recvs_[i].rank;
    Mapped m;
    const auto it = senders_.find(rank);
    if (it != senders_.end() &&
        std::memcmp(it->second.handle, in[i].handle.bytes, sizeof m.handle) == 0) {
      m = it->second;
      senders_.erase(it);
    } else {
      std::memcpy(m.handle, in[i].handle.bytes, sizeof m.handle);
      m.ptr = cuda::ipc_open(in[i].handle);
    }
    m.offset = in[i].offset;
    next[rank] = m;
  }
  for (auto& [rank, m] : senders_) cuda::ipc_close(m.ptr);
  senders_ = std::move(next);
}

template <class T>
T* BlockExchange<T>::pack_on_device(const PoolView<T>& u, AmrBackend<T>& backend) {
  T* dev = static_cast<T*>(send_dev_.data());
  const int* slots = static_cast<const int*>(slots_dev_.data());
  for (const Peer& p : sends_) backend.gather_blocks(u, slots + p.first, p.count, dev + p.offset);
  return dev;
}

template <class T>
void BlockExchange<T>::refresh_ipc(const PoolView<T>& u, AmrBackend<T>& backend) {
  pack_on_device(u, backend);
  cuda::synchronize();  // packed before any receiver is told so
  std::vector<MPI_Request> packed(recvs_.size()), rest;
  for (std::size_t i = 0; i < recvs_.size(); ++i)
    MPI_Irecv(nullptr, 0, MPI_BYTE, recvs_[i].rank, kTagPacked, MPI_COMM_WORLD, &packed[i]);
  for (const Peer& p : sends_) {
    rest.emplace_back();
    MPI_Irecv(nullptr, 0, MPI_BYTE, p.rank, kTagPulled, MPI_COMM_WORLD, &rest.back());
    rest.emplace_back();
    MPI_Isend(nullptr, 0, MPI_BYTE, p.rank, kTagPacked, MPI_COMM_WORLD, &rest.back());
  }
  for (std::size_t i = 0; i < recvs_.size(); ++i) {
    const Peer& p = recvs_[i];
    MPI_Wait(&packed[i], MPI_STATUS_IGNORE);
    const Mapped& m = senders_.at(p.rank);
    put_blocks(u, where_, local_ + p.first, p.count, static_cast<const T*>(m.ptr) + m.offset,
               where_);
  }
  // A copy between device buffers may still run when cudaMemcpy returns: the senders may
  // pack again only once it is done (the first version sent "pulled" here without waiting,
  // and 3 ranks sharing one GPU then read blocks of the next refresh).
  cuda::synchronize();
  for (const Peer& p : recvs_) {
    rest.emplace_back();
    MPI_Isend(nullptr, 0, MPI_BYTE, p.rank, kTagPulled, MPI_COMM_WORLD, &rest.back());
  }
  // Every receiver has copied our blocks before the buffer is packed again.
  wait_all(rest, "refreshing ghost blocks through CUDA IPC");
}

template <class T>
void BlockExchange<T>::refresh(const PoolView<T>& u, AmrBackend<T>& backend) {
  if (!active()) return;
  if (u.nv != nv_ || u.stride != stride_)
    throw std::logic_error("AMR block exchange: planned for other blocks");
  if (where_ == Location::device && transport_ == BlockTransport::ipc) {
    refresh_ipc(u, backend);
    return;
  }
  const std::size_t per = std::size_t(u.stride);  // elements of one variable of one block
  const std::size_t nv = std::size_t(u.nv);
  if (where_ == Location::device) {
    copy_bytes(send_host_.data(), Location::host, pack_on_device(u, backend), where_,
               send_host_.size() * sizeof(T));
  } else {
    for (const Peer& p : sends_)
      backend.gather_blocks(u, mirror_slots_.data() + p.first, p.count,
                            send_host_.data() + p.offset);
  }
  const BlockType block(per * sizeof(T));
  std::vector<MPI_Request> requests;
  for (const Peer& p : recvs_) {
    requests.emplace_back();
    MPI_Irecv(recv_host_.data() + p.offset, p.count * int(nv), block.get(), p.rank, kTagGhostBlocks,
              MPI_COMM_WORLD, &requests.back());
  }
  for (const Peer& p : sends_) {
    requests.emplace_back();
    MPI_Isend(send_host_.data() + p.offset, p.count * int(nv), block.get(), p.rank, kTagGhostBlocks,
              MPI_COMM_WORLD, &requests.back());
  }
  wait_all(requests, "refreshing ghost blocks");
  // A sender's blocks are consecutive ghost slots.
  for (const Peer& p : recvs_)
    put_blocks(u, where_, local_ + p.first, p.count, recv_host_.data() + p.offset, Location::host);
}

template <class T>
void move_partitioned_blocks(BlockPool<T>& from, BlockPool<T>& to,
                             const std::vector<std::int64_t>& before,
                             const std::vector<std::int64_t>& after) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int ranks = int(before.size()) - 1;
  if (ranks < 1 || after.size() != before.size())
    throw std::logic_error("AMR block move: offsets of different rank counts");
  const std::size_t per = std::size_t(from.layout().size);
  const int nv = from.nv();
  const Location where = from.where();
  const std::int64_t old_lo = before[std::size_t(rank)], old_hi = before[std::size_t(rank) + 1];
  const std::int64_t new_lo = after[std::size_t(rank)], new_hi = after[std::size_t(rank) + 1];
  if (new_hi - new_lo > to.capacity())
    throw std::logic_error("AMR block move: the receiving pool has no room");
  // A range of global leaf indices that moves between two ranks, as slots of each.
  struct Move {
    int rank = 0;
    int slot = 0;   // in `from` (sends) or `to` (receives)
    int count = 0;  // blocks
    std::vector<T> host;
  };
  std::vector<Move> sends, recvs;
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t s_lo = std::max(old_lo, after[std::size_t(r)]),
                       s_hi = std::min(old_hi, after[std::size_t(r) + 1]);
    const std::int64_t r_lo = std::max(new_lo, before[std::size_t(r)]),
                       r_hi = std::min(new_hi, before[std::size_t(r) + 1]);
    if (r == rank) {
      // What stays here: from its old slot to its new one, variable by variable.
      if (s_hi > s_lo)
        for (int m = 0; m < nv; ++m)
          copy_bytes(to.block(m, int(s_lo - new_lo)), where, from.block(m, int(s_lo - old_lo)),
                     where, std::size_t(s_hi - s_lo) * per * sizeof(T));
      continue;
    }
    if (s_hi > s_lo) sends.push_back({r, int(s_lo - old_lo), int(s_hi - s_lo), {}});
    if (r_hi > r_lo) recvs.push_back({r, int(r_lo - new_lo), int(r_hi - r_lo), {}});
  }
  const BlockType block(per * sizeof(T));
  std::vector<MPI_Request> requests;
  for (Move& m : recvs) {
    m.host.resize(std::size_t(m.count) * std::size_t(nv) * per);
    requests.emplace_back();
    MPI_Irecv(m.host.data(), m.count * nv, block.get(), m.rank, kTagMovedBlocks, MPI_COMM_WORLD,
              &requests.back());
  }
  for (Move& m : sends) {
    m.host.resize(std::size_t(m.count) * std::size_t(nv) * per);
    take_blocks(from.view(), where, m.slot, m.count, m.host.data(), Location::host);
    requests.emplace_back();
    MPI_Isend(m.host.data(), m.count * nv, block.get(), m.rank, kTagMovedBlocks, MPI_COMM_WORLD,
              &requests.back());
  }
  wait_all(requests, "moving blocks to their new ranks");
  for (const Move& m : recvs)
    put_blocks(to.view(), where, m.slot, m.count, m.host.data(), Location::host);
}

template class BlockExchange<float>;
template class BlockExchange<double>;
template void move_partitioned_blocks(BlockPool<float>&, BlockPool<float>&,
                                      const std::vector<std::int64_t>&,
                                      const std::vector<std::int64_t>&);
template void move_partitioned_blocks(BlockPool<double>&, BlockPool<double>&,
                                      const std::vector<std::int64_t>&,
                                      const std::vector<std::int64_t>&);

}  // namespace fluxview::amr
