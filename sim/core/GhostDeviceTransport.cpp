// Device fields through MPI (GhostTransport.hpp): the slabs of every field packed by a
// kernel into one device buffer, then either handed to a CUDA-aware MPI as device
// pointers or staged through page-locked host buffers, and unpacked by a kernel. Also the
// packing that the IPC transport shares (GhostDeviceSlabs.hpp).
#include <array>
#include <cstddef>
#include <memory>

#include "sim/core/GhostDeviceSlabs.hpp"
#include "sim/core/GhostPack.hpp"

namespace fluxview::parallel {

void DeviceSlabs::resize(const SlabPlan& plan) {
  free();
  send = cuda::malloc_device(plan.send_total);
  recv = cuda::malloc_device(2 * plan.recv_stride);
}

void DeviceSlabs::free() noexcept {
  cuda::free_device(send);
  cuda::free_device(recv);
  send = recv = nullptr;
}

void DeviceSlabs::pack(const SlabPlan& plan, int a, void* const* fields, int nfields,
                       cuda::Stream stream) {
  auto* out = static_cast<unsigned char*>(send) + plan.send_off[a];
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? plan.low[a] : plan.high[a]) < 0) continue;
    plan.send_slab(a, d, lo, hi);
    cuda::pack_box(out + d * plan.stride[a], fields, nfields, plan.layout, lo, hi,
                   cuda::PackDirection::to_buffer, stream);
  }
}

void DeviceSlabs::unpack(const SlabPlan& plan, int a, void* const* fields, int nfields,
                         cuda::Stream stream) {
  auto* in = static_cast<unsigned char*>(recv);
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? plan.high[a] : plan.low[a]) < 0) continue;
    plan.recv_slab(a, d, lo, hi);
    cuda::pack_box(in + d * plan.recv_stride, fields, nfields, plan.layout, lo, hi,
                   cuda::PackDirection::from_buffer, stream);
  }
}

namespace {

class DeviceTransport final : public GhostTransport {
 public:
  DeviceTransport(cuda::Stream stream, bool staged) : stream_(stream), staged_(staged) {}
  ~DeviceTransport() override { free(); }

  void resize(const SlabPlan& plan) override {
    free();
    slabs_.resize(plan);
    if (staged_) {
      pinned_send_ = cuda::malloc_pinned(plan.send_total);
      pinned_recv_ = cuda::malloc_pinned(2 * plan.recv_stride);
    }
  }

  void exchange_axis(const SlabPlan& plan, int a, void* const* fields, int nfields) override {
    const std::size_t bytes = plan.bytes[a], span = plan.stride[a] + bytes;  // both slots
    slabs_.pack(plan, a, fields, nfields, stream_);
    auto* send = static_cast<unsigned char*>(slabs_.send) + plan.send_off[a];
    auto* psend = static_cast<unsigned char*>(pinned_send_);
    auto* precv = static_cast<unsigned char*>(pinned_recv_);
    if (staged_) cuda::memcpy_async(psend, send, span, stream_);
    cuda::stream_synchronize(stream_);  // only this stream: interior kernels keep running
    const std::array<int, 2> to{plan.low[a], plan.high[a]}, from{plan.high[a], plan.low[a]};
    if (staged_) {
      post(a, psend, plan.stride[a], precv, plan.recv_stride, bytes, to, from);
      cuda::memcpy_async(slabs_.recv, precv, plan.recv_stride + bytes, stream_);
    } else {
      post(a, send, plan.stride[a], static_cast<unsigned char*>(slabs_.recv), plan.recv_stride,
           bytes, to, from);
    }
    slabs_.unpack(plan, a, fields, nfields, stream_);
  }

 private:
  void free() noexcept {
    slabs_.free();
    cuda::free_pinned(pinned_send_);
    cuda::free_pinned(pinned_recv_);
    pinned_send_ = pinned_recv_ = nullptr;
  }

  cuda::Stream stream_;
  bool staged_;
  DeviceSlabs slabs_;
  void* pinned_send_ = nullptr;  // host staging when MPI cannot take device pointers
  void* pinned_recv_ = nullptr;
};

}  // namespace

std::unique_ptr<GhostTransport> make_device_transport(cuda::Stream stream, bool staged) {
  return std::make_unique<DeviceTransport>(stream, staged);
}

}  // namespace fluxview::parallel
