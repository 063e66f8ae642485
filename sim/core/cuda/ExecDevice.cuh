#pragma once
// The device side of the execution layer (sim/core/Exec.hpp), for .cu files.
//
// for_each_cell launches one kernel: a 3D grid of thread blocks, one thread a cell (more
// only along a y or z longer than a grid may be: see cells_kernel), the block shape given
// by a Block<X, Y, Z> (launch bounds X*Y*Z), on the space's stream. It returns at once: no
// synchronisation, no host round trip. That is what a hand-written one-thread-per-cell
// kernel costs, and the body is inlined into the kernel as it would be
// there (the lambda's captures are the kernel's parameters).
//
// reduce_cells launches one kernel and copies one accumulator back: each thread walks the
// box grid-stride (4 blocks per multiprocessor of 256 threads), each block joins its
// threads in shared memory and writes a partial, and the last block to finish joins the
// partials in block order (deterministic for a given GPU) and resets the arrival counter.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "sim/core/Exec.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::exec {

namespace detail {

struct DeviceBox {
  int lo[3], hi[3];
};

inline DeviceBox device_box(const Box& b) {
  return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}};
}

// A grid holds at most 65535 thread blocks along y and z (the CUDA C++ Programming Guide's
// compute-capability limits); a longer box (the adaptive mesh's pool runs its blocks one
// after another along z) is covered by a grid that strides along y and z. Where the box
// fits, each loop runs once.
inline constexpr unsigned kMaxGridYZ = 65535;

template <int Threads, class F>
__global__ void __launch_bounds__(Threads) cells_kernel(DeviceBox b, F body) {
  const int i = b.lo[0] + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= b.hi[0]) return;
  const int j0 = b.lo[1] + int(blockIdx.y * blockDim.y + threadIdx.y);
  const int dj = int(gridDim.y * blockDim.y), dk = int(gridDim.z * blockDim.z);
  for (int k = b.lo[2] + int(blockIdx.z * blockDim.z + threadIdx.z); k < b.hi[2]; k += dk)
    for (int j = j0; j < b.hi[1]; j += dj) body(i, j, k);
}

// The block shape for a box: (X, Y, Z), with a factor of 2 moved from z (then y) to x
// while the box is thinner than the block along that axis.
inline dim3 block_shape(int x, int y, int z, const Box& b) {
  while (z > 1 && b.extent(2) <= z / 2) {
    z /= 2;
    x *= 2;
  }
  while (y > 1 && b.extent(1) <= y / 2) {
    y /= 2;
    x *= 2;
  }
  return dim3(unsigned(x), unsigned(y), unsigned(z));
}

// Device memory for a reduction's partials, kept per host thread (the GUI reduces from
// its stepping thread too) and only ever grown: cudaMalloc and cudaFree would synchronise
// the device on every reduction. The first 256 bytes hold the arrival counter (zero
// between reductions), the next 256 the result; partials follow.
void* reduction_scratch(std::size_t bytes, cuda::Stream stream);
inline constexpr std::size_t kScratchHeader = 512;

template <int Threads, class Acc>
__device__ Acc join_block(Acc acc) {
  static_assert((Threads & (Threads - 1)) == 0, "threads per block: a power of two");
  static_assert(Threads * sizeof(Acc) <= 32 * 1024,
                "an accumulator that large needs fewer threads");
  __shared__ alignas(Acc) unsigned char raw[Threads * sizeof(Acc)];
  Acc* sh = reinterpret_cast<Acc*>(raw);
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = Threads / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) sh[threadIdx.x].join(sh[threadIdx.x + s]);
    __syncthreads();
  }
  const Acc all = sh[0];
  __syncthreads();  // the next call may reuse the buffer
  return all;
}

// Reads another block's partial past the (incoherent) L1.
template <class Acc>
__device__ Acc load_partial(const Acc* p) {
  static_assert(sizeof(Acc) % sizeof(unsigned) == 0, "accumulators are whole 4-byte words");
  Acc out;
  auto* dst = reinterpret_cast<unsigned*>(&out);
  const auto* src = reinterpret_cast<const unsigned*>(p);
  for (std::size_t w = 0; w < sizeof(Acc) / sizeof(unsigned); ++w) dst[w] = __ldcg(src + w);
  return out;
}

template <int Threads, class Acc, class F>
__global__ void __launch_bounds__(Threads)
    reduce_kernel(DeviceBox b, long long total, Acc identity, F body, unsigned* arrivals,
                  Acc* result, Acc* partials) {
  const int nx = b.hi[0] - b.lo[0], ny = b.hi[1] - b.lo[1];
  Acc acc = identity;
  for (long long c = blockIdx.x * (long long)Threads + threadIdx.x; c < total;
       c += (long long)gridDim.x * Threads) {
    const long long row = c / nx;
    body(b.lo[0] + int(c - row * nx), b.lo[1] + int(row % ny), b.lo[2] + int(row / ny), acc);
  }
  acc = join_block<Threads>(acc);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = acc;
    __threadfence();  // the partial is visible before the arrival is counted
    last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  Acc all = identity;
  for (unsigned q = threadIdx.x; q < gridDim.x; q += Threads) all.join(load_partial(partials + q));
  all = join_block<Threads>(all);
  if (threadIdx.x == 0) {
    *result = all;
    *arrivals = 0;
  }
}

}  // namespace detail

template <class F, int X = 32, int Y = 4, int Z = 2>
void for_each_cell(const Device& d, const Box& b, F body, Block<X, Y, Z> = {}) {
  if (b.empty()) return;
  const dim3 block = detail::block_shape(X, Y, Z, b);
  const auto blocks_along = [&](int a, unsigned n) { return (unsigned(b.extent(a)) + n - 1) / n; };
  const dim3 grid(blocks_along(0, block.x), std::min(blocks_along(1, block.y), detail::kMaxGridYZ),
                  std::min(blocks_along(2, block.z), detail::kMaxGridYZ));
  detail::cells_kernel<X * Y * Z>
      <<<grid, block, 0, static_cast<cudaStream_t>(d.stream)>>>(detail::device_box(b), body);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template <class Acc, class F>
Acc reduce_cells(const Device& d, const Box& b, const Acc& identity, F body) {
  static_assert(std::is_trivially_copyable_v<Acc>, "accumulators cross the bus as bytes");
  if (b.empty()) return identity;
  constexpr int kThreads = 256;
  const long long total = b.cells();
  const int blocks = int(
      std::min<long long>((total + kThreads - 1) / kThreads, 4LL * cuda::multiprocessor_count()));
  auto* scratch = static_cast<unsigned char*>(
      detail::reduction_scratch(detail::kScratchHeader + sizeof(Acc) * blocks, d.stream));
  auto* arrivals = reinterpret_cast<unsigned*>(scratch);
  auto* result = reinterpret_cast<Acc*>(scratch + 256);
  auto* partials = reinterpret_cast<Acc*>(scratch + detail::kScratchHeader);
  static_assert(sizeof(Acc) <= 256, "the result slot holds 256 bytes");
  const auto stream = static_cast<cudaStream_t>(d.stream);
  detail::reduce_kernel<kThreads><<<blocks, kThreads, 0, stream>>>(
      detail::device_box(b), total, identity, body, arrivals, result, partials);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  Acc host;
  FLUXVIEW_CUDA_CHECK(cudaMemcpyAsync(&host, result, sizeof(Acc), cudaMemcpyDeviceToHost, stream));
  FLUXVIEW_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace fluxview::exec
