#pragma once
// The loops of the fv family, written once over the execution space (sim/core/Exec.hpp):
// the boundary ghosts, the CFL rate, the totals of the diagnostics and the derived fields.
// FvCpu.cpp instantiates them on the host and cuda/FvKernels.cu on the device. A stage is
// the one thing each space computes its own way (the host in passes over scratch fields,
// the device in one fused tile kernel), both through update_cell() of FvPhysics.hpp.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/core/Buffer.hpp"
#include "sim/core/Exec.hpp"
#include "sim/core/Grid.hpp"
#include "sim/fv/AccuracyProblems.hpp"
#include "sim/fv/DoubleMach.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

// The ghosts of both faces of one axis: outflow copies the nearest interior cell,
// reflecting mirrors the cells and flips the normal momentum, periodic wraps.
template <class Space, class T>
void fill_axis_ghosts(const Space& space, const Conserved<T>& u, int nv, const FieldLayout& l,
                      int axis, Bc low, Bc high) {
  const int n = l.n[axis], g = l.ghost_along(axis);
  const int b = (axis + 1) % 3, e = (axis + 2) % 3;
  // Along axes already filled (lower-numbered) the ghosts are included, so edges and
  // corners hold values too.
  const int gb = b < axis ? l.ghost_along(b) : 0, ge = e < axis ? l.ghost_along(e) : 0;
  // x: along axis b, y: along axis e, z: side * g + layer (side 0 low, layer 0 next to the
  // interior).
  const exec::Box face{{-gb, -ge, 0}, {l.n[b] + gb, l.n[e] + ge, 2 * g}};
  exec::for_each_cell(space, face, [=] FLUXVIEW_LAMBDA(int p, int q, int t) {
    const int side = t / g, h = t % g;
    const Bc bc = side == 0 ? low : high;
    if (bc == Bc::neighbour) return;  // filled by the MPI exchange
    int gi[3], si[3];
    gi[axis] = side == 0 ? -1 - h : n + h;
    si[axis] = ghost_source(bc, side, h, n);
    gi[b] = si[b] = p;
    gi[e] = si[e] = q;
    const std::int64_t dc = l.index(gi[0], gi[1], gi[2]), sc = l.index(si[0], si[1], si[2]);
    // A reflecting wall mirrors the normal velocity and, for MHD, the normal field (a
    // perfectly conducting wall: B_n = 0 on it).
    for (int m = 0; m < nv; ++m) {
      const T v = u.f[m][sc];
      const bool flip = m == kMomX + axis || (mhd_variables(nv) && m == kBx + axis);
      u.f[m][dc] = (bc == Bc::reflecting && flip) ? -v : v;
    }
  });
}

template <class Space, class T>
void fill_boundary_ghosts(const Space& space, const Conserved<T>& u, int nv, const FieldLayout& l,
                          const GhostArgs& g) {
  for (int axis = 0; axis < 3; ++axis)
    if (l.n[axis] > 1) fill_axis_ghosts(space, u, nv, l, axis, g.bc[axis][0], g.bc[axis][1]);
}

// The double Mach reflection's boundaries at time t (DoubleMach.hpp), over the ghosts the
// physical fill left: the post-shock state at the left face and along the bottom before
// the wall (x < 1/6; the wall beyond keeps its reflection), the exact shock along the top.
// Faces that border another rank are left to the exchange.
template <class Space, class T>
void fill_double_mach_ghosts(const Space& space, const Conserved<T>& u, int nv,
                             const FieldLayout& l, const GhostArgs& g, const Grid& grid,
                             const Physics<T>& ph, double t) {
  const int gx = l.ghost_along(0), gy = l.ghost_along(1), gz = l.ghost_along(2);
  const double x0 = grid.origin[0] + grid.offset[0] * grid.spacing[0];
  const double y0 = grid.origin[1] + grid.offset[1] * grid.spacing[1];
  const double dx = grid.spacing[0], dy = grid.spacing[1];
  const bool left = g.bc[0][0] != Bc::neighbour, bottom = g.bc[1][0] != Bc::neighbour,
             top = g.bc[1][1] != Bc::neighbour;
  const T gamma = ph.gamma;
  const exec::Box box{{-gx, -gy, -gz}, {l.n[0] + gx, l.n[1] + gy, l.n[2] + gz}};
  exec::for_each_cell(space, box, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const bool in_left = left && i < 0, in_bottom = bottom && j < 0, in_top = top && j >= l.n[1];
    if (!(in_left || in_bottom || in_top)) return;
    const double x = x0 + i * dx, y = y0 + j * dy;
    if (in_bottom && !in_left && x >= kDoubleMachWallStart) return;  // the wall reflects
    const State<double, 5> q = double_mach_state(x, in_top ? y : 0.0, in_top ? t : 0.0);
    State<T, 6> w{{T(q.v[0]), T(q.v[1]), T(q.v[2]), T(q.v[3]), T(q.v[4]), T(0)}};
    const State<T, 6> c = prim_to_cons(w, gamma);
    const std::int64_t at = l.index(i, j, k);
    for (int m = 0; m < nv; ++m) u.f[m][at] = c.v[m];
  });
}

