#pragma once
#include <array>
#include <cstdint>
// One RK3 substep of the fd family as the backends implement it. FdSolver owns the
// fields and swaps `in` and `out` after each substep; these functions only move data and
// loop, the formulas are in FdStencil.hpp.
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/FieldLayout.hpp"
#include "sim/fd/FdStencil.hpp"

namespace fluxview::fd {

// How a substep is computed. `m55` is the single-pass method (55-point stencil, grad div u
// from mixed derivatives); `m19` the two-pass method (div u stored first, then the
// 19-point update with grad div u as the derivative of that field). They differ at
// truncation-error level; each backend reproduces each method to round-off.
enum class Formulation { m55, m19 };

// The values of fd.method. "fast" is fluxview's fastest CUDA kernel (see FdCpu.cpp).
enum class Method { p55, p19, fast, direct55, direct19 };
const std::vector<std::string>& method_names();
Method parse_method(std::string_view name);
std::string_view method_name(Method m);
Formulation formulation_of(Method m);

template <class T>
struct SubstepArgs {
  const T* in[kVars] = {};  // ln rho, ux, uy, uz at the start of the substep (ghosts filled)
  T* out[kVars] = {};       // the same after the substep (interior written)
  T* w[kVars] = {};         // 2N-storage registers (interior read and written)
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

// CPU backend (FdCpu.cpp): OpenMP over rows. fill_ghosts_cpu makes the ghost zones of
// `count` fields periodic copies of the interior.
template <class T>
void fill_ghosts_cpu(T* const* fields, int count, const FieldLayout& l);
template <class T>
void substep_cpu(Formulation f, const SubstepArgs<T>& a);

// Reductions for diagnostics and the time step, where the fields live.
struct FlowSums {
  double mass = 0;     // sum exp(ln rho)  (times dV by the caller)
  double kinetic = 0;  // sum 1/2 rho u^2
  double u2 = 0;       // sum u^2
  double u2_max = 0;   // max u^2
  long long nonfinite = 0;
};
template <class T>
FlowSums flow_sums_cpu(const T* const* f, const FieldLayout& l);
template <class T>
double max_u2_cpu(const T* const* f, const FieldLayout& l);

// CUDA backend (cuda/FdKernels.cu): launches on the default stream and returns at once,
// except the reductions, which return their numbers. Throw where the build has no CUDA.
template <class T>
void fill_ghosts_cuda(T* const* fields, int count, const FieldLayout& l);
template <class T>
void substep_cuda(Method m, const SubstepArgs<T>& a);
template <class T>
FlowSums flow_sums_cuda(const T* const* f, const FieldLayout& l);
template <class T>
double max_u2_cuda(const T* const* f, const FieldLayout& l);

// The two passes of the default CUDA method ("fast") one at a time, over the box that
// a.layout describes, with no ghosts filled in between: what the solver needs to update
// interior and face boxes apart while ghosts travel under MPI (the per-cell arithmetic
// is the whole-box launch's, so the result is bit-identical). `box_passes_supported`
// says whether a method is computed by exactly these two passes.
bool box_passes_supported(Method m);
template <class T>
void div_pass_cuda(const SubstepArgs<T>& a);
template <class T>
void rate_pass_cuda(const SubstepArgs<T>& a);
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

}  // namespace fluxview::fd
