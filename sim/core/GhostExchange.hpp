#pragma once
// The ghost-layer exchange between neighbouring MPI ranks, for fields that share one
// layout. One object per solver keeps its staging buffers (and, on the CUDA backend,
// a stream and two events) from step to step, so an exchange allocates nothing.
//
// Device fields: each slab of every field is packed by a kernel into one contiguous
// device buffer, moved to the neighbour, and unpacked by a kernel. How the packed slab
// travels (DeviceTransport): device to device through CUDA IPC when every neighbour is a
// process on this node (NVLink or PCIe peer copies; MPI carries only tiny ready/done
// notes), straight from device memory where the MPI library is CUDA-aware, else through
// page-locked host buffers. The packing runs on a stream of its own, so a solver that
// queues interior kernels between fields_ready() and exchange() has them run while the
// ghosts travel.
#include <array>
#include <cstddef>
#include <map>
#include <string_view>
#include <vector>

#include "sim/core/CommonConfig.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::parallel {

enum class DeviceTransport { host_staged, cuda_aware, peer_ipc };
std::string_view to_string(DeviceTransport t);
// The transport of the most recent exchange of device fields set up in this process
// (run.json and bench report it). Chosen, the same on every rank, when a solver sets up:
//   run.ghosts = host, mpi or ipc forces one (mpi: hand device pointers to MPI, which
//   crashes inside a library without CUDA support); auto takes cuda_aware where the
//   library reports CUDA support at run time (Open MPI's MPIX_Query_cuda_support), else
//   peer_ipc where every rank's neighbours run on its node, else host_staged.
DeviceTransport device_transport();

class GhostExchange {
 public:
  static constexpr int kMaxFields = 8;

  GhostExchange() = default;
  // Collective: every rank constructs its exchange at the same point. `transport` is the
  // run's run.ghosts (device fields only).
  GhostExchange(const LocalBox& box, const FieldLayout& layout, Location where,
                GhostTransportChoice transport);
  ~GhostExchange();
  GhostExchange(GhostExchange&& o) noexcept;
  GhostExchange& operator=(GhostExchange&& o) noexcept;
  GhostExchange(const GhostExchange&) = delete;
  GhostExchange& operator=(const GhostExchange&) = delete;

  // False on one rank, or when no axis is split: exchange() then does nothing.
  bool active() const { return active_; }

  // Device fields: the fields are final as of the kernels queued so far (default
  // stream). The next exchange() packs after those kernels only, so kernels queued in
  // between overlap it. Without this call exchange() waits for everything queued.
  void fields_ready();

  // Fills the ghost layers of up to kMaxFields fields (all with this layout) from the
  // neighbouring ranks, axis by axis over the full allocated extent of the other axes,
  // so edges and corners are filled too. At a non-periodic global edge the ghosts are
  // left alone (the solver's physical boundary owns them). Collective: every rank calls
  // it with the same field count. Host fields are filled on return; device fields are
  // filled for every kernel queued on the default stream after the call.
  void exchange(void* const* fields, int nfields);

 private:
  void release() noexcept;
  void drain_pulled() noexcept;  // IPC: collects the neighbours' outstanding "pulled" notes
  void free_buffers() noexcept;
  void exchange_axis_host(int a, void* const* fields, int nfields);
  void exchange_axis_device(int a, void* const* fields, int nfields);
  void exchange_axis_ipc(int a, void* const* fields, int nfields);
  void pack_device(int a, void* const* fields, int nfields);
  void unpack_device(int a, void* const* fields, int nfields);
  // The slab of ghost width along axis a, over the full allocated extent of the others:
  // send slabs start in the interior, receive slabs in the ghosts.
  void slab(int a, int first, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
  std::size_t slab_bytes(int a) const;  // of one field
  // Sizes the buffers for `nfields` fields. Grows only when a larger field count than
  // ever before comes, which every rank sees at the same call (IPC set-up is collective).
  void reserve(int nfields);
  void share_send_buffer();  // IPC: tells the neighbours where to pull from

  LocalBox box_;
  FieldLayout layout_;
  Location where_ = Location::host;
  DeviceTransport transport_ = DeviceTransport::host_staged;
  bool active_ = false;
  std::array<int, 3> low_{-1, -1, -1}, high_{-1, -1, -1};  // neighbour ranks, -1 for none

  int fields_reserved_ = 0;
  // Send slots: axis a, direction d (0 low, 1 high) at send_off_[a] + d * stride_[a] of one
  // buffer, so each axis keeps its own (an IPC neighbour may still be pulling one axis
  // while the next is packed); a slot holds bytes_[a] for the current field count. The
  // receive slots (d * recv_stride_) are shared by the axes, which unpack in turn.
  std::array<std::size_t, 3> send_off_{0, 0, 0}, stride_{0, 0, 0}, bytes_{0, 0, 0};
  std::size_t send_total_ = 0, recv_stride_ = 0;
  std::vector<unsigned char> host_send_, host_recv_;  // host fields
  void* dev_send_ = nullptr;                          // device fields
  void* dev_recv_ = nullptr;
  void* pinned_send_ = nullptr;  // host staging when MPI cannot take device pointers
  void* pinned_recv_ = nullptr;
  // IPC: each neighbour's send buffer mapped here (one mapping per neighbour rank), the
  // offset of the slab it sends us along (axis, direction), and whether the neighbour we
  // send to along (axis, direction) still owes the note that it has pulled our slab.
  std::map<int, void*> peer_send_;
  std::array<std::array<std::size_t, 2>, 3> peer_off_{};
  std::array<std::array<bool, 2>, 3> pull_pending_{};
  cuda::Stream stream_ = nullptr;
  cuda::Event ready_ = nullptr, done_ = nullptr;
  bool ready_marked_ = false;
};

}  // namespace fluxview::parallel