template <int NV, class Space, class T>
double max_rate(const Space& space, const Conserved<T>& u, const FieldLayout& l,
                const Physics<T>& ph, const T inv_dx[3]) {
  const T inv[3] = {inv_dx[0], inv_dx[1], inv_dx[2]};
  using Acc = exec::MaxKeepNaN<double>;
  return exec::reduce_cells(
             space, exec::interior(l), Acc{0.0},
             [=] FLUXVIEW_LAMBDA(int i, int j, int k, Acc& acc) {
               acc.add(cell_signal_rate(load_state<NV>(u, l.index(i, j, k)), ph, inv));
             })
      .value;
}

// What div B of a cell reads besides the field: the index strides and 1/dx along the
// active axes (both 0 along a reduced one, where the terms vanish).
template <class T>
struct DivergenceStencil {
  std::int64_t stride[3];
  T inv_dx[3];
};
template <class T>
DivergenceStencil<T> divergence_stencil(const FieldLayout& l, const T inv_dx[3]) {
  return {{l.n[0] > 1 ? 1 : 0, l.n[1] > 1 ? l.sy : 0, l.n[2] > 1 ? l.sz : 0},
          {inv_dx[0], inv_dx[1], inv_dx[2]}};
}

// div B of an MHD cell by central differences of its face neighbours; their ghosts must be
// filled.
template <class T>
FLUXVIEW_HD double divergence_b(const Conserved<T>& u, std::int64_t c,
                                const DivergenceStencil<T>& s) {
  double d = 0;
  for (int a = 0; a < 3; ++a)
    d += 0.5 * (double(u.f[kBx + a][c + s.stride[a]]) - double(u.f[kBx + a][c - s.stride[a]])) *
         double(s.inv_dx[a]);
  return d;
}

struct TotalsAcc {
  exec::Sum<double> mass, momentum[3], energy, tracer_mass, mixed_mass, magnetic_energy, divb, mach;
  exec::Max<double> max_mach{0.0}, divb_max{0.0};
  exec::Sum<std::int64_t> nonfinite;
  FLUXVIEW_HD void join(const TotalsAcc& o) {
    mass.join(o.mass);
    for (int a = 0; a < 3; ++a) momentum[a].join(o.momentum[a]);
    energy.join(o.energy);
    tracer_mass.join(o.tracer_mass);
    mixed_mass.join(o.mixed_mass);
    magnetic_energy.join(o.magnetic_energy);
    divb.join(o.divb);
    max_mach.join(o.max_mach);
    mach.join(o.mach);
    divb_max.join(o.divb_max);
    nonfinite.join(o.nonfinite);
  }
};

// A cell's share of the totals, from its conserved state s: everything but div B, which
// reads the neighbours (divergence_b). The uniform grid's and the adaptive mesh's totals
// (sim/amr/AmrStepBodies.hpp) both add their cells through it.
template <int NV, class T>
FLUXVIEW_HD void add_cell_totals(const State<T, NV>& s, const Physics<T>& ph, TotalsAcc& acc) {
  bool finite = true;
  for (int m = 0; m < NV; ++m) finite = finite && is_finite(double(s.v[m]));
  if (!finite) {
    acc.nonfinite.add(1);
    return;
  }
  acc.mass.add(s.v[kRho]);
  for (int a = 0; a < 3; ++a) acc.momentum[a].add(s.v[kMomX + a]);
  acc.energy.add(s.v[kEnergy]);
  const double mach = mach_number(cons_to_prim(s, ph), ph.gamma);
  acc.max_mach.add(mach);
  acc.mach.add(mach);
  if constexpr (is_mhd<NV>) acc.magnetic_energy.add(double(magnetic_pressure(s)));
  if constexpr (has_tracer<NV>) {
    const double rc = s.v[tracer_slot<NV>], conc = rc / double(s.v[kRho]);
    acc.tracer_mass.add(rc);
    // The cloud-disruption measure: tracer-carrying material mixed with the background.
    if (conc > 0.1 && conc < 0.9) acc.mixed_mass.add(rc);
  }
}

