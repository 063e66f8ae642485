#pragma once
// Approximate Riemann solvers of ideal MHD with GLM divergence cleaning, pointwise, shared
// by both backends: the flux through a face normal to axis D from the primitive states on
// its two sides (MhdState.hpp gives the system).
//
// First the linear pair (B_n, psi) is solved exactly (Dedner et al. 2002, eq. 42):
//   B_n* = (B_nL + B_nR)/2 - (psi_R - psi_L) / (2 c_h),
//   psi* = (psi_L + psi_R)/2 - c_h (B_nR - B_nL) / 2,
// whose fluxes are psi* (for B_n) and c_h^2 B_n* (for psi). Without cleaning (c_h = 0)
// B_n* is the mean and both fluxes are zero. The seven-wave system is then solved with
// B_n = B_n* on both sides by
//   llf   Rusanov with max(|u_n| + c_f) of the two sides,
//   hll   (also hlle) HLL with S_L = min(u_nL, u_nR) - max(c_fL, c_fR) and S_R the mirror
//         (Miyoshi & Kusano 2005, eq. 67), bounding the fast waves on both sides;
//   hlld  Miyoshi & Kusano (2005): the same outer speeds, the contact S_M and the two
//         rotational (Alfven) waves S*_L, S*_R, with the four intermediate states of their
//         eqs. 38-63, so isolated contacts and rotational discontinuities stay sharp.
// The tracer is carried like density (rho c, with c constant across the fast waves).
#include <cmath>

#include "sim/fv/MhdState.hpp"
#include "sim/fv/RiemannSolvers.hpp"

namespace fluxview::fv {

// The state of one side in the outer intermediate region of HLLD (their eqs. 43-48),
// for the side with primitives q, conservatives u, total pressure pt, outer speed s, given
// the contact speed sM, the total pressure pts there and B_n. Also returns u*.B* for the
// energy of the inner states.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> hlld_outer_state(const State<T, NV>& q, const State<T, NV>& u, T pt, T s,
                                          T sM, T pts, T bn, T& vb_star) {
  constexpr int t1 = (D + 1) % 3, t2 = (D + 2) % 3;
  const T un = q.v[kVelX + D];
  const T d = q.v[kRho] * (s - un);  // rho (S - u_n)
  const T rho = d / (s - sM);
  const T denom = d * (s - sM) - bn * bn;
  T v1 = q.v[kVelX + t1], v2 = q.v[kVelX + t2], b1 = q.v[kBx + t1], b2 = q.v[kBx + t2];
  // denom -> 0 where S_M and an outer wave meet the Alfven speed (B_t = 0 and B_n^2 >= gamma
  // p); the tangential components then do not jump (their eqs. 44-47 are 0/0 there).
  // denom is a pressure; "0" is relative to the total pressures, at the precision's scale.
  const T tiny = T(sizeof(T) == 4 ? 1e-6 : 1e-12);
  if (fv_abs(denom) > tiny * (pts + pt)) {
    const T dv = bn * (sM - un) / denom;
    const T db = (d * (s - un) - bn * bn) / denom;
    v1 -= b1 * dv;
    v2 -= b2 * dv;
    b1 *= db;
    b2 *= db;
  }
  const T vb = velocity_dot_field(q);
  vb_star = sM * bn + v1 * b1 + v2 * b2;
  State<T, NV> r;
  r.v[kRho] = rho;
  r.v[kMomX + D] = rho * sM;
  r.v[kMomX + t1] = rho * v1;
  r.v[kMomX + t2] = rho * v2;
  r.v[kEnergy] = ((s - un) * u.v[kEnergy] - pt * un + pts * sM + bn * (vb - vb_star)) / (s - sM);
  r.v[kBx + D] = bn;
  r.v[kBx + t1] = b1;
  r.v[kBx + t2] = b2;
  r.v[kPsi] = u.v[kPsi];
  if constexpr (has_tracer<NV>) r.v[tracer_slot<NV>] = rho * q.v[tracer_slot<NV>];
  return r;
}

// f + s (b - a), the flux of a region behind a wave of speed s (Rankine-Hugoniot).
template <class T, int NV>
FLUXVIEW_HD State<T, NV> across_wave(const State<T, NV>& f, T s, const State<T, NV>& b,
                                     const State<T, NV>& a) {
  State<T, NV> r;
#pragma unroll
  for (int m = 0; m < NV; ++m) r.v[m] = f.v[m] + s * (b.v[m] - a.v[m]);
  return r;
}

