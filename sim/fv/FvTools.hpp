#pragma once
// The fv family's steering tools (docs/gui.md): a blast (a Sedov energy injection), a dense
// cloud, and solid obstacles the flow goes around; and the stage that honours obstacles.
// The loops are written once over the execution space; FvToolsCpu.cpp instantiates them
// on the host and cuda/FvDeviceTools.cuh on the device, so a stroke is a kernel where the
// state lives and only its sums come back.
//
// A solid obstacle is a set of cells marked in the field `solid` (1 solid, 0 fluid; ghosts
// filled like the state's). A face between a fluid and a solid cell is a reflecting wall:
// its flux is that of the Riemann problem between the fluid cell and its mirror image
// (normal velocity reversed), of which only the pressure on the normal momentum is kept,
// so no mass or energy crosses it, to round-off. A face whose reconstruction would read
// a solid cell takes first-order states. Solid cells keep their state (at rest, since the
// stroke that made them stopped them) and take no part in the flow. While any cell is
// solid, each stage runs stage_with_solids() instead of the backend's stage: one thread a
// cell computing its six faces, simpler and slower than the fused tile kernel, and only
// for runs with obstacles.
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>

#include "sim/core/Backend.hpp"
#include "sim/core/Brush.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Exec.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

// The name of the obstacle field in checkpoints and view().
inline constexpr const char* kSolidArray = "solid";

// ---- strokes ------------------------------------------------------------------------------

// What a stroke does to each fluid cell of the brush (solid cells are left alone, but for
// `free_solid`):
//   count:       nothing (counts the cells a blast shares its energy among);
//   blast:       E += energy_density (thermal energy: rho and rho u unchanged);
//   cloud:       rho, rho u and the kinetic energy times `ratio`, the pressure and velocity
//                kept (a cloud in pressure equilibrium moving with the gas); tracer c = 1;
//   make_solid:  the cell becomes solid, at rest (rho u = 0, E less its kinetic energy);
//   free_solid:  a solid cell becomes fluid again.
enum class PaintKind : int { count = 0, blast = 1, cloud = 2, make_solid = 3, free_solid = 4 };

struct Paint {
  PaintKind kind = PaintKind::count;
  double energy_density = 0;  // blast: J/m^3
  double ratio = 1;           // cloud: density over the gas it replaces
};

// The change a stroke made, summed over its cells (times the cell volume by the caller).
struct PaintSums {
  double mass = 0, energy = 0, momentum[3] = {0, 0, 0};
  std::int64_t cells = 0;
};

struct PaintAcc {
  exec::Sum<double> mass, energy, momentum[3];
  exec::Sum<std::int64_t> cells;
  FLUXVIEW_HD void join(const PaintAcc& o) {
    mass.join(o.mass);
    energy.join(o.energy);
    for (int a = 0; a < 3; ++a) momentum[a].join(o.momentum[a]);
    cells.join(o.cells);
  }
};

inline PaintSums sums_of(const PaintAcc& acc) {
  PaintSums r;
  r.mass = acc.mass.value;
  r.energy = acc.energy.value;
  for (int d = 0; d < 3; ++d) r.momentum[d] = acc.momentum[d].value;
  r.cells = acc.cells.value;
  return r;
}

// What a stroke does to one fluid cell (blast, cloud or make_solid; the top of this section
// says what), the change in mass, momentum and energy per unit volume added to `a`:
// written once for the uniform grid (paint below) and the adaptive mesh's blocks
// (sim/amr/AmrStepBodies.hpp). make_solid reports the mass the cell holds.
template <int NV, class T>
FLUXVIEW_HD State<T, NV> paint_cell(const State<T, NV>& s0, const Paint& p, PaintAcc& a) {
  State<T, NV> s1 = s0;
  const double rho = s0.v[kRho];
  const double kin =
      0.5 *
      (double(s0.v[kMomX]) * s0.v[kMomX] + double(s0.v[kMomX + 1]) * s0.v[kMomX + 1] +
       double(s0.v[kMomX + 2]) * s0.v[kMomX + 2]) /
      rho;
  if (p.kind == PaintKind::blast) {
    s1.v[kEnergy] = T(double(s0.v[kEnergy]) + p.energy_density);
  } else if (p.kind == PaintKind::cloud) {
    s1.v[kRho] = T(p.ratio * rho);
    for (int d = 0; d < 3; ++d) s1.v[kMomX + d] = T(p.ratio * double(s0.v[kMomX + d]));
    s1.v[kEnergy] = T(double(s0.v[kEnergy]) + (p.ratio - 1) * kin);
    if constexpr (has_tracer<NV>) s1.v[tracer_slot<NV>] = s1.v[kRho];
  } else {  // make_solid
    for (int d = 0; d < 3; ++d) s1.v[kMomX + d] = T(0);
    s1.v[kEnergy] = T(double(s0.v[kEnergy]) - kin);
  }
  a.mass.add(p.kind == PaintKind::make_solid ? rho : double(s1.v[kRho]) - rho);
  a.energy.add(double(s1.v[kEnergy]) - double(s0.v[kEnergy]));
  for (int d = 0; d < 3; ++d) a.momentum[d].add(double(s1.v[kMomX + d]) - double(s0.v[kMomX + d]));
  return s1;
}

