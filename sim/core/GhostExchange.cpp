#include "sim/core/GhostExchange.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/ConfigError.hpp"
#include "sim/core/GhostPack.hpp"

#ifdef FLUXVIEW_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT and MPIX_Query_cuda_support
#endif
#endif

namespace fluxview::parallel {

namespace {

DeviceTransport g_last_transport = DeviceTransport::host_staged;

// Tags of the IPC notes: "my slab along (a, d) is packed" and "I have pulled it".
constexpr int kTagData = 0, kTagReady = 16, kTagPulled = 32;
int tag(int base, int a, int d) {
  return base + 2 * a + d;
}

bool library_is_cuda_aware() {
#if defined(FLUXVIEW_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

// True on every rank when each rank's neighbours run on its own node (the processor
// names agree), so that CUDA IPC can reach their buffers. Collective.
bool neighbours_on_this_node(const std::array<int, 3>& low, const std::array<int, 3>& high) {
#ifdef FLUXVIEW_HAVE_MPI
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(std::size_t(size()) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, MPI_COMM_WORLD);
  int local = 1;
  for (int a = 0; a < 3; ++a)
    for (int r : {low[a], high[a]})
      if (r >= 0 && std::strncmp(name, &all[std::size_t(r) * MPI_MAX_PROCESSOR_NAME],
                                 MPI_MAX_PROCESSOR_NAME) != 0)
        local = 0;
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return local == 1;
#else
  (void)low;
  (void)high;
  return false;
#endif
}

DeviceTransport choose_transport(GhostTransportChoice choice, const std::array<int, 3>& low,
                                 const std::array<int, 3>& high) {
  if (choice == GhostTransportChoice::host) return DeviceTransport::host_staged;
  if (choice == GhostTransportChoice::mpi) return DeviceTransport::cuda_aware;
  const bool local = neighbours_on_this_node(low, high);  // collective: always asked
  if (choice == GhostTransportChoice::ipc) {
    if (!local)
      throw ConfigError(
          "run.ghosts = ipc: some MPI ranks have neighbours on another node; allowed there: "
          "auto, host or mpi");
    return DeviceTransport::peer_ipc;
  }
  if (library_is_cuda_aware()) return DeviceTransport::cuda_aware;
  return local ? DeviceTransport::peer_ipc : DeviceTransport::host_staged;
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

#ifdef FLUXVIEW_HAVE_MPI
// Both directions of one axis through MPI: direction d sends slab d (0: my lowest
// interior layers, to the low neighbour) and receives into slot d (0: from the high
// neighbour, for my high ghosts).
// Slot d of `send` starts at d * send_stride, slot d of `recv` at d * recv_stride.
void post(int a, unsigned char* send, std::size_t send_stride, unsigned char* recv,
          std::size_t recv_stride, std::size_t bytes, const std::array<int, 2>& to,
          const std::array<int, 2>& from) {
  MPI_Request req[4];
  int nreq = 0;
  for (int d = 0; d < 2; ++d)
    if (from[d] >= 0)
      MPI_Irecv(recv + d * recv_stride, int(bytes), MPI_BYTE, from[d], tag(kTagData, a, d),
                MPI_COMM_WORLD, &req[nreq++]);
  for (int d = 0; d < 2; ++d)
    if (to[d] >= 0)
      MPI_Isend(send + d * send_stride, int(bytes), MPI_BYTE, to[d], tag(kTagData, a, d),
                MPI_COMM_WORLD, &req[nreq++]);
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}
#endif

}  // namespace

std::string_view to_string(DeviceTransport t) {
  switch (t) {
    case DeviceTransport::cuda_aware:
      return "device buffers handed to CUDA-aware MPI";
    case DeviceTransport::peer_ipc:
      return "device to device through CUDA IPC (ranks on one node)";
    case DeviceTransport::host_staged:
      break;
  }
  return "staged through page-locked host memory";
}

DeviceTransport device_transport() {
  return g_last_transport;
}

GhostExchange::GhostExchange(const LocalBox& box, const FieldLayout& layout, Location where,
                             GhostTransportChoice transport)
    : box_(box), layout_(layout), where_(where) {
  for (int a = 0; a < 3; ++a) {
    if (layout.ghost_along(a) == 0 || box.dims[a] == 1) continue;
    active_ = true;
    low_[a] = neighbour(a, -1);
    high_[a] = neighbour(a, +1);
  }
  if (active_ && where_ == Location::device) {
    transport_ = choose_transport(transport, low_, high_);
    g_last_transport = transport_;
    stream_ = cuda::stream_create();
    ready_ = cuda::event_create();
    done_ = cuda::event_create();
  }
}

GhostExchange::~GhostExchange() {
  release();
}

void GhostExchange::drain_pulled() noexcept {
#ifdef FLUXVIEW_HAVE_MPI
  // Neighbours send their "pulled" notes before their exchange() returns; collect them so
  // that no note is left for a later exchange to mistake for its own, and no neighbour is
  // still reading a send buffer that is about to be freed.
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 2; ++d)
      if (pull_pending_[a][d])
        MPI_Recv(nullptr, 0, MPI_BYTE, d == 0 ? low_[a] : high_[a], tag(kTagPulled, a, d),
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
  pull_pending_ = {};
}

void GhostExchange::free_buffers() noexcept {
  drain_pulled();
  for (auto& [rank, p] : peer_send_) cuda::ipc_close(p);
  peer_send_.clear();
  cuda::free_device(dev_send_);
  cuda::free_device(dev_recv_);
  cuda::free_pinned(pinned_send_);
  cuda::free_pinned(pinned_recv_);
  dev_send_ = dev_recv_ = pinned_send_ = pinned_recv_ = nullptr;
}

void GhostExchange::release() noexcept {
  free_buffers();
  cuda::event_destroy(ready_);
  cuda::event_destroy(done_);
  cuda::stream_destroy(stream_);
  ready_ = done_ = nullptr;
  stream_ = nullptr;
  fields_reserved_ = 0;
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
  transport_ = o.transport_;
  active_ = std::exchange(o.active_, false);
  low_ = o.low_;
  high_ = o.high_;
  fields_reserved_ = std::exchange(o.fields_reserved_, 0);
  send_off_ = o.send_off_;
  bytes_ = o.bytes_;
  stride_ = o.stride_;
  send_total_ = o.send_total_;
  recv_stride_ = o.recv_stride_;
  host_send_ = std::move(o.host_send_);
  host_recv_ = std::move(o.host_recv_);
  dev_send_ = std::exchange(o.dev_send_, nullptr);
  dev_recv_ = std::exchange(o.dev_recv_, nullptr);
  pinned_send_ = std::exchange(o.pinned_send_, nullptr);
  pinned_recv_ = std::exchange(o.pinned_recv_, nullptr);
  peer_send_ = std::exchange(o.peer_send_, {});
  peer_off_ = o.peer_off_;
  pull_pending_ = std::exchange(o.pull_pending_, {});
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

void GhostExchange::reserve(int nfields) {
  for (int a = 0; a < 3; ++a) bytes_[a] = slab_bytes(a) * nfields;
  if (nfields <= fields_reserved_) return;
  // Axis by axis: the two send slots of each axis (room for nfields fields each, 256-byte
  // aligned); the receive slots of the largest axis, shared by all.
  std::size_t off = 0, most = 0;
  for (int a = 0; a < 3; ++a) {
    const std::size_t b = (low_[a] >= 0 || high_[a] >= 0) ? slab_bytes(a) * nfields : 0;
    stride_[a] = (b + 255) / 256 * 256;
    send_off_[a] = off;
    off += 2 * stride_[a];
    most = std::max(most, stride_[a]);
  }
  send_total_ = off;
  recv_stride_ = most;
  if (where_ == Location::host) {
    host_send_.resize(send_total_);
    host_recv_.resize(2 * recv_stride_);
  } else {
    free_buffers();
    dev_send_ = cuda::malloc_device(send_total_);
    dev_recv_ = cuda::malloc_device(2 * recv_stride_);
    if (transport_ == DeviceTransport::host_staged) {
      pinned_send_ = cuda::malloc_pinned(send_total_);
      pinned_recv_ = cuda::malloc_pinned(2 * recv_stride_);
    }
    if (transport_ == DeviceTransport::peer_ipc) share_send_buffer();
  }
  fields_reserved_ = nfields;
}

// Each rank sends, to the neighbour that will pull its slab (a, d), the IPC handle of its
// send buffer and where in it that slab starts; each maps its neighbours' buffers once.
void GhostExchange::share_send_buffer() {
#ifdef FLUXVIEW_HAVE_MPI
  struct Note {
    cuda::IpcHandle handle;
    std::uint64_t offset;
  };
  const cuda::IpcHandle mine = cuda::ipc_handle(dev_send_);
  for (int a = 0; a < 3; ++a) {
    const std::array<int, 2> to{low_[a], high_[a]}, from{high_[a], low_[a]};
    Note out[2], in[2];
    for (int d = 0; d < 2; ++d) out[d] = {mine, send_off_[a] + d * stride_[a]};
    post(a, reinterpret_cast<unsigned char*>(out), sizeof(Note),
         reinterpret_cast<unsigned char*>(in), sizeof(Note), sizeof(Note), to, from);
    for (int d = 0; d < 2; ++d) {
      if (from[d] < 0) continue;
      if (!peer_send_.count(from[d])) peer_send_[from[d]] = cuda::ipc_open(in[d].handle);
      peer_off_[a][d] = in[d].offset;
    }
  }
#endif
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
  reserve(nfields);
  if (where_ == Location::device) {
    if (!ready_marked_) fields_ready();
    cuda::stream_wait(stream_, ready_);
    ready_marked_ = false;
  }
  // x, then y, then z: a later axis sends slabs that include the ghosts an earlier axis
  // just filled, which is how edges and corners get their values.
  for (int a = 0; a < 3; ++a) {
    if (low_[a] < 0 && high_[a] < 0) continue;
    if (where_ == Location::host)
      exchange_axis_host(a, fields, nfields);
    else if (transport_ == DeviceTransport::peer_ipc)
      exchange_axis_ipc(a, fields, nfields);
    else
      exchange_axis_device(a, fields, nfields);
  }
  if (where_ == Location::device) {
    cuda::event_record(done_, stream_);
    cuda::stream_wait(nullptr, done_);  // the solver's next kernels see the ghosts
  }
}

#ifdef FLUXVIEW_HAVE_MPI
// The exchanges of one axis talk to MPI; without it no axis is split (one rank), so they
// are never called.
void GhostExchange::exchange_axis_host(int a, void* const* fields, int nfields) {
  const std::size_t fb = slab_bytes(a);
  const int g = layout_.ghost_along(a), n = layout_.n[a];
  unsigned char* send = host_send_.data() + send_off_[a];
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? low_[a] : high_[a]) < 0) continue;
    slab(a, d == 0 ? 0 : n - g, lo, hi);
    for (int f = 0; f < nfields; ++f)
      copy_box_host<true>(static_cast<unsigned char*>(fields[f]), layout_, lo, hi,
                          send + d * stride_[a] + f * fb);
  }
  post(a, send, stride_[a], host_recv_.data(), recv_stride_, bytes_[a], {low_[a], high_[a]},
       {high_[a], low_[a]});
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? high_[a] : low_[a]) < 0) continue;
    slab(a, d == 0 ? n : -g, lo, hi);
    for (int f = 0; f < nfields; ++f)
      copy_box_host<false>(static_cast<unsigned char*>(fields[f]), layout_, lo, hi,
                           host_recv_.data() + d * recv_stride_ + f * fb);
  }
}

