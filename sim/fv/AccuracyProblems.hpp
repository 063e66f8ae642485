#pragma once
// The smooth problems with exact solutions the fv schemes' orders are measured on, as
// pointwise functions shared by the initial state (FvInitial.cpp) and the error
// diagnostics of both backends (FvLoops.hpp):
//   * the isentropic vortex of Balsara & Shu (2000, sec. IV.b): in a uniform flow
//     (rho_inf, p_inf, u_inf) a vortex of strength beta about the z axis,
//       dT = -(gamma - 1) beta^2 / (8 gamma pi^2) e^(1 - r^2),  T = p / rho,
//       du = beta / (2 pi) e^((1 - r^2)/2) (-y, x),   p / rho^gamma = const,
//     which the flow carries along unchanged (the paper's Table XII is its 3D version, the
//     same vortex uniform along z);
//   * the MHD vortex of Balsara (2004, sec. 6): in a uniform flow (rho_inf, p_inf, u_inf),
//     with e = exp((1 - r^2)/2) about the z axis,
//       du = kappa / (2 pi) e (-y, x),   B = mu / (2 pi) e (-y, x),
//       dp = (mu^2 (1 - r^2) - kappa^2) e^2 / (8 pi^2),
//     where the pressure gradient, the field's tension and pressure and the centrifugal
//     force balance, so the flow carries it along unchanged (the paper's Table XIII is its
//     3D version, uniform along z, with kappa = mu = 1 and gamma = 5/3);
//   * a smooth density wave rho = rho_inf (1 + a sin(2 pi m x / l)) in uniform velocity
//     and pressure, carried along unchanged.
// The exact cell averages come from Gauss quadrature (4 points per active axis, error
// O(h^8), far below any scheme's here).
#include <cmath>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"
#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

struct VortexSpec {
  double beta = 5, gamma = 1.4;
  double rho_inf = 1, p_inf = 1, u[3] = {1, 1, 0};
  double centre[2] = {0, 0};    // at t = 0
  double period[2] = {10, 10};  // box lengths: the vortex is periodic in x and y
};

// The offset of (x, y) from the centre of a vortex that started at centre[] and rides the
// flow u[], at time t, to the nearest periodic image.
template <class Spec>
FLUXVIEW_HD void vortex_offset(const Spec& s, double x, double y, double t, double& dx,
                               double& dy) {
  dx = x - s.centre[0] - s.u[0] * t;
  dy = y - s.centre[1] - s.u[1] * t;
  dx -= s.period[0] * floor(dx / s.period[0] + 0.5);
  dy -= s.period[1] * floor(dy / s.period[1] + 0.5);
}

// Primitive state of the vortex at (x, y) and time t.
FLUXVIEW_HD State<double, 5> vortex_state(const VortexSpec& s, double x, double y, double t) {
  double dx, dy;
  vortex_offset(s, x, y, t, dx, dy);
  const double pi = 3.14159265358979323846, r2 = dx * dx + dy * dy;
  const double e = exp(0.5 * (1 - r2));
  const double t_inf = s.p_inf / s.rho_inf;
  const double temp = t_inf - (s.gamma - 1) * s.beta * s.beta / (8 * s.gamma * pi * pi) * e * e;
  const double rho = s.rho_inf * pow(temp / t_inf, 1 / (s.gamma - 1));
  const double du = s.beta / (2 * pi) * e;
  return State<double, 5>{{rho, s.u[0] - du * dy, s.u[1] + du * dx, s.u[2], rho * temp}};
}

struct MhdVortexSpec {
  double kappa = 1, mu = 1, gamma = 5.0 / 3;
  double rho_inf = 1, p_inf = 1, u[3] = {1, 1, 0};
  double centre[2] = {0, 0};    // at t = 0
  double period[2] = {10, 10};  // box lengths
};

