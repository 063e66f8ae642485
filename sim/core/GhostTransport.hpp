#pragma once
// How the packed ghost slabs of one axis travel between MPI ranks: one implementation per
// transport behind one interface, used by GhostExchange (GhostExchange.hpp), which owns
// the plan of the buffers and chooses the transport. Private to sim/core.
//   GhostHostTransport.cpp    host fields: packed with memcpy, sent through MPI
//   GhostDeviceTransport.cpp  device fields, packed by a kernel; the slabs handed to a
//                             CUDA-aware MPI, or staged through page-locked host memory
//   GhostIpcTransport.cpp     device fields of ranks on one node: pulled device to device
//                             through CUDA IPC; MPI carries only empty notes
#include <array>
#include <cstddef>
#include <memory>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::parallel {

// Where the slabs of each axis sit in the send and receive buffers. Send slots: axis a,
// direction d (0 low, 1 high) at send_off[a] + d * stride[a] of one buffer, so each axis
// keeps its own (an IPC neighbour may still be pulling one axis while the next is packed);
// a slot holds bytes[a] for the current field count. The receive slots (d * recv_stride)
// are shared by the axes, which unpack in turn.
struct SlabPlan {
  FieldLayout layout;
  std::array<int, 3> low{-1, -1, -1}, high{-1, -1, -1};  // neighbour ranks, -1 for none
  std::array<std::size_t, 3> send_off{0, 0, 0}, stride{0, 0, 0}, bytes{0, 0, 0};
  std::size_t send_total = 0, recv_stride = 0;

  // The slab of ghost width along axis a starting at index `first`, over the full
  // allocated extent of the other axes: send slabs start in the interior, receive slabs
  // in the ghosts.
  void slab(int a, int first, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
  std::size_t slab_bytes(int a) const;  // of one field
  // The slabs sent towards direction d (0: to the low neighbour, from my lowest interior
  // layers) and received from it into my ghosts (0: from the high neighbour, the high
  // ghosts).
  void send_slab(int a, int d, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
  void recv_slab(int a, int d, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
};

class GhostTransport {
 public:
  virtual ~GhostTransport() = default;
  // The plan's slots grew (a larger field count than ever before, which every rank sees
  // at the same call): (re)allocates the buffers. Collective for IPC.
  virtual void resize(const SlabPlan& plan) = 0;
  // Fills the ghosts of axis a of `nfields` fields from the neighbours. Device transports
  // queue their kernels and copies on their stream.
  virtual void exchange_axis(const SlabPlan& plan, int a, void* const* fields, int nfields) = 0;
};

std::unique_ptr<GhostTransport> make_host_transport();
// `staged`: through page-locked host buffers; otherwise device pointers go to MPI.
std::unique_ptr<GhostTransport> make_device_transport(cuda::Stream stream, bool staged);
std::unique_ptr<GhostTransport> make_ipc_transport(cuda::Stream stream);

// ---- MPI messages shared by the transports (GhostExchange.cpp) ---------------------------
// Tags: slab data, and the IPC notes "my slab along (a, d) is packed" and "I have pulled it".
inline constexpr int kTagData = 0, kTagReady = 16, kTagPulled = 32;
inline int tag(int base, int a, int d) {
  return base + 2 * a + d;
}
// Both directions of one axis: direction d sends slot d of `send` (0: my lowest interior
// layers, to the low neighbour) and receives into slot d of `recv` (0: from the high
// neighbour, for my high ghosts). Slot d of `send` starts at d * send_stride, of `recv` at
// d * recv_stride. Without MPI there is one rank and nothing to send.
void post(int a, unsigned char* send, std::size_t send_stride, unsigned char* recv,
          std::size_t recv_stride, std::size_t bytes, const std::array<int, 2>& to,
          const std::array<int, 2>& from);

}  // namespace fluxview::parallel
