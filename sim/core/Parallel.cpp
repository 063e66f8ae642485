#include "sim/core/Parallel.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"

#ifdef FLUXVIEW_HAVE_MPI
#include <mpi.h>
#endif

namespace fluxview::parallel {

namespace {

bool g_mpi = false;
int g_rank = 0, g_size = 1;
#ifdef FLUXVIEW_HAVE_MPI
MPI_Comm g_cart = MPI_COMM_NULL;

// mpirun (Open MPI, MPICH, Slurm) announces itself in the environment.
bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_NTASKS"})
    if (std::getenv(v)) return true;
  return false;
}

MPI_Datatype mpi_type(int elem_bytes) {
  return elem_bytes == 8 ? MPI_DOUBLE : MPI_FLOAT;
}
#endif

int local_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return 0;
}

// Copies the box [lo, hi) of a field (indices relative to the interior, ghosts
// included) to or from a contiguous host buffer, x fastest.
template <bool kPack>
void copy_box(unsigned char* data, const FieldLayout& l, Location where, std::array<int, 3> lo,
              std::array<int, 3> hi, std::vector<unsigned char>& buf) {
  const std::size_t eb = l.elem_bytes;
  const std::size_t row = std::size_t(hi[0] - lo[0]) * eb;
  std::size_t o = 0;
  for (int k = lo[2]; k < hi[2]; ++k) {
    unsigned char* plane = data + l.index(lo[0], lo[1], k) * eb;
    unsigned char* b = buf.data() + o;
    const std::size_t rows = std::size_t(hi[1] - lo[1]);
    if (where == Location::device) {
      if (kPack)
        cuda::memcpy_2d(b, row, plane, l.sy * eb, row, rows);
      else
        cuda::memcpy_2d(plane, l.sy * eb, b, row, row, rows);
    } else {
      for (std::size_t j = 0; j < rows; ++j) {
        if (kPack)
          std::memcpy(b + j * row, plane + j * l.sy * eb, row);
        else
          std::memcpy(plane + j * l.sy * eb, b + j * row, row);
      }
    }
    o += rows * row;
  }
}

}  // namespace

void init(int* argc, char*** argv) {
#ifdef FLUXVIEW_HAVE_MPI
  if (launched_by_mpirun()) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    g_mpi = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  }
#else
  (void)argc;
  (void)argv;
#endif
  if (g_size > 1 && cuda::device_count() > 0) cuda::set_device(local_rank() % cuda::device_count());
}

void finalize() {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    if (g_cart != MPI_COMM_NULL) MPI_Comm_free(&g_cart);
    MPI_Finalize();
    g_mpi = false;
  }
#endif
}

int rank() {
  return g_rank;
}
int size() {
  return g_size;
}

LocalBox split(std::array<int, 3> global_n, std::array<bool, 3> periodic, int min_cells) {
  LocalBox b;
  b.global_n = global_n;
  b.n = global_n;
  b.periodic = periodic;
  if (g_size == 1) return b;
#ifdef FLUXVIEW_HAVE_MPI
  int dims[3] = {0, 0, 0};
  for (int a = 0; a < 3; ++a)
    if (global_n[a] == 1) dims[a] = 1;  // never split a reduced axis
  MPI_Dims_create(g_size, 3, dims);
  int per[3] = {periodic[0], periodic[1], periodic[2]};
  if (g_cart != MPI_COMM_NULL) MPI_Comm_free(&g_cart);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, per, 0, &g_cart);
  int coords[3] = {0, 0, 0};
  MPI_Cart_coords(g_cart, g_rank, 3, coords);
  for (int a = 0; a < 3; ++a) {
    b.dims[a] = dims[a];
    b.coords[a] = coords[a];
    // Remainder cells go to the first ranks: sizes differ by at most one.
    const int base = global_n[a] / dims[a], extra = global_n[a] % dims[a];
    b.n[a] = base + (coords[a] < extra ? 1 : 0);
    min_cells = std::max(min_cells, 2);  // a box of one cell would read as a reduced axis
    b.offset[a] = coords[a] * base + std::min(coords[a], extra);
    if (dims[a] > 1 && base < min_cells)
      throw ConfigError("grid: " + std::to_string(global_n[a]) + " cells along axis " +
                        std::to_string(a) + " split over " + std::to_string(dims[a]) +
                        " ranks leave fewer than " + std::to_string(min_cells) +
                        " per rank (the stencil's width); use fewer ranks or a larger grid");
  }
#endif
  return b;
}

