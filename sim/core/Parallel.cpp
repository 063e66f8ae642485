#include "sim/core/Parallel.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
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
std::array<int, 3> g_requested_dims{0, 0, 0};
std::array<int, 3> g_dims{1, 1, 1};
#ifdef FLUXVIEW_HAVE_MPI
MPI_Comm g_cart = MPI_COMM_NULL;

// mpirun (Open MPI, MPICH, Slurm) announces itself in the environment.
bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_NTASKS"})
    if (std::getenv(v)) return true;
  return false;
}

#endif

int local_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return 0;
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
  int dims[3] = {1, 1, 1};
  if (g_requested_dims != std::array<int, 3>{0, 0, 0}) {
    for (int a = 0; a < 3; ++a) {  // the product was checked by set_requested_dims
      dims[a] = g_requested_dims[a];
      if (global_n[a] == 1 && dims[a] != 1)
        throw ConfigError("--mpi-dims: axis " + std::to_string(a) +
                          " has a single cell and cannot be split; give it 1 rank");
    }
  } else {
    // MPI_Dims_create returns its factors largest first; they go to z, y, x in turn
    // (skipping single-cell axes, which are never split).
    int free_axes[3], nfree = 0, factors[3] = {0, 0, 0};
    for (int a = 2; a >= 0; --a)
      if (global_n[a] > 1) free_axes[nfree++] = a;
    if (nfree > 0) {
      MPI_Dims_create(g_size, nfree, factors);
      for (int q = 0; q < nfree; ++q) dims[free_axes[q]] = factors[q];
    } else {
      dims[2] = g_size;  // a single cell: refused below by the per-rank minimum
    }
  }
  int per[3] = {periodic[0], periodic[1], periodic[2]};
  if (g_cart != MPI_COMM_NULL) MPI_Comm_free(&g_cart);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, per, 0, &g_cart);
  int coords[3] = {0, 0, 0};
  MPI_Cart_coords(g_cart, g_rank, 3, coords);
  g_dims = {dims[0], dims[1], dims[2]};
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

int neighbour(int axis, int dir) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_size == 1 || g_cart == MPI_COMM_NULL) return -1;
  int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
  MPI_Cart_shift(g_cart, axis, 1, &low, &high);
  const int r = dir < 0 ? low : high;
  return r == MPI_PROC_NULL ? -1 : r;  // ranks of g_cart are those of MPI_COMM_WORLD
#else
  (void)axis;
  (void)dir;
  return -1;
#endif
}

void set_requested_dims(std::array<int, 3> dims) {
  const long long product = (long long)dims[0] * dims[1] * dims[2];
  if (product != g_size)
    throw ConfigError("--mpi-dims " + std::to_string(dims[0]) + "," + std::to_string(dims[1]) +
                      "," + std::to_string(dims[2]) + " makes " + std::to_string(product) +
                      " ranks but the run has " + std::to_string(g_size) +
                      "; the three factors must multiply to the rank count" +
                      (g_size == 1 ? " (start it with mpirun -np N)" : ""));
  g_requested_dims = dims;
}
std::array<int, 3> dims() {
  return g_dims;
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

template <class T>
void allreduce_sum_array(T* v, std::size_t n) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    constexpr std::size_t kChunk = std::size_t(1) << 28;
    const MPI_Datatype type = sizeof(T) == 8 ? MPI_DOUBLE : MPI_FLOAT;
    for (std::size_t o = 0; o < n; o += kChunk)
      MPI_Allreduce(MPI_IN_PLACE, v + o, int(std::min(kChunk, n - o)), type, MPI_SUM,
                    MPI_COMM_WORLD);
  }
#endif
  (void)v;
  (void)n;
}
void allreduce_sum(float* v, std::size_t n) {
  allreduce_sum_array(v, n);
}
void allreduce_sum(double* v, std::size_t n) {
  allreduce_sum_array(v, n);
}

bool all_ranks_on_one_node() {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    MPI_Get_processor_name(name, &len);
    std::vector<char> all(std::size_t(g_size) * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < g_size; ++r)
      if (std::strncmp(name, &all[std::size_t(r) * MPI_MAX_PROCESSOR_NAME],
                       MPI_MAX_PROCESSOR_NAME) != 0)
        return false;
  }
#endif
  return true;
}

std::vector<double> allgather_varying(const std::vector<double>& mine) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    const std::vector<int> counts = allgather(std::vector<int>{int(mine.size())});
    std::vector<int> displs(counts.size(), 0);
    for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
    std::vector<double> all(std::size_t(displs.back() + counts.back()));
    MPI_Allgatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), counts.data(),
                   displs.data(), MPI_DOUBLE, MPI_COMM_WORLD);
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

// ---- Collectives for whole-grid work (checkpoint restarts, fd spectra) ------------------

std::string broadcast(const std::string& s, int root) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    std::int64_t n = std::int64_t(s.size());
    MPI_Bcast(&n, 1, MPI_INT64_T, root, MPI_COMM_WORLD);
    std::string out = g_rank == root ? s : std::string(std::size_t(n), '\0');
    // Messages and headers are small; chunks keep any length within an int count.
    constexpr std::int64_t kChunk = std::int64_t(1) << 30;
    for (std::int64_t o = 0; o < n; o += kChunk)
      MPI_Bcast(out.data() + o, int(std::min(kChunk, n - o)), MPI_CHAR, root, MPI_COMM_WORLD);
    return out;
  }
#endif
  (void)root;
  return s;
}

std::string first_error(const std::string& mine) {
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    int first = mine.empty() ? g_size : g_rank;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return first == g_size ? std::string() : broadcast(mine, first);
  }
#endif
  return mine;
}

std::vector<unsigned char> gather_to_root(const void* data, std::size_t count, int elem_bytes,
                                          std::vector<int>* counts_out) {
  const auto* bytes = static_cast<const unsigned char*>(data);
#ifdef FLUXVIEW_HAVE_MPI
  if (g_mpi) {
    constexpr std::int64_t kMaxCount = 2147483647;
    std::int64_t mine = std::int64_t(count);
    std::vector<std::int64_t> counts(std::size_t(g_size), 0);
    MPI_Gather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    std::int64_t total = 0;
    for (std::int64_t c : counts) total += c;
    total = broadcast(total);  // every rank refuses together, before the gather
    if (total > kMaxCount)
      throw std::runtime_error("gathering " + std::to_string(total) +
                               " values on rank 0 exceeds MPI's int counts");
    MPI_Datatype elem;
    MPI_Type_contiguous(elem_bytes, MPI_BYTE, &elem);
    MPI_Type_commit(&elem);
    std::vector<int> icounts(counts.begin(), counts.end()), displs(std::size_t(g_size), 0);
    for (int r = 1; r < g_size; ++r) displs[r] = displs[r - 1] + icounts[r - 1];
    std::vector<unsigned char> all(g_rank == 0 ? std::size_t(total) * elem_bytes : 0);
    MPI_Gatherv(bytes, int(count), elem, all.data(), icounts.data(), displs.data(), elem, 0,
                MPI_COMM_WORLD);
    MPI_Type_free(&elem);
    if (counts_out) *counts_out = g_rank == 0 ? icounts : std::vector<int>{};
    return all;
  }
#endif
  if (counts_out) *counts_out = {int(count)};
  return std::vector<unsigned char>(bytes, bytes + count * std::size_t(elem_bytes));
}

}  // namespace fluxview::parallel
