#pragma once
// The pointwise physics of the finite-volume (Godunov) solver, written once and shared
// by the CPU loops (FvCpu.cpp) and the CUDA kernels (cuda/FvKernels.cu): ideal-gas EOS,
// primitive <-> conservative conversion with floors, the theta-minmod PLM reconstruction
// (Wang, Abel & Kaehler 2010, eqs. 9-11), the physical flux (eqs. 3-5) and the LLF
// (eq. 12), HLL and HLLC approximate Riemann solvers, and the cell update of one TVD RK2
// stage (eq. 8) with its first-order fallback.
//
// Variables: NV = 5 (Euler) or 6 (Euler plus a passive tracer).
//   primitive    q = (rho, ux, uy, uz, p [, c])        c: tracer concentration
//   conservative U = (rho, rho ux, rho uy, rho uz, E [, rho c]),  E = p/(g-1) + rho u^2/2
// The axis of a flux is a template parameter so that every index into a state is a
// compile-time constant: on the GPU a runtime index would put the state in local memory.
#include <cmath>

#include "sim/core/HostDevice.hpp"

namespace fluxview::fv {

inline constexpr int kMaxVars = 6;

// The slots of a state. Conservative U = (rho, rho u_x, rho u_y, rho u_z, E [, rho c]);
// primitive q = (rho, u_x, u_y, u_z, p [, c]). Along axis a the momentum is kMomX + a and
// the velocity kVelX + a.
inline constexpr int kRho = 0;
inline constexpr int kMomX = 1, kEnergy = 4, kRhoC = 5;             // conservative
inline constexpr int kVelX = 1, kPressure = 4, kConcentration = 5;  // primitive

template <class T, int NV>
struct State {
  T v[NV];
};

// Riemann solvers selectable with fv.riemann. llf is eq. 12 of the paper exactly (one
// symmetric wave speed); hll uses the two Davis speeds; hllc restores the contact.
enum class Riemann : int { llf = 0, hll = 1, hllc = 2 };

// Parameters of the pointwise physics, the same on both backends.
template <class T>
struct Physics {
  T gamma = T(1.4);
  T theta = T(1.5);  // 0: first order; 1: minmod; 2: monotonised central
  bool plm = true;   // false: piecewise-constant (first-order) reconstruction
  Riemann riemann = Riemann::hllc;
  T rho_floor = T(1e-10);
  T p_floor = T(1e-12);
};

template <class T>
FLUXVIEW_HD T fv_max(T a, T b) {
  return a > b ? a : b;
}
template <class T>
FLUXVIEW_HD T fv_min(T a, T b) {
  return a < b ? a : b;
}
template <class T>
FLUXVIEW_HD T fv_abs(T a) {
  return a < T(0) ? -a : a;
}
template <class T>
FLUXVIEW_HD T fv_sign(T a) {
  return T(a > T(0)) - T(a < T(0));
}

// ---- equation of state and variable conversion ---------------------------------------

template <class T>
FLUXVIEW_HD T sound_speed(T rho, T p, T gamma) {
  return std::sqrt(gamma * p / rho);
}

template <class T, int NV>
FLUXVIEW_HD State<T, NV> prim_to_cons(const State<T, NV>& q, T gamma) {
  State<T, NV> u;
  const T rho = q.v[kRho], ux = q.v[kVelX], uy = q.v[kVelX + 1], uz = q.v[kVelX + 2];
  u.v[kRho] = rho;
  u.v[kMomX] = rho * ux;
  u.v[kMomX + 1] = rho * uy;
  u.v[kMomX + 2] = rho * uz;
  u.v[kEnergy] = q.v[kPressure] / (gamma - T(1)) + T(0.5) * rho * (ux * ux + uy * uy + uz * uz);
  if constexpr (NV > 5) u.v[kRhoC] = rho * q.v[kConcentration];
  return u;
}

// Conservative to primitive. Density and pressure are held at their floors so that a
// reconstruction never divides by zero; the caller decides whether that is a correction.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> cons_to_prim(const State<T, NV>& u, const Physics<T>& ph) {
  State<T, NV> q;
  const T rho = fv_max(u.v[kRho], ph.rho_floor);
  const T inv = T(1) / rho;
  q.v[kRho] = rho;
  q.v[kVelX] = u.v[kMomX] * inv;
  q.v[kVelX + 1] = u.v[kMomX + 1] * inv;
  q.v[kVelX + 2] = u.v[kMomX + 2] * inv;
  const T kin = T(0.5) * (u.v[kMomX] * q.v[kVelX] + u.v[kMomX + 1] * q.v[kVelX + 1] +
                          u.v[kMomX + 2] * q.v[kVelX + 2]);
  q.v[kPressure] = fv_max((ph.gamma - T(1)) * (u.v[kEnergy] - kin), ph.p_floor);
  if constexpr (NV > 5) q.v[kConcentration] = u.v[kRhoC] * inv;
  return q;
}

