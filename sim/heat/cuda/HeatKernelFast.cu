// fluxview's own heat kernel ("fast", the default): 2.5D blocking for a memory-bound
// 7-point stencil on Hopper.
//  - A block owns a TW x TY tile of x-y planes and marches along z through a chunk of
//    planes. Each thread holds W = 16 bytes of consecutive cells (double2 / float4), so
//    every global access of the bulk is one coalesced 16-byte load or store.
//  - The z neighbours live in registers (the plane below, the current one, and the
//    planes ahead); the current plane also goes to a shared tile padded by one row in y
//    and one cell in x, from which the x-y neighbours are read. Each cell is read from
//    DRAM about once per step; only the thin halos are read twice (mostly from L2).
//  - The step is bound by DRAM latency, not bandwidth, unless enough bytes are in
//    flight: each thread loads its vector D = 2 planes ahead and sends the halo cells to
//    shared memory with cp.async, so the deeper pipeline costs no registers for halos
//    (40 registers, 6 blocks per multiprocessor). On an H200 at 512^3 this took the step
//    from 0.68-0.75 (one plane ahead, halos through registers) to 0.84 of copy bandwidth.
//  - The z extent is cut into chunks so that about 8 waves of blocks run (a short last
//    wave) with chunks of at least 32 planes, or one wave of short chunks for small grids.
//  - Launched with programmatic dependent launch (Hopper): the next step's blocks are
//    scheduled while this step's last blocks drain, and wait in griddepcontrol.wait
//    until this grid has finished and its writes are visible. This hides part of the
//    launch gap, which matters for small grids whose fields sit in L2 (128^3: 11.5 ->
//    10.9 us per step).
// Temporal blocking (several steps per pass) does not fit the solver's interface (one
// step per call, buffers swapped on the host, steady-state checks between steps), and a
// CUDA graph would hold one kernel per step, so it would save no more than PDL does.
// Reduced grids: nz == 1 (2D in x-y) runs here with a zero z stride; a reduced x or y
// axis goes to 3DBase.
// The tile (32 x 8 threads), the depth (2 planes) and the launch policy below are the best
// measured on an H200 (docs/performance.md); the variants they were chosen from are gone.
#include "sim/core/CudaRuntime.hpp"
#include "sim/heat/cuda/HeatCuda.cuh"

namespace fluxview::heat::cuda_detail {

namespace {

template <class T>
struct Vec;
template <>
struct Vec<double> {
  static constexpr int width = 2;
};
template <>
struct Vec<float> {
  static constexpr int width = 4;
};

__device__ __forceinline__ void load16(const double* p, double (&r)[2]) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  r[0] = v.x;
  r[1] = v.y;
}
__device__ __forceinline__ void load16(const float* p, float (&r)[4]) {
  const float4 v = __ldg(reinterpret_cast<const float4*>(p));
  r[0] = v.x;
  r[1] = v.y;
  r[2] = v.z;
  r[3] = v.w;
}
// Plain 16-byte accesses, for shared memory and for the stores to global memory.
__device__ __forceinline__ void ld16(const double* p, double (&r)[2]) {
  const double2 v = *reinterpret_cast<const double2*>(p);
  r[0] = v.x;
  r[1] = v.y;
}
__device__ __forceinline__ void ld16(const float* p, float (&r)[4]) {
  const float4 v = *reinterpret_cast<const float4*>(p);
  r[0] = v.x;
  r[1] = v.y;
  r[2] = v.z;
  r[3] = v.w;
}
__device__ __forceinline__ void store16(double* p, const double (&r)[2]) {
  *reinterpret_cast<double2*>(p) = make_double2(r[0], r[1]);
}
__device__ __forceinline__ void store16(float* p, const float (&r)[4]) {
  *reinterpret_cast<float4*>(p) = make_float4(r[0], r[1], r[2], r[3]);
}

// Asynchronous copies (sm_80+): global -> shared without passing through registers, so
// a thread can keep several planes in flight at no register cost. Turing (sm_75) has no
// cp.async: there the same calls copy through registers at once and commit/wait do
// nothing. That is correct because a tile is refilled only after the barrier that ended
// every read of it, and the barrier after each wait makes the copies visible; it is
// slower (no deeper pipeline), which is the price of running on sm_75 at all.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void copy16_async(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src)
               : "memory");
}
template <class T>
__device__ __forceinline__ void copy1_async(T* dst, const T* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(smem_addr(dst)), "l"(src),
               "n"(sizeof(T))
               : "memory");
}
__device__ __forceinline__ void commit_async() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int Pending>
__device__ __forceinline__ void wait_async() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}
#else
__device__ __forceinline__ void copy16_async(void* dst, const void* src) {
  *static_cast<uint4*>(dst) = __ldg(static_cast<const uint4*>(src));
}
template <class T>
__device__ __forceinline__ void copy1_async(T* dst, const T* src) {
  *dst = __ldg(src);
}
__device__ __forceinline__ void commit_async() {}
template <int Pending>
__device__ __forceinline__ void wait_async() {}
#endif

