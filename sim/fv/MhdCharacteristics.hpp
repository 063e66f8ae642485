#pragma once
// The characteristic variables of ideal MHD along axis D, for the higher-order
// reconstruction (EulerCharacteristics.hpp's EulerProjection uses them when a state has a
// field): the primitive differences dW = (rho, u, p, B_t) projected on the left
// eigenvectors of the one-dimensional primitive MHD system at the cell's state, with the
// normalisation of Roe & Balsara (1996), which keeps them well defined where waves
// coincide (B_t = 0, B_n = 0, the triple point a = c_a).
//
// With a^2 = gamma p / rho, c_a^2 = B_n^2 / rho, b_t^2 = |B_t|^2 / rho, the fast and slow
// speeds c_f^2, c_s^2 = ((a^2 + c_a^2 + b_t^2) +- d) / 2, d = sqrt((a^2 + c_a^2 + b_t^2)^2
// - 4 a^2 c_a^2), and
//   alpha_f^2 = (a^2 - c_s^2) / d,  alpha_s^2 = (c_f^2 - a^2) / d  (alpha_f = 1 where d = 0),
//   beta = B_t / |B_t|  ((1, 1) / sqrt(2) where B_t = 0),  s = sign(B_n)  (+1 at 0),
// the right eigenvectors in (rho, u_n, u_t, p, B_t) are (Roe & Balsara 1996; Stone et al.
// 2008, appendix A, in conserved form)
//   fast +-:  (rho af, +-af cf, -+as cs s beta, rho af a^2, as a sqrt(rho) beta)
//   Alfven +-: (0, 0, beta_perp, 0, -+s sqrt(rho) beta_perp),  beta_perp = (-beta_2, beta_1)
//   slow +-:  (rho as, +-as cs, +-af cf s beta, rho as a^2, -af a sqrt(rho) beta)
//   entropy:  (1, 0, 0, 0, 0)
// and the left ones, rows of their inverse,
//   fast +-:  (0, +-af cf, -+as cs s beta, af / rho, as a beta / sqrt(rho)) / (2 a^2)
//   Alfven +-: (0, 0, beta_perp, 0, -+s beta_perp / sqrt(rho)) / 2
//   slow +-:  (0, +-as cs, +-af cf s beta, as / rho, -af a beta / sqrt(rho)) / (2 a^2)
//   entropy:  (1, 0, 0, -1 / a^2, 0).
// That they are inverse needs only af^2 + as^2 = 1 and af^2 cf^2 + as^2 cs^2 = a^2, which
// the alpha above satisfy to rounding whatever d is (tests/fv/MhdRiemannTest.cpp checks L R
// = I and A R = R Lambda on states with every degeneracy). B_n and psi form GLM's own pair
// (their waves travel at +-c_h, which is not a property of the state) and the tracer is
// passive: the three are passed through as they are.
//
// The slots of the characteristic state: 0 fast -, 1 Alfven -, 2 slow -, 3 entropy,
// 4 slow +, 5 Alfven +, 6 fast +, 7 dB_n, 8 dpsi [, 9 dc]: psi keeps its slot kPsi, as in
// the primitive and conserved states (CellReconstruction.hpp relies on it).
#include <cmath>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

// What the eigenvectors along one axis need of the cell's state: built once per cell.
template <class T>
struct MhdEigen {
  T rho, sqrt_rho, a2, a, cf, cs, af, as, beta1, beta2, s;
};

// The two axes across axis D, in increasing order.
template <int D>
inline constexpr int across1 = D == 0 ? 1 : 0;
template <int D>
inline constexpr int across2 = D == 2 ? 1 : 2;

