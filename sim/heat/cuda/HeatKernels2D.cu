// The four kernels of Vizitiu et al. 2014 with 2D thread blocks: a block covers a tile of
// an x-y plane and each thread marches along z through the whole column.
//   2DBase    seven global reads per cell
//   2DReg     + the z neighbours kept in registers (T(k+1) becomes T(k), T(k) becomes T(k-1))
//   2DShM     + the x-y plane in a shared tile padded by one cell on each side
//             (z neighbours from global again, as in the paper)
//   2DShMReg  registers for z, a shared tile padded only in y (north/south); east/west
//             come from shared memory except at the block's left/right edge, where
//             the edge thread reads them from global into a register
// Blocks are 32x4 (the paper used 8x8) so that a warp reads a whole 128-byte line of
// doubles; the paper's kernels march the whole column, so a grid gets only
// (nx/32)(ny/4) blocks: at 128^3 that is 128 blocks, about one per multiprocessor.
#include "sim/heat/cuda/HeatCuda.cuh"

namespace fluxview::heat::cuda_detail {

namespace {

constexpr int kBX = 32, kBY = 4;

template <class T>
__global__ void __launch_bounds__(kBX* kBY) heat_2d_base(StencilGrid<T> g) {
  const int i = blockIdx.x * kBX + threadIdx.x;
  const int j = blockIdx.y * kBY + threadIdx.y;
  if (i >= g.nx || j >= g.ny) return;
  const T* in = g.in;
  long long o = g.at(i, j, 0);
  for (int k = 0; k < g.nz; ++k, o += g.sz)
    g.out[o] = ftcs_update(in[o], in[o - 1], in[o + 1], in[o - g.sy], in[o + g.sy], in[o - g.sz],
                           in[o + g.sz], g.cx, g.cy, g.cz);
}

template <class T>
__global__ void __launch_bounds__(kBX* kBY) heat_2d_reg(StencilGrid<T> g) {
  const int i = blockIdx.x * kBX + threadIdx.x;
  const int j = blockIdx.y * kBY + threadIdx.y;
  if (i >= g.nx || j >= g.ny) return;
  const T* in = g.in;
  long long o = g.at(i, j, 0);
  T zm = in[o - g.sz], c = in[o];
  for (int k = 0; k < g.nz; ++k, o += g.sz) {
    const T zp = in[o + g.sz];
    g.out[o] =
        ftcs_update(c, in[o - 1], in[o + 1], in[o - g.sy], in[o + g.sy], zm, zp, g.cx, g.cy, g.cz);
    zm = c;
    c = zp;
  }
}

template <class T>
__global__ void __launch_bounds__(kBX* kBY) heat_2d_shm(StencilGrid<T> g) {
  __shared__ T s[kBY + 2][kBX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * kBX + tx;
  const int j = blockIdx.y * kBY + ty;
  const int x = tx + 1, y = ty + 1;
  // Threads past the grid's edge stay for the barriers but load and store nothing.
  const bool active = i < g.nx && j < g.ny;
  const T* in = g.in;
  long long o = active ? g.at(i, j, 0) : 0;
  for (int k = 0; k < g.nz; ++k, o += g.sz) {
    if (active) {
      s[y][x] = in[o];
      if (tx == 0) s[y][0] = in[o - 1];
      if (tx == kBX - 1 || i == g.nx - 1) s[y][x + 1] = in[o + 1];
      if (ty == 0) s[0][x] = in[o - g.sy];
      if (ty == kBY - 1 || j == g.ny - 1) s[y + 1][x] = in[o + g.sy];
    }
    __syncthreads();
    if (active)
      g.out[o] = ftcs_update(s[y][x], s[y][x - 1], s[y][x + 1], s[y - 1][x], s[y + 1][x],
                             in[o - g.sz], in[o + g.sz], g.cx, g.cy, g.cz);
    __syncthreads();  // the tile is overwritten by the next plane
  }
}

template <class T>
__global__ void __launch_bounds__(kBX* kBY) heat_2d_shm_reg(StencilGrid<T> g) {
  __shared__ T s[kBY + 2][kBX];  // the paper's blockXDim * (blockYDim + 2)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * kBX + tx;
  const int j = blockIdx.y * kBY + ty;
  const int y = ty + 1;
  const bool active = i < g.nx && j < g.ny;
  const bool west_edge = tx == 0;
  const bool east_edge = tx == kBX - 1 || i == g.nx - 1;
  const T* in = g.in;
  long long o = active ? g.at(i, j, 0) : 0;
  T zm = active ? in[o - g.sz] : T(0), c = active ? in[o] : T(0);
  for (int k = 0; k < g.nz; ++k, o += g.sz) {
    T zp = 0, xm = 0, xp = 0;
    if (active) {
      zp = in[o + g.sz];
      s[y][tx] = c;
      if (ty == 0) s[0][tx] = in[o - g.sy];
      if (ty == kBY - 1 || j == g.ny - 1) s[y + 1][tx] = in[o + g.sy];
      if (west_edge) xm = in[o - 1];
      if (east_edge) xp = in[o + 1];
    }
    __syncthreads();
    if (active) {
      if (!west_edge) xm = s[y][tx - 1];
      if (!east_edge) xp = s[y][tx + 1];
      g.out[o] = ftcs_update(c, xm, xp, s[y - 1][tx], s[y + 1][tx], zm, zp, g.cx, g.cy, g.cz);
    }
    __syncthreads();
    zm = c;
    c = zp;
  }
}

}  // namespace

template <class T>
void launch_2d(HeatKernel kernel, const StencilGrid<T>& g) {
  if (any_reduced(g)) return launch_3d(HeatKernel::k3DBase, g);
  const dim3 block(kBX, kBY);
  const dim3 grid(ceil_div(g.nx, kBX), ceil_div(g.ny, kBY));
  switch (kernel) {
    case HeatKernel::k2DBase:
      heat_2d_base<<<grid, block>>>(g);
      break;
    case HeatKernel::k2DReg:
      heat_2d_reg<<<grid, block>>>(g);
      break;
    case HeatKernel::k2DShM:
      heat_2d_shm<<<grid, block>>>(g);
      break;
    default:
      heat_2d_shm_reg<<<grid, block>>>(g);
      break;
  }
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

template void launch_2d<float>(HeatKernel, const StencilGrid<float>&);
template void launch_2d<double>(HeatKernel, const StencilGrid<double>&);

}  // namespace fluxview::heat::cuda_detail
