#pragma once
// Approximate Riemann solvers of the Euler equations, one small pointwise function each,
// shared by both backends: the flux through a face normal to axis D from the primitive
// states on its left and right (Toro 2009, ch. 10).
//   llf   Rusanov / local Lax-Friedrichs with one symmetric speed max(|u| + c) (eq. 12 of
//         Wang, Abel & Kaehler 2010).
//   hll   Harten, Lax & van Leer with the Davis speed estimates
//         S_L = min(u_L - c_L, u_R - c_R), S_R = max(u_L + c_L, u_R + c_R).
//   hlle  HLL with Einfeldt's speeds (Einfeldt 1988; Einfeldt, Munz, Roe & Sjogreen 1991):
//         S_L = min(u_L - c_L, u~ - c~), S_R = max(u_R + c_R, u~ + c~) with Roe averages;
//         the first-order Godunov scheme with it keeps density and pressure positive under
//         the CFL condition, which is why the positivity fallback uses it.
//   hllc  Toro, Spruce & Speares 1994 with the Davis speeds: restores the contact, so a
//         stationary contact stays exactly sharp.
//   hlli  Dumbser & Balsara 2016 (JCP 304, 275): the HLLE flux with the intermediate
//         (entropy, shear and tracer) waves restored by an anti-diffusive term built from
//         the eigenvectors at the HLL state, F = F_hll - sL sR / (sR - sL) delta R L dU,
//         delta = 1 - min(u*, 0) / sL - max(u*, 0) / sR (u* the HLL state's normal
//         velocity); a stationary contact and a shear layer are kept exactly.
// The passive tracer (NV = 6) is a conserved component like the others (rho c, flux
// rho c u_n).
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerCharacteristics.hpp"
#include "sim/fv/EulerState.hpp"

