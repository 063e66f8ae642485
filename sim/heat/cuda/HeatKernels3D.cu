// The three kernels of Vizitiu et al. 2014 with 3D thread blocks, one thread per cell:
// 3DBase (seven global reads per cell), 3DShMOverL (a shared tile the size of the block;
// blocks overlap by one cell on every face so the border threads only load) and
// 3DShMNoOverL (a shared tile padded by one cell on every face, filled by the border
// threads). Block shapes are wider in x than the paper's 8x8x8 so that a warp reads
// whole 128-byte lines; the techniques are the paper's.
#include "sim/heat/cuda/HeatCuda.cuh"

namespace fluxview::heat::cuda_detail {

namespace {

// 3DBase: every read from global memory; L1/L2 catch most of the reuse on Hopper.
// Handles reduced axes through the zero strides, so it is the fallback of every variant.
template <class T>
__global__ void __launch_bounds__(256) heat_3d_base(StencilGrid<T> g) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= g.nx || j >= g.ny || k >= g.nz) return;
  const long long o = g.at(i, j, k);
  const T* in = g.in;
  g.out[o] = ftcs_update(in[o], in[o - g.sx], in[o + g.sx], in[o - g.sy], in[o + g.sy],
                         in[o - g.sz], in[o + g.sz], g.cx, g.cy, g.cz);
}

// 3DShMOverL: block covers (BX-2)x(BY-2)x(BZ-2) outputs plus a one-cell rim that other
// blocks also read (the paper's global-read redundancy); rim threads only load.
constexpr int kOvX = 16, kOvY = 8, kOvZ = 8;

template <class T>
__global__ void __launch_bounds__(kOvX* kOvY* kOvZ) heat_3d_shm_overlap(StencilGrid<T> g) {
  __shared__ T s[kOvZ][kOvY][kOvX];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int i = blockIdx.x * (kOvX - 2) + tx - 1;  // >= -1: the rim may be a ghost
  const int j = blockIdx.y * (kOvY - 2) + ty - 1;
  const int k = blockIdx.z * (kOvZ - 2) + tz - 1;
  const bool inside = i <= g.nx && j <= g.ny && k <= g.nz;  // interior or wall
  const long long o = g.at(i, j, k);
  if (inside) s[tz][ty][tx] = g.in[o];
  __syncthreads();
  const bool rim =
      tx == 0 || tx == kOvX - 1 || ty == 0 || ty == kOvY - 1 || tz == 0 || tz == kOvZ - 1;
  if (rim || i >= g.nx || j >= g.ny || k >= g.nz) return;
  g.out[o] = ftcs_update(s[tz][ty][tx], s[tz][ty][tx - 1], s[tz][ty][tx + 1], s[tz][ty - 1][tx],
                         s[tz][ty + 1][tx], s[tz - 1][ty][tx], s[tz + 1][ty][tx], g.cx, g.cy, g.cz);
}

// 3DShMNoOverL: tile padded by one cell per face; threads on the block's faces (or on the
// last interior cell of a partial block) fetch the padding. Corners are not needed.
constexpr int kNoX = 32, kNoY = 4, kNoZ = 4;

template <class T>
__global__ void __launch_bounds__(kNoX* kNoY* kNoZ) heat_3d_shm_padded(StencilGrid<T> g) {
  __shared__ T s[kNoZ + 2][kNoY + 2][kNoX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int i = blockIdx.x * kNoX + tx;
  const int j = blockIdx.y * kNoY + ty;
  const int k = blockIdx.z * kNoZ + tz;
  const int x = tx + 1, y = ty + 1, z = tz + 1;
  const bool active = i < g.nx && j < g.ny && k < g.nz;
  const long long o = g.at(i, j, k);
  const T* in = g.in;
  if (active) {
    s[z][y][x] = in[o];
    // The branches the paper counts as divergence: only face threads take them.
    if (tx == 0) s[z][y][0] = in[o - 1];
    if (tx == kNoX - 1 || i == g.nx - 1) s[z][y][x + 1] = in[o + 1];
    if (ty == 0) s[z][0][x] = in[o - g.sy];
    if (ty == kNoY - 1 || j == g.ny - 1) s[z][y + 1][x] = in[o + g.sy];
    if (tz == 0) s[0][y][x] = in[o - g.sz];
    if (tz == kNoZ - 1 || k == g.nz - 1) s[z + 1][y][x] = in[o + g.sz];
  }
  __syncthreads();
  if (!active) return;
  g.out[o] = ftcs_update(s[z][y][x], s[z][y][x - 1], s[z][y][x + 1], s[z][y - 1][x], s[z][y + 1][x],
                         s[z - 1][y][x], s[z + 1][y][x], g.cx, g.cy, g.cz);
}

template <class T>
void launch_base(const StencilGrid<T>& g) {
  const dim3 block(32, 4, 2);
  const dim3 grid(ceil_div(g.nx, 32), ceil_div(g.ny, 4), ceil_div(g.nz, 2));
  heat_3d_base<<<grid, block>>>(g);
}

}  // namespace

template <class T>
void launch_3d(HeatKernel kernel, const StencilGrid<T>& g) {
  if (kernel == HeatKernel::k3DBase || any_reduced(g)) {
    launch_base(g);
  } else if (kernel == HeatKernel::k3DShMOverL) {
    const dim3 block(kOvX, kOvY, kOvZ);
    const dim3 grid(ceil_div(g.nx, kOvX - 2), ceil_div(g.ny, kOvY - 2), ceil_div(g.nz, kOvZ - 2));
    heat_3d_shm_overlap<<<grid, block>>>(g);
  } else {
    const dim3 block(kNoX, kNoY, kNoZ);
    const dim3 grid(ceil_div(g.nx, kNoX), ceil_div(g.ny, kNoY), ceil_div(g.nz, kNoZ));
    heat_3d_shm_padded<<<grid, block>>>(g);
  }
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template void launch_3d<float>(HeatKernel, const StencilGrid<float>&);
template void launch_3d<double>(HeatKernel, const StencilGrid<double>&);

}  // namespace fluxview::heat::cuda_detail