template <int NV, class Space, class T>
PaintSums paint(const Space& space, const Conserved<T>& u, T* solid, const FieldLayout& l,
                const Brush& b, const Paint& p) {
  const PaintAcc acc = reduce_cells(space, brush_box(b, l.n), PaintAcc{},
                                    [=] FLUXVIEW_LAMBDA(int i, int j, int k, PaintAcc& a) {
                                      if (!b.inside(i, j, k)) return;
                                      const std::int64_t c = l.index(i, j, k);
                                      const bool is_solid = solid != nullptr && solid[c] != T(0);
                                      if (p.kind == PaintKind::free_solid) {
                                        if (!is_solid) return;
                                        solid[c] = T(0);
                                        a.cells.add(1);
                                        return;
                                      }
                                      if (is_solid) return;
                                      a.cells.add(1);
                                      if (p.kind == PaintKind::count) return;
                                      store_state<NV>(u, c, paint_cell(load_state<NV>(u, c), p, a));
                                      if (p.kind == PaintKind::make_solid) solid[c] = T(1);
                                    });
  return sums_of(acc);
}

// ---- the stage with obstacles ---------------------------------------------------------

// The flux through the face between b and c along axis D from the stencil (a, b, c, d) of
// primitives and whether each cell is solid (see the top of this file).
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> solid_face_flux(const State<T, NV>& a, const State<T, NV>& b,
                                         const State<T, NV>& c, const State<T, NV>& d, bool sa,
                                         bool sb, bool sc, bool sd, const Physics<T>& ph) {
  State<T, NV> f;
  if (sb || sc) {
#pragma unroll
    for (int m = 0; m < NV; ++m) f.v[m] = T(0);
    if (sb && sc) return f;
    const State<T, NV>& fluid = sb ? c : b;
    State<T, NV> mirror = fluid;
    mirror.v[kVelX + D] = -fluid.v[kVelX + D];
    if constexpr (is_mhd<NV>) mirror.v[kBx + D] = -fluid.v[kBx + D];  // a conducting wall
    const State<T, NV> w =
        sb ? riemann_flux<D>(mirror, fluid, ph) : riemann_flux<D>(fluid, mirror, ph);
    f.v[kMomX + D] = w.v[kMomX + D];
    return f;
  }
  if (sa || sd) return riemann_flux<D>(b, c, ph);
  return face_flux<D>(a, b, c, d, ph);
}

// The geometry a stage with obstacles needs, in one value a kernel can take.
template <class T>
struct SolidGeometry {
  std::int64_t stride[3];  // neighbour strides along x, y, z
  bool active[3];          // axes with more than one cell
  T inv_dx[3];
};

// The flux difference (left face minus right face) along axis D of the cell at c;
// `order1` takes first-order states at both faces (the fallback of update_cell).
template <int D, int NV, class T>
FLUXVIEW_HD State<T, NV> solid_axis_difference(const Conserved<T>& in, const T* solid,
                                               std::int64_t c, std::int64_t s, const Physics<T>& ph,
                                               bool order1) {
  State<T, NV> q[5];
  bool sq[5];
#pragma unroll
  for (int o = 0; o < 5; ++o) {
    const std::int64_t cc = c + (o - 2) * s;
    sq[o] = solid[cc] != T(0);
    q[o] = cons_to_prim(load_state<NV>(in, cc), ph);
  }
  Physics<T> p = ph;
  if (order1) p.plm = false;  // constant states: each face then reads only b and c
  const State<T, NV> fl = solid_face_flux<D>(q[0], q[1], q[2], q[3], sq[0], sq[1], sq[2], sq[3], p);
  const State<T, NV> fr = solid_face_flux<D>(q[1], q[2], q[3], q[4], sq[1], sq[2], sq[3], sq[4], p);
  State<T, NV> d;
#pragma unroll
  for (int m = 0; m < NV; ++m) d.v[m] = fl.v[m] - fr.v[m];
  return d;
}

// -L(U) of a fluid cell, summed x, y, z as flux_divergence() does.
template <int NV, class T>
FLUXVIEW_HD State<T, NV> solid_divergence(const Conserved<T>& in, const T* solid, std::int64_t c,
                                          const SolidGeometry<T>& g, const Physics<T>& ph,
                                          bool order1) {
  State<T, NV> l;
#pragma unroll
  for (int m = 0; m < NV; ++m) l.v[m] = T(0);
  if (g.active[0]) {
    const State<T, NV> d = solid_axis_difference<0, NV>(in, solid, c, g.stride[0], ph, order1);
#pragma unroll
    for (int m = 0; m < NV; ++m) l.v[m] = d.v[m] * g.inv_dx[0];
  }
  if (g.active[1]) {
    const State<T, NV> d = solid_axis_difference<1, NV>(in, solid, c, g.stride[1], ph, order1);
#pragma unroll
    for (int m = 0; m < NV; ++m) l.v[m] = l.v[m] + d.v[m] * g.inv_dx[1];
  }
  if (g.active[2]) {
    const State<T, NV> d = solid_axis_difference<2, NV>(in, solid, c, g.stride[2], ph, order1);
#pragma unroll
    for (int m = 0; m < NV; ++m) l.v[m] = l.v[m] + d.v[m] * g.inv_dx[2];
  }
  return l;
}

