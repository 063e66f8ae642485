// The fd family's CUDA kernels. Each reads its neighbours through an accessor and hands
// them to the shared physics (FdStencil.hpp); they differ only in how data reaches the
// threads:
//   direct55/direct19  one thread per point, every neighbour from global memory (L1/L2).
//                      The reference kernels: simple enough to be obviously right.
//   55point            Pekkila et al. sect. 4.1: 3D cache blocking, a (TX+6)(TY+6)(TZ+6)
//                      block of all four fields in shared memory, rolled along z (the
//                      ring index wraps modulo TZ+6, no data is copied).
//   19point            sect. 4.2, with div u computed first: pass 1 writes div u, its
//                      ghosts are filled, pass 2 updates with the 19-point stencil and
//                      grad div u from the div field, by 2.5D blocking: the xy plane of
//                      the five fields in shared memory, the z neighbours of each thread's
//                      column in a register queue.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {

constexpr int kFields = 5;  // ln rho, ux, uy, uz, div

// ---------------------------------------------------------------- ghost zones

template <class T>
struct Ptrs {
  T* p[kFields];
};

template <class T>
__global__ void fill_ghosts_kernel(Ptrs<T> f, int count, FieldLayout l, GhostSpan s) {
  const long long per = s.count();
  const long long total = per * count;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const int q = int(c / per);
    int i, j, k, si, sj, sk;
    s.cell(c - q * per, i, j, k, si, sj, sk);
    T* p = f.p[q];
    p[l.index(i, j, k)] = p[l.index(si, sj, sk)];
  }
}

// ---------------------------------------------------------------- direct kernels

template <class T>
struct GlobalAcc {
  const T* p[kFields];
  long long o, sx, sy, sz;
  __device__ __forceinline__ T operator()(int f, int dx, int dy, int dz) const {
    return __ldg(p[f] + o + dx * sx + dy * sy + dz * sz);
  }
};

template <class T>
__device__ __forceinline__ GlobalAcc<T> global_acc(const SubstepArgs<T>& a, int i, int j, int k) {
  const FieldLayout& l = a.layout;
  return GlobalAcc<T>{{a.in[0], a.in[1], a.in[2], a.in[3], a.div},
                      l.index(i, j, k),
                      l.n[0] > 1 ? 1 : 0,
                      l.n[1] > 1 ? l.sy : 0,
                      l.n[2] > 1 ? l.sz : 0};
}

template <class T, Formulation F>
__global__ void __launch_bounds__(128) direct_kernel(SubstepArgs<T> a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  const FieldLayout& l = a.layout;
  if (i >= l.n[0] || j >= l.n[1] || k >= l.n[2]) return;
  const GlobalAcc<T> acc = global_acc(a, i, j, k);
  Derivs<T> d;
  if constexpr (F == Formulation::m55)
    gather_55(acc, a.c, d);
  else
    gather_19(acc, a.c, d);
  update_point(a, d, acc.o, i, j, k);
}

// Pass 1 of the two-pass method: div u at every interior point.
template <class T>
__global__ void __launch_bounds__(256) div_kernel(SubstepArgs<T> a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  const FieldLayout& l = a.layout;
  if (i >= l.n[0] || j >= l.n[1] || k >= l.n[2]) return;
  const GlobalAcc<T> acc = global_acc(a, i, j, k);
  a.div[acc.o] = divergence(acc, a.c);
}

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

// The kernel of "fast": the default is the best measured on Hopper (docs/performance.md);
// FLUXVIEW_FD_FAST_VARIANT=1..5 selects other tiles and block shapes, for tuning only.
int fast_variant() {
  static const int v = [] {
    const char* e = std::getenv("FLUXVIEW_FD_FAST_VARIANT");
    return e ? std::atoi(e) : 0;
  }();
  return v;
}

bool blockable(const FieldLayout& l) {
  return l.n[0] >= 2 * kRadius && l.n[1] >= 2 * kRadius && l.n[2] >= 2 * kRadius;
}

