// The CUDA backend of the finite-volume solver.
//
// One RK2 stage is one fused kernel (after a small ghost-fill kernel): reconstruction,
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
#include <cmath>
#include <cstring>
#include <vector>

#include "sim/core/Buffer.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"

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

__device__ void atomic_max_rate(unsigned long long* bits, double v) {
  // Non-negative doubles (and NaN, whose bits are larger still) order like their bits.
  atomicMax(bits, static_cast<unsigned long long>(__double_as_longlong(v)));
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
  const int gx = g.ax ? kGhost : 0, gy = g.ay ? kGhost : 0;
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
    const State<T, NV> u = load_state<NV>(a.in, c);
    const State<T, NV> u0 = load_state<NV>(a.u0, c);
    State<T, NV> r = rk_combine(u0, u, acc, a.dt, a.a, a.b);
    if (!admissible(r, ph)) {
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
      const State<T, NV> lo = first_order_divergence(q, xm, xp, ym, yp, zm, zp, ph, a.inv_dx);
      r = rk_combine(u0, u, lo, a.dt, a.a, a.b);
      if (!admissible(r, ph)) r = apply_floors(r, ph);
      ++corrected;
    }
    store_state<NV>(a.out, c, r);
    if (a.rate_bits) {
      const double s = double(signal_rate(cons_to_prim(r, ph), ph.gamma, a.inv_dx));
      rate = (s > rate || s != s) ? s : rate;  // keeps a NaN
    }
    if (g.az) {
      zq[0] = zq[1];
      zq[1] = zq[2];
      zq[2] = zp2;
      fz_lo = fz_hi;
    }
  }

  if (corrected) atomicAdd(a.corrected, corrected);
  if (a.rate_bits) {
    // Warp maximum, then one atomic per block. NaN propagates: fmax would drop it.
    for (int o = 16; o > 0; o >>= 1) {
      const double other = __shfl_down_sync(0xffffffffu, rate, o);
      rate = (other > rate || other != other) ? other : rate;
    }
    if ((tid & 31) == 0) srate[tid >> 5] = rate;
    __syncthreads();
    if (tid == 0) {
      double m = 0;
      for (int w = 0; w < kThreads / 32; ++w)
        m = (srate[w] > m || srate[w] != srate[w]) ? srate[w] : m;
      atomic_max_rate(a.rate_bits, m);
    }
  }
}

// Ghosts of the two faces of one axis: outflow copies the nearest interior cell,
// reflecting mirrors and flips the normal momentum, periodic wraps (as FvCpu.cpp).
template <class T>
__global__ void ghost_kernel(Conserved<T> u, int nv, FieldLayout l, int axis, Bc lo, Bc hi) {
  const int n = l.n[axis], g = l.ghost_along(axis);
  const int b = (axis + 1) % 3, e = (axis + 2) % 3;
  const int gb = b < axis ? l.ghost_along(b) : 0, ge = e < axis ? l.ghost_along(e) : 0;
  const int nb = l.n[b] + 2 * gb, ne = l.n[e] + 2 * ge;
  const long long total = (long long)nb * ne * g * 2;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const int p = int(t % nb) - gb;
    long long r = t / nb;
    const int q = int(r % ne) - ge;
    r /= ne;
    const int h = int(r % g);
    const int side = int(r / g);
    const Bc bc = side == 0 ? lo : hi;
    if (bc == Bc::neighbour) continue;  // filled by the MPI exchange
    const int ghost = side == 0 ? -1 - h : n + h;
    const int src = ghost_source(bc, side, h, n);
    int gi[3], si[3];
    gi[axis] = ghost;
    si[axis] = src;
    gi[b] = si[b] = p;
    gi[e] = si[e] = q;
    const long long dc = l.index(gi[0], gi[1], gi[2]), sc = l.index(si[0], si[1], si[2]);
    for (int m = 0; m < nv; ++m) {
      const T v = u.f[m][sc];
      u.f[m][dc] = (bc == Bc::reflecting && m == 1 + axis) ? -v : v;
    }
  }
}

template <class T, int NV>
__global__ void rate_kernel(Conserved<T> u, FieldLayout l, Physics<T> ph, T ix, T iy, T iz,
                            unsigned long long* bits) {
  const T inv[3] = {ix, iy, iz};
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  double rate = 0;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const double s = double(
        signal_rate(cons_to_prim(load_state<NV>(u, l.interior_index(c)), ph), ph.gamma, inv));
    rate = (s > rate || s != s) ? s : rate;
  }
  atomic_max_rate(bits, rate);
}

constexpr int kSums = 8;  // mass, mx, my, mz, E, tracer, mixed, nonfinite
template <class T, int NV>
__global__ void totals_kernel(Conserved<T> u, FieldLayout l, Physics<T> ph, double* out,
                              unsigned long long* mach_bits) {
  __shared__ double sh[kSums][256];
  double acc[kSums] = {0, 0, 0, 0, 0, 0, 0, 0};
  double mach = 0;
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const long long o = l.interior_index(c);
    const State<T, NV> s = load_state<NV>(u, o);
    bool finite = true;
    for (int m = 0; m < 5; ++m) finite = finite && isfinite(double(s.v[m]));
    if (!finite) {
      acc[7] += 1;
      continue;
    }
    for (int m = 0; m < 5; ++m) acc[m] += double(s.v[m]);
    const State<T, NV> q = cons_to_prim(s, ph);
    const double v2 = double(q.v[1]) * q.v[1] + double(q.v[2]) * q.v[2] + double(q.v[3]) * q.v[3];
    mach = fmax(mach, sqrt(v2) / double(sound_speed(q.v[0], q.v[4], ph.gamma)));
    if constexpr (NV > 5) {
      const double rc = s.v[5], conc = rc / double(s.v[0]);
      acc[5] += rc;
      if (conc > 0.1 && conc < 0.9) acc[6] += rc;
    }
  }
  for (int m = 0; m < kSums; ++m) sh[m][threadIdx.x] = acc[m];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int m = 0; m < kSums; ++m) sh[m][threadIdx.x] += sh[m][threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int m = 0; m < kSums; ++m) out[blockIdx.x * kSums + m] = sh[m][0];
  atomic_max_rate(mach_bits, mach);
}

