#pragma once
// The device backend of the adaptive mesh: the loops of AmrLoops.hpp on exec::Device, and
// the stage: one launch advances every block. Instantiated once per precision, each in a
// source of its own that sim/amr/CMakeLists.txt generates (AmrDeviceBackend_float.cu,
// _double.cu): in one source they were the last compile of a build for the GPU machine to
// finish, alone for its last minutes (about six minutes in all at -O3 for sm_90 on that
// machine's 16 cores, 2026-11-28).
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
// The block's face ghosts (filled by the ghost tasks) stand in for its neighbours. The
// physics is fv's FvPhysics.hpp (face_flux, update_cell with its fallback, the CFL rate),
// the flux differences summed in the order x, y, z as on the host; each block takes dx
// from its level. The CFL maximum and the corrected-cell count are reduced in the kernel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>

// The device side of the execution layer before the loops written over it (fv's and ours
// call exec::for_each_cell and exec::reduce_cells by name).
#include "sim/core/cuda/ExecDevice.cuh"

#include "sim/amr/AmrLoops.hpp"
#include "sim/amr/cuda/TaskLoops.cuh"
#include "sim/core/cuda/BlockRateMax.cuh"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::amr {

namespace {

using fv::State;

constexpr int kMaxThreads = 256;

struct Tile {
  int tx = 1, ty = 1;  // threads (cells) along x and y
  int tiles_y = 1;     // tiles per block along y
  bool ax, ay, az;     // active axes
};

template <int NV, class T>
__device__ State<T, NV> prim_at(const PoolView<T>& u, std::int64_t c, const fv::Physics<T>& ph) {
  return fv::cons_to_prim(load_cell<NV>(u, c), ph);
}

// Resident blocks asked of the compiler: in float two a multiprocessor (at most 128
// registers a thread, as the uniform solver's float tile kernel), which doubles the warps
// that hide the latency of the face fluxes; in double one (the kernel needs its 255).
template <class T, int NV>
__global__ void __launch_bounds__(kMaxThreads, sizeof(T) == 4 ? 2 : 1)
    block_stage_kernel(BlockStageArgs<T> a, Tile tile) {
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
    // The cell's first-order divergence, computed only where the high-order update is not
    // admissible (fv's update_cell calls it then).
    const auto first_order = [&] {
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
      return fv::first_order_divergence(q, xm, xp, ym, yp, zm, zp, ph, inv_dx);
    };
    const State<T, NV> r =
        fv::update_cell(load_cell<NV>(a.u0, c), load_cell<NV>(a.in, c), acc, a.dt, a.weight_u0,
                        a.weight_in, ph, first_order, corrected);
    store_cell<NV>(a.out, c, r);
    if (a.rate_bits) rate = exec::max_keep_nan(rate, fv::cell_signal_rate(r, ph, inv_dx));
    if (tile.az) {
      zq[0] = zq[1];
      zq[1] = zq[2];
      zq[2] = zp2;
      fz_lo = fz_hi;
    }
  }

  if (corrected) atomicAdd(a.corrected, corrected);
  if (a.rate_bits) cuda::block_max_rate(a.rate_bits, rate, tid, threads, srate);
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

}  // namespace

template <class T>
void amr_stage_on(const exec::Device& d, const BlockStageArgs<T>& a, StageWorkers<T>&) {
  if (a.blocks <= 0) return;
  const Tile tile = tile_of(a.in.layout);
  const cudaStream_t stream = static_cast<cudaStream_t>(d.stream);
  with_nv(a.in.nv, [&]<int NV>() {
    const int hx = tile.tx + 4, hy = tile.ty + 4;
    const int flux = std::max((tile.tx + 1) * tile.ty, tile.tx * (tile.ty + 1));
    const std::size_t shared = sizeof(T) * std::size_t(NV) * std::size_t(hx * hy + flux);
    // MHD's nine or ten variables in double take more than the 48 KiB a launch gets
    // unasked (blocks of 16 cells a side with a tracer: 53 KiB; of 32: up to 56 KiB).
    static std::size_t allowed = 48 * 1024;
    if (shared > allowed) {
      FLUXVIEW_CUDA_CHECK(cudaFuncSetAttribute(
          block_stage_kernel<T, NV>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
      allowed = shared;
    }
    if (a.rate_bits)
      FLUXVIEW_CUDA_CHECK(cudaMemsetAsync(a.rate_bits, 0, sizeof(unsigned long long), stream));
    block_stage_kernel<T, NV>
        <<<a.blocks * tile.tiles_y, tile.tx * tile.ty, shared, stream>>>(a, tile);
    FLUXVIEW_CUDA_LAUNCH_CHECK();
  });
}

template <class T>
std::unique_ptr<AmrBackend<T>> make_device_amr_backend() {
  return std::make_unique<AmrBackendOn<exec::Device, T>>();
}

}  // namespace fluxview::amr
