#pragma once
// The circularly polarised Alfven wave (Toth 2000, sec. 6.1; the convergence test of
// every MHD code): along axis n, rho, p and B_n = B0 uniform, and across it
//   B_t1 = A sin(k s), B_t2 = A cos(k s),  u_t = -B_t / sqrt(rho),  s = x_n - v_A t,
// with v_A = B0 / sqrt(rho). |B| and |u| are uniform, so the pressure stays uniform and the
// wave is an exact nonlinear solution travelling at v_A. The initial state and the tests'
// exact solution are its cell averages (sin and cos averaged over a cell of width h are
// the point values times sinc(k h / 2); B^2/2 and rho u^2/2 are uniform).
#include <cmath>

#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

struct AlfvenWave {
  int axis = 0;
  double rho = 1, p = 0.1, b0 = 1, amplitude = 0.1, gamma = 5.0 / 3;
  double wavenumber = 2 * 3.141592653589793;  // 2 pi m / L

  double speed() const { return b0 / std::sqrt(rho); }
  // The cell average of B along the first (which = 0) or second (1) axis across, of the
  // cell centred at position s along the axis with width h, at time t.
  double field_average(int which, double s, double h, double t) const {
    const double a = 0.5 * wavenumber * h, sinc = a > 0 ? std::sin(a) / a : 1.0;
    const double phase = wavenumber * (s - speed() * t);
    return amplitude * sinc * (which == 0 ? std::sin(phase) : std::cos(phase));
  }
  // The conserved cell average (rho, rho u, E, B, psi = 0 [, rho c = 0]) at t = 0.
  State<double, 10> conserved_average(double s, double h) const {
    State<double, 10> u{};
    const int t1 = (axis + 1) % 3, t2 = (axis + 2) % 3;
    const double b1 = field_average(0, s, h, 0), b2 = field_average(1, s, h, 0);
    const double sq = std::sqrt(rho);
    u.v[kRho] = rho;
    u.v[kMomX + t1] = -sq * b1;  // rho u_t = -sqrt(rho) B_t
    u.v[kMomX + t2] = -sq * b2;
    u.v[kBx + axis] = b0;
    u.v[kBx + t1] = b1;
    u.v[kBx + t2] = b2;
    // rho |u|^2 / 2 = B_t^2 / 2 = A^2 / 2 pointwise, so their averages are A^2 / 2 each.
    u.v[kEnergy] = p / (gamma - 1) + amplitude * amplitude + 0.5 * b0 * b0;
    return u;
  }
};

}  // namespace fluxview::fv
