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
// ghosts travel. Each transport is one file behind one interface (GhostTransport.hpp).
#include <array>
#include <memory>
#include <string_view>

#include "sim/core/CommonConfig.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/GhostTransport.hpp"
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
  static constexpr int kMaxFields = 10;  // MHD with a tracer has ten

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
  // Sizes the plan for `nfields` fields; the transport's buffers grow only when a larger
  // field count than ever before comes, which every rank sees at the same call.
  void reserve(int nfields);

  LocalBox box_;
  Location where_ = Location::host;
  bool active_ = false;
  SlabPlan plan_;
  int fields_reserved_ = 0;
  std::unique_ptr<GhostTransport> transport_;
  cuda::Stream stream_ = nullptr;  // device fields: packing, copies and unpacking
  cuda::Event ready_ = nullptr, done_ = nullptr;
  bool ready_marked_ = false;
};

}  // namespace fluxview::parallel
