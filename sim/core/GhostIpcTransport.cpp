// Device fields of ranks on one node (GhostTransport.hpp): each rank pulls its neighbours'
// packed slabs device to device (peer copies over NVLink or PCIe) from their send buffers,
// which it maps once through CUDA IPC; MPI carries two empty notes per slab. "ready" says
// a slab is packed; "pulled" says it has been copied, so the sender may pack that axis
// again (collected at the next exchange of the axis, by when it has long arrived).
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include "sim/core/GhostDeviceSlabs.hpp"

#ifdef FLUXVIEW_HAVE_MPI
#include <mpi.h>
#endif

namespace fluxview::parallel {

namespace {

class IpcTransport final : public GhostTransport {
 public:
  explicit IpcTransport(cuda::Stream stream) : stream_(stream) {}
  ~IpcTransport() override { free(); }

  void resize(const SlabPlan& plan) override {
    free();
    slabs_.resize(plan);
    share_send_buffer(plan);
  }

  void exchange_axis(const SlabPlan& plan, int a, void* const* fields, int nfields) override;

 private:
  // Collects the neighbours' outstanding "pulled" notes: neighbours send them before their
  // exchange() returns, and none may be left for a later exchange to mistake for its own,
  // nor a neighbour still reading a send buffer that is about to be freed.
  void drain_pulled() noexcept;
  void free() noexcept {
    drain_pulled();
    for (auto& [rank, p] : peer_send_) cuda::ipc_close(p);
    peer_send_.clear();
    slabs_.free();
  }
  // Each rank sends, to the neighbour that will pull its slab (a, d), the IPC handle of
  // its send buffer and where in it that slab starts; each maps its neighbours' buffers
  // once.
  void share_send_buffer(const SlabPlan& plan);

  cuda::Stream stream_;
  DeviceSlabs slabs_;
  std::array<int, 3> low_{-1, -1, -1}, high_{-1, -1, -1};  // the plan's, for drain_pulled
  // Each neighbour's send buffer mapped here (one mapping per neighbour rank), the offset
  // of the slab it sends us along (axis, direction), and whether the neighbour we send to
  // along (axis, direction) still owes the note that it has pulled our slab.
  std::map<int, void*> peer_send_;
  std::array<std::array<std::size_t, 2>, 3> peer_off_{};
  std::array<std::array<bool, 2>, 3> pull_pending_{};
};

#ifdef FLUXVIEW_HAVE_MPI

void IpcTransport::drain_pulled() noexcept {
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 2; ++d)
      if (pull_pending_[a][d])
        MPI_Recv(nullptr, 0, MPI_BYTE, d == 0 ? low_[a] : high_[a], tag(kTagPulled, a, d),
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  pull_pending_ = {};
}

void IpcTransport::share_send_buffer(const SlabPlan& plan) {
  low_ = plan.low;
  high_ = plan.high;
  struct Note {
    cuda::IpcHandle handle;
    std::uint64_t offset;
  };
  const cuda::IpcHandle mine = cuda::ipc_handle(slabs_.send);
  for (int a = 0; a < 3; ++a) {
    const std::array<int, 2> to{plan.low[a], plan.high[a]}, from{plan.high[a], plan.low[a]};
    Note out[2], in[2];
    for (int d = 0; d < 2; ++d) out[d] = {mine, plan.send_off[a] + d * plan.stride[a]};
    post(a, reinterpret_cast<unsigned char*>(out), sizeof(Note),
         reinterpret_cast<unsigned char*>(in), sizeof(Note), sizeof(Note), to, from);
    for (int d = 0; d < 2; ++d) {
      if (from[d] < 0) continue;
      if (!peer_send_.count(from[d])) peer_send_[from[d]] = cuda::ipc_open(in[d].handle);
      peer_off_[a][d] = in[d].offset;
    }
  }
}

void IpcTransport::exchange_axis(const SlabPlan& plan, int a, void* const* fields, int nfields) {
  const std::array<int, 2> to{plan.low[a], plan.high[a]}, from{plan.high[a], plan.low[a]};
  for (int d = 0; d < 2; ++d)
    if (pull_pending_[a][d]) {
      MPI_Recv(nullptr, 0, MPI_BYTE, to[d], tag(kTagPulled, a, d), MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      pull_pending_[a][d] = false;
    }
  slabs_.pack(plan, a, fields, nfields, stream_);
  cuda::stream_synchronize(stream_);
  for (int d = 0; d < 2; ++d)
    if (to[d] >= 0) MPI_Send(nullptr, 0, MPI_BYTE, to[d], tag(kTagReady, a, d), MPI_COMM_WORLD);
  auto* recv = static_cast<unsigned char*>(slabs_.recv);
  for (int d = 0; d < 2; ++d)
    if (from[d] >= 0) {
      MPI_Recv(nullptr, 0, MPI_BYTE, from[d], tag(kTagReady, a, d), MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      const auto* src = static_cast<const unsigned char*>(peer_send_.at(from[d])) + peer_off_[a][d];
      cuda::memcpy_async(recv + d * plan.recv_stride, src, plan.bytes[a], stream_);
    }
  cuda::stream_synchronize(stream_);
  for (int d = 0; d < 2; ++d)
    if (from[d] >= 0)
      MPI_Send(nullptr, 0, MPI_BYTE, from[d], tag(kTagPulled, a, d), MPI_COMM_WORLD);
  for (int d = 0; d < 2; ++d) pull_pending_[a][d] = to[d] >= 0;
  slabs_.unpack(plan, a, fields, nfields, stream_);
}

#else  // one rank: nothing is ever exchanged

void IpcTransport::drain_pulled() noexcept {}
void IpcTransport::share_send_buffer(const SlabPlan&) {}
void IpcTransport::exchange_axis(const SlabPlan&, int, void* const*, int) {}

#endif

}  // namespace

std::unique_ptr<GhostTransport> make_ipc_transport(cuda::Stream stream) {
  return std::make_unique<IpcTransport>(stream);
}

}  // namespace fluxview::parallel
