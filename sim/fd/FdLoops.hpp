#pragma once
// The loops of the fd family, written once over the execution space (sim/core/Exec.hpp):
// the periodic ghost fill, the one-thread-a-point substep of either formulation (the host's
// only way, and the device's `fast` and `direct55` methods), and the reductions of the
// diagnostics and the time step. FdCpu.cpp instantiates them on the host and
// cuda/FdKernels.cu on the device, where the blocked kernels of the paper (55point,
// 19point) are written by hand beside them.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "sim/core/Exec.hpp"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

// Neighbour strides of a layout: 0 along a reduced axis, where the coefficients are 0
// too, so the term vanishes and the read stays at the cell itself.
struct Strides {
  std::int64_t x, y, z;
};
FLUXVIEW_HD Strides strides_of(const FieldLayout& l) {
  return {l.n[0] > 1 ? 1 : 0, l.n[1] > 1 ? l.sy : 0, l.n[2] > 1 ? l.sz : 0};
}

// The fields of a substep (ln rho, ux, uy, uz, div u) as the pointwise functions read
// them: field f at offset (dx, dy, dz) from the point at element o, through the read-only
// data cache on the device. Every offset is a literal after inlining.
template <class T>
struct PointAccess {
  const T* p[kVars + 1];
  std::int64_t o;
  Strides s;
  FLUXVIEW_HD T operator()(int f, int dx, int dy, int dz) const {
    return read_only(p[f] + o + dx * s.x + dy * s.y + dz * s.z);
  }
};

template <class T>
FLUXVIEW_HD PointAccess<T> point_access(const SubstepArgs<T>& a, Strides s, int i, int j, int k) {
  return {{a.in[0], a.in[1], a.in[2], a.in[3], a.div}, a.layout.index(i, j, k), s};
}

// Device thread blocks (one thread a point): the 19- and 55-point updates need 128
// threads' worth of registers; the divergence is light.
using UpdateBlock = exec::Block<32, 2, 2>;
using DivergenceBlock = exec::Block<32, 4, 2>;

template <class T>
struct FieldSet {
  T* p[kVars + 1];
};

// The periodic ghosts of `count` fields: one thread a ghost cell, which decodes its
// position once and copies it in every field (the decode is most of the work: doing it
// once per field instead made the fill of fd's four fields three times slower on an H100).
template <class Space, class T>
void wrap_ghosts(const Space& space, T* const* fields, int count, const FieldLayout& l) {
  const GhostSpan s{{l.n[0], l.n[1], l.n[2]},
                    {l.ghost_along(0), l.ghost_along(1), l.ghost_along(2)}};
  FieldSet<T> f{};
  for (int q = 0; q < count && q < kVars + 1; ++q) f.p[q] = fields[q];
  // A grid whose ghost cells an int cannot count would need terabytes of memory.
  const int ghosts = int(std::min<long long>(s.count(), std::numeric_limits<int>::max()));
  exec::for_each_cell(
      space, exec::Box{{0, 0, 0}, {ghosts, 1, 1}},
      [=] FLUXVIEW_LAMBDA(int c, int, int) {
        int i, j, k, si, sj, sk;
        s.cell(c, i, j, k, si, sj, sk);
        const std::int64_t to = l.index(i, j, k), from = l.index(si, sj, sk);
        // Over the fixed bound, so that each field's pointer is a register, not an array in
        // local memory indexed at run time.
        for (int q = 0; q < kVars + 1; ++q)
          if (q < count) f.p[q][to] = f.p[q][from];
      },
      exec::Block<256, 1, 1>{});
}

// Pass 1 of the two-pass method: div u at every interior point.
template <class Space, class T>
void div_pass(const Space& space, const SubstepArgs<T>& a) {
  const Strides s = strides_of(a.layout);
  exec::for_each_cell(
      space, exec::interior(a.layout),
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const PointAccess<T> acc = point_access(a, s, i, j, k);
        a.div[acc.o] = divergence(acc, a.c);
      },
      DivergenceBlock{});
}

// The update of every interior point by formulation F (the second pass of m19). The
// neighbour strides are read from the kernel's parameters for the 19-point update and
// worked out per point from the layout for the 55-point one: either way the arithmetic is
// the same, and so the two kernels take the registers of the hand-written kernels they
// replaced (nvcc 13 for sm_90: 80 and 130 in double, 64 and 104 in float).
template <Formulation F, class Space, class T>
void rate_pass(const Space& space, const SubstepArgs<T>& a) {
  const Strides s = strides_of(a.layout);
  exec::for_each_cell(
      space, exec::interior(a.layout),
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const Strides st = F == Formulation::m19 ? s : strides_of(a.layout);
        const PointAccess<T> acc = point_access(a, st, i, j, k);
        Derivs<T> d;
        if constexpr (F == Formulation::m55)
          gather_55(acc, a.c, d);
        else
          gather_19(acc, a.c, d);
        update_point(a, d, acc.o, i, j, k);
      },
      UpdateBlock{});
}