template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> hlld_flux(const State<T, NV>& qL, const State<T, NV>& qR,
                                   const State<T, NV>& uL, const State<T, NV>& uR,
                                   const State<T, NV>& fL, const State<T, NV>& fR, T sL, T sR) {
  constexpr int t1 = (D + 1) % 3, t2 = (D + 2) % 3;
  if (sL >= T(0)) return fL;
  if (sR <= T(0)) return fR;
  const T bn = qL.v[kBx + D];
  const T vL = qL.v[kVelX + D], vR = qR.v[kVelX + D];
  const T ptL = total_pressure(qL), ptR = total_pressure(qR);
  const T dL = qL.v[kRho] * (sL - vL), dR = qR.v[kRho] * (sR - vR);
  const T sM = (dR * vR - dL * vL - ptR + ptL) / (dR - dL);  // eq. 38
  // The outer speeds bound S_M for physical states; rounding aside, fall back to HLL.
  if (!(sL < sM && sM < sR)) return hll_formula(uL, uR, fL, fR, sL, sR);
  const T pts = (dR * ptL - dL * ptR + dL * dR * (vR - vL)) / (dR - dL);  // eq. 41
  T vbL, vbR;
  const State<T, NV> usL = hlld_outer_state<D>(qL, uL, ptL, sL, sM, pts, bn, vbL);
  const State<T, NV> usR = hlld_outer_state<D>(qR, uR, ptR, sR, sM, pts, bn, vbR);
  const T sqL = std::sqrt(usL.v[kRho]), sqR = std::sqrt(usR.v[kRho]);
  const T ssL = sM - fv_abs(bn) / sqL, ssR = sM + fv_abs(bn) / sqR;  // eq. 51
  if (ssL >= T(0)) return across_wave(fL, sL, usL, uL);
  if (ssR <= T(0)) return across_wave(fR, sR, usR, uR);
  // The inner states (eqs. 59-63): shared velocity and tangential field, each side its
  // density and energy. Reached only with B_n != 0 (else S*_L = S_M = S*_R).
  const T sgn = fv_sign(bn), inv = T(1) / (sqL + sqR);
  const T vsL1 = usL.v[kMomX + t1] / usL.v[kRho], vsL2 = usL.v[kMomX + t2] / usL.v[kRho];
  const T vsR1 = usR.v[kMomX + t1] / usR.v[kRho], vsR2 = usR.v[kMomX + t2] / usR.v[kRho];
  const T v1 = (sqL * vsL1 + sqR * vsR1 + (usR.v[kBx + t1] - usL.v[kBx + t1]) * sgn) * inv;
  const T v2 = (sqL * vsL2 + sqR * vsR2 + (usR.v[kBx + t2] - usL.v[kBx + t2]) * sgn) * inv;
  const T b1 =
      (sqL * usR.v[kBx + t1] + sqR * usL.v[kBx + t1] + sqL * sqR * (vsR1 - vsL1) * sgn) * inv;
  const T b2 =
      (sqL * usR.v[kBx + t2] + sqR * usL.v[kBx + t2] + sqL * sqR * (vsR2 - vsL2) * sgn) * inv;
  const T vb = sM * bn + v1 * b1 + v2 * b2;
  const bool left = sM >= T(0);
  const State<T, NV>& us = left ? usL : usR;
  State<T, NV> uss = us;
  uss.v[kMomX + t1] = us.v[kRho] * v1;
  uss.v[kMomX + t2] = us.v[kRho] * v2;
  uss.v[kBx + t1] = b1;
  uss.v[kBx + t2] = b2;
  uss.v[kEnergy] =
      left ? us.v[kEnergy] - sqL * (vbL - vb) * sgn : us.v[kEnergy] + sqR * (vbR - vb) * sgn;
  return left ? across_wave(across_wave(fL, sL, usL, uL), ssL, uss, usL)
              : across_wave(across_wave(fR, sR, usR, uR), ssR, uss, usR);
}

// The GLM-MHD flux along D by the solver `kind` (llf, hll/hlle, hlld), c_h from ph.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> mhd_riemann_solve(Riemann kind, State<T, NV> qL, State<T, NV> qR,
                                           const Physics<T>& ph) {
  const T g = ph.gamma, ch = ph.ch;
  const T bnL = qL.v[kBx + D], bnR = qR.v[kBx + D];
  T bn = T(0.5) * (bnL + bnR), psi = T(0);
  if (ch > T(0)) {
    bn -= T(0.5) * (qR.v[kPsi] - qL.v[kPsi]) / ch;
    psi = T(0.5) * (qL.v[kPsi] + qR.v[kPsi]) - T(0.5) * ch * (bnR - bnL);
  }
  qL.v[kBx + D] = bn;
  qR.v[kBx + D] = bn;
  const State<T, NV> uL = prim_to_cons(qL, g), uR = prim_to_cons(qR, g);
  const State<T, NV> fL = mhd_flux<D>(qL, uL), fR = mhd_flux<D>(qR, uR);
  const T cL = fast_speed<D>(qL, g), cR = fast_speed<D>(qR, g);
  const T vL = qL.v[kVelX + D], vR = qR.v[kVelX + D];
  State<T, NV> f;
  if (kind == Riemann::llf) {
    const T l0 = fv_max(fv_abs(vL) + cL, fv_abs(vR) + cR);
#pragma unroll
    for (int m = 0; m < NV; ++m) f.v[m] = T(0.5) * (fL.v[m] + fR.v[m] - l0 * (uR.v[m] - uL.v[m]));
  } else {
    const T sL = fv_min(vL, vR) - fv_max(cL, cR), sR = fv_max(vL, vR) + fv_max(cL, cR);
    f = kind == Riemann::hlld ? hlld_flux<D>(qL, qR, uL, uR, fL, fR, sL, sR)
                              : hll_formula(uL, uR, fL, fR, sL, sR);
  }
  f.v[kBx + D] = psi;
  f.v[kPsi] = ch * ch * bn;
  return f;
}

}  // namespace fluxview::fv