void GhostExchange::pack_device(int a, void* const* fields, int nfields) {
  const int g = layout_.ghost_along(a), n = layout_.n[a];
  auto* send = static_cast<unsigned char*>(dev_send_) + send_off_[a];
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? low_[a] : high_[a]) < 0) continue;
    slab(a, d == 0 ? 0 : n - g, lo, hi);
    cuda::pack_box(send + d * stride_[a], fields, nfields, layout_, lo, hi,
                   cuda::PackDirection::to_buffer, stream_);
  }
}

void GhostExchange::unpack_device(int a, void* const* fields, int nfields) {
  const int g = layout_.ghost_along(a), n = layout_.n[a];
  auto* recv = static_cast<unsigned char*>(dev_recv_);
  std::array<int, 3> lo, hi;
  for (int d = 0; d < 2; ++d) {
    if ((d == 0 ? high_[a] : low_[a]) < 0) continue;
    slab(a, d == 0 ? n : -g, lo, hi);
    cuda::pack_box(recv + d * recv_stride_, fields, nfields, layout_, lo, hi,
                   cuda::PackDirection::from_buffer, stream_);
  }
}

void GhostExchange::exchange_axis_device(int a, void* const* fields, int nfields) {
  const std::size_t bytes = bytes_[a], span = stride_[a] + bytes;  // both slots
  pack_device(a, fields, nfields);
  auto* send = static_cast<unsigned char*>(dev_send_) + send_off_[a];
  const bool staged = transport_ == DeviceTransport::host_staged;
  auto* psend = static_cast<unsigned char*>(pinned_send_);
  auto* precv = static_cast<unsigned char*>(pinned_recv_);
  if (staged) cuda::memcpy_async(psend, send, span, stream_);
  cuda::stream_synchronize(stream_);  // only this stream: interior kernels keep running
  if (staged) {
    post(a, psend, stride_[a], precv, recv_stride_, bytes, {low_[a], high_[a]},
         {high_[a], low_[a]});
    cuda::memcpy_async(dev_recv_, precv, recv_stride_ + bytes, stream_);
  } else {
    post(a, send, stride_[a], static_cast<unsigned char*>(dev_recv_), recv_stride_, bytes,
         {low_[a], high_[a]}, {high_[a], low_[a]});
  }
  unpack_device(a, fields, nfields);
}