// The |div B| of an MHD cell into the totals where it is finite (its neighbours' ghosts
// filled).
template <class T>
FLUXVIEW_HD void add_cell_divergence(const Conserved<T>& u, std::int64_t c,
                                     const DivergenceStencil<T>& s, TotalsAcc& acc) {
  const double d = fabs(divergence_b(u, c, s));
  if (!is_finite(d)) return;  // counted as a non-finite cell already
  acc.divb.add(d);
  acc.divb_max.add(d);
}

template <int NV, class Space, class T>
Totals totals(const Space& space, const Conserved<T>& u, const FieldLayout& l, const Physics<T>& ph,
              const T inv_dx[3]) {
  const DivergenceStencil<T> stencil = divergence_stencil(l, inv_dx);
  const TotalsAcc t = exec::reduce_cells(space, exec::interior(l), TotalsAcc{},
                                         [=] FLUXVIEW_LAMBDA(int i, int j, int k, TotalsAcc& acc) {
                                           // Named here, outside `if constexpr`, where a device
                                           // lambda may first capture it.
                                           const DivergenceStencil<T>& div = stencil;
                                           const std::int64_t c = l.index(i, j, k);
                                           add_cell_totals<NV>(load_state<NV>(u, c), ph, acc);
                                           if constexpr (is_mhd<NV>)
                                             add_cell_divergence(u, c, div, acc);
                                         });
  Totals r;
  r.mass = t.mass.value;
  for (int a = 0; a < 3; ++a) r.momentum[a] = t.momentum[a].value;
  r.energy = t.energy.value;
  r.tracer_mass = t.tracer_mass.value;
  r.mixed_mass = t.mixed_mass.value;
  r.max_mach = t.max_mach.value;
  r.mach_sum = t.mach.value;
  r.magnetic_energy = t.magnetic_energy.value;
  r.divb_sum = t.divb.value;
  r.divb_max = t.divb_max.value;
  r.nonfinite = t.nonfinite.value;
  return r;
}

// The error against an exact solution (AccuracyProblems.hpp) at time t: the sum over the
// interior of |u - u_exact| (cell averages against exact cell averages) of the variable the
// problem compares (density, or B_x for the MHD vortex) and its maximum.
struct ExactErrorAcc {
  exec::Sum<double> sum;
  exec::MaxKeepNaN<double> max{0.0};
  FLUXVIEW_HD void join(const ExactErrorAcc& o) {
    sum.join(o.sum);
    max.join(o.max);
  }
};

template <class Space, class T>
ExactErrors exact_errors(const Space& space, const Conserved<T>& u, const FieldLayout& l,
                         const Grid& grid, const ExactSolution& exact, double t) {
  using Acc = ExactErrorAcc;
  double x0[3], h[3];
  for (int a = 0; a < 3; ++a) {
    x0[a] = grid.origin[a] + grid.offset[a] * grid.spacing[a];
    h[a] = grid.spacing[a];
  }
  const bool two_d = grid.n[1] > 1;
  const int slot = exact.problem == ExactProblem::mhd_vortex ? kBx : kRho;
  const Acc r = exec::reduce_cells(
      space, exec::interior(l), Acc{}, [=] FLUXVIEW_LAMBDA(int i, int j, int k, Acc& acc) {
        const double x[3] = {x0[0] + i * h[0], x0[1] + j * h[1], x0[2] + k * h[2]};
        const double hy = two_d ? h[1] : 0.0;
        double want;
        if (exact.problem == ExactProblem::vortex)
          want = vortex_density_average(exact.vortex_spec, x[0], x[1], h[0], hy, t, nullptr);
        else if (exact.problem == ExactProblem::mhd_vortex)
          want = mhd_vortex_average(exact.mhd_vortex_spec, x[0], x[1], h[0], hy, t).v[kBx];
        else
          want = wave_density_average(exact.wave_spec, x[exact.wave_spec.axis],
                                      h[exact.wave_spec.axis], t);
        const double e = fabs(double(u.f[slot][l.index(i, j, k)]) - want);
        acc.sum.add(e);
        acc.max.add(e);
      });
  return {r.sum.value, r.max.value};
}

