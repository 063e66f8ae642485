// The fv family's device backend: the loops of FvLoops.hpp on the device, and a stage as
// one fused kernel written by hand.
//
// The higher-order paths (weno3, weno4, WENO-Z, ADER, characteristic variables) are the
// loops of FvModalLoops.hpp on the device (cuda/FvModalKernels.cu).
//
// One RK2 stage is one fused kernel (after the ghost fill): reconstruction,
// Riemann fluxes, flux divergence and the RK update happen in the same pass over the
// state, so a stage reads the state once from DRAM and writes it once, and no face-flux
// arrays exist in global memory (Subramanian, Balsara et al.: keep the step on the
// device and skinny). A block owns a tile of kTx x kTy cells of an x-y plane and marches
// along z through a chunk of planes:
//   - the primitives of plane k, with a two-cell halo in x and y, go to shared memory;
//   - x faces, then y faces of the tile are computed once each into a shared flux
//     buffer (one thread per face) and differenced by the cells beside them;
//   - along z each thread keeps the primitives of its own column (k-1 .. k+2) and the
//     flux through the face below in registers, so each z face is computed once too.
// The pointwise physics is FvPhysics.hpp, shared with the CPU backend, and the sum of
// the flux differences is taken in the same order (x, y, z) as there.
#include <algorithm>

#include "sim/core/cuda/BlockRateMax.cuh"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvLoops.hpp"