template <class T>
__global__ void derived_kernel(Conserved<T> u, FieldLayout l, Physics<T> ph, Derived what, T* out) {
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const long long o = l.interior_index(c);
    const State<T, 5> q = cons_to_prim(load_state<5>(u, o), ph);
    out[o] = derived_value(q, what == Derived::tracer ? u.f[5][o] : T(0), what);
  }
}

int flat_blocks(const FieldLayout& l) {
  return int(std::min<long long>(2048, (l.interior_cells() + 255) / 256));
}

double bits_to_double(unsigned long long b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

}  // namespace

template <class T>
void fill_ghosts_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const GhostArgs& g) {
  for (int axis = 0; axis < 3; ++axis) {
    if (l.n[axis] == 1) continue;
    const int b = (axis + 1) % 3, e = (axis + 2) % 3;
    const long long work = (long long)(l.n[b] + 4) * (l.n[e] + 4) * 4;
    const int blocks = int(std::min<long long>(1024, (work + 255) / 256));
    ghost_kernel<<<blocks, 256>>>(u, nv, l, axis, g.bc[axis][0], g.bc[axis][1]);
    FLUXVIEW_CUDA_LAUNCH_CHECK();
  }
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
  if (a.nv == 6)
    stage_kernel<T, 6, kTy><<<grid, block>>>(a, g, chunk);
  else
    stage_kernel<T, 5, kTy><<<grid, block>>>(a, g, chunk);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class T>
void stage_cuda(const StageArgs<T>& a) {
  if (a.tile_rows == 4)
    launch_stage<T, 4>(a);
  else
    launch_stage<T, 8>(a);
}

template <class T>
double max_rate_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                     const T inv_dx[3]) {
  Buffer bits(Location::device, sizeof(unsigned long long));
  bits.fill_zero();
  auto* b = static_cast<unsigned long long*>(bits.data());
  if (nv == 6)
    rate_kernel<T, 6><<<flat_blocks(l), 256>>>(u, l, ph, inv_dx[0], inv_dx[1], inv_dx[2], b);
  else
    rate_kernel<T, 5><<<flat_blocks(l), 256>>>(u, l, ph, inv_dx[0], inv_dx[1], inv_dx[2], b);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  unsigned long long h = 0;
  FLUXVIEW_CUDA_CHECK(cudaMemcpy(&h, b, sizeof h, cudaMemcpyDeviceToHost));
  return bits_to_double(h);
}

template <class T>
Totals totals_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph) {
  const int blocks = flat_blocks(l);
  Buffer part(Location::device, sizeof(double) * kSums * blocks + sizeof(unsigned long long));
  part.fill_zero();
  auto* out = static_cast<double*>(part.data());
  auto* mach = reinterpret_cast<unsigned long long*>(out + kSums * blocks);
  if (nv == 6)
    totals_kernel<T, 6><<<blocks, 256>>>(u, l, ph, out, mach);
  else
    totals_kernel<T, 5><<<blocks, 256>>>(u, l, ph, out, mach);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  std::vector<double> h(kSums * blocks + 1);
  FLUXVIEW_CUDA_CHECK(cudaMemcpy(h.data(), out, part.bytes(), cudaMemcpyDeviceToHost));
  double s[kSums] = {};
  for (int b = 0; b < blocks; ++b)
    for (int m = 0; m < kSums; ++m) s[m] += h[b * kSums + m];
  unsigned long long mb;
  std::memcpy(&mb, &h[kSums * blocks], sizeof mb);
  Totals t;
  t.mass = s[0];
  t.momentum[0] = s[1];
  t.momentum[1] = s[2];
  t.momentum[2] = s[3];
  t.energy = s[4];
  t.tracer_mass = s[5];
  t.mixed_mass = s[6];
  t.nonfinite = std::int64_t(s[7]);
  t.max_mach = bits_to_double(mb);
  return t;
}

template <class T>
void derived_cuda(const Conserved<T>& u, int, const FieldLayout& l, const Physics<T>& ph,
                  Derived what, T* out) {
  derived_kernel<<<flat_blocks(l), 256>>>(u, l, ph, what, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

#define FLUXVIEW_FV_CUDA(T)                                                                        \
  template void fill_ghosts_cuda<T>(const Conserved<T>&, int, const FieldLayout&,                  \
                                    const GhostArgs&);                                             \
  template void stage_cuda<T>(const StageArgs<T>&);                                                \
  template double max_rate_cuda<T>(const Conserved<T>&, int, const FieldLayout&,                   \
                                   const Physics<T>&, const T[3]);                                 \
  template Totals totals_cuda<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&); \
  template void derived_cuda<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&,   \
                                Derived, T*);
FLUXVIEW_FV_CUDA(float)
FLUXVIEW_FV_CUDA(double)
#undef FLUXVIEW_FV_CUDA

}  // namespace fluxview::fv