// Each thread's own 16-byte vectors are loaded D planes ahead into registers, and the
// halo cells go straight to shared memory with cp.async, so the pipeline costs W
// registers a plane and nothing for the halos. Plane p lives in tile
// (p+1-kb) % (D+1): tile k+D is refilled at the start of iteration k, after the barrier
// that ended every read of tile k-1.
template <class T, int TX, int TY, int D>
__global__ void __launch_bounds__(TX* TY) heat_fast_pipe(StencilGrid<T> g, int chunk) {
  static_assert(D >= 2, "at least one plane in flight beside the current one");
  constexpr int W = Vec<T>::width;
  constexpr int TW = TX * W;
  constexpr int SW = TW + 2 * W;
  constexpr int NT = D + 1;
  __shared__ __align__(16) T s[NT][TY + 2][SW];

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * TW, j0 = blockIdx.y * TY;
  const int i0 = x0 + tx * W, j = j0 + ty;
  const int kb = blockIdx.z * chunk, ke = min(kb + chunk, g.nz);
  const bool own = i0 <= g.nx && j <= g.ny;
  const bool south = ty == 0 && i0 <= g.nx;
  const bool north = ty == TY - 1 && j0 + TY <= g.ny && i0 <= g.nx;
  const bool west = tx == 0 && j <= g.ny;
  const bool east = tx == TX - 1 && x0 + TW <= g.nx && j <= g.ny;
  const bool writes = i0 < g.nx && j < g.ny;
  const int col = W + tx * W;
  const T* p = g.in + g.at(i0, own ? j : 0, 0);

  auto tile = [&](int plane) -> T(*)[SW] { return s[(plane + 1 - kb) % NT]; };
  // Requests plane `plane`: own vector into r, halos into its tile; one commit group.
  auto request = [&](int plane, T(&r)[W]) {
    if (plane <= ke) {
      const T* q = p + plane * g.sz;
      T(*t)[SW] = tile(plane);
      if (own) load16(q, r);
      if (south) copy16_async(&t[0][col], q - g.sy);
      if (north) copy16_async(&t[TY + 1][col], q + g.sy);
      if (west) copy1_async(&t[ty + 1][W - 1], q - 1);
      if (east) copy1_async(&t[ty + 1][W + TW], q + W);
    }
    commit_async();
  };

  T zm[W], c[W], ahead[D - 1][W], fresh[W];
  if (own) load16(p + (kb - 1) * g.sz, zm);
  request(kb, c);
#pragma unroll
  for (int d = 0; d < D - 1; ++d) request(kb + 1 + d, ahead[d]);
  if (own) store16(&tile(kb)[ty + 1][col], c);
  wait_async<D - 1>();
  __syncthreads();

  T* q = g.out + g.at(i0, j, kb);
  for (int k = kb; k < ke; ++k, q += g.sz) {
    request(k + D, fresh);
    if (writes) {
      const T(*t)[SW] = tile(k);
      T ym[W], yp[W], r[W];
      ld16(&t[ty][col], ym);
      ld16(&t[ty + 2][col], yp);
      const T left = t[ty + 1][col - 1], right = t[ty + 1][col + W];
#pragma unroll
      for (int e = 0; e < W; ++e) {
        const T xm = e == 0 ? left : c[e - 1];
        const T xp = e == W - 1 ? right : c[e + 1];
        r[e] = ftcs_update(c[e], xm, xp, ym[e], yp[e], zm[e], ahead[0][e], g.cx, g.cy, g.cz);
      }
      if (i0 + W <= g.nx) {
        store16(q, r);
      } else {
#pragma unroll
        for (int e = 0; e < W; ++e)
          if (i0 + e < g.nx) q[e] = r[e];
      }
    }
    if (own && k + 1 < ke) store16(&tile(k + 1)[ty + 1][col], ahead[0]);
    wait_async<D - 1>();  // halos of plane k+1 have landed
    __syncthreads();
#pragma unroll
    for (int e = 0; e < W; ++e) {
      zm[e] = c[e];
      c[e] = ahead[0][e];
#pragma unroll
      for (int d = 0; d < D - 2; ++d) ahead[d][e] = ahead[d + 1][e];
      ahead[D - 2][e] = fresh[e];
    }
  }
  wait_async<0>();
}

