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
    for (int m = 0; m < nv; ++m) {
      const T v = u.f[m][sc];
      u.f[m][dc] = (bc == Bc::reflecting && m == kMomX + axis) ? -v : v;
    }
  });
}

template <class Space, class T>
void fill_boundary_ghosts(const Space& space, const Conserved<T>& u, int nv, const FieldLayout& l,
                          const GhostArgs& g) {
  for (int axis = 0; axis < 3; ++axis)
    if (l.n[axis] > 1) fill_axis_ghosts(space, u, nv, l, axis, g.bc[axis][0], g.bc[axis][1]);
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

struct TotalsAcc {
  exec::Sum<double> mass, momentum[3], energy, tracer_mass, mixed_mass;
  exec::Max<double> max_mach{0.0};
  exec::Sum<std::int64_t> nonfinite;
  FLUXVIEW_HD void join(const TotalsAcc& o) {
    mass.join(o.mass);
    for (int a = 0; a < 3; ++a) momentum[a].join(o.momentum[a]);
    energy.join(o.energy);
    tracer_mass.join(o.tracer_mass);
    mixed_mass.join(o.mixed_mass);
    max_mach.join(o.max_mach);
    nonfinite.join(o.nonfinite);
  }
};

template <int NV, class Space, class T>
Totals totals(const Space& space, const Conserved<T>& u, const FieldLayout& l,
              const Physics<T>& ph) {
  const TotalsAcc t = exec::reduce_cells(
      space, exec::interior(l), TotalsAcc{},
      [=] FLUXVIEW_LAMBDA(int i, int j, int k, TotalsAcc& acc) {
        const State<T, NV> s = load_state<NV>(u, l.index(i, j, k));
        bool finite = true;
        for (int m = 0; m < 5; ++m) finite = finite && is_finite(double(s.v[m]));
        if (!finite) {
          acc.nonfinite.add(1);
          return;
        }
        acc.mass.add(s.v[kRho]);
        for (int a = 0; a < 3; ++a) acc.momentum[a].add(s.v[kMomX + a]);
        acc.energy.add(s.v[kEnergy]);
        const State<T, NV> q = cons_to_prim(s, ph);
        const double v2 = double(q.v[kVelX]) * q.v[kVelX] +
                          double(q.v[kVelX + 1]) * q.v[kVelX + 1] +
                          double(q.v[kVelX + 2]) * q.v[kVelX + 2];
        acc.max_mach.add(std::sqrt(v2) / double(sound_speed(q.v[kRho], q.v[kPressure], ph.gamma)));
        if constexpr (NV > 5) {
          const double rc = s.v[kRhoC], conc = rc / double(s.v[kRho]);
          acc.tracer_mass.add(rc);
          // The cloud-disruption measure: tracer-carrying material mixed with the background.
          if (conc > 0.1 && conc < 0.9) acc.mixed_mass.add(rc);
        }
      });
  Totals r;
  r.mass = t.mass.value;
  for (int a = 0; a < 3; ++a) r.momentum[a] = t.momentum[a].value;
  r.energy = t.energy.value;
  r.tracer_mass = t.tracer_mass.value;
  r.mixed_mass = t.mixed_mass.value;
  r.max_mach = t.max_mach.value;
  r.nonfinite = t.nonfinite.value;
  return r;
}

template <class Space, class T>
void derived(const Space& space, const Conserved<T>& u, const FieldLayout& l, const Physics<T>& ph,
             Derived what, T* out) {
  exec::for_each_cell(space, exec::interior(l), [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    const State<T, 5> q = cons_to_prim(load_state<5>(u, c), ph);
    out[c] = derived_value(q, what == Derived::tracer ? u.f[kRhoC][c] : T(0), what);
  });
}

// A stage on one space (FvCpu.cpp, cuda/FvKernels.cu). The host's passes need scratch
// fields, kept in `scratch` from stage to stage; the device needs none.
template <class T>
void stage_on(const exec::Host& space, const StageArgs<T>& a, Buffer& scratch);
template <class T>
void stage_on(const exec::Device& space, const StageArgs<T>& a, Buffer& scratch);

// The backend of either space: everything above, on that space.
template <class Space, class T>
class FvBackendOn final : public FvBackend<T> {
 public:
  FvBackendOn() : FvBackend<T>(exec::location_of(Space{})) {}
  void fill_boundary_ghosts(const Conserved<T>& u, int nv, const FieldLayout& l,
                            const GhostArgs& g) override {
    fv::fill_boundary_ghosts(Space{}, u, nv, l, g);
  }
  void stage(const StageArgs<T>& a) override { stage_on(Space{}, a, scratch_); }
  double max_rate(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                  const T inv_dx[3]) override {
    return nv == 6 ? fv::max_rate<6>(Space{}, u, l, ph, inv_dx)
                   : fv::max_rate<5>(Space{}, u, l, ph, inv_dx);
  }
  Totals totals(const Conserved<T>& u, int nv, const FieldLayout& l,
                const Physics<T>& ph) override {
    return nv == 6 ? fv::totals<6>(Space{}, u, l, ph) : fv::totals<5>(Space{}, u, l, ph);
  }
  void derived(const Conserved<T>& u, const FieldLayout& l, const Physics<T>& ph, Derived what,
               T* out) override {
    fv::derived(Space{}, u, l, ph, what, out);
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
