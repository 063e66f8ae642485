#pragma once
// The device buffers of the packed slabs and the kernels that fill and empty them, shared
// by the two device transports (GhostDeviceTransport.cpp, GhostIpcTransport.cpp). Private
// to sim/core.
#include "sim/core/GhostTransport.hpp"

namespace fluxview::parallel {

struct DeviceSlabs {
  void* send = nullptr;  // plan.send_total bytes: every axis's two send slots
  void* recv = nullptr;  // two receive slots of plan.recv_stride
  void resize(const SlabPlan& plan);
  void free() noexcept;
  // The slabs of axis a going to each neighbour, packed into their send slots.
  void pack(const SlabPlan& plan, int a, void* const* fields, int nfields, cuda::Stream stream);
  // The received slabs of axis a, unpacked into the ghosts.
  void unpack(const SlabPlan& plan, int a, void* const* fields, int nfields, cuda::Stream stream);
};

}  // namespace fluxview::parallel
