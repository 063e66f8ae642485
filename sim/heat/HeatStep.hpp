#pragma once
// One FTCS step of the heat equation, and the backend object that computes it. The solver
// (HeatSolver) owns the fields and swaps them; a backend only moves data.
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/Backend.hpp"
#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::heat {

template <class T>
struct HeatStepArgs {
  const T* in = nullptr;     // T^n, ghosts hold the Dirichlet wall temperatures
  T* out = nullptr;          // T^{n+1}, interior written, ghosts untouched
  FieldLayout layout;        // same for in and out
  T cx = 0, cy = 0, cz = 0;  // alpha dt / d_a^2; 0 along a reduced (single-cell) axis
  // Update just the box [lo, hi) of the interior (hi = {0,0,0}: all of it). Under MPI on
  // the device the interior box runs while the ghosts travel, then the faces next to other
  // ranks (HeatSolver). lo[0] must keep rows 16-byte aligned (the fast kernel).
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
};

// The cells a step updates.
template <class T>
exec::Box step_box(const HeatStepArgs<T>& a) {
  if (a.hi == std::array<int, 3>{0, 0, 0}) return exec::interior(a.layout);
  return {a.lo, a.hi};
}

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

template <class T>
class HeatBackend : public Backend {
 public:
  using Backend::Backend;
  // One step of the box step_box(a): done on return on the host; queued on the default
  // stream on the device.
  virtual void step(const HeatStepArgs<T>& a) = 0;
  // What computes a step, for run.json ("cpu-openmp", or the CUDA kernel's name).
  virtual std::string kernel() const = 0;
};

// The host backend: the FTCS update through the execution layer (HeatCpu.cpp).
template <class T>
std::unique_ptr<HeatBackend<T>> make_host_backend();
// The device backend: one of the kernels (cuda/HeatKernels.cu).
template <class T>
std::unique_ptr<HeatBackend<T>> make_device_backend(HeatKernel kernel);
// The backend of a run (HeatCpu.cpp); throws for cuda in a build without CUDA.
template <class T>
std::unique_ptr<HeatBackend<T>> make_backend(BackendKind backend, HeatKernel kernel);

}  // namespace fluxview::heat