// A derived field (not div B, which reads the neighbours) of a cell from its primitive
// state q and its conserved tracer density; the uniform grid's views and the adaptive
// mesh's (sim/amr/AmrStepBodies.hpp) both take it from here.
template <int NV, class T>
FLUXVIEW_HD T cell_derived_value(const State<T, NV>& q, T tracer_density, Derived what) {
  if constexpr (is_mhd<NV>)
    if (int(what) >= int(Derived::bx))
      return mhd_field_value(q, MhdField(int(what) - int(Derived::bx)));
  const State<T, 5> q5{{q.v[0], q.v[1], q.v[2], q.v[3], q.v[4]}};
  return derived_value(q5, tracer_density, what);
}

// A derived field of every interior cell; div B from the neighbours (ghosts filled).
template <int NV, class Space, class T>
void derived(const Space& space, const Conserved<T>& u, const FieldLayout& l, const Physics<T>& ph,
             const T inv_dx[3], Derived what, T* out) {
  const DivergenceStencil<T> stencil = divergence_stencil(l, inv_dx);
  exec::for_each_cell(space, exec::interior(l), [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    if (what == Derived::divergence_b) {
      out[c] = T(divergence_b(u, c, stencil));
      return;
    }
    T tracer_density = T(0);
    if constexpr (has_tracer<NV>) tracer_density = u.f[tracer_slot<NV>][c];
    out[c] = cell_derived_value(cons_to_prim(load_state<NV>(u, c), ph), tracer_density, what);
  });
}

// A stage on one space (FvCpu.cpp, cuda/FvKernels.cu). The host's passes need scratch
// fields, kept in `scratch` from stage to stage; the device needs none.
template <class T>
void stage_on(const exec::Host& space, const StageArgs<T>& a, Buffer& scratch);
template <class T>
void stage_on(const exec::Device& space, const StageArgs<T>& a, Buffer& scratch);
// The device's stage of the higher-order paths (cuda/FvModalKernels.cu).
template <class T>
void higher_order_stage_on_device(const StageArgs<T>& a, Buffer& scratch);

// The backend of either space: everything above, on that space.
template <class Space, class T>
class FvBackendOn final : public FvBackend<T> {
 public:
  FvBackendOn() : FvBackend<T>(exec::location_of(Space{})) {}
  void fill_boundary_ghosts(const Conserved<T>& u, int nv, const FieldLayout& l,
                            const GhostArgs& g) override {
    fv::fill_boundary_ghosts(Space{}, u, nv, l, g);
  }
  void fill_double_mach_ghosts(const Conserved<T>& u, int nv, const FieldLayout& l,
                               const GhostArgs& g, const Grid& grid, const Physics<T>& ph,
                               double t) override {
    fv::fill_double_mach_ghosts(Space{}, u, nv, l, g, grid, ph, t);
  }
  void stage(const StageArgs<T>& a) override { stage_on(Space{}, a, scratch_); }
  double max_rate(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                  const T inv_dx[3]) override {
    return with_nv(
        nv, [&](auto n) { return fv::max_rate<decltype(n)::value>(Space{}, u, l, ph, inv_dx); });
  }
  Totals totals(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                const T inv_dx[3]) override {
    return with_nv(
        nv, [&](auto n) { return fv::totals<decltype(n)::value>(Space{}, u, l, ph, inv_dx); });
  }
  ExactErrors exact_errors(const Conserved<T>& u, const FieldLayout& l, const Grid& grid,
                           const ExactSolution& exact, double t) override {
    return fv::exact_errors(Space{}, u, l, grid, exact, t);
  }
  void derived(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
               const T inv_dx[3], Derived what, T* out) override {
    with_nv(nv,
            [&](auto n) { fv::derived<decltype(n)::value>(Space{}, u, l, ph, inv_dx, what, out); });
  }
  std::string kernel(int tile_rows) const override {
    if constexpr (std::is_same_v<Space, exec::Host>)
      return "cpu-openmp";
    else
      return "fused tile 32x" + std::to_string(tile_rows) + " (reconstruct+flux+update per stage)";
  }

 private:
  Buffer scratch_;
};

}  // namespace fluxview::fv