// Whether a conservative state is physical: density and pressure above their floors.
template <class T, int NV>
FLUXVIEW_HD bool admissible(const State<T, NV>& u, const Physics<T>& ph) {
  if (!(u.v[kRho] > ph.rho_floor)) return false;  // also catches NaN
  const T mx = u.v[kMomX], my = u.v[kMomX + 1], mz = u.v[kMomX + 2];
  const T kin = T(0.5) * (mx * mx + my * my + mz * mz) / u.v[kRho];
  return (ph.gamma - T(1)) * (u.v[kEnergy] - kin) > ph.p_floor;
}

// Holds density and pressure at their floors, keeping velocity (and concentration).
template <class T, int NV>
FLUXVIEW_HD State<T, NV> apply_floors(const State<T, NV>& u, const Physics<T>& ph) {
  return prim_to_cons(cons_to_prim(u, ph), ph.gamma);
}

// Signal rate of a cell for the CFL condition of the unsplit scheme:
// sum over axes of (|u_a| + c) / dx_a (inv_dx = 0 along a reduced axis).
template <class T, int NV>
FLUXVIEW_HD T signal_rate(const State<T, NV>& q, T gamma, const T inv_dx[3]) {
  const T c = sound_speed(q.v[kRho], q.v[kPressure], gamma);
  return (fv_abs(q.v[kVelX]) + c) * inv_dx[0] + (fv_abs(q.v[kVelX + 1]) + c) * inv_dx[1] +
         (fv_abs(q.v[kVelX + 2]) + c) * inv_dx[2];
}

// ---- reconstruction (eqs. 9-11) -------------------------------------------------------

// minmod(a, b, c) = 1/4 (sgn a + sgn b) |sgn a + sgn c| min(|a|, |b|, |c|)   (eq. 11)
template <class T>
FLUXVIEW_HD T minmod3(T a, T b, T c) {
  return T(0.25) * (fv_sign(a) + fv_sign(b)) * fv_abs(fv_sign(a) + fv_sign(c)) *
         fv_min(fv_abs(a), fv_min(fv_abs(b), fv_abs(c)));
}

// Limited slope of a cell from its left and right differences: the generalised minmod
// of eqs. 9-10. Eqs. 9-10 as printed add the limited slope itself to the cell value;
// the face lies half a cell away, so the face value is u +- slope/2 (with that factor,
// linear data is reproduced exactly and theta = 1 is minmod, theta = 2 the MC limiter).
template <class T>
FLUXVIEW_HD T limited_slope(T dm, T dp, T theta) {
  return minmod3(theta * dm, theta * dp, T(0.5) * (dm + dp));
}

// Left and right states at the face between cells b and c of the stencil (a, b, c, d)
// along the face normal. Falls back to the cell values (first order at this face, on
// both of its sides, so conservation holds) when a reconstructed density or pressure is
// not positive.
template <class T, int NV>
FLUXVIEW_HD void reconstruct(const State<T, NV>& a, const State<T, NV>& b, const State<T, NV>& c,
                             const State<T, NV>& d, const Physics<T>& ph, State<T, NV>& left,
                             State<T, NV>& right) {
  if (!ph.plm) {
    left = b;
    right = c;
    return;
  }
#pragma unroll
  for (int m = 0; m < NV; ++m) {
    left.v[m] = b.v[m] + T(0.5) * limited_slope(b.v[m] - a.v[m], c.v[m] - b.v[m], ph.theta);
    right.v[m] = c.v[m] - T(0.5) * limited_slope(c.v[m] - b.v[m], d.v[m] - c.v[m], ph.theta);
  }
  if (!(left.v[kRho] > T(0) && left.v[kPressure] > T(0) && right.v[kRho] > T(0) &&
        right.v[kPressure] > T(0))) {
    left = b;
    right = c;
  }
}

// ---- fluxes ---------------------------------------------------------------------------

