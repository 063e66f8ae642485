#pragma once
// The fd family's steering tools on the flow (docs/gui.md): a vortex, a velocity kick and
// a density bump, each a smooth Gaussian-shaped change (the sixth-order central scheme
// needs smooth data: a sharp edge would ring). The loops are written once over the
// execution space; FdToolsCpu.cpp instantiates them on the host and
// cuda/FdToolsKernels.cu on the device, so a stroke is a kernel where the fields live and
// only its sums come back.
#include <cmath>
#include <cstdint>
#include <memory>

#include "sim/core/Backend.hpp"
#include "sim/core/Brush.hpp"
#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/fd/FdStencil.hpp"

namespace fluxview::fd {

enum class StrokeKind : int { vortex = 0, kick = 1, density_bump = 2 };

// A stroke's shape and strength. With g = exp(-(r/R)^2) about the brush's centre:
//   vortex: u += speed s exp((1 - s^2)/2) e_theta about the line through the centre along
//           `axis` (s = r_perp / R: the speed peaks at r_perp = R), times exp(-(d/R)^2)
//           of the distance d along the axis, so the tube ends smoothly in 3D. Divergence
//           free; the density is left alone.
//   kick:   u += velocity g.
//   bump:   rho *= 1 + amplitude g (ln rho += log1p(amplitude g)); u unchanged.
struct Stroke {
  StrokeKind kind = StrokeKind::kick;
  double speed = 0;
  int axis = 2;
  double velocity[3] = {0, 0, 0};
  double amplitude = 0;
};

// The change at one cell: the velocity added and the factor on rho (as a log).
FLUXVIEW_HD void stroke_at(const Stroke& s, const Brush& b, int i, int j, int k, double du[3],
                           double& dlnrho) {
  const double d[3] = {b.delta(0, i), b.delta(1, j), b.delta(2, k)};
  const double r2 = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / (b.radius * b.radius);
  du[0] = du[1] = du[2] = 0;
  dlnrho = 0;
  if (s.kind == StrokeKind::vortex) {
    const int a = s.axis, p = (a + 1) % 3, q = (a + 2) % 3;
    const double sp = d[p] / b.radius, sq = d[q] / b.radius, along = d[a] / b.radius;
    // u_theta / r_perp, so that u = (u_theta / r_perp) (-dq, dp) in the (p, q) plane.
    const double w = s.speed * exp(0.5 * (1 - sp * sp - sq * sq) - along * along) / b.radius;
    du[p] = -w * d[q];
    du[q] = w * d[p];
  } else if (s.kind == StrokeKind::kick) {
    const double g = exp(-r2);
    for (int a = 0; a < 3; ++a) du[a] = s.velocity[a] * g;
  } else {
    dlnrho = log1p(s.amplitude * exp(-r2));
  }
}

// What a stroke changed (sums times the cell volume by the caller) and the fastest speed it
// leaves in its cells.
struct StrokeSums {
  double mass = 0, kinetic = 0, momentum[3] = {0, 0, 0};
  double u2_max = 0;
  std::int64_t cells = 0;
};

struct StrokeAcc {
  exec::Sum<double> mass, kinetic, momentum[3];
  exec::Max<double> u2_max{0.0};
  exec::Sum<std::int64_t> cells;
  FLUXVIEW_HD void join(const StrokeAcc& o) {
    mass.join(o.mass);
    kinetic.join(o.kinetic);
    for (int a = 0; a < 3; ++a) momentum[a].join(o.momentum[a]);
    u2_max.join(o.u2_max);
    cells.join(o.cells);
  }
};

// The stroke over the cells within the brush's reach; with apply = false the fields are
// only read (the check before a stroke).
template <class Space, class T>
StrokeSums stroke(const Space& space, T* const* f, const FieldLayout& l, const Brush& b,
                  const Stroke& s, bool apply) {
  T* lnrho = f[kLnrho];
  T* ux = f[kUx];
  T* uy = f[kUy];
  T* uz = f[kUz];
  const StrokeAcc acc = reduce_cells(space, brush_box(b, l.n), StrokeAcc{},
                                     [=] FLUXVIEW_LAMBDA(int i, int j, int k, StrokeAcc& a) {
                                       if (!b.inside(i, j, k)) return;
                                       const std::int64_t c = l.index(i, j, k);
                                       double du[3], dl;
                                       stroke_at(s, b, i, j, k, du, dl);
                                       T* vel[3] = {ux, uy, uz};
                                       const double rho0 = exp(double(lnrho[c]));
                                       const T lnrho1 = T(double(lnrho[c]) + dl);
                                       const double rho1 = exp(double(lnrho1));
                                       double ke0 = 0, ke1 = 0;
                                       for (int d = 0; d < 3; ++d) {
                                         const double v0 = vel[d][c];
                                         const T v1 = T(v0 + du[d]);
                                         ke0 += v0 * v0;
                                         ke1 += double(v1) * double(v1);
                                         a.momentum[d].add(rho1 * double(v1) - rho0 * v0);
                                         if (apply) vel[d][c] = v1;
                                       }
                                       a.mass.add(rho1 - rho0);
                                       a.kinetic.add(0.5 * (rho1 * ke1 - rho0 * ke0));
                                       a.u2_max.add(ke1);
                                       a.cells.add(1);
                                       if (apply) lnrho[c] = lnrho1;
                                     });
  StrokeSums r;
  r.mass = acc.mass.value;
  r.kinetic = acc.kinetic.value;
  for (int d = 0; d < 3; ++d) r.momentum[d] = acc.momentum[d].value;
  r.u2_max = acc.u2_max.value;
  r.cells = acc.cells.value;
  return r;
}

template <class T>
class FdTools : public Backend {
 public:
  using Backend::Backend;
  virtual StrokeSums stroke(T* const* f, const FieldLayout& l, const Brush& b, const Stroke& s,
                            bool apply) = 0;
};

template <class Space, class T>
class FdToolsOn final : public FdTools<T> {
 public:
  FdToolsOn() : FdTools<T>(exec::location_of(Space{})) {}
  StrokeSums stroke(T* const* f, const FieldLayout& l, const Brush& b, const Stroke& s,
                    bool apply) override {
    return fd::stroke(Space{}, f, l, b, s, apply);
  }
};

// The tools of a run's backend (FdToolsCpu.cpp; cuda/FdToolsKernels.cu for the device).
template <class T>
std::unique_ptr<FdTools<T>> make_tools(BackendKind backend);
template <class T>
std::unique_ptr<FdTools<T>> make_device_tools();

}  // namespace fluxview::fd
