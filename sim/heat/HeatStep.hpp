#pragma once
// One FTCS step of the heat equation, as the two backends implement it. The solver
// (HeatSolver) owns the fields and swaps them; these functions only move data.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/FieldLayout.hpp"

namespace fluxview::heat {

template <class T>
struct HeatStepArgs {
  const T* in = nullptr;     // T^n, ghosts hold the Dirichlet wall temperatures
  T* out = nullptr;          // T^{n+1}, interior written, ghosts untouched
  FieldLayout layout;        // same for in and out
  T cx = 0, cy = 0, cz = 0;  // alpha dt / d_a^2; 0 along a reduced (single-cell) axis
  // CUDA only: update just the box [lo, hi) of the interior (hi = {0,0,0}: all of it).
  // Under MPI the interior kernel runs while the ghosts travel, then the faces next to
  // other ranks (HeatSolver). lo[0] must keep rows 16-byte aligned (fast kernel).
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
};

// CPU backend: OpenMP over planes and rows, the inner loop vectorised (HeatCpu.cpp).
template <class T>
void step_cpu(const HeatStepArgs<T>& a);

// The CUDA kernels: the seven of the paper and fluxview's own fastest ("fast").
enum class HeatKernel {
  k3DBase,
  k3DShMOverL,
  k3DShMNoOverL,
  k2DBase,
  k2DReg,
  k2DShM,
  k2DShMReg,
  fast,
};
// Names as the paper writes them ("3DBase", ...), and "fast" for the default.
const std::vector<std::string>& kernel_names();
HeatKernel parse_kernel(std::string_view name);  // name must be one of kernel_names()
std::string_view kernel_name(HeatKernel k);

// CUDA backend (sim/heat/cuda/HeatKernels.cu): launches on the default stream, returns
// at once. Throws where the build has no CUDA.
template <class T>
void step_cuda(HeatKernel kernel, const HeatStepArgs<T>& a);

}  // namespace fluxview::heat