template <class T>
void launch_direct(Formulation f, const SubstepArgs<T>& a, dim3 block = dim3(32, 2, 2)) {
  const FieldLayout& l = a.layout;  // block: 128 threads (the kernel's launch bounds)
  const dim3 grid((l.n[0] + block.x - 1) / block.x, (l.n[1] + block.y - 1) / block.y,
                  (l.n[2] + block.z - 1) / block.z);
  if (f == Formulation::m55)
    direct_kernel<T, Formulation::m55><<<grid, block>>>(a);
  else
    direct_kernel<T, Formulation::m19><<<grid, block>>>(a);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class T>
void launch_div(const SubstepArgs<T>& a) {
  div_pass_cuda(a);
  T* d = a.div;
  fill_ghosts_cuda(&d, 1, a.layout);
  if (a.div_ghost_hook) a.div_ghost_hook(a.hook_context, d);
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

// ---------------------------------------------------------------- reductions

constexpr int kReduceThreads = 256;

struct Partial {
  double mass, kin, u2, u2max;
  long long bad;
};

template <class T, bool Full>
__global__ void __launch_bounds__(kReduceThreads)
    sums_kernel(Ptrs<T> f, FieldLayout l, Partial* out) {
  __shared__ Partial sh[kReduceThreads];
  Partial p{0, 0, 0, 0, 0};
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const long long o = l.interior_index(c);
    const double ux = f.p[1][o], uy = f.p[2][o], uz = f.p[3][o];
    const double u2 = ux * ux + uy * uy + uz * uz;
    double rho = 1;
    if constexpr (Full) rho = exp(double(f.p[0][o]));
    if (!isfinite(u2) || !isfinite(rho)) {
      ++p.bad;
      continue;
    }
    if constexpr (Full) {
      p.mass += rho;
      p.kin += 0.5 * rho * u2;
      p.u2 += u2;
    }
    p.u2max = fmax(p.u2max, u2);
  }
  sh[threadIdx.x] = p;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      Partial& x = sh[threadIdx.x];
      const Partial& y = sh[threadIdx.x + s];
      x.mass += y.mass;
      x.kin += y.kin;
      x.u2 += y.u2;
      x.u2max = fmax(x.u2max, y.u2max);
      x.bad += y.bad;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

// A small device buffer for the partial sums, kept for the life of the process so the
// per-step reduction of the time step allocates nothing.
Partial* partial_buffer(int blocks) {
  static Partial* buf = nullptr;
  static int size = 0;
  if (blocks > size) {
    if (buf) cudaFree(buf);
    FLUXVIEW_CUDA_CHECK(cudaMalloc(&buf, sizeof(Partial) * blocks));
    size = blocks;
  }
  return buf;
}

template <class T, bool Full>
FlowSums reduce(const T* const* f, const FieldLayout& l) {
  const long long total = l.interior_cells();
  const int blocks = int(std::min<long long>(2 * fluxview::cuda::multiprocessor_count(),
                                             (total + kReduceThreads - 1) / kReduceThreads));
  Partial* out = partial_buffer(blocks);
  Ptrs<T> p{{const_cast<T*>(f[0]), const_cast<T*>(f[1]), const_cast<T*>(f[2]), const_cast<T*>(f[3]),
             nullptr}};
  sums_kernel<T, Full><<<blocks, kReduceThreads>>>(p, l, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  std::vector<Partial> host(blocks);
  FLUXVIEW_CUDA_CHECK(
      cudaMemcpy(host.data(), out, sizeof(Partial) * blocks, cudaMemcpyDeviceToHost));
  FlowSums s;
  for (const Partial& q : host) {
    s.mass += q.mass;
    s.kinetic += q.kin;
    s.u2 += q.u2;
    s.u2_max = std::max(s.u2_max, q.u2max);
    s.nonfinite += q.bad;
  }
  return s;
}

}  // namespace

template <class T>
void fill_ghosts_cuda(T* const* fields, int count, const FieldLayout& l) {
  const GhostSpan s{{l.n[0], l.n[1], l.n[2]},
                    {l.ghost_along(0), l.ghost_along(1), l.ghost_along(2)}};
  Ptrs<T> p{};
  for (int f = 0; f < count && f < kFields; ++f) p.p[f] = fields[f];
  const long long total = s.count() * count;
  if (total == 0) return;
  const int blocks =
      int(std::min<long long>(8 * fluxview::cuda::multiprocessor_count(), (total + 255) / 256));
  fill_ghosts_kernel<T><<<blocks, 256>>>(p, count, l, s);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class T>
void substep_cuda(Method m, const SubstepArgs<T>& a) {
  const bool block = blockable(a.layout);
  switch (m) {
    case Method::direct55:
      return launch_direct(Formulation::m55, a);
    case Method::direct19:
      launch_div(a);
      return launch_direct(Formulation::m19, a);
    case Method::p55:
      if (!block) return launch_direct(Formulation::m55, a);
      return launch_p55<T, 32, 4, 2>(a);
    case Method::p19:
      launch_div(a);
      if (!block) return launch_direct(Formulation::m19, a);
      return launch_p19<T, 32, 8>(a, 4);
    case Method::fast:
      // The two-pass formulation with unblocked kernels: on Hopper the L1 serves the
      // stencil's reuse better than our shared-memory blocking (docs/performance.md).
      launch_div(a);
      switch (fast_variant()) {
        case 1:
          return block ? launch_p19<T, 32, 8>(a, 4) : launch_direct(Formulation::m19, a);
        case 2:
          return block ? launch_p19<T, 32, 4>(a, 8) : launch_direct(Formulation::m19, a);
        case 3:
          return launch_direct(Formulation::m19, a, dim3(32, 4, 1));
        case 4:
          return launch_direct(Formulation::m19, a, dim3(64, 2, 1));
        case 5:
          return launch_direct(Formulation::m19, a, dim3(32, 1, 4));
        default:
          return launch_direct(Formulation::m19, a);
      }
  }
}

bool box_passes_supported(Method m) {
  return m == Method::fast && fast_variant() == 0;
}

template <class T>
void div_pass_cuda(const SubstepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  if (l.n[0] < 1 || l.n[1] < 1 || l.n[2] < 1) return;
  div_kernel<T>
      <<<dim3((l.n[0] + 31) / 32, (l.n[1] + 3) / 4, (l.n[2] + 1) / 2), dim3(32, 4, 2)>>>(a);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class T>
void rate_pass_cuda(const SubstepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  if (l.n[0] < 1 || l.n[1] < 1 || l.n[2] < 1) return;
  launch_direct(Formulation::m19, a);  // what "fast" runs as its second pass
}

template <class T>
FlowSums flow_sums_cuda(const T* const* f, const FieldLayout& l) {
  return reduce<T, true>(f, l);
}

template <class T>
double max_u2_cuda(const T* const* f, const FieldLayout& l) {
  const FlowSums s = reduce<T, false>(f, l);
  return s.nonfinite ? NAN : s.u2_max;
}

#define FLUXVIEW_FD_INSTANTIATE(T)                                          \
  template void fill_ghosts_cuda<T>(T* const*, int, const FieldLayout&);    \
  template void substep_cuda<T>(Method, const SubstepArgs<T>&);             \
  template void div_pass_cuda<T>(const SubstepArgs<T>&);                    \
  template void rate_pass_cuda<T>(const SubstepArgs<T>&);                   \
  template FlowSums flow_sums_cuda<T>(const T* const*, const FieldLayout&); \
  template double max_u2_cuda<T>(const T* const*, const FieldLayout&);
FLUXVIEW_FD_INSTANTIATE(float)
FLUXVIEW_FD_INSTANTIATE(double)

}  // namespace fluxview::fd
