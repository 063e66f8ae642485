#pragma once
// One RK3 substep of the fd family, and the backend object that computes it. FdSolver owns
// the fields and swaps `in` and `out` after each substep; a backend only moves data and
// loops, the formulas are in FdStencil.hpp.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/Backend.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/fd/FdStencil.hpp"

namespace fluxview::fd {

// How a substep is computed. `m55` is the single-pass method (55-point stencil, grad div u
// from mixed derivatives); `m19` the two-pass method (div u stored first, then the
// 19-point update with grad div u as the derivative of that field). They differ at
// truncation-error level; each backend reproduces each method to round-off.
enum class Formulation { m55, m19 };

// The values of fd.method: the paper's two blocked CUDA kernels (55point: 3D blocking;
// 19point: 2.5D blocking), fluxview's fastest (fast: the two-pass formulation with one
// thread a point, every neighbour through the L1), and direct55, the single-pass
// formulation the same way: the unblocked reference for 55point. The host computes every
// method by its formulation.
enum class Method { p55, p19, fast, direct55 };
const std::vector<std::string>& method_names();
Method parse_method(std::string_view name);
std::string_view method_name(Method m);
Formulation formulation_of(Method m);

template <class T>
struct SubstepArgs {
  const T* in[kVars] = {};  // ln rho, ux, uy, uz at the start of the substep (ghosts filled)
  T* out[kVars] = {};       // the same after the substep (interior written)
  T* w[kVars] = {};         // the 2N-storage registers w (interior read and written)
  T* div = nullptr;         // div u (m19 only): written by pass 1, ghosts filled, read by pass 2
  // Called once the div field's periodic ghosts are filled, before pass 2: under MPI it
  // fills the ghosts that border other ranks. Null in a serial run.
  void (*div_ghost_hook)(void* context, T* div) = nullptr;
  void* hook_context = nullptr;
  FieldLayout layout;  // shared by every field above
  Coeffs<T> c;
  T cs2 = 1, nu = 0, dt = 0, alpha = 0, beta = 0;
  bool first = false;  // alpha = 0: w is not read
  bool last = false;   // w is not needed afterwards: not written
  ForceArgs<T> force;
};

// The end of every backend's point update: rates (eqs 1-3) from the derivatives, then the
// RK substep of the four variables at element offset o of interior cell (i, j, k).
template <class T>
FLUXVIEW_HD void update_point(const SubstepArgs<T>& a, const Derivs<T>& d, std::int64_t o, int i,
                              int j, int k) {
  T force[3];
  force_at(a.force, i, j, k, force);
  T r[4];
  rates(d, a.cs2, a.nu, force, r);
  const T f0[4] = {d.lnrho, d.u[0], d.u[1], d.u[2]};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int v = 0; v < kVars; ++v) {
    T w = a.first ? T(0) : a.w[v][o];
    T out;
    rk_update(f0[v], r[v], w, a.alpha, a.beta, a.dt, a.first, out);
    a.out[v][o] = out;
    if (!a.last) a.w[v][o] = w;
  }
}

// The same arguments restricted to the cells [lo, hi) of the interior: the layout's
// origin moves to lo and its extent shrinks (strides stay, so neighbours outside the box
// are read as before) and the forcing's global offset moves with it.
template <class T>
SubstepArgs<T> restrict_to_box(SubstepArgs<T> a, std::array<int, 3> lo, std::array<int, 3> hi) {
  a.layout.origin = a.layout.index(lo[0], lo[1], lo[2]);
  for (int d = 0; d < 3; ++d) {
    a.layout.n[d] = hi[d] - lo[d];
    a.force.offset[d] += lo[d];
  }
  return a;
}

// Sums for the diagnostics (times dV by the caller).
struct FlowSums {
  double mass = 0;     // sum exp(ln rho)
  double kinetic = 0;  // sum 1/2 rho u^2
  double u2 = 0;       // sum u^2
  double u2_max = 0;   // max u^2
  std::int64_t nonfinite = 0;
};

template <class T>
class FdBackend : public Backend {
 public:
  using Backend::Backend;
  // Makes the ghost zones of `count` fields periodic copies of their interiors.
  virtual void wrap_ghosts(T* const* fields, int count, const FieldLayout& l) = 0;
  // One RK substep by `method` (the host: by its formulation).
  virtual void substep(Method method, const SubstepArgs<T>& a) = 0;
  // The two passes of the `fast` method one at a time, over the box a.layout describes,
  // with no ghosts filled in between: how the solver updates interior and face boxes
  // apart while ghosts travel under MPI (the same per-cell code as the whole-box
  // substep, so the result is bit-identical).
  virtual void div_pass(const SubstepArgs<T>& a) = 0;
  virtual void rate_pass(const SubstepArgs<T>& a) = 0;
  virtual FlowSums flow_sums(const T* const* f, const FieldLayout& l) = 0;
  // max u^2 over the interior; not finite when any cell is not.
  virtual double max_u2(const T* const* f, const FieldLayout& l) = 0;
  // What computes a substep, for run.json ("cpu-openmp", or the method on the device).
  virtual std::string kernel(Method method) const = 0;
};

// The host backend (FdCpu.cpp), the device backend (cuda/FdKernels.cu), and the backend
// of a run (FdCpu.cpp; throws for cuda in a build without CUDA).
template <class T>
std::unique_ptr<FdBackend<T>> make_host_backend();
template <class T>
std::unique_ptr<FdBackend<T>> make_device_backend();
template <class T>
std::unique_ptr<FdBackend<T>> make_backend(BackendKind backend);

}  // namespace fluxview::fd