namespace fluxview::fv {

namespace {

// Tile of cells (and threads) per block: kTx x kTy, kTy = 8 or 4 (StageArgs::tile_rows).
// Eight rows read fewer halo cells; four rows let two blocks share an SM at the
// register count of the double kernel, so one block's barriers overlap the other's work.
constexpr int kTx = 32;
constexpr int kHx = kTx + 4;

struct Geometry {
  int n0, n1, n2;
  bool ax, ay, az;  // active axes
  long long sy, sz;
};

Geometry geometry(const FieldLayout& l) {
  return {l.n[0], l.n[1], l.n[2], l.n[0] > 1, l.n[1] > 1, l.n[2] > 1, l.sy, l.sz};
}

template <int NV, class T>
__device__ State<T, NV> load_prim(const Conserved<T>& u, long long c, const Physics<T>& ph) {
  return cons_to_prim(load_state<NV>(u, c), ph);
}

// Resident blocks asked of the compiler: the 32x4 tile three per SM (at most 170
// registers a thread; for double that trades some spills for more warps to hide latency
// with), the float 32x8 tile two (128 registers, no spills), the double 32x8 tile one.
template <class T, int NV, int kTy>
__global__ void __launch_bounds__(kTx* kTy, kTy == 4 ? 3 : (sizeof(T) == 4 ? 2 : 1))
    stage_kernel(StageArgs<T> a, Geometry g, int chunk) {
  constexpr int kHy = kTy + 4, kThreads = kTx * kTy, kFluxSlots = (kTy + 1) * (kTx + 1);
  __shared__ T sq[NV][kHy][kHx];     // primitives of the plane with halo
  __shared__ T sf[NV * kFluxSlots];  // face fluxes of the tile, x then y
  __shared__ double srate[kThreads / 32];

  const FieldLayout& l = a.layout;
  const Physics<T> ph = a.ph;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTx + tx;
  const int i0 = blockIdx.x * kTx, j0 = blockIdx.y * kTy;
  const int i = i0 + tx, j = j0 + ty;
  const bool cell = i < g.n0 && j < g.n1;
  const int k0 = blockIdx.z * chunk, k1 = min(g.n2, k0 + chunk);
  const int gx = l.ghost_along(0), gy = l.ghost_along(1);
  const long long col = cell ? l.index(i, j, 0) : 0;  // this thread's column at k = 0
  const long long sz = g.sz;

  // The z column: primitives at k-1, k, k+1 (k+2 arrives each iteration) and the flux
  // through the face k-1/2.
  State<T, NV> zq[3];
  State<T, NV> fz_lo;
#pragma unroll
  for (int m = 0; m < NV; ++m) fz_lo.v[m] = T(0);
  if (g.az && cell) {
    const State<T, NV> zm2 = load_prim<NV>(a.in, col + (k0 - 2) * sz, ph);
    zq[0] = load_prim<NV>(a.in, col + (k0 - 1) * sz, ph);
    zq[1] = load_prim<NV>(a.in, col + k0 * sz, ph);
    zq[2] = load_prim<NV>(a.in, col + (k0 + 1) * sz, ph);
    fz_lo = face_flux<2>(zm2, zq[0], zq[1], zq[2], ph);
  }

  double rate = 0;
  unsigned long long corrected = 0;
  for (int k = k0; k < k1; ++k) {
    __syncthreads();  // the previous plane is done with the shared buffers
    for (int s = tid; s < kHx * kHy; s += kThreads) {
      const int ti = s % kHx, tj = s / kHx;
      const int gi = i0 + ti - 2, gj = j0 + tj - 2;
      if (gi < -gx || gi >= g.n0 + gx || gj < -gy || gj >= g.n1 + gy) continue;
      const State<T, NV> q = load_prim<NV>(a.in, l.index(gi, gj, k), ph);
#pragma unroll
      for (int m = 0; m < NV; ++m) sq[m][tj][ti] = q.v[m];
    }
    __syncthreads();

    State<T, NV> acc;
#pragma unroll
    for (int m = 0; m < NV; ++m) acc.v[m] = T(0);

    // x faces: face i-1/2 of cells i0 .. i0 + kTx (kTx + 1 per row).
    if (g.ax) {
      for (int s = tid; s < (kTx + 1) * kTy; s += kThreads) {
        const int fi = s % (kTx + 1), fj = s / (kTx + 1);
        if (i0 + fi > g.n0 || j0 + fj >= g.n1) continue;
        State<T, NV> st[4];
#pragma unroll
        for (int d = 0; d < 4; ++d)
#pragma unroll
          for (int m = 0; m < NV; ++m) st[d].v[m] = sq[m][fj + 2][fi + d];
        const State<T, NV> f = face_flux<0>(st[0], st[1], st[2], st[3], ph);
#pragma unroll
        for (int m = 0; m < NV; ++m) sf[(m * kTy + fj) * (kTx + 1) + fi] = f.v[m];
      }
      __syncthreads();
      if (cell) {
#pragma unroll
        for (int m = 0; m < NV; ++m)
          acc.v[m] =
              (sf[(m * kTy + ty) * (kTx + 1) + tx] - sf[(m * kTy + ty) * (kTx + 1) + tx + 1]) *
              a.inv_dx[0];
      }
      __syncthreads();
    }
    // y faces: face j-1/2 of rows j0 .. j0 + kTy.
    if (g.ay) {
      for (int s = tid; s < kTx * (kTy + 1); s += kThreads) {
        const int fi = s % kTx, fj = s / kTx;
        if (i0 + fi >= g.n0 || j0 + fj > g.n1) continue;
        State<T, NV> st[4];
#pragma unroll
        for (int d = 0; d < 4; ++d)
#pragma unroll
          for (int m = 0; m < NV; ++m) st[d].v[m] = sq[m][fj + d][fi + 2];
        const State<T, NV> f = face_flux<1>(st[0], st[1], st[2], st[3], ph);
#pragma unroll
        for (int m = 0; m < NV; ++m) sf[(m * (kTy + 1) + fj) * kTx + fi] = f.v[m];
      }
      __syncthreads();
      if (cell) {
#pragma unroll
        for (int m = 0; m < NV; ++m)
          acc.v[m] = acc.v[m] + (sf[(m * (kTy + 1) + ty) * kTx + tx] -
                                 sf[(m * (kTy + 1) + ty + 1) * kTx + tx]) *
                                    a.inv_dx[1];
      }
    }
    if (!cell) continue;  // no __syncthreads() below this point in the iteration

    // z faces: the face above this cell, from the column in registers.
    State<T, NV> fz_hi = fz_lo;
    State<T, NV> zp2;
    if (g.az) {
      zp2 = load_prim<NV>(a.in, col + (k + 2) * sz, ph);
      fz_hi = face_flux<2>(zq[0], zq[1], zq[2], zp2, ph);
#pragma unroll
      for (int m = 0; m < NV; ++m) acc.v[m] = acc.v[m] + (fz_lo.v[m] - fz_hi.v[m]) * a.inv_dx[2];
    }

    const long long c = col + k * sz;
    // The first-order fallback's neighbours: the plane from the shared tile, z from the
    // column in registers (read only for a cell that needs them).
    const auto first_order = [&] {
      State<T, NV> q, xm, xp, ym, yp;
#pragma unroll
      for (int m = 0; m < NV; ++m) {
        q.v[m] = sq[m][ty + 2][tx + 2];
        xm.v[m] = sq[m][ty + 2][tx + 2 - g.ax];
        xp.v[m] = sq[m][ty + 2][tx + 2 + g.ax];
        ym.v[m] = sq[m][ty + 2 - g.ay][tx + 2];
        yp.v[m] = sq[m][ty + 2 + g.ay][tx + 2];
      }
      const State<T, NV> zm = g.az ? zq[0] : q, zp = g.az ? zq[2] : q;
      return first_order_divergence(q, xm, xp, ym, yp, zm, zp, ph, a.inv_dx);
    };
    const State<T, NV> u = load_state<NV>(a.in, c);
    const State<T, NV> u0 = load_state<NV>(a.u0, c);
    const State<T, NV> r =
        update_cell(u0, u, acc, a.dt, a.weight_u0, a.weight_in, ph, first_order, corrected);
    if (a.outputs == 2)  // rk4's fourth stage: a second register from the same L
      store_state<NV>(a.out_2, c,
                      update_cell(load_state<NV>(a.u0_2, c), u, acc, a.dt_2, a.weight_u0_2,
                                  a.weight_in_2, ph, first_order, corrected));
    store_state<NV>(a.out, c, r);
    if (a.rate_bits) rate = exec::max_keep_nan(rate, cell_signal_rate(r, ph, a.inv_dx));
    if (g.az) {
      zq[0] = zq[1];
      zq[1] = zq[2];
      zq[2] = zp2;
      fz_lo = fz_hi;
    }
  }

  if (corrected) atomicAdd(a.corrected, corrected);
  if (a.rate_bits) cuda::block_max_rate(a.rate_bits, rate, tid, kThreads, srate);
}

template <class T, int kTy>
void launch_stage(const StageArgs<T>& a) {
  const Geometry g = geometry(a.layout);
  const int bx = (g.n0 + kTx - 1) / kTx, by = (g.n1 + kTy - 1) / kTy;
  // Enough blocks to fill the GPU (a few per SM), each marching through at least 16
  // planes so that the column set-up (four extra loads) stays a small share.
  const int want = 1024;
  const int chunks = std::max(1, std::min(g.n2 / 16, (want + bx * by - 1) / (bx * by)));
  const int chunk = (g.n2 + chunks - 1) / chunks;
  const dim3 grid(bx, by, (g.n2 + chunk - 1) / chunk), block(kTx, kTy);
  if (a.rate_bits) FLUXVIEW_CUDA_CHECK(cudaMemsetAsync(a.rate_bits, 0, sizeof(unsigned long long)));
  if constexpr (kTy == 4) {
    if (a.nv == 10) stage_kernel<T, 10, 4><<<grid, block>>>(a, g, chunk);
    if (a.nv == 9) stage_kernel<T, 9, 4><<<grid, block>>>(a, g, chunk);
  }
  if (a.nv == 6) stage_kernel<T, 6, kTy><<<grid, block>>>(a, g, chunk);
  if (a.nv == 5) stage_kernel<T, 5, kTy><<<grid, block>>>(a, g, chunk);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

template <class T>
void stage_on(const exec::Device&, const StageArgs<T>& a, Buffer& scratch) {
  if (a.path != StagePath::plm_faces) return higher_order_stage_on_device(a, scratch);
  // MHD's nine or ten variables take the four-row tile whatever fv.cuda_tile says: the
  // eight-row one's shared buffers would exceed 48 KB in double.
  if (a.tile_rows == 4 || mhd_variables(a.nv))
    launch_stage<T, 4>(a);
  else
    launch_stage<T, 8>(a);
}

template <class T>
std::unique_ptr<FvBackend<T>> make_device_backend() {
  return std::make_unique<FvBackendOn<exec::Device, T>>();
}

template std::unique_ptr<FvBackend<float>> make_device_backend<float>();
template std::unique_ptr<FvBackend<double>> make_device_backend<double>();

}  // namespace fluxview::fv