template <int D, class T, int NV>
FLUXVIEW_HD MhdEigen<T> mhd_eigen(const State<T, NV>& q, T gamma) {
  constexpr int A1 = across1<D>, A2 = across2<D>;
  MhdEigen<T> e;
  e.rho = q.v[kRho];
  e.sqrt_rho = std::sqrt(e.rho);
  const T bn = q.v[kBx + D], b1 = q.v[kBx + A1], b2 = q.v[kBx + A2];
  const T inv_rho = T(1) / e.rho;
  e.a2 = gamma * q.v[kPressure] * inv_rho;
  e.a = std::sqrt(e.a2);
  const T ca2 = bn * bn * inv_rho, bt2 = (b1 * b1 + b2 * b2) * inv_rho;
  // d = c_f^2 - c_s^2 and the distances of a^2 from c_f^2 and c_s^2, without cancelling:
  // with delta = a^2 - c_a^2 and x = b_t^2 (b_t^2 + 2 a^2 + 2 c_a^2), d^2 = delta^2 + x, and
  // the one of c_f^2 - a^2 = (d - delta + b_t^2) / 2 and a^2 - c_s^2 = (d + delta - b_t^2) / 2
  // that is small (c_f^2 - a^2 where a > c_a, a^2 - c_s^2 where a < c_a) is formed with
  // d -+ delta = x / (d +- delta). A weak transverse field then gives alpha_s ~ b_t / a to
  // full precision rather than the square root of a rounding error, which would tie the
  // projection to the rounding of the state.
  const T delta = e.a2 - ca2, x = bt2 * (bt2 + T(2) * (e.a2 + ca2));
  const T d = std::sqrt(delta * delta + x);
  T above, below;  // c_f^2 - a^2 and a^2 - c_s^2, which add up to d
  if (delta >= T(0)) {
    above = d > T(0) ? T(0.5) * (x / (d + delta) + bt2) : T(0);
    below = fv_max(T(0), d - above);
  } else {
    below = fv_max(T(0), T(0.5) * (x / (d - delta) - bt2));
    above = fv_max(T(0), d - below);
  }
  const T cf2 = e.a2 + above;
  e.cf = std::sqrt(cf2);
  e.cs = std::sqrt(e.a2 * ca2 / cf2);  // c_f^2 c_s^2 = a^2 c_a^2: 0 where B_n is
  // alpha_f^2 = below / d and alpha_s^2 = above / d; the smaller one is formed, the other is
  // one minus it, so that alpha_f^2 + alpha_s^2 = 1 holds to rounding.
  T af2 = T(1), as2 = T(0);
  if (d > T(0)) {
    if (above <= below) {
      as2 = fv_min(T(1), above / d);
      af2 = T(1) - as2;
    } else {
      af2 = fv_min(T(1), below / d);
      as2 = T(1) - af2;
    }
  }
  e.af = std::sqrt(af2);
  e.as = std::sqrt(as2);
  const T bt = std::sqrt(b1 * b1 + b2 * b2);
  if (bt2 > T(1e-20) * (e.a2 + ca2)) {
    e.beta1 = b1 / bt;
    e.beta2 = b2 / bt;
  } else {
    e.beta1 = e.beta2 = T(0.70710678118654752);
  }
  e.s = bn >= T(0) ? T(1) : T(-1);
  return e;
}

