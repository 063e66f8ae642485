#pragma once
// What the heat kernels share: the grid as a kernel sees it, and one launcher per
// kernel family (one .cu file each). Private to sim/heat/cuda.
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/heat/HeatStencil.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat::cuda_detail {

// The field as every kernel reads it. Neighbour strides are 0 along a reduced axis
// (n == 1, no ghost layers): the neighbour read is then the cell itself, in bounds, and
// c = 0 drops the term, exactly as the CPU loop does.
template <class T>
struct StencilGrid {
  const T* __restrict__ in;
  T* __restrict__ out;
  int nx, ny, nz;
  long long sx, sy, sz;  // neighbour strides in elements (0 along a reduced axis)
  long long origin;      // element offset of interior cell (0,0,0)
  T cx, cy, cz;

  __device__ __forceinline__ long long at(int i, int j, int k) const {
    return origin + i + j * sy + k * sz;
  }
};

template <class T>
StencilGrid<T> make_grid(const HeatStepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  StencilGrid<T> g;
  g.in = a.in;
  g.out = a.out;
  const bool whole = a.hi[0] == 0 && a.hi[1] == 0 && a.hi[2] == 0;
  g.nx = whole ? l.n[0] : a.hi[0] - a.lo[0];
  g.ny = whole ? l.n[1] : a.hi[1] - a.lo[1];
  g.nz = whole ? l.n[2] : a.hi[2] - a.lo[2];
  // Strides follow the whole field: a sub-box one cell thick still has neighbours.
  g.sx = l.n[0] > 1 ? 1 : 0;
  g.sy = l.n[1] > 1 ? l.sy : 0;
  g.sz = l.n[2] > 1 ? l.sz : 0;
  g.origin = whole ? l.origin : l.index(a.lo[0], a.lo[1], a.lo[2]);
  g.cx = a.cx;
  g.cy = a.cy;
  g.cz = a.cz;
  return g;
}

// True when an axis is reduced: the shared-memory and z-marching variants of the paper
// assume ghost layers on all six faces, so they hand such grids to 3DBase.
template <class T>
bool any_reduced(const StencilGrid<T>& g) {
  return g.nx == 1 || g.ny == 1 || g.nz == 1;
}

inline unsigned ceil_div(int a, int b) {
  return unsigned((a + b - 1) / b);
}

// Kernel families (HeatKernels3D.cu, HeatKernels2D.cu, HeatKernelFast.cu).
template <class T>
void launch_3d(HeatKernel k, const StencilGrid<T>& g);  // 3DBase, 3DShMOverL, 3DShMNoOverL
template <class T>
void launch_2d(HeatKernel k, const StencilGrid<T>& g);  // 2DBase, 2DReg, 2DShM, 2DShMReg
template <class T>
void launch_fast(const StencilGrid<T>& g);

}  // namespace fluxview::heat::cuda_detail
