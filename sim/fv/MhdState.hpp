#pragma once
// Ideal MHD in the GLM form of Dedner et al. (2002) as Wang, Abel & Kaehler (2010, eqs.
// 14-16) write it, pointwise, for both backends: the magnetic pressure, the fast
// magnetosonic speed and the physical flux (the conversions, which add the field's energy,
// are EulerState.hpp's for every state). Units are those of the papers: B carries
// the factor 1/sqrt(mu_0) (Heaviside-Lorentz), so B^2/2 is the magnetic pressure.
//
//   U = (rho, rho u, E, B, psi [, rho c]),  E = p/(gamma-1) + rho u^2/2 + B^2/2
//   F_n = (rho u_n,
//          rho u u_n + (p + B^2/2) e_n - B B_n,
//          (E + p + B^2/2) u_n - B_n (u.B),
//          B u_n - u B_n   (its normal component replaced by psi),
//          c_h^2 B_n       [, rho c u_n])
// The normal components of the induction flux and psi's flux couple only B_n and psi; the
// Riemann solvers (MhdRiemann.hpp) solve that linear pair exactly and the rest with B_n
// held at the pair's value, so mhd_flux() leaves both zero. psi is damped by the source
// -c_h^2/c_p^2 psi (Physics::psi_decay), added to a stage's L (FvPhysics.hpp).
#include <cmath>

#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

template <class T, int NV>
FLUXVIEW_HD T magnetic_pressure(const State<T, NV>& s) {
  return T(0.5) * (s.v[kBx] * s.v[kBx] + s.v[kBx + 1] * s.v[kBx + 1] + s.v[kBx + 2] * s.v[kBx + 2]);
}

// u.B of a primitive state.
template <class T, int NV>
FLUXVIEW_HD T velocity_dot_field(const State<T, NV>& q) {
  return q.v[kVelX] * q.v[kBx] + q.v[kVelX + 1] * q.v[kBx + 1] + q.v[kVelX + 2] * q.v[kBx + 2];
}

// The total pressure p + B^2/2 of a primitive state.
template <class T, int NV>
FLUXVIEW_HD T total_pressure(const State<T, NV>& q) {
  return q.v[kPressure] + magnetic_pressure(q);
}

// The fast magnetosonic speed along axis D of a primitive state:
// c_f^2 = (a^2 + b^2 + sqrt((a^2 + b^2)^2 - 4 a^2 b_n^2)) / 2, a^2 = gamma p / rho,
// b^2 = B^2 / rho, b_n^2 = B_n^2 / rho.
template <int D, class T, int NV>
FLUXVIEW_HD T fast_speed(const State<T, NV>& q, T gamma) {
  const T inv = T(1) / q.v[kRho];
  const T a2 = gamma * q.v[kPressure] * inv;
  const T b2 = T(2) * magnetic_pressure(q) * inv;
  const T bn2 = q.v[kBx + D] * q.v[kBx + D] * inv;
  const T s = a2 + b2;
  return std::sqrt(T(0.5) * (s + std::sqrt(fv_max(s * s - T(4) * a2 * bn2, T(0)))));
}

// The signal rate of a cell for the CFL condition: sum over axes of (|u_a| + c_f,a) / dx_a.
template <class T, int NV>
FLUXVIEW_HD T mhd_signal_rate(const State<T, NV>& q, T gamma, const T inv_dx[3]) {
  return (fv_abs(q.v[kVelX]) + fast_speed<0>(q, gamma)) * inv_dx[0] +
         (fv_abs(q.v[kVelX + 1]) + fast_speed<1>(q, gamma)) * inv_dx[1] +
         (fv_abs(q.v[kVelX + 2]) + fast_speed<2>(q, gamma)) * inv_dx[2];
}

// The physical flux along D without its B_n and psi components (left zero; see above).
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_flux(const State<T, NV>& q, const State<T, NV>& u) {
  const T un = q.v[kVelX + D], bn = q.v[kBx + D];
  const T pt = total_pressure(q), ub = velocity_dot_field(q);
  State<T, NV> f;
  f.v[kRho] = u.v[kRho] * un;
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    f.v[kMomX + a] = u.v[kMomX + a] * un - q.v[kBx + a] * bn;
    f.v[kBx + a] = q.v[kBx + a] * un - q.v[kVelX + a] * bn;  // 0 for a = D
  }
  f.v[kMomX + D] += pt;
  f.v[kEnergy] = (u.v[kEnergy] + pt) * un - bn * ub;
  f.v[kPsi] = T(0);
  if constexpr (has_tracer<NV>) f.v[tracer_slot<NV>] = u.v[tracer_slot<NV>] * un;
  return f;
}

// The whole GLM flux along D of one state, B_n's and psi's components included (psi and
// c_h^2 B_n): what the ADER predictor evolves a cell's polynomial with.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_glm_flux(const State<T, NV>& q, const State<T, NV>& u, T ch) {
  State<T, NV> f = mhd_flux<D>(q, u);
  f.v[kBx + D] = q.v[kPsi];
  f.v[kPsi] = ch * ch * q.v[kBx + D];
  return f;
}

// The MHD fields a view can show besides those of the Euler equations (FvStep.hpp's
// Derived lists them all); divergence_b is computed from neighbours (FvLoops.hpp).
enum class MhdField : int { bx, by, bz, b_magnitude, magnetic_pressure, plasma_beta, psi };

template <class T, int NV>
FLUXVIEW_HD T mhd_field_value(const State<T, NV>& q, MhdField what) {
  const T pm = magnetic_pressure(q);
  switch (what) {
    case MhdField::bx:
      return q.v[kBx];
    case MhdField::by:
      return q.v[kBx + 1];
    case MhdField::bz:
      return q.v[kBx + 2];
    case MhdField::b_magnitude:
      return std::sqrt(T(2) * pm);
    case MhdField::magnetic_pressure:
      return pm;
    case MhdField::plasma_beta:
      // 1e30 where there is no field (the gas pressure dominates completely): finite, so
      // that the instability guard, which scans every field, does not take it for a NaN.
      return pm > T(0) ? fv_min(q.v[kPressure] / pm, T(1e30)) : T(1e30);
    default:
      return q.v[kPsi];
  }
}

}  // namespace fluxview::fv