namespace fluxview::fv {

// The HLL flux from the two sides' conserved states and fluxes and the signal speeds
// sL <= sR; with sl = min(sL, 0) and sr = max(sR, 0) one formula covers the supersonic
// cases (it then returns fL or fR).
template <class T, int NV>
FLUXVIEW_HD State<T, NV> hll_formula(const State<T, NV>& uL, const State<T, NV>& uR,
                                     const State<T, NV>& fL, const State<T, NV>& fR, T sL, T sR) {
  const T sl = fv_min(sL, T(0)), sr = fv_max(sR, T(0));
  const T inv = T(1) / (sr - sl);
  State<T, NV> f;
#pragma unroll
  for (int m = 0; m < NV; ++m)
    f.v[m] = (sr * fL.v[m] - sl * fR.v[m] + sl * sr * (uR.v[m] - uL.v[m])) * inv;
  return f;
}

// Einfeldt's estimates of the slowest and fastest signal speeds along D.
template <int D, class T, int NV>
FLUXVIEW_HD void einfeldt_speeds(const State<T, NV>& qL, const State<T, NV>& qR,
                                 const State<T, NV>& uL, const State<T, NV>& uR, T cL, T cR,
                                 T gamma, T& sL, T& sR) {
  const T rl = std::sqrt(qL.v[0]), rr = std::sqrt(qR.v[0]);
  const T inv = T(1) / (rl + rr);
  const T ux = (rl * qL.v[1] + rr * qR.v[1]) * inv;
  const T uy = (rl * qL.v[2] + rr * qR.v[2]) * inv;
  const T uz = (rl * qL.v[3] + rr * qR.v[3]) * inv;
  // Specific total enthalpy H = (E + p) / rho.
  const T hl = (uL.v[4] + qL.v[4]) / qL.v[0], hr = (uR.v[4] + qR.v[4]) / qR.v[0];
  const T h = (rl * hl + rr * hr) * inv;
  const T c2 = (gamma - T(1)) * (h - T(0.5) * (ux * ux + uy * uy + uz * uz));
  const T c = std::sqrt(fv_max(c2, T(0)));
  const T un = D == 0 ? ux : D == 1 ? uy : uz;
  sL = fv_min(qL.v[1 + D] - cL, un - c);
  sR = fv_max(qR.v[1 + D] + cR, un + c);
}

template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> riemann_solve(Riemann kind, const State<T, NV>& qL, const State<T, NV>& qR,
                                       T g) {
  const State<T, NV> uL = prim_to_cons(qL, g), uR = prim_to_cons(qR, g);
  const State<T, NV> fL = physical_flux<D>(qL, uL), fR = physical_flux<D>(qR, uR);
  const T cL = sound_speed(qL.v[0], qL.v[4], g), cR = sound_speed(qR.v[0], qR.v[4], g);
  const T vL = qL.v[1 + D], vR = qR.v[1 + D];
  if (kind == Riemann::llf) {
    const T l0 = fv_max(fv_abs(vL) + cL, fv_abs(vR) + cR);
    State<T, NV> f;
#pragma unroll
    for (int m = 0; m < NV; ++m) f.v[m] = T(0.5) * (fL.v[m] + fR.v[m] - l0 * (uR.v[m] - uL.v[m]));
    return f;
  }
  if (kind == Riemann::hlle || kind == Riemann::hlli) {
    T sL, sR;
    einfeldt_speeds<D>(qL, qR, uL, uR, cL, cR, g, sL, sR);
    State<T, NV> f = hll_formula(uL, uR, fL, fR, sL, sR);
    if (kind == Riemann::hlle || !(sL < T(0) && sR > T(0))) return f;
    // The HLL state and its primitives; no correction if it is not physical.
    const T inv = T(1) / (sR - sL);
    State<T, NV> us, du;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      us.v[k] = (sR * uR.v[k] - sL * uL.v[k] - (fR.v[k] - fL.v[k])) * inv;
      du.v[k] = uR.v[k] - uL.v[k];
    }
    State<T, NV> qs;
    qs.v[0] = us.v[0];
    if (!(qs.v[0] > T(0))) return f;
    const T ir = T(1) / qs.v[0];
    qs.v[1] = us.v[1] * ir;
    qs.v[2] = us.v[2] * ir;
    qs.v[3] = us.v[3] * ir;
    qs.v[4] =
        (g - T(1)) *
        (us.v[4] - T(0.5) * qs.v[0] * (qs.v[1] * qs.v[1] + qs.v[2] * qs.v[2] + qs.v[3] * qs.v[3]));
    if constexpr (NV == 6) qs.v[5] = us.v[5] * ir;
    if (!(qs.v[4] > T(0))) return f;
    const T cs = sound_speed(qs.v[0], qs.v[4], g);
    // The jump's intermediate-wave part: characteristic fields 1, 2, 3 (and 5).
    State<T, NV> w =
        primitive_to_characteristic<D>(conserved_to_primitive_delta(du, qs, g), qs.v[0], cs);
    w.v[0] = w.v[4] = T(0);
    const State<T, NV> dint =
        primitive_to_conserved_delta(characteristic_to_primitive<D>(w, qs.v[0], cs), qs, g);
    const T un = qs.v[1 + D];
    const T delta = T(1) - fv_min(un, T(0)) / sL - fv_max(un, T(0)) / sR;
    const T a = sL * sR * inv * delta;
#pragma unroll
    for (int k = 0; k < NV; ++k) f.v[k] -= a * dint.v[k];
    return f;
  }
  const T sL = fv_min(vL - cL, vR - cR);
  const T sR = fv_max(vL + cL, vR + cR);
  if (kind == Riemann::hll) return hll_formula(uL, uR, fL, fR, sL, sR);
  // HLLC: the contact speed s*, then the star state of the side the face sits in,
  // selected value by value (no reference to either state: on the GPU that would force
  // both into local memory).
  if (sL >= T(0)) return fL;
  if (sR <= T(0)) return fR;
  const T mL = qL.v[0] * (sL - vL), mR = qR.v[0] * (sR - vR);
  const T sM = (qR.v[4] - qL.v[4] + mL * vL - mR * vR) / (mL - mR);
  const bool left = sM >= T(0);
  const T s = left ? sL : sR;
  const T m = left ? mL : mR;  // rho (s - u_n)
  const T vn = left ? vL : vR;
  const T rho = left ? qL.v[0] : qR.v[0];
  const T pk = left ? qL.v[4] : qR.v[4];
  const T rs = m / (s - sM);  // star density
  State<T, NV> us, u, fK, f;
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    u.v[k] = left ? uL.v[k] : uR.v[k];
    fK.v[k] = left ? fL.v[k] : fR.v[k];
  }
  us.v[0] = rs;
  us.v[1] = rs * (left ? qL.v[1] : qR.v[1]);
  us.v[2] = rs * (left ? qL.v[2] : qR.v[2]);
  us.v[3] = rs * (left ? qL.v[3] : qR.v[3]);
  us.v[1 + D] = rs * sM;
  us.v[4] = rs * (u.v[4] / rho + (sM - vn) * (sM + pk / m));
  if constexpr (NV == 6) us.v[5] = rs * (left ? qL.v[5] : qR.v[5]);
#pragma unroll
  for (int k = 0; k < NV; ++k) f.v[k] = fK.v[k] + s * (us.v[k] - u.v[k]);
  return f;
}

}  // namespace fluxview::fv
