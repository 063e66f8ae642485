#include "sim/core/GhostExchange.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/GhostPack.hpp"

#ifdef FLUXVIEW_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT and MPIX_Query_cuda_support
#endif
#endif

namespace fluxview::parallel {

namespace {

bool library_is_cuda_aware() {
#if defined(FLUXVIEW_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

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

}  // namespace

DeviceTransport device_transport() {
  static const DeviceTransport t = [] {
    if (const char* v = std::getenv("FLUXVIEW_MPI_CUDA_AWARE"); v && *v)
      return std::strcmp(v, "0") == 0 ? DeviceTransport::host_staged : DeviceTransport::cuda_aware;
    return library_is_cuda_aware() ? DeviceTransport::cuda_aware : DeviceTransport::host_staged;
  }();
  return t;
}

std::string_view to_string(DeviceTransport t) {
  return t == DeviceTransport::cuda_aware ? "cuda-aware MPI" : "staged through host memory";
}

GhostExchange::GhostExchange(const LocalBox& box, const FieldLayout& layout, Location where)
    : box_(box), layout_(layout), where_(where) {
  for (int a = 0; a < 3; ++a) {
    if (layout.ghost_along(a) == 0 || box.dims[a] == 1) continue;
    active_ = true;
    low_[a] = neighbour(a, -1);
    high_[a] = neighbour(a, +1);
  }
  if (active_ && where_ == Location::device) {
    stream_ = cuda::stream_create();
    ready_ = cuda::event_create();
    done_ = cuda::event_create();
  }
}

GhostExchange::~GhostExchange() {
  release();
}

void GhostExchange::release() noexcept {
  cuda::free_device(dev_send_);
  cuda::free_device(dev_recv_);
  cuda::free_pinned(pinned_send_);
  cuda::free_pinned(pinned_recv_);
  cuda::event_destroy(ready_);
  cuda::event_destroy(done_);
  cuda::stream_destroy(stream_);
  dev_send_ = dev_recv_ = pinned_send_ = pinned_recv_ = nullptr;
  ready_ = done_ = nullptr;
  stream_ = nullptr;
  capacity_ = 0;
}

GhostExchange::GhostExchange(GhostExchange&& o) noexcept {
  *this = std::move(o);
}

GhostExchange& GhostExchange::operator=(GhostExchange&& o) noexcept {
  if (this == &o) return *this;
  release();
  box_ = o.box_;
  layout_ = o.layout_;
  where_ = o.where_;
  active_ = std::exchange(o.active_, false);
  low_ = o.low_;
  high_ = o.high_;
  capacity_ = std::exchange(o.capacity_, 0);
  host_send_ = std::move(o.host_send_);
  host_recv_ = std::move(o.host_recv_);
  dev_send_ = std::exchange(o.dev_send_, nullptr);
  dev_recv_ = std::exchange(o.dev_recv_, nullptr);
  pinned_send_ = std::exchange(o.pinned_send_, nullptr);
  pinned_recv_ = std::exchange(o.pinned_recv_, nullptr);
  stream_ = std::exchange(o.stream_, nullptr);
  ready_ = std::exchange(o.ready_, nullptr);
  done_ = std::exchange(o.done_, nullptr);
  ready_marked_ = std::exchange(o.ready_marked_, false);
  return *this;
}

void GhostExchange::slab(int a, int first, std::array<int, 3>& lo, std::array<int, 3>& hi) const {
  for (int b = 0; b < 3; ++b) {
    lo[b] = -layout_.ghost_along(b);
    hi[b] = layout_.n[b] + layout_.ghost_along(b);
  }
  lo[a] = first;
  hi[a] = first + layout_.ghost_along(a);
}

std::size_t GhostExchange::slab_bytes(int a) const {
  std::array<int, 3> lo, hi;
  slab(a, 0, lo, hi);
  return std::size_t(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) * layout_.elem_bytes;
}

void GhostExchange::reserve(std::size_t bytes) {
  if (bytes <= capacity_) return;
  if (where_ == Location::host) {
    host_send_.resize(2 * bytes);
    host_recv_.resize(2 * bytes);
  } else {
    cuda::free_device(dev_send_);
    cuda::free_device(dev_recv_);
    cuda::free_pinned(pinned_send_);
    cuda::free_pinned(pinned_recv_);
    dev_send_ = dev_recv_ = pinned_send_ = pinned_recv_ = nullptr;
    dev_send_ = cuda::malloc_device(2 * bytes);
    dev_recv_ = cuda::malloc_device(2 * bytes);
    if (device_transport() == DeviceTransport::host_staged) {
      pinned_send_ = cuda::malloc_pinned(2 * bytes);
      pinned_recv_ = cuda::malloc_pinned(2 * bytes);
    }
  }
  capacity_ = bytes;
}

void GhostExchange::fields_ready() {
  if (!active_ || where_ != Location::device) return;
  cuda::event_record(ready_, nullptr);
  ready_marked_ = true;
}

void GhostExchange::exchange(void* const* fields, int nfields) {
  if (!active_) return;
  if (nfields < 1 || nfields > kMaxFields)
    throw std::logic_error("GhostExchange: between 1 and 8 fields at a time");
  std::size_t most = 0;
  for (int a = 0; a < 3; ++a)
    if (low_[a] >= 0 || high_[a] >= 0) most = std::max(most, slab_bytes(a) * nfields);
  reserve(most);
  if (where_ == Location::device) {
    if (!ready_marked_) fields_ready();
    cuda::stream_wait(stream_, ready_);
    ready_marked_ = false;
  }
  // x, then y, then z: a later axis sends slabs that include the ghosts an earlier axis
  // just filled, which is how edges and corners get their values.
  for (int a = 0; a < 3; ++a) {
    if (low_[a] < 0 && high_[a] < 0) continue;
    if (where_ == Location::device)
      exchange_axis_device(a, fields, nfields);
    else
      exchange_axis_host(a, fields, nfields);
  }
  if (where_ == Location::device) {
    cuda::event_record(done_, stream_);
    cuda::stream_wait(nullptr, done_);  // the solver's next kernels see the ghosts
  }
}

#ifdef FLUXVIEW_HAVE_MPI
namespace {
// Direction d: 0 sends the lowest interior layers down and receives the high ghosts
// from above; 1 the reverse. Tags keep the two apart when both neighbours are one rank.
void post(int a, void* send, void* recv, std::size_t bytes, int low, int high) {
  MPI_Request req[4];
  int nreq = 0;
  for (int d = 0; d < 2; ++d) {
    const int from = d == 0 ? high : low;
    if (from >= 0)
      MPI_Irecv(static_cast<unsigned char*>(recv) + d * bytes, int(bytes), MPI_BYTE, from,
                2 * a + d, MPI_COMM_WORLD, &req[nreq++]);
  }
  for (int d = 0; d < 2; ++d) {
    const int to = d == 0 ? low : high;
    if (to >= 0)
      MPI_Isend(static_cast<unsigned char*>(send) + d * bytes, int(bytes), MPI_BYTE, to, 2 * a + d,
                MPI_COMM_WORLD, &req[nreq++]);
  }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}
}  // namespace
#endif

void GhostExchange::exchange_axis_host(int a, void* const* fields, int nfields) {
#ifdef FLUXVIEW_HAVE_MPI
  const std::size_t fb = slab_bytes(a), bytes = fb * nfields;
  const int g = layout_.ghost_along(a), n = layout_.n[a];
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? low_[a] : high_[a]) < 0) continue;
    slab(a, d == 0 ? 0 : n - g, lo, hi);
    for (int f = 0; f < nfields; ++f)
      copy_box_host<true>(static_cast<unsigned char*>(fields[f]), layout_, lo, hi,
                          host_send_.data() + d * bytes + f * fb);
  }
  post(a, host_send_.data(), host_recv_.data(), bytes, low_[a], high_[a]);
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? high_[a] : low_[a]) < 0) continue;
    slab(a, d == 0 ? n : -g, lo, hi);
    for (int f = 0; f < nfields; ++f)
      copy_box_host<false>(static_cast<unsigned char*>(fields[f]), layout_, lo, hi,
                           host_recv_.data() + d * bytes + f * fb);
  }
