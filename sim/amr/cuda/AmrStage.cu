// The CUDA backend of the AMR solver's stage: one launch advances every block.
//
// A thread block owns a tile of TX x TY cells of the x-y planes of one AMR block (TX = the
// block's x extent, TY up to 256 / TX rows; a block of 32 cells a side is four tiles) and
// marches along z through the block, as the uniform solver's fused kernel marches through a
// chunk of its grid (sim/fv/cuda/FvKernels.cu):
//   - the primitives of plane k, with two ghost cells around the tile, go to shared memory;
//   - x faces, then y faces of the tile are computed once each into a shared flux buffer
//     and differenced by the cells beside them;
//   - along z each thread keeps the primitives of its own column (k-1 .. k+2) and the flux
//     through the face below in registers.
// The block's face ghosts (filled by the ghost tasks) stand in for the neighbours. The
// pointwise physics is fv's FvPhysics.hpp, summed in the order x, y, z as on the CPU; each
// block takes dx from its level. The CFL maximum and the corrected-cell count are reduced
// in the same kernel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/amr/AmrReflux.hpp"
#include "sim/amr/AmrStep.hpp"
#include "sim/amr/AmrStepBodies.hpp"
#include "sim/amr/cuda/TaskLoops.cuh"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::amr {

namespace {

using fv::State;

template <class F>
void with_nv(int nv, F&& f) {
  if (nv == 5)
    f.template operator()<5>();
  else if (nv == 6)
    f.template operator()<6>();
  else
    throw std::invalid_argument("AMR: " + std::to_string(nv) + " variables (5 or 6)");
}

constexpr int kMaxThreads = 256;

struct Tile {
  int tx = 1, ty = 1;  // threads (cells) along x and y
  int tiles_y = 1;     // tiles per block along y
  bool ax, ay, az;     // active axes
};

__device__ void atomic_max_rate(unsigned long long* bits, double v) {
  // Non-negative doubles (and NaN, whose bits are larger still) order like their bits.
  atomicMax(bits, static_cast<unsigned long long>(__double_as_longlong(v)));
}

template <int NV, class T>
__device__ State<T, NV> prim_at(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph) {
  return fv::cons_to_prim(load_cell<NV>(u, c), ph);
}

template <class T, int NV>
__global__ void __launch_bounds__(kMaxThreads) block_stage_kernel(BlockStageArgs<T> a, Tile tile) {
  extern __shared__ unsigned char smem[];
  const int TX = tile.tx, TY = tile.ty;
  const int HX = TX + 4, HY = TY + 4;
  T* sq = reinterpret_cast<T*>(smem);  // [NV][HY][HX] primitives of the plane with halo
  T* sf = sq + NV * HY * HX;           // [NV][max((TX+1) TY, TX (TY+1))] face fluxes
  const int flux_slots = max((TX + 1) * TY, TX * (TY + 1));
  __shared__ double srate[kMaxThreads / 32];

  const int slot = int(blockIdx.x) / tile.tiles_y;
  const int j0 = (int(blockIdx.x) % tile.tiles_y) * TY;
  const FieldLayout& l = a.in.layout;
  const fv::Physics<T> ph = a.ph;
  const int tx = int(threadIdx.x) % TX, ty = int(threadIdx.x) / TX, tid = int(threadIdx.x);
  const int threads = TX * TY;
  const int i = tx, j = j0 + ty;
  const bool cell = j < l.n[1];
  const int gx = tile.ax ? 2 : 0, gy = tile.ay ? 2 : 0;
  T inv_dx[3];
  level_inv_dx(a.inv_dx0, a.info[slot].level, inv_dx);
  const std::int64_t sz = l.sz;
  const std::int64_t col = cell ? a.in.cell(slot, i, j, 0) : 0;  // this thread's column

  State<T, NV> zq[3];
  State<T, NV> fz_lo;
#pragma unroll
  for (int m = 0; m < NV; ++m) fz_lo.v[m] = T(0);
  if (tile.az && cell) {
    const State<T, NV> zm2 = prim_at<NV>(a.in, col - 2 * sz, ph);
    zq[0] = prim_at<NV>(a.in, col - sz, ph);
    zq[1] = prim_at<NV>(a.in, col, ph);
    zq[2] = prim_at<NV>(a.in, col + sz, ph);
    fz_lo = fv::face_flux<2>(zm2, zq[0], zq[1], zq[2], ph);
  }

  double rate = 0;
  unsigned long long corrected = 0;
  for (int k = 0; k < l.n[2]; ++k) {
    __syncthreads();  // the previous plane is done with the shared buffers
    for (int s = tid; s < HX * HY; s += threads) {
      const int ti = s % HX, tj = s / HX;
      const int gi = ti - 2, gj = j0 + tj - 2;
      if (gi < -gx || gi >= l.n[0] + gx || gj < -gy || gj >= l.n[1] + gy) continue;
      if ((gi < 0 || gi >= l.n[0]) && (gj < 0 || gj >= l.n[1])) continue;  // edges: never read
      const State<T, NV> q = prim_at<NV>(a.in, a.in.cell(slot, gi, gj, k), ph);
#pragma unroll
      for (int m = 0; m < NV; ++m) sq[(m * HY + tj) * HX + ti] = q.v[m];
    }
    __syncthreads();

    State<T, NV> acc;
#pragma unroll
    for (int m = 0; m < NV; ++m) acc.v[m] = T(0);

    if (tile.ax) {  // x faces i - 1/2 of cells 0 .. TX (TX + 1 per row)
      for (int s = tid; s < (TX + 1) * TY; s += threads) {
        const int fi = s % (TX + 1), fj = s / (TX + 1);
        if (j0 + fj >= l.n[1]) continue;
        State<T, NV> st[4];
#pragma unroll
        for (int d = 0; d < 4; ++d)
#pragma unroll
          for (int m = 0; m < NV; ++m) st[d].v[m] = sq[(m * HY + fj + 2) * HX + fi + d];
        const State<T, NV> f = fv::face_flux<0>(st[0], st[1], st[2], st[3], ph);
#pragma unroll
        for (int m = 0; m < NV; ++m) sf[m * flux_slots + fj * (TX + 1) + fi] = f.v[m];
      }
      __syncthreads();
      if (cell) {
#pragma unroll
        for (int m = 0; m < NV; ++m)
          acc.v[m] = (sf[m * flux_slots + ty * (TX + 1) + tx] -
                      sf[m * flux_slots + ty * (TX + 1) + tx + 1]) *
                     inv_dx[0];
      }
      __syncthreads();
    }
    if (tile.ay) {  // y faces j - 1/2 of rows j0 .. j0 + TY
      for (int s = tid; s < TX * (TY + 1); s += threads) {
        const int fi = s % TX, fj = s / TX;
        if (j0 + fj > l.n[1]) continue;
        State<T, NV> st[4];
#pragma unroll
        for (int d = 0; d < 4; ++d)
#pragma unroll
          for (int m = 0; m < NV; ++m) st[d].v[m] = sq[(m * HY + fj + d) * HX + fi + 2];
        const State<T, NV> f = fv::face_flux<1>(st[0], st[1], st[2], st[3], ph);
#pragma unroll
        for (int m = 0; m < NV; ++m) sf[m * flux_slots + fj * TX + fi] = f.v[m];
      }
      __syncthreads();
      if (cell) {
#pragma unroll
        for (int m = 0; m < NV; ++m)
          acc.v[m] = acc.v[m] +
                     (sf[m * flux_slots + ty * TX + tx] - sf[m * flux_slots + (ty + 1) * TX + tx]) *
                         inv_dx[1];
      }
    }
    if (!cell) continue;  // no __syncthreads() below this point in the iteration

    State<T, NV> fz_hi = fz_lo;
    State<T, NV> zp2;
    if (tile.az) {
      zp2 = prim_at<NV>(a.in, col + (k + 2) * sz, ph);
      fz_hi = fv::face_flux<2>(zq[0], zq[1], zq[2], zp2, ph);
#pragma unroll
      for (int m = 0; m < NV; ++m) acc.v[m] = acc.v[m] + (fz_lo.v[m] - fz_hi.v[m]) * inv_dx[2];
    }

    const std::int64_t c = col + k * sz;
    const State<T, NV> u = load_cell<NV>(a.in, c);
    const State<T, NV> u0 = load_cell<NV>(a.u0, c);
    State<T, NV> r = fv::rk_combine(u0, u, acc, a.dt, a.a, a.b);
    if (!fv::admissible(r, ph)) {
      State<T, NV> q, xm, xp, ym, yp;
#pragma unroll
      for (int m = 0; m < NV; ++m) {
        q.v[m] = sq[(m * HY + ty + 2) * HX + tx + 2];
        xm.v[m] = sq[(m * HY + ty + 2) * HX + tx + 2 - int(tile.ax)];
        xp.v[m] = sq[(m * HY + ty + 2) * HX + tx + 2 + int(tile.ax)];
        ym.v[m] = sq[(m * HY + ty + 2 - int(tile.ay)) * HX + tx + 2];
        yp.v[m] = sq[(m * HY + ty + 2 + int(tile.ay)) * HX + tx + 2];
      }
      const State<T, NV> zm = tile.az ? zq[0] : q, zp = tile.az ? zq[2] : q;
      const State<T, NV> lo = fv::first_order_divergence(q, xm, xp, ym, yp, zm, zp, ph, inv_dx);
      r = fv::rk_combine(u0, u, lo, a.dt, a.a, a.b);
      if (!fv::admissible(r, ph)) r = fv::apply_floors(r, ph);
      ++corrected;
    }
    store_cell<NV>(a.out, c, r);
    if (a.rate_bits) {
      const double s = double(fv::signal_rate(fv::cons_to_prim(r, ph), ph.gamma, inv_dx));
      rate = (s > rate || s != s) ? s : rate;  // keeps a NaN
    }
    if (tile.az) {
      zq[0] = zq[1];
      zq[1] = zq[2];
      zq[2] = zp2;
      fz_lo = fz_hi;
    }
  }

  if (corrected) atomicAdd(a.corrected, corrected);
  if (a.rate_bits && threads % 32 != 0) {
    // Tiles narrower than a warp (1D and thin 2D blocks): one atomic per thread.
    atomic_max_rate(a.rate_bits, rate);
  } else if (a.rate_bits) {
    // Warp maximum, then one atomic per block. NaN propagates: fmax would drop it.
    for (int o = 16; o > 0; o >>= 1) {
      const double other = __shfl_down_sync(0xffffffffu, rate, o);
      rate = (other > rate || other != other) ? other : rate;
    }
    if ((tid & 31) == 0) srate[tid >> 5] = rate;
    __syncthreads();
    if (tid == 0) {
      double m = 0;
      for (int w = 0; w < threads / 32; ++w)
        m = (srate[w] > m || srate[w] != srate[w]) ? srate[w] : m;
      atomic_max_rate(a.rate_bits, m);
    }
  }
}

Tile tile_of(const FieldLayout& l) {
  Tile t;
  t.ax = l.n[0] > 1;
  t.ay = l.n[1] > 1;
  t.az = l.n[2] > 1;
  t.tx = l.n[0];
  t.ty = std::min(l.n[1], std::max(1, kMaxThreads / t.tx));
  t.tiles_y = (l.n[1] + t.ty - 1) / t.ty;
  return t;
}

constexpr int kReduceThreads = 256;

// One thread block per AMR block: the largest signal rate over its interior.
template <class T, int NV>
__global__ void __launch_bounds__(kReduceThreads)
    block_rate_kernel(PoolView<T> u, const BlockInfo* info, fv::Physics<T> ph, T ix, T iy, T iz,
                      unsigned long long* bits) {
  const T inv0[3] = {ix, iy, iz};
  T inv[3];
  const int b = int(blockIdx.x);
  level_inv_dx(inv0, info[b].level, inv);
  const FieldLayout& l = u.layout;
  const int cells = l.n[0] * l.n[1] * l.n[2];
  double rate = 0;
  for (int c = int(threadIdx.x); c < cells; c += kReduceThreads) {
    const int i = c % l.n[0], r = c / l.n[0];
    const double s = cell_rate<T, NV>(u, u.cell(b, i, r % l.n[1], r / l.n[1]), ph, inv);
    rate = (s > rate || s != s) ? s : rate;
  }
  atomic_max_rate(bits, rate);
}

template <class T, int NV>
__global__ void __launch_bounds__(kReduceThreads)
    block_totals_kernel(PoolView<T> u, fv::Physics<T> ph, double* out) {
  __shared__ double sh[kBlockTotals][kReduceThreads];
  double acc[kBlockTotals] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  const int b = int(blockIdx.x);
  const FieldLayout& l = u.layout;
  const int cells = l.n[0] * l.n[1] * l.n[2];
  for (int c = int(threadIdx.x); c < cells; c += kReduceThreads) {
    const int i = c % l.n[0], r = c / l.n[0];
    add_to_totals<T, NV>(u, u.cell(b, i, r % l.n[1], r / l.n[1]), ph, acc);
  }
  for (int m = 0; m < kBlockTotals; ++m) sh[m][threadIdx.x] = acc[m];
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) {
      for (int m = 0; m < 8; ++m) sh[m][threadIdx.x] += sh[m][threadIdx.x + s];
      sh[8][threadIdx.x] = fmax(sh[8][threadIdx.x], sh[8][threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int m = 0; m < kBlockTotals; ++m) out[std::int64_t(b) * kBlockTotals + m] = sh[m][0];
}

double bits_to_double(unsigned long long b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

}  // namespace

template <class T>
void stage_blocks_cuda(const BlockStageArgs<T>& a) {
  if (a.blocks <= 0) return;
  const Tile tile = tile_of(a.in.layout);
  with_nv(a.in.nv, [&]<int NV>() {
    const int hx = tile.tx + 4, hy = tile.ty + 4;
    const int flux = std::max((tile.tx + 1) * tile.ty, tile.tx * (tile.ty + 1));
    const std::size_t shared = sizeof(T) * std::size_t(NV) * std::size_t(hx * hy + flux);
    if (a.rate_bits) FLUXVIEW_CUDA_CHECK(cudaMemset(a.rate_bits, 0, sizeof(unsigned long long)));
    block_stage_kernel<T, NV><<<a.blocks * tile.tiles_y, tile.tx * tile.ty, shared>>>(a, tile);
    FLUXVIEW_CUDA_LAUNCH_CHECK();
  });
}

template <class T>
void reflux_cuda(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks, int begin,
                 int end, const BlockInfo* info, const fv::Physics<T>& ph, T coef,
                 const T inv_dx0[3], int block, const bool active[3]) {
  with_nv(in.nv, [&]<int NV>() {
    RefluxBody<T, NV> body;
    body.in = in;
    body.out = out;
    body.tasks = tasks;
    body.info = info;
    body.ph = ph;
    body.coef = coef;
    body.block = block;
    for (int d = 0; d < 3; ++d) {
      body.inv_dx0[d] = inv_dx0[d];
      body.active[d] = active[d];
    }
    for_each_task_cell_device(begin, end, body);
  });
}

template <class T>
double max_rate_cuda(const PoolView<T>& u, const BlockInfo* info, int blocks,
                     const fv::Physics<T>& ph, const T inv_dx0[3]) {
  if (blocks <= 0) return 0;
  unsigned long long* bits = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaMalloc(&bits, sizeof *bits));
  FLUXVIEW_CUDA_CHECK(cudaMemset(bits, 0, sizeof *bits));
  with_nv(u.nv, [&]<int NV>() {
    block_rate_kernel<T, NV>
        <<<blocks, kReduceThreads>>>(u, info, ph, inv_dx0[0], inv_dx0[1], inv_dx0[2], bits);
  });
  const cudaError_t launch = cudaGetLastError();
  unsigned long long host = 0;
  const cudaError_t copy = cudaMemcpy(&host, bits, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(bits);
  FLUXVIEW_CUDA_CHECK(launch);
  FLUXVIEW_CUDA_CHECK(copy);
  return bits_to_double(host);
}

template <class T>
void block_totals_cuda(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, double* out) {
  if (blocks <= 0) return;
  with_nv(u.nv, [&]<int NV>() {
    block_totals_kernel<T, NV><<<blocks, kReduceThreads>>>(u, ph, out);
    FLUXVIEW_CUDA_LAUNCH_CHECK();
  });
}

template <class T>
void resample_cuda(const PoolView<T>& u, const ResampleTask* tasks, int count,
                   const FieldLayout& grid, const fv::Physics<T>& ph, int what, int block, T* out) {
  (void)block;
  with_nv(u.nv, [&]<int NV>() {
    ResampleBody<T, NV> body;
    body.u = u;
    body.tasks = tasks;
    body.grid = grid;
    body.ph = ph;
    body.what = what;
    for (int a = 0; a < 3; ++a) body.active[a] = u.layout.n[a] > 1;
    body.out = out;
    for_each_task_cell_device(0, count, body);
  });
}

template <class T>
void pack_cuda(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, int what, T* out) {
  PackBody<T> body;
  body.u = u;
  body.ph = ph;
  body.what = what;
  body.out = out;
  for_each_task_cell_device(0, blocks, body);
}

#define FLUXVIEW_AMR_STAGE_CUDA(T)                                                                 \
  template void stage_blocks_cuda<T>(const BlockStageArgs<T>&);                                    \
  template void reflux_cuda<T>(const PoolView<T>&, const PoolView<T>&, const RefluxTask*, int,     \
                               int, const BlockInfo*, const fv::Physics<T>&, T, const T[3], int,   \
                               const bool[3]);                                                     \
  template double max_rate_cuda<T>(const PoolView<T>&, const BlockInfo*, int,                      \
                                   const fv::Physics<T>&, const T[3]);                             \
  template void block_totals_cuda<T>(const PoolView<T>&, int, const fv::Physics<T>&, double*);     \
  template void resample_cuda<T>(const PoolView<T>&, const ResampleTask*, int, const FieldLayout&, \
                                 const fv::Physics<T>&, int, int, T*);                             \
  template void pack_cuda<T>(const PoolView<T>&, int, const fv::Physics<T>&, int, T*);
FLUXVIEW_AMR_STAGE_CUDA(float)
FLUXVIEW_AMR_STAGE_CUDA(double)
#undef FLUXVIEW_AMR_STAGE_CUDA

}  // namespace fluxview::amr