// Ranks on one node: each pulls its neighbours' packed slabs device to device (peer
// copies over NVLink or PCIe); MPI carries two empty notes per slab. "ready" says a slab
// is packed; "pulled" says it has been copied, so the sender may pack that axis again
// (collected at the next exchange of the axis, by when it has long arrived).
void GhostExchange::exchange_axis_ipc(int a, void* const* fields, int nfields) {
  const std::array<int, 2> to{low_[a], high_[a]}, from{high_[a], low_[a]};
  for (int d = 0; d < 2; ++d)
    if (pull_pending_[a][d]) {
      MPI_Recv(nullptr, 0, MPI_BYTE, to[d], tag(kTagPulled, a, d), MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      pull_pending_[a][d] = false;
    }
  pack_device(a, fields, nfields);
  cuda::stream_synchronize(stream_);
  for (int d = 0; d < 2; ++d)
    if (to[d] >= 0) MPI_Send(nullptr, 0, MPI_BYTE, to[d], tag(kTagReady, a, d), MPI_COMM_WORLD);
  auto* recv = static_cast<unsigned char*>(dev_recv_);
  for (int d = 0; d < 2; ++d)
    if (from[d] >= 0) {
      MPI_Recv(nullptr, 0, MPI_BYTE, from[d], tag(kTagReady, a, d), MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      const auto* src = static_cast<const unsigned char*>(peer_send_.at(from[d])) + peer_off_[a][d];
      cuda::memcpy_async(recv + d * recv_stride_, src, bytes_[a], stream_);
    }
  cuda::stream_synchronize(stream_);
  for (int d = 0; d < 2; ++d)
    if (from[d] >= 0)
      MPI_Send(nullptr, 0, MPI_BYTE, from[d], tag(kTagPulled, a, d), MPI_COMM_WORLD);
  for (int d = 0; d < 2; ++d) pull_pending_[a][d] = to[d] >= 0;
  unpack_device(a, fields, nfields);
}

#else
void GhostExchange::exchange_axis_host(int, void* const*, int) {}
void GhostExchange::exchange_axis_device(int, void* const*, int) {}
void GhostExchange::exchange_axis_ipc(int, void* const*, int) {}
#endif

}  // namespace fluxview::parallel