// Primitive differences to characteristic amplitudes (the left eigenvectors).
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_primitive_to_characteristic(const State<T, NV>& dw,
                                                         const MhdEigen<T>& e) {
  constexpr int A1 = across1<D>, A2 = across2<D>;
  const T dun = dw.v[kVelX + D], du1 = dw.v[kVelX + A1], du2 = dw.v[kVelX + A2];
  const T db1 = dw.v[kBx + A1], db2 = dw.v[kBx + A2], dp = dw.v[kPressure];
  const T ut = e.beta1 * du1 + e.beta2 * du2, bt = e.beta1 * db1 + e.beta2 * db2;  // along beta
  const T uperp = -e.beta2 * du1 + e.beta1 * du2, bperp = -e.beta2 * db1 + e.beta1 * db2;
  const T inv2a2 = T(0.5) / e.a2, isr = T(1) / e.sqrt_rho;
  const T p_rho = dp / e.rho, b_sr = e.a * bt * isr;
  // fast: (+-af cf dun -+ as cs s ut + af dp/rho + as a bt/sqrt(rho)) / (2 a^2)
  const T f_even = e.af * p_rho + e.as * b_sr, f_odd = e.af * e.cf * dun - e.as * e.cs * e.s * ut;
  // slow: (+-as cs dun +- af cf s ut + as dp/rho - af a bt/sqrt(rho)) / (2 a^2)
  const T s_even = e.as * p_rho - e.af * b_sr, s_odd = e.as * e.cs * dun + e.af * e.cf * e.s * ut;
  const T a_odd = e.s * bperp * isr;  // Alfven: (uperp -+ s bperp / sqrt(rho)) / 2
  State<T, NV> w;
  w.v[0] = inv2a2 * (f_even - f_odd);
  w.v[1] = T(0.5) * (uperp + a_odd);
  w.v[2] = inv2a2 * (s_even - s_odd);
  w.v[3] = dw.v[kRho] - dp / e.a2;
  w.v[4] = inv2a2 * (s_even + s_odd);
  w.v[5] = T(0.5) * (uperp - a_odd);
  w.v[6] = inv2a2 * (f_even + f_odd);
  w.v[7] = dw.v[kBx + D];
  w.v[kPsi] = dw.v[kPsi];
  if constexpr (has_tracer<NV>) w.v[tracer_slot<NV>] = dw.v[tracer_slot<NV>];
  return w;
}

// Characteristic amplitudes back to primitive differences (the right eigenvectors).
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_characteristic_to_primitive(const State<T, NV>& w,
                                                         const MhdEigen<T>& e) {
  constexpr int A1 = across1<D>, A2 = across2<D>;
  const T f_sum = w.v[6] + w.v[0], f_dif = w.v[6] - w.v[0];
  const T s_sum = w.v[4] + w.v[2], s_dif = w.v[4] - w.v[2];
  const T a_sum = w.v[5] + w.v[1], a_dif = w.v[5] - w.v[1];
  const T ut = e.s * (e.af * e.cf * s_dif - e.as * e.cs * f_dif);  // along beta
  const T bt = e.a * e.sqrt_rho * (e.as * f_sum - e.af * s_sum);
  const T bperp = -e.s * e.sqrt_rho * a_dif;  // along beta_perp; uperp is a_sum
  State<T, NV> dw;
  dw.v[kRho] = e.rho * (e.af * f_sum + e.as * s_sum) + w.v[3];
  dw.v[kVelX + D] = e.af * e.cf * f_dif + e.as * e.cs * s_dif;
  dw.v[kVelX + A1] = e.beta1 * ut - e.beta2 * a_sum;
  dw.v[kVelX + A2] = e.beta2 * ut + e.beta1 * a_sum;
  dw.v[kPressure] = e.rho * e.a2 * (e.af * f_sum + e.as * s_sum);
  dw.v[kBx + D] = w.v[7];
  dw.v[kBx + A1] = e.beta1 * bt - e.beta2 * bperp;
  dw.v[kBx + A2] = e.beta2 * bt + e.beta1 * bperp;
  dw.v[kPsi] = w.v[kPsi];
  if constexpr (has_tracer<NV>) dw.v[tracer_slot<NV>] = w.v[tracer_slot<NV>];
  return dw;
}

// The size of each characteristic amplitude at the cell's state, for the WENO weights'
// floor (WenoReconstruction.hpp): the fast and slow amplitudes are differences of the
// pressures over rho a^2, so their size is that of the total over the gas pressure,
// c_f / a; the Alfven amplitudes are velocities (`speed`), the entropy one a density, B_n
// a field (`field`), psi a field times a speed.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_characteristic_scale(const MhdEigen<T>& e, T speed, T field) {
  State<T, NV> s;
  const T fs = e.cf / e.a;
  s.v[0] = s.v[2] = s.v[4] = s.v[6] = fs;
  s.v[1] = s.v[5] = speed;
  s.v[3] = e.rho;
  s.v[7] = field;
  s.v[8] = field * speed;
  if constexpr (has_tracer<NV>) s.v[tracer_slot<NV>] = T(1);
  return s;
}

}  // namespace fluxview::fv