#else
  (void)a;
  (void)fields;
  (void)nfields;
#endif
}

void GhostExchange::exchange_axis_device(int a, void* const* fields, int nfields) {
#ifdef FLUXVIEW_HAVE_MPI
  const std::size_t bytes = slab_bytes(a) * nfields;
  const int g = layout_.ghost_along(a), n = layout_.n[a];
  auto* dsend = static_cast<unsigned char*>(dev_send_);
  auto* drecv = static_cast<unsigned char*>(dev_recv_);
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? low_[a] : high_[a]) < 0) continue;
    slab(a, d == 0 ? 0 : n - g, lo, hi);
    cuda::pack_box(dsend + d * bytes, fields, nfields, layout_, lo, hi,
                   cuda::PackDirection::to_buffer, stream_);
  }
  const bool staged = device_transport() == DeviceTransport::host_staged;
  if (staged) cuda::memcpy_async(pinned_send_, dev_send_, 2 * bytes, stream_);
  cuda::stream_synchronize(stream_);  // only this stream: interior kernels keep running
  if (staged) {
    post(a, pinned_send_, pinned_recv_, bytes, low_[a], high_[a]);
    cuda::memcpy_async(dev_recv_, pinned_recv_, 2 * bytes, stream_);
  } else {
    post(a, dev_send_, dev_recv_, bytes, low_[a], high_[a]);
  }
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? high_[a] : low_[a]) < 0) continue;
    slab(a, d == 0 ? n : -g, lo, hi);
    cuda::pack_box(drecv + d * bytes, fields, nfields, layout_, lo, hi,
                   cuda::PackDirection::from_buffer, stream_);
  }
#else
  (void)a;
  (void)fields;
  (void)nfields;
#endif
}

}  // namespace fluxview::parallel