// Launch policy: blocks launched, in units of one full wave of resident blocks, and the
// shortest z chunk before falling back to a single wave.
constexpr double kWaves = 8;
constexpr int kMinChunk = 32;

// Launches on the default stream, with programmatic dependent launch where the driver
// accepts it (one that refuses it gets plain launches from then on).
template <class T>
void launch(dim3 grid, dim3 block, void (*kernel)(StencilGrid<T>, int), const StencilGrid<T>& g,
            int chunk) {
  static bool pdl_works = true;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  if (pdl_works) {
    cfg.numAttrs = 1;
    if (cudaLaunchKernelEx(&cfg, kernel, g, chunk) == cudaSuccess) return;
    (void)cudaGetLastError();
    pdl_works = false;
  }
  cfg.numAttrs = 0;
  FLUXVIEW_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, g, chunk));
}

template <class T, int TX, int TY, int D>
void launch_tile(const StencilGrid<T>& g) {
  constexpr int TW = TX * Vec<T>::width;
  void (*kernel)(StencilGrid<T>, int) = heat_fast_pipe<T, TX, TY, D>;
  static const int per_sm = [kernel] {
    int b = 0;
    FLUXVIEW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, TX * TY, 0));
    return b > 0 ? b : 1;
  }();
  const int nxb = int(ceil_div(g.nx, TW)), nyb = int(ceil_div(g.ny, TY));
  const long long tiles = (long long)nxb * nyb;
  // Many waves of blocks (a short last wave) with chunks of at least kMinChunk planes (the
  // two extra planes a chunk reads stay cheap); a grid too small for that gets one wave
  // of short chunks instead (at 128^3 the fields sit in L2, so short chunks cost little).
  const long long slots = (long long)per_sm * fluxview::cuda::multiprocessor_count();
  auto parts_for = [&](double waves) {
    const long long p = (long long)(waves * double(slots)) / tiles;
    return p < 1 ? 1LL : (p > g.nz ? (long long)g.nz : p);
  };
  long long parts = parts_for(kWaves);
  if ((g.nz + parts - 1) / parts < kMinChunk) {
    const long long by_length = (g.nz + kMinChunk - 1) / kMinChunk;
    parts = by_length > parts_for(1) ? by_length : parts_for(1);
  }
  const int chunk = int((g.nz + parts - 1) / parts);
  const int nzc = (g.nz + chunk - 1) / chunk;
  launch<T>(dim3(nxb, nyb, nzc), dim3(TX, TY), kernel, g, chunk);
}

}  // namespace

template <class T>
void launch_fast(const StencilGrid<T>& g) {
  if (g.nx == 1 || g.ny == 1) return launch_3d(HeatKernel::k3DBase, g);
  launch_tile<T, 32, 8, 2>(g);
}

template void launch_fast<float>(const StencilGrid<float>&);
template void launch_fast<double>(const StencilGrid<double>&);

}  // namespace fluxview::heat::cuda_detail
