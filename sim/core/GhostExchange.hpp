#pragma once
// The ghost-layer exchange between neighbouring MPI ranks, for fields that share one
// layout. One object per solver keeps its staging buffers (and, on the CUDA backend,
// a stream and two events) from step to step, so an exchange allocates nothing.
//
// Device fields: each slab of every field is packed by a kernel into one contiguous
// device buffer, sent as one message per neighbour, and unpacked by a kernel. The
// buffers go to MPI directly where the library is CUDA-aware, else through page-locked
// host buffers (device_transport()). The packing runs on a stream of its own, so a
// solver that queues interior kernels between fields_ready() and exchange() has them
// run while the ghosts travel.
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::parallel {

// How device ghost layers travel between ranks.
enum class DeviceTransport { host_staged, cuda_aware };
// Decided once per process: cuda_aware when the MPI library reports CUDA support at run
// time (Open MPI's MPIX_Query_cuda_support), unless the environment variable
// FLUXVIEW_MPI_CUDA_AWARE=0 or =1 says otherwise. Forcing 1 on a library without CUDA
// support crashes inside MPI.
DeviceTransport device_transport();
std::string_view to_string(DeviceTransport t);

class GhostExchange {
 public:
  static constexpr int kMaxFields = 8;

  GhostExchange() = default;
  GhostExchange(const LocalBox& box, const FieldLayout& layout, Location where);
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
  // it. Host fields are filled on return; device fields are filled for every kernel
  // queued on the default stream after the call.
  void exchange(void* const* fields, int nfields);

 private:
  void release() noexcept;
  void exchange_axis_host(int a, void* const* fields, int nfields);
  void exchange_axis_device(int a, void* const* fields, int nfields);
  // The slab of ghost width along axis a, over the full allocated extent of the others:
  // send slabs start in the interior, receive slabs in the ghosts.
  void slab(int a, int first, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
  std::size_t slab_bytes(int a) const;  // of one field
  void reserve(std::size_t bytes);      // per direction, all fields

  LocalBox box_;
  FieldLayout layout_;
  Location where_ = Location::host;
  bool active_ = false;
  std::array<int, 3> low_{-1, -1, -1}, high_{-1, -1, -1};  // neighbour ranks, -1 for none

  std::size_t capacity_ = 0;                          // bytes per direction
  std::vector<unsigned char> host_send_, host_recv_;  // host fields
  void* dev_send_ = nullptr;                          // device fields: 2 * capacity_
  void* dev_recv_ = nullptr;
  void* pinned_send_ = nullptr;  // host staging when MPI is not CUDA-aware
  void* pinned_recv_ = nullptr;
  cuda::Stream stream_ = nullptr;
  cuda::Event ready_ = nullptr, done_ = nullptr;
  bool ready_marked_ = false;
};

}  // namespace fluxview::parallel
