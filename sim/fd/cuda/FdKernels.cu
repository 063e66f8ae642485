// The fd family's device backend: the loops of FdLoops.hpp on the device (the `fast` and
// `direct55` methods, the ghost fill and the reductions), and the two blocked kernels of
// Pekkila et al., written by hand. Each blocked kernel reads its neighbours through an
// accessor and hands them to the shared physics (FdStencil.hpp); they differ only in how
// data reaches the threads:
//   55point            sect. 4.1: 3D cache blocking, a (TX+6)(TY+6)(TZ+6) block of all
//                      four fields in shared memory, rolled along z (the ring index wraps
//                      modulo TZ+6, no data is copied).
//   19point            sect. 4.2, with div u computed first: pass 1 writes div u, its
//                      ghosts are filled, pass 2 updates with the 19-point stencil and
//                      grad div u from the div field, by 2.5D blocking: the xy plane of
//                      the five fields in shared memory, the z neighbours of each thread's
//                      column in a register queue.
#include <algorithm>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fd/FdLoops.hpp"

namespace fluxview::fd {

namespace {

constexpr int kFields = 5;  // ln rho, ux, uy, uz, div

// ---------------------------------------------------------------- 55-point, 3D blocking

template <class T, int SX, int SY, int SZ>
struct RingAcc {
  const T* sm;  // [4][SZ][SY][SX]
  int x, y, z;  // the thread's cell in the block (z: ring slot)
  __device__ __forceinline__ T operator()(int f, int dx, int dy, int dz) const {
    int zz = z + dz;
    zz += zz < 0 ? SZ : 0;
    zz -= zz >= SZ ? SZ : 0;
    return sm[((f * SZ + zz) * SY + (y + dy)) * SX + x + dx];
  }
};

template <class T, int TX, int TY, int TZ>
__global__ void __launch_bounds__(TX* TY* TZ) p55_kernel(SubstepArgs<T> a, int ez) {
  constexpr int SX = TX + 2 * kRadius, SY = TY + 2 * kRadius, SZ = TZ + 2 * kRadius;
  constexpr int threads = TX * TY * TZ;
  extern __shared__ unsigned char smem_raw[];
  T* sm = reinterpret_cast<T*>(smem_raw);
  const FieldLayout& l = a.layout;
  const int nx = l.n[0], ny = l.n[1], nz = l.n[2];
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, zb = blockIdx.z * TZ * ez;
  const int zend = min(zb + TZ * ez, nz);
  const int tid = threadIdx.x + TX * (threadIdx.y + TY * threadIdx.z);
  // Loads global planes [g0, g0 + count) of the four fields into their ring slots.
  auto load = [&](int g0, int count) {
    const int total = kVars * count * SX * SY;
    for (int q = tid; q < total; q += threads) {
      int r = q;
      const int xx = r % SX;
      r /= SX;
      const int yy = r % SY;
      r /= SY;
      const int pz = r % count;
      const int f = r / count;
      const int gx = x0 - kRadius + xx, gy = y0 - kRadius + yy, gz = g0 + pz;
      const int slot = (gz - zb + kRadius) % SZ;
      T v = T(0);
      if (gx < nx + kRadius && gy < ny + kRadius && gz < nz + kRadius)
        v = __ldg(a.in[f] + l.index(gx, gy, gz));
      sm[((f * SZ + slot) * SY + yy) * SX + xx] = v;
    }
  };
  for (int z0 = zb; z0 < zend; z0 += TZ) {
    if (z0 == zb)
      load(zb - kRadius, SZ);
    else
      load(z0 + kRadius, TZ);
    __syncthreads();
    const int i = x0 + threadIdx.x, j = y0 + threadIdx.y, k = z0 + threadIdx.z;
    if (i < nx && j < ny && k < zend) {
      const RingAcc<T, SX, SY, SZ> acc{sm, int(threadIdx.x) + kRadius, int(threadIdx.y) + kRadius,
                                       (k - zb + kRadius) % SZ};
      Derivs<T> d;
      gather_55(acc, a.c, d);
      update_point(a, d, l.index(i, j, k), i, j, k);
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------- 19-point, 2.5D blocking

template <class T, int SX, int SY>
struct SlabAcc {
  const T* sm;      // [5][SY][SX], the current xy plane
  const T (*q)[7];  // q[f][3 + dz]: the thread's column, z - 3 .. z + 3
  int x, y;
  __device__ __forceinline__ T operator()(int f, int dx, int dy, int dz) const {
    if (dz != 0) return q[f][3 + dz];  // axis-aligned stencil: dz != 0 means dx = dy = 0
    return sm[(f * SY + y + dy) * SX + x + dx];
  }
};

template <class T, int TX, int TY>
__global__ void __launch_bounds__(TX* TY) p19_kernel(SubstepArgs<T> a, int ez) {
  constexpr int SX = TX + 2 * kRadius, SY = TY + 2 * kRadius;
  constexpr int threads = TX * TY;
  __shared__ T sm[kFields * SY * SX];
  const FieldLayout& l = a.layout;
  const int nx = l.n[0], ny = l.n[1], nz = l.n[2];
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, zb = blockIdx.z * ez;
  const int zend = min(zb + ez, nz);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + TX * ty;
  const int i = x0 + tx, j = y0 + ty;
  const bool inside = i < nx && j < ny;
  // Threads past the edge of a partial tile still hold their cell's ghost values: the
  // slab must carry them for their neighbours inside.
  const bool loadable = i < nx + kRadius && j < ny + kRadius;
  const T* in[kFields] = {a.in[0], a.in[1], a.in[2], a.in[3], a.div};
  T q[kFields][7];
#pragma unroll
  for (int f = 0; f < kFields; ++f)
#pragma unroll
    for (int s = 0; s < 7; ++s)
      q[f][s] = loadable ? __ldg(in[f] + l.index(i, j, zb + s - 3)) : T(0);
  // The halo of the slab: 3 columns left and right of the TY rows, 3 rows below and above
  // the TX columns (the corners are never read by an axis-aligned stencil).
  constexpr int halo = 2 * kRadius * (TX + TY);
  for (int k = zb; k < zend; ++k) {
#pragma unroll
    for (int f = 0; f < kFields; ++f) sm[(f * SY + ty + kRadius) * SX + tx + kRadius] = q[f][3];
    for (int h = tid; h < kFields * halo; h += threads) {
      const int f = h / halo;
      int r = h - f * halo;
      int xx, yy;
      if (r < 2 * kRadius * TY) {  // x halo
        yy = r / (2 * kRadius) + kRadius;
        const int c = r % (2 * kRadius);
        xx = c < kRadius ? c : TX + c;
      } else {  // y halo
        r -= 2 * kRadius * TY;
        xx = r % TX + kRadius;
        const int c = r / TX;
        yy = c < kRadius ? c : TY + c;
      }
      const int gx = x0 - kRadius + xx, gy = y0 - kRadius + yy;
      if (gx < nx + kRadius && gy < ny + kRadius)
        sm[(f * SY + yy) * SX + xx] = __ldg(in[f] + l.index(gx, gy, k));
    }
    __syncthreads();
    if (inside) {
      const SlabAcc<T, SX, SY> acc{sm, q, tx + kRadius, ty + kRadius};
      Derivs<T> d;
      gather_19(acc, a.c, d);
      update_point(a, d, l.index(i, j, k), i, j, k);
    }
    __syncthreads();
#pragma unroll
    for (int f = 0; f < kFields; ++f) {
#pragma unroll
      for (int s = 0; s < 6; ++s) q[f][s] = q[f][s + 1];
      q[f][6] = (loadable && k + 1 < zend) ? __ldg(in[f] + l.index(i, j, k + 4)) : T(0);
    }
  }
}

// ---------------------------------------------------------------- launching

// Planes per block along z: enough blocks to fill the GPU a few times over, as long a
// march as that allows (the rolling cache pays its halo once per march).
int planes_per_block(int nz, long long columns, int tz, int target_per_sm) {
  const long long target = (long long)target_per_sm * fluxview::cuda::multiprocessor_count();
  long long chunks = std::max<long long>(1, (target + columns - 1) / columns);
  chunks = std::min<long long>(chunks, std::max(1, nz / (tz * 2)));
  const int planes = int((nz + chunks - 1) / chunks);
  return (planes + tz - 1) / tz;  // in units of tz
}

bool blockable(const FieldLayout& l) {
  return l.n[0] >= 2 * kRadius && l.n[1] >= 2 * kRadius && l.n[2] >= 2 * kRadius;
}

template <class T, int TX, int TY, int TZ>
void launch_p55(const SubstepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  constexpr int SX = TX + 6, SY = TY + 6, SZ = TZ + 6;
  const std::size_t bytes = std::size_t(kVars) * SX * SY * SZ * sizeof(T);
  static bool configured = false;
  if (!configured) {
    FLUXVIEW_CUDA_CHECK(cudaFuncSetAttribute(
        p55_kernel<T, TX, TY, TZ>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    configured = true;
  }
  const long long columns = (long long)((l.n[0] + TX - 1) / TX) * ((l.n[1] + TY - 1) / TY);
  const int ez = planes_per_block(l.n[2], columns, TZ, 4);
  const dim3 grid((l.n[0] + TX - 1) / TX, (l.n[1] + TY - 1) / TY,
                  (l.n[2] + TZ * ez - 1) / (TZ * ez));
  p55_kernel<T, TX, TY, TZ><<<grid, dim3(TX, TY, TZ), bytes>>>(a, ez);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class T, int TX, int TY>
void launch_p19(const SubstepArgs<T>& a, int per_sm) {
  const FieldLayout& l = a.layout;
  const long long columns = (long long)((l.n[0] + TX - 1) / TX) * ((l.n[1] + TY - 1) / TY);
  const int ez = planes_per_block(l.n[2], columns, 1, per_sm);
  const dim3 grid((l.n[0] + TX - 1) / TX, (l.n[1] + TY - 1) / TY, (l.n[2] + ez - 1) / ez);
  p19_kernel<T, TX, TY><<<grid, dim3(TX, TY)>>>(a, ez);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

template <class T>
void substep_on(const exec::Device& space, Method m, const SubstepArgs<T>& a) {
  const bool blocked = blockable(a.layout);
  switch (m) {
    case Method::direct55:
      return substep_by_points(space, Formulation::m55, a);
    case Method::fast:
      // The two-pass formulation with unblocked kernels: on Hopper the L1 serves the
      // stencil's reuse better than our shared-memory blocking (docs/performance.md).
      return substep_by_points(space, Formulation::m19, a);
    case Method::p55:
      if (!blocked) return substep_by_points(space, Formulation::m55, a);
      return launch_p55<T, 32, 4, 2>(a);
    case Method::p19:
      divergence_with_ghosts(space, a);
      if (!blocked) return rate_pass<Formulation::m19>(space, a);
      return launch_p19<T, 32, 8>(a, 4);
  }
}

template <class T>
std::unique_ptr<FdBackend<T>> make_device_backend() {
  return std::make_unique<FdBackendOn<exec::Device, T>>();
}

template std::unique_ptr<FdBackend<float>> make_device_backend<float>();
template std::unique_ptr<FdBackend<double>> make_device_backend<double>();

}  // namespace fluxview::fd