void exchange_ghosts(const LocalBox& box, void* data, const FieldLayout& l, Location where) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_size == 1 || g_cart == MPI_COMM_NULL) return;
  auto* base = static_cast<unsigned char*>(data);
  std::vector<unsigned char> send, recv;
  for (int a = 0; a < 3; ++a) {
    const int g = l.ghost_along(a);
    if (g == 0 || box.dims[a] == 1) continue;  // a periodic axis on one rank: the solver wraps it
    int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
    MPI_Cart_shift(g_cart, a, 1, &low, &high);
    // The slab spans the full allocated extent of the other axes, ghosts included, so
    // exchanging x, then y, then z also fills edges and corners.
    std::array<int, 3> lo, hi;
    for (int b = 0; b < 3; ++b) {
      lo[b] = -l.ghost_along(b);
      hi[b] = l.n[b] + l.ghost_along(b);
    }
    const std::size_t count =
        std::size_t(g) * (hi[(a + 1) % 3] - lo[(a + 1) % 3]) * (hi[(a + 2) % 3] - lo[(a + 2) % 3]);
    send.resize(count * l.elem_bytes);
    recv.resize(count * l.elem_bytes);
    for (int dir = 0; dir < 2; ++dir) {
      // dir 0: send my lowest interior layers down, receive my high ghosts from above.
      auto slab = [&](int first) {
        std::array<int, 3> s_lo = lo, s_hi = hi;
        s_lo[a] = first;
        s_hi[a] = first + g;
        return std::pair{s_lo, s_hi};
      };
      const auto [send_lo, send_hi] = slab(dir == 0 ? 0 : l.n[a] - g);
      const auto [recv_lo, recv_hi] = slab(dir == 0 ? l.n[a] : -g);
      const int to = dir == 0 ? low : high, from = dir == 0 ? high : low;
      if (to != MPI_PROC_NULL) copy_box<true>(base, l, where, send_lo, send_hi, send);
      MPI_Sendrecv(send.data(), int(count), mpi_type(l.elem_bytes), to, a * 2 + dir, recv.data(),
                   int(count), mpi_type(l.elem_bytes), from, a * 2 + dir, g_cart,
                   MPI_STATUS_IGNORE);
      if (from != MPI_PROC_NULL) copy_box<false>(base, l, where, recv_lo, recv_hi, recv);
    }
  }
#else
  (void)box;
  (void)data;
  (void)l;
  (void)where;
#endif
}

#ifdef FLUXVIEW_HAVE_MPI
#define FLUXVIEW_ALLREDUCE(v, type, op)                                      \
  do {                                                                       \
    if (g_mpi) MPI_Allreduce(MPI_IN_PLACE, &v, 1, type, op, MPI_COMM_WORLD); \
  } while (0)
#else
#define FLUXVIEW_ALLREDUCE(v, type, op) (void)v
#endif

double allreduce_max(double v) {
  FLUXVIEW_ALLREDUCE(v, MPI_DOUBLE, MPI_MAX);
  return v;
}
double allreduce_min(double v) {
  FLUXVIEW_ALLREDUCE(v, MPI_DOUBLE, MPI_MIN);
  return v;
}
double allreduce_sum(double v) {
  FLUXVIEW_ALLREDUCE(v, MPI_DOUBLE, MPI_SUM);
  return v;
}
std::int64_t allreduce_sum(std::int64_t v) {
  FLUXVIEW_ALLREDUCE(v, MPI_INT64_T, MPI_SUM);
  return v;
}

std::vector<int> allgather(const std::vector<int>& mine) {
  std::vector<int> all(mine.size() * std::size_t(g_size));
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    MPI_Allgather(mine.data(), int(mine.size()), MPI_INT, all.data(), int(mine.size()), MPI_INT,
                  MPI_COMM_WORLD);
    return all;
  }
#endif
  return mine;
}

std::int64_t broadcast(std::int64_t v) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) MPI_Bcast(&v, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
#endif
  return v;
}

void barrier() {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

// ---- Gathers to the root -------------------------------------------------------------

std::vector<float> gather_to_root(const std::vector<float>& mine, std::vector<int>* counts) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    // Counts and displacements are ints in MPI: refused on every rank alike, not just
    // the root, so that no rank is left waiting in the gather.
    const std::int64_t total = allreduce_sum(std::int64_t(mine.size()));
    if (total > std::numeric_limits<int>::max())
      throw std::runtime_error("gather_to_root: " + std::to_string(total) +
                               " values are more than one MPI_Gatherv can place");
    const int count = int(mine.size());
    std::vector<int> all_counts(g_rank == 0 ? std::size_t(g_size) : 0), displs(all_counts.size());
    MPI_Gather(&count, 1, MPI_INT, all_counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<float> all(g_rank == 0 ? std::size_t(total) : 0);
    for (std::size_t r = 1; r < displs.size(); ++r) displs[r] = displs[r - 1] + all_counts[r - 1];
    MPI_Gatherv(mine.data(), count, MPI_FLOAT, all.data(), all_counts.data(), displs.data(),
                MPI_FLOAT, 0, MPI_COMM_WORLD);
    if (counts) *counts = std::move(all_counts);
    return all;
  }
#endif
  if (counts) *counts = {int(mine.size())};
  return mine;
}

}  // namespace fluxview::parallel