struct SolidStageAcc {
  exec::Sum<unsigned long long> corrected;
  exec::MaxKeepNaN<double> rate{0.0};
  FLUXVIEW_HD void join(const SolidStageAcc& o) {
    corrected.join(o.corrected);
    rate.join(o.rate);
  }
};

// One stage (StageArgs, FvStep.hpp) with the obstacles of `solid`: returns the cells
// corrected and, where a.rate_bits is set, the next step's CFL rate over every interior
// cell (solid ones too, as rate_from_state() counts them, so a restart takes the same dt).
template <int NV, class Space, class T>
SolidStageAcc stage_with_solids(const Space& space, const StageArgs<T>& a, const T* solid) {
  const FieldLayout l = a.layout;
  const SolidGeometry<T> g{{1, l.sy, l.sz},
                           {l.n[0] > 1, l.n[1] > 1, l.n[2] > 1},
                           {a.inv_dx[0], a.inv_dx[1], a.inv_dx[2]}};
  const Conserved<T> u0 = a.u0, in = a.in, out = a.out;
  const Physics<T> ph = a.ph;
  const T dt = a.dt, w0 = a.weight_u0, w = a.weight_in;
  const bool want_rate = a.rate_bits != nullptr;
  return reduce_cells(
      space, exec::interior(l), SolidStageAcc{},
      [=] FLUXVIEW_LAMBDA(int i, int j, int k, SolidStageAcc& acc) {
        const std::int64_t c = l.index(i, j, k);
        const State<T, NV> u = load_state<NV>(in, c);
        State<T, NV> r = u;
        if (solid[c] == T(0)) {
          const State<T, NV> div = solid_divergence<NV>(in, solid, c, g, ph, false);
          const auto first_order = [&] { return solid_divergence<NV>(in, solid, c, g, ph, true); };
          unsigned long long corrected = 0;
          r = update_cell(load_state<NV>(u0, c), u, div, dt, w0, w, ph, first_order, corrected);
          acc.corrected.add(corrected);
        }
        store_state<NV>(out, c, r);
        if (want_rate) acc.rate.add(cell_signal_rate(r, ph, g.inv_dx));
      });
}

// ---- the tools where a run computes ---------------------------------------------------

template <class T>
class FvTools : public Backend {
 public:
  using Backend::Backend;
  virtual PaintSums paint(const Conserved<T>& u, int nv, T* solid, const FieldLayout& l,
                          const Brush& b, const Paint& p) = 0;
  // A stage with obstacles: out, and the corrected count and rate bits added to a.corrected
  // and stored in a.rate_bits as the backend's stage does.
  virtual void stage_with_solids(const StageArgs<T>& a, const T* solid) = 0;
};

template <class Space, class T>
class FvToolsOn final : public FvTools<T> {
 public:
  FvToolsOn() : FvTools<T>(exec::location_of(Space{})) {}
  PaintSums paint(const Conserved<T>& u, int nv, T* solid, const FieldLayout& l, const Brush& b,
                  const Paint& p) override {
    return with_nv(
        nv, [&](auto n) { return fv::paint<decltype(n)::value>(Space{}, u, solid, l, b, p); });
  }
  void stage_with_solids(const StageArgs<T>& a, const T* solid) override {
    const SolidStageAcc r = with_nv(
        a.nv, [&](auto n) { return fv::stage_with_solids<decltype(n)::value>(Space{}, a, solid); });
    // The two counters live where the backend computes (FvSolverImpl.hpp): a few bytes each
    // way, once a stage, which the reduction has waited for anyway.
    if (a.corrected && r.corrected.value > 0) {
      unsigned long long n = 0;
      copy_bytes(&n, Location::host, a.corrected, this->where(), sizeof n);
      n += r.corrected.value;
      copy_bytes(a.corrected, this->where(), &n, Location::host, sizeof n);
    }
    if (a.rate_bits) {
      const double rate = r.rate.value;
      copy_bytes(a.rate_bits, this->where(), &rate, Location::host, sizeof rate);
    }
  }
};

// The tools of a run's backend (FvToolsCpu.cpp; cuda/FvDeviceTools.cuh for the device).
template <class T>
std::unique_ptr<FvTools<T>> make_tools(BackendKind backend);
template <class T>
std::unique_ptr<FvTools<T>> make_device_tools();

}  // namespace fluxview::fv
