// Device reductions over a field's interior: one block-level tree per block, then a
// second small pass on the host over the per-block partials (a few hundred doubles).
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/Buffer.hpp"
#include "sim/core/Reduce.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

struct Partial {
  double mn, mx, sum, sq;
  long long bad;
};

template <class T>
__global__ void stats_kernel(const T* __restrict__ p, FieldLayout l, Partial* out) {
  __shared__ Partial sh[kThreads];
  Partial acc{INFINITY, -INFINITY, 0, 0, 0};
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const double x = p[l.interior_index(c)];
    if (!isfinite(x)) {
      ++acc.bad;
      continue;
    }
    acc.mn = fmin(acc.mn, x);
    acc.mx = fmax(acc.mx, x);
    acc.sum += x;
    acc.sq += x * x;
  }
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      Partial& a = sh[threadIdx.x];
      const Partial& b = sh[threadIdx.x + s];
      a.mn = fmin(a.mn, b.mn);
      a.mx = fmax(a.mx, b.mx);
      a.sum += b.sum;
      a.sq += b.sq;
      a.bad += b.bad;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

template <class T>
__global__ void maxdiff_kernel(const T* __restrict__ a, const T* __restrict__ b, FieldLayout l,
                               double* out) {
  __shared__ double sh[kThreads];
  double acc = 0;
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const long long o = l.interior_index(c);
    acc = fmax(acc, fabs(double(a[o]) - double(b[o])));
  }
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = fmax(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

template <class T>
__global__ void first_bad_kernel(const T* __restrict__ p, FieldLayout l, bool positive,
                                 unsigned long long* first) {
  const long long total = (long long)l.n[0] * l.n[1] * l.n[2];
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < total;
       c += (long long)gridDim.x * blockDim.x) {
    const T x = p[l.interior_index(c)];
    if (!isfinite(x) || (positive && !(x > T(0)))) atomicMin(first, (unsigned long long)c);
  }
}

// Scratch for per-block partials, kept between calls: cudaMalloc and cudaFree would
// synchronise the device on every reduction and drain the queue of launched steps.
void* scratch(std::size_t bytes) {
  thread_local Buffer buf;  // per thread: the GUI reduces from its stepping thread too
  if (buf.bytes() < bytes) buf = Buffer(Location::device, std::max<std::size_t>(bytes, 64 * 1024));
  return buf.data();
}

int blocks_for(const FieldLayout& l) {
  const long long total = l.interior_cells();
  return int(std::min<long long>(kMaxBlocks, (total + kThreads - 1) / kThreads));
}

}  // namespace

FieldStats field_stats_device(const FieldView& v) {
  const int blocks = blocks_for(v.layout);
  auto* out = static_cast<Partial*>(scratch(sizeof(Partial) * blocks));
  if (v.precision == Precision::f64)
    stats_kernel<<<blocks, kThreads>>>(static_cast<const double*>(v.data), v.layout, out);
  else
    stats_kernel<<<blocks, kThreads>>>(static_cast<const float*>(v.data), v.layout, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  std::vector<Partial> host(blocks);
  FLUXVIEW_CUDA_CHECK(
      cudaMemcpy(host.data(), out, sizeof(Partial) * blocks, cudaMemcpyDeviceToHost));
  FieldStats s{INFINITY, -INFINITY, 0, 0, v.layout.interior_cells(), 0};
  for (const Partial& p : host) {
    s.min = std::fmin(s.min, p.mn);
    s.max = std::fmax(s.max, p.mx);
    s.sum += p.sum;
    s.sum_sq += p.sq;
    s.nonfinite += p.bad;
  }
  return s;
}

double max_abs_difference_device(const FieldView& a, const FieldView& b) {
  const int blocks = blocks_for(a.layout);
  auto* out = static_cast<double*>(scratch(sizeof(double) * blocks));
  if (a.precision == Precision::f64)
    maxdiff_kernel<<<blocks, kThreads>>>(static_cast<const double*>(a.data),
                                         static_cast<const double*>(b.data), a.layout, out);
  else
    maxdiff_kernel<<<blocks, kThreads>>>(static_cast<const float*>(a.data),
                                         static_cast<const float*>(b.data), a.layout, out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  std::vector<double> host(blocks);
  FLUXVIEW_CUDA_CHECK(
      cudaMemcpy(host.data(), out, sizeof(double) * blocks, cudaMemcpyDeviceToHost));
  double m = 0;
  for (double x : host) m = std::fmax(m, x);
  return m;
}

std::int64_t first_bad_cell_device(const FieldView& v, bool positive) {
  const int blocks = blocks_for(v.layout);
  auto* first = static_cast<unsigned long long*>(scratch(sizeof(unsigned long long)));
  FLUXVIEW_CUDA_CHECK(cudaMemset(first, 0xff, sizeof(unsigned long long)));
  if (v.precision == Precision::f64)
    first_bad_kernel<<<blocks, kThreads>>>(static_cast<const double*>(v.data), v.layout, positive,
                                           first);
  else
    first_bad_kernel<<<blocks, kThreads>>>(static_cast<const float*>(v.data), v.layout, positive,
                                           first);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  unsigned long long host = 0;
  FLUXVIEW_CUDA_CHECK(cudaMemcpy(&host, first, sizeof host, cudaMemcpyDeviceToHost));
  return host == ~0ull ? -1 : std::int64_t(host);
}

}  // namespace fluxview::cuda
