// Host fields: each slab is copied row by row into a contiguous buffer, sent through MPI,
// and copied back row by row into the ghosts (GhostTransport.hpp).
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/core/GhostTransport.hpp"

namespace fluxview::parallel {

namespace {

// Copies the box [lo, hi) of a host field to or from a contiguous buffer, x fastest.
template <bool kPack>
void copy_box_host(unsigned char* data, const FieldLayout& l, std::array<int, 3> lo,
                   std::array<int, 3> hi, unsigned char* buf) {
  const std::size_t eb = l.elem_bytes;
  const std::size_t row = std::size_t(hi[0] - lo[0]) * eb;
  for (int k = lo[2]; k < hi[2]; ++k)
    for (int j = lo[1]; j < hi[1]; ++j, buf += row) {
      unsigned char* p = data + l.index(lo[0], j, k) * eb;
      if (kPack)
        std::memcpy(buf, p, row);
      else
        std::memcpy(p, buf, row);
    }
}

class HostTransport final : public GhostTransport {
 public:
  void resize(const SlabPlan& plan) override {
    send_.resize(plan.send_total);
    recv_.resize(2 * plan.recv_stride);
  }

  void exchange_axis(const SlabPlan& plan, int a, void* const* fields, int nfields) override {
    const std::size_t fb = plan.slab_bytes(a);
    unsigned char* send = send_.data() + plan.send_off[a];
    std::array<int, 3> lo, hi;
    for (int d = 0; d < 2; ++d) {
      if ((d == 0 ? plan.low[a] : plan.high[a]) < 0) continue;
      plan.send_slab(a, d, lo, hi);
      for (int f = 0; f < nfields; ++f)
        copy_box_host<true>(static_cast<unsigned char*>(fields[f]), plan.layout, lo, hi,
                            send + d * plan.stride[a] + f * fb);
    }
    post(a, send, plan.stride[a], recv_.data(), plan.recv_stride, plan.bytes[a],
         {plan.low[a], plan.high[a]}, {plan.high[a], plan.low[a]});
    for (int d = 0; d < 2; ++d) {
      if ((d == 0 ? plan.high[a] : plan.low[a]) < 0) continue;
      plan.recv_slab(a, d, lo, hi);
      for (int f = 0; f < nfields; ++f)
        copy_box_host<false>(static_cast<unsigned char*>(fields[f]), plan.layout, lo, hi,
                             recv_.data() + d * plan.recv_stride + f * fb);
    }
  }

 private:
  std::vector<unsigned char> send_, recv_;
};

}  // namespace

std::unique_ptr<GhostTransport> make_host_transport() {
  return std::make_unique<HostTransport>();
}

}  // namespace fluxview::parallel