// Pass 1 of m19 and what must follow it before pass 2: the div field's ghosts, periodic
// within the rank, then (the hook) from the neighbouring ranks.
template <class Space, class T>
void divergence_with_ghosts(const Space& space, const SubstepArgs<T>& a) {
  div_pass(space, a);
  T* d = a.div;
  wrap_ghosts(space, &d, 1, a.layout);
  if (a.div_ghost_hook) a.div_ghost_hook(a.hook_context, d);
}

// A whole substep, one thread a point.
template <class Space, class T>
void substep_by_points(const Space& space, Formulation f, const SubstepArgs<T>& a) {
  if (f == Formulation::m55) return rate_pass<Formulation::m55>(space, a);
  divergence_with_ghosts(space, a);
  rate_pass<Formulation::m19>(space, a);
}

struct FlowAcc {
  exec::Sum<double> mass, kinetic, u2;
  exec::Max<double> u2_max{0.0};
  exec::Sum<std::int64_t> nonfinite;
  FLUXVIEW_HD void join(const FlowAcc& o) {
    mass.join(o.mass);
    kinetic.join(o.kinetic);
    u2.join(o.u2);
    u2_max.join(o.u2_max);
    nonfinite.join(o.nonfinite);
  }
};

template <class Space, class T>
FlowSums flow_sums(const Space& space, const T* const* f, const FieldLayout& l) {
  const T *lnrho = f[kLnrho], *ux = f[kUx], *uy = f[kUy], *uz = f[kUz];
  const FlowAcc s = exec::reduce_cells(
      space, exec::interior(l), FlowAcc{}, [=] FLUXVIEW_LAMBDA(int i, int j, int k, FlowAcc& acc) {
        const std::int64_t o = l.index(i, j, k);
        const double rho = std::exp(double(lnrho[o]));
        const double u2 = double(ux[o]) * ux[o] + double(uy[o]) * uy[o] + double(uz[o]) * uz[o];
        if (!is_finite(rho) || !is_finite(u2)) {
          acc.nonfinite.add(1);
          return;
        }
        acc.mass.add(rho);
        acc.kinetic.add(0.5 * rho * u2);
        acc.u2.add(u2);
        acc.u2_max.add(u2);
      });
  return {s.mass.value, s.kinetic.value, s.u2.value, s.u2_max.value, s.nonfinite.value};
}

template <class Space, class T>
double max_u2(const Space& space, const T* const* f, const FieldLayout& l) {
  const T *ux = f[kUx], *uy = f[kUy], *uz = f[kUz];
  using Acc = exec::MaxKeepNaN<double>;
  return exec::reduce_cells(
             space, exec::interior(l), Acc{0.0},
             [=] FLUXVIEW_LAMBDA(int i, int j, int k, Acc& acc) {
               const std::int64_t o = l.index(i, j, k);
               acc.add(double(ux[o]) * ux[o] + double(uy[o]) * uy[o] + double(uz[o]) * uz[o]);
             })
      .value;
}

// A substep by a method on one space: the host computes every method by its formulation
// (FdCpu.cpp); the device adds the blocked kernels (cuda/FdKernels.cu).
template <class T>
void substep_on(const exec::Host& space, Method m, const SubstepArgs<T>& a);
template <class T>
void substep_on(const exec::Device& space, Method m, const SubstepArgs<T>& a);

// The backend of either space: everything above, on that space.
template <class Space, class T>
class FdBackendOn final : public FdBackend<T> {
 public:
  FdBackendOn() : FdBackend<T>(exec::location_of(Space{})) {}
  void wrap_ghosts(T* const* fields, int count, const FieldLayout& l) override {
    fd::wrap_ghosts(Space{}, fields, count, l);
  }
  void substep(Method method, const SubstepArgs<T>& a) override { substep_on(Space{}, method, a); }
  void div_pass(const SubstepArgs<T>& a) override { fd::div_pass(Space{}, a); }
  void rate_pass(const SubstepArgs<T>& a) override { fd::rate_pass<Formulation::m19>(Space{}, a); }
  FlowSums flow_sums(const T* const* f, const FieldLayout& l) override {
    return fd::flow_sums(Space{}, f, l);
  }
  double max_u2(const T* const* f, const FieldLayout& l) override {
    return fd::max_u2(Space{}, f, l);
  }
  std::string kernel(Method method) const override {
    if constexpr (std::is_same_v<Space, exec::Host>)
      return "cpu-openmp";
    else
      return std::string(method_name(method));
  }
};

}  // namespace fluxview::fd