// Physical flux along axis D (eqs. 3-5) of the state with primitives q and conservatives u.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> physical_flux(const State<T, NV>& q, const State<T, NV>& u) {
  const T un = q.v[kVelX + D];
  State<T, NV> f;
  f.v[kRho] = u.v[kRho] * un;
  f.v[kMomX] = u.v[kMomX] * un;
  f.v[kMomX + 1] = u.v[kMomX + 1] * un;
  f.v[kMomX + 2] = u.v[kMomX + 2] * un;
  f.v[kMomX + D] += q.v[kPressure];
  f.v[kEnergy] = (u.v[kEnergy] + q.v[kPressure]) * un;
  if constexpr (NV > 5) f.v[kRhoC] = u.v[kRhoC] * un;
  return f;
}

// HLL family along axis D from the face states qL, qR.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> riemann_flux(const State<T, NV>& qL, const State<T, NV>& qR,
                                      const Physics<T>& ph) {
  const T g = ph.gamma;
  const State<T, NV> uL = prim_to_cons(qL, g), uR = prim_to_cons(qR, g);
  const State<T, NV> fL = physical_flux<D>(qL, uL), fR = physical_flux<D>(qR, uR);
  const T cL = sound_speed(qL.v[kRho], qL.v[kPressure], g);
  const T cR = sound_speed(qR.v[kRho], qR.v[kPressure], g);
  const T vL = qL.v[kVelX + D], vR = qR.v[kVelX + D];
  State<T, NV> f;
  if (ph.riemann == Riemann::llf) {
    // Eq. 12: one symmetric speed lambda_0 = max |u +- c| over both sides.
    const T l0 = fv_max(fv_abs(vL) + cL, fv_abs(vR) + cR);
#pragma unroll
    for (int m = 0; m < NV; ++m) f.v[m] = T(0.5) * (fL.v[m] + fR.v[m] - l0 * (uR.v[m] - uL.v[m]));
    return f;
  }
  // Davis estimates of the slowest and fastest signal speeds.
  const T sL = fv_min(vL - cL, vR - cR);
  const T sR = fv_max(vL + cL, vR + cR);
  if (ph.riemann == Riemann::hll) {
    // With sl = min(sL, 0) and sr = max(sR, 0) one formula covers the supersonic cases.
    const T sl = fv_min(sL, T(0)), sr = fv_max(sR, T(0));
    const T inv = T(1) / (sr - sl);
#pragma unroll
    for (int m = 0; m < NV; ++m)
      f.v[m] = (sr * fL.v[m] - sl * fR.v[m] + sl * sr * (uR.v[m] - uL.v[m])) * inv;
    return f;
  }
  // HLLC (Toro, Spruce & Speares 1994): the contact speed s*, then the star state of the
  // side the face sits in.
  if (sL >= T(0)) return fL;
  if (sR <= T(0)) return fR;
  const T mL = qL.v[kRho] * (sL - vL), mR = qR.v[kRho] * (sR - vR);
  const T sM = (qR.v[kPressure] - qL.v[kPressure] + mL * vL - mR * vR) / (mL - mR);
  // The side the face sits in, selected value by value (no reference to either state:
  // on the GPU that would force both into local memory).
  const bool left = sM >= T(0);
  const T s = left ? sL : sR;
  const T m = left ? mL : mR;  // rho (s - u_n)
  const T vn = left ? vL : vR;
  const T rho = left ? qL.v[kRho] : qR.v[kRho];
  const T pk = left ? qL.v[kPressure] : qR.v[kPressure];
  const T rs = m / (s - sM);  // star density
  State<T, NV> us, u, fK;
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    u.v[k] = left ? uL.v[k] : uR.v[k];
    fK.v[k] = left ? fL.v[k] : fR.v[k];
  }
  us.v[kRho] = rs;
  us.v[kMomX] = rs * (left ? qL.v[kVelX] : qR.v[kVelX]);
  us.v[kMomX + 1] = rs * (left ? qL.v[kVelX + 1] : qR.v[kVelX + 1]);
  us.v[kMomX + 2] = rs * (left ? qL.v[kVelX + 2] : qR.v[kVelX + 2]);
  us.v[kMomX + D] = rs * sM;
  us.v[kEnergy] = rs * (u.v[kEnergy] / rho + (sM - vn) * (sM + pk / m));
  if constexpr (NV > 5) us.v[kRhoC] = rs * (left ? qL.v[kConcentration] : qR.v[kConcentration]);