// Conserved state (rho, rho u, E, B, psi = 0) of the MHD vortex at (x, y) and time t.
FLUXVIEW_HD State<double, kMhdVariables> mhd_vortex_conserved(const MhdVortexSpec& s, double x,
                                                              double y, double t) {
  double dx, dy;
  vortex_offset(s, x, y, t, dx, dy);
  const double pi = 3.14159265358979323846, r2 = dx * dx + dy * dy;
  const double e = exp(0.5 * (1 - r2)), du = s.kappa / (2 * pi) * e, b = s.mu / (2 * pi) * e;
  State<double, kMhdVariables> q{};
  q.v[kRho] = s.rho_inf;
  q.v[kVelX] = s.u[0] - du * dy;
  q.v[kVelX + 1] = s.u[1] + du * dx;
  q.v[kVelX + 2] = s.u[2];
  q.v[kPressure] = s.p_inf + (s.mu * s.mu * (1 - r2) - s.kappa * s.kappa) * e * e / (8 * pi * pi);
  q.v[kBx] = -b * dy;
  q.v[kBx + 1] = b * dx;
  return prim_to_cons(q, s.gamma);
}

struct WaveSpec {
  double amplitude = 0.2, rho_inf = 1, p_inf = 1, u[3] = {1, 0, 0};
  int axis = 0;
  double wavenumber = 6.283185307179586;  // 2 pi m / l
};

// Exact average of the wave's density over [x - h/2, x + h/2] along its axis at time t.
FLUXVIEW_HD double wave_density_average(const WaveSpec& s, double x, double h, double t) {
  const double k = s.wavenumber, xs = x - s.u[s.axis] * t;
  return s.rho_inf * (1 + s.amplitude * sin(k * xs) * sin(0.5 * k * h) / (0.5 * k * h));
}

// The four-point Gauss-Legendre rule on [-1/2, 1/2].
FLUXVIEW_HD double gauss4_node(int q) {
  const double a = 0.43056815579702628, b = 0.16999052179242813;
  return q == 0 ? -a : q == 1 ? -b : q == 2 ? b : a;
}
FLUXVIEW_HD double gauss4_weight(int q) {
  return (q == 0 || q == 3) ? 0.17392742256872693 : 0.32607257743127307;
}

// The average over the cell centred at (x, y) of size hx by hy (hy = 0: a line along x) of
// the conserved state point(x, y) gives at each point, by the four-point Gauss rule along
// each active axis.
template <int N, class Point>
FLUXVIEW_HD State<double, N> gauss_cell_average(double x, double y, double hx, double hy,
                                                const Point& point) {
  State<double, N> sum{};
  const int ny = hy > 0 ? 4 : 1;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < ny; ++b) {
      const double w = gauss4_weight(a) * (hy > 0 ? gauss4_weight(b) : 1.0);
      const State<double, N> c =
          point(x + gauss4_node(a) * hx, y + (hy > 0 ? gauss4_node(b) * hy : 0.0));
      for (int m = 0; m < N; ++m) sum.v[m] += w * c.v[m];
    }
  return sum;
}

// The exact average of the vortex's conserved state over the cell centred at (x, y) of
// size hx by hy (hy = 0: a line along x), at time t. Returns the density average in rho
// and, if u is given, the conserved average there.
FLUXVIEW_HD double vortex_density_average(const VortexSpec& s, double x, double y, double hx,
                                          double hy, double t, State<double, 5>* u) {
  const State<double, 5> sum = gauss_cell_average<5>(x, y, hx, hy, [&](double px, double py) {
    return prim_to_cons(vortex_state(s, px, py, t), s.gamma);
  });
  if (u) *u = sum;
  return sum.v[0];
}

// The exact average of the MHD vortex's conserved state over the cell centred at (x, y) of
// size hx by hy (hy = 0: a line along x), at time t.
FLUXVIEW_HD State<double, kMhdVariables> mhd_vortex_average(const MhdVortexSpec& s, double x,
                                                            double y, double hx, double hy,
                                                            double t) {
  return gauss_cell_average<kMhdVariables>(
      x, y, hx, hy, [&](double px, double py) { return mhd_vortex_conserved(s, px, py, t); });
}

}  // namespace fluxview::fv
