#include "sim/core/GhostExchange.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ConfigError.hpp"

#ifdef FLUXVIEW_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT and MPIX_Query_cuda_support
#endif
#endif

namespace fluxview::parallel {

namespace {

DeviceTransport g_last_transport = DeviceTransport::host_staged;

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

// ---- the plan of the slabs ---------------------------------------------------------------

void SlabPlan::slab(int a, int first, std::array<int, 3>& lo, std::array<int, 3>& hi) const {
  for (int b = 0; b < 3; ++b) {
    lo[b] = -layout.ghost_along(b);
    hi[b] = layout.n[b] + layout.ghost_along(b);
  }
  lo[a] = first;
  hi[a] = first + layout.ghost_along(a);
}

std::size_t SlabPlan::slab_bytes(int a) const {
  std::array<int, 3> lo, hi;
  slab(a, 0, lo, hi);
  return std::size_t(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) * layout.elem_bytes;
}

void SlabPlan::send_slab(int a, int d, std::array<int, 3>& lo, std::array<int, 3>& hi) const {
  slab(a, d == 0 ? 0 : layout.n[a] - layout.ghost_along(a), lo, hi);
}

void SlabPlan::recv_slab(int a, int d, std::array<int, 3>& lo, std::array<int, 3>& hi) const {
  slab(a, d == 0 ? layout.n[a] : -layout.ghost_along(a), lo, hi);
}

#ifdef FLUXVIEW_HAVE_MPI
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
#else
void post(int, unsigned char*, std::size_t, unsigned char*, std::size_t, std::size_t,
          const std::array<int, 2>&, const std::array<int, 2>&) {}
#endif

// ---- the exchange ----------------------------------------------------------------------

GhostExchange::GhostExchange(const LocalBox& box, const FieldLayout& layout, Location where,
                             GhostTransportChoice transport)
    : box_(box), where_(where) {
  plan_.layout = layout;
  for (int a = 0; a < 3; ++a) {
    if (layout.ghost_along(a) == 0 || box.dims[a] == 1) continue;
    active_ = true;
    plan_.low[a] = neighbour(a, -1);
    plan_.high[a] = neighbour(a, +1);
  }
  if (!active_) return;
  if (where_ == Location::host) {
    transport_ = make_host_transport();
    return;
  }
  const DeviceTransport chosen = choose_transport(transport, plan_.low, plan_.high);
  g_last_transport = chosen;
  stream_ = cuda::stream_create();
  ready_ = cuda::event_create();
  done_ = cuda::event_create();
  transport_ = chosen == DeviceTransport::peer_ipc
                   ? make_ipc_transport(stream_)
                   : make_device_transport(stream_, chosen == DeviceTransport::host_staged);
}

GhostExchange::~GhostExchange() {
  release();
}

void GhostExchange::release() noexcept {
  transport_.reset();  // first: an IPC transport collects its neighbours' last notes
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
  where_ = o.where_;
  active_ = std::exchange(o.active_, false);
  plan_ = o.plan_;
  fields_reserved_ = std::exchange(o.fields_reserved_, 0);
  transport_ = std::move(o.transport_);
  stream_ = std::exchange(o.stream_, nullptr);
  ready_ = std::exchange(o.ready_, nullptr);
  done_ = std::exchange(o.done_, nullptr);
  ready_marked_ = std::exchange(o.ready_marked_, false);
  return *this;
}

void GhostExchange::reserve(int nfields) {
  for (int a = 0; a < 3; ++a) plan_.bytes[a] = plan_.slab_bytes(a) * nfields;
  if (nfields <= fields_reserved_) return;
  // Axis by axis: the two send slots of each axis (room for nfields fields each, 256-byte
  // aligned); the receive slots of the largest axis, shared by all.
  std::size_t off = 0, most = 0;
  for (int a = 0; a < 3; ++a) {
    const bool neighbours = plan_.low[a] >= 0 || plan_.high[a] >= 0;
    const std::size_t b = neighbours ? plan_.slab_bytes(a) * nfields : 0;
    plan_.stride[a] = (b + 255) / 256 * 256;
    plan_.send_off[a] = off;
    off += 2 * plan_.stride[a];
    most = std::max(most, plan_.stride[a]);
  }
  plan_.send_total = off;
  plan_.recv_stride = most;
  transport_->resize(plan_);
  fields_reserved_ = nfields;
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
  for (int a = 0; a < 3; ++a)
    if (plan_.low[a] >= 0 || plan_.high[a] >= 0)
      transport_->exchange_axis(plan_, a, fields, nfields);
  if (where_ == Location::device) {
    cuda::event_record(done_, stream_);
    cuda::stream_wait(nullptr, done_);  // the solver's next kernels see the ghosts
  }
}

}  // namespace fluxview::parallel