#pragma unroll
  for (int k = 0; k < NV; ++k) f.v[k] = fK.v[k] + s * (us.v[k] - u.v[k]);
  return f;
}

// Flux through the face between b and c from the stencil (a, b, c, d) of primitives.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> face_flux(const State<T, NV>& a, const State<T, NV>& b,
                                   const State<T, NV>& c, const State<T, NV>& d,
                                   const Physics<T>& ph) {
  State<T, NV> l, r;
  reconstruct(a, b, c, d, ph, l, r);
  return riemann_flux<D>(l, r, ph);
}

// ---- the cell update of one RK2 stage (eq. 8) -----------------------------------------

// Flux divergence -L(U) of a cell from the fluxes through its six faces, summed in the
// order x, y, z on both backends (so that they agree to round-off).
template <class T, int NV>
FLUXVIEW_HD State<T, NV> flux_divergence(const State<T, NV>& xl, const State<T, NV>& xr,
                                         const State<T, NV>& yl, const State<T, NV>& yr,
                                         const State<T, NV>& zl, const State<T, NV>& zr,
                                         const T inv_dx[3]) {
  State<T, NV> l;
#pragma unroll
  for (int m = 0; m < NV; ++m)
    l.v[m] = (xl.v[m] - xr.v[m]) * inv_dx[0] + (yl.v[m] - yr.v[m]) * inv_dx[1] +
             (zl.v[m] - zr.v[m]) * inv_dx[2];
  return l;
}

// out = a U0 + b (U + dt L(U)); stage 1 of eq. 8 is a = 0, b = 1 and stage 2 a = b = 1/2.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> rk_combine(const State<T, NV>& u0, const State<T, NV>& u,
                                    const State<T, NV>& l, T dt, T a, T b) {
  State<T, NV> o;
#pragma unroll
  for (int m = 0; m < NV; ++m) o.v[m] = a * u0.v[m] + b * (u.v[m] + dt * l.v[m]);
  return o;
}

// The first-order fallback of a cell: the same stage with piecewise-constant states on
// its six faces (neighbours given as primitives; unused along a reduced axis, where
// inv_dx is 0). Godunov's scheme with an HLL-type flux keeps density and pressure
// positive under the CFL condition, which is why a cell whose high-order update is not
// admissible is recomputed with it.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> first_order_divergence(const State<T, NV>& q, const State<T, NV>& xm,
                                                const State<T, NV>& xp, const State<T, NV>& ym,
                                                const State<T, NV>& yp, const State<T, NV>& zm,
                                                const State<T, NV>& zp, const Physics<T>& ph0,
                                                const T inv_dx[3]) {
  Physics<T> ph = ph0;
  ph.plm = false;
  // Zero flux differences along a reduced axis: inv_dx is 0 there, and the neighbour is the
  // cell itself, so the terms vanish either way.
  return flux_divergence(riemann_flux<0>(xm, q, ph), riemann_flux<0>(q, xp, ph),
                         riemann_flux<1>(ym, q, ph), riemann_flux<1>(q, yp, ph),
                         riemann_flux<2>(zm, q, ph), riemann_flux<2>(q, zp, ph), inv_dx);
}

// The update of one cell in a stage: w0 U0 + w (U + dt L) with the high-order flux
// divergence l. Where that state is not admissible, the same with the cell's first-order
// divergence (first_order(), called only then, so that its neighbours are read only then),
// and where even that is not, the floors; `corrected` counts such cells. Both backends
// update every cell through it.
template <class T, int NV, class FirstOrder>
FLUXVIEW_HD State<T, NV> update_cell(const State<T, NV>& u0, const State<T, NV>& u,
                                     const State<T, NV>& l, T dt, T w0, T w, const Physics<T>& ph,
                                     const FirstOrder& first_order, unsigned long long& corrected) {
  State<T, NV> r = rk_combine(u0, u, l, dt, w0, w);
  if (!admissible(r, ph)) {
    r = rk_combine(u0, u, first_order(), dt, w0, w);
    if (!admissible(r, ph)) r = apply_floors(r, ph);
    ++corrected;
  }
  return r;
}

// The CFL signal rate of a cell from its conservative state, in double for the reductions.
template <class T, int NV>
FLUXVIEW_HD double cell_signal_rate(const State<T, NV>& u, const Physics<T>& ph,
                                    const T inv_dx[3]) {
  return double(signal_rate(cons_to_prim(u, ph), ph.gamma, inv_dx));
}

}  // namespace fluxview::fv
