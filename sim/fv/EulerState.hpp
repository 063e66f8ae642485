#pragma once
// The state of the Euler equations and what every piece of the fv solver needs of it,
// written once for both backends: the slots of a state, the parameters of the pointwise
// physics, the ideal-gas EOS, primitive <-> conservative conversion with floors,
// admissibility, the CFL signal rate and the physical flux (Wang, Abel & Kaehler 2010,
// eqs. 1-6). The schemes are built on it: FvPhysics.hpp (PLM, the fallback, a stage's
// cell update), RiemannSolvers.hpp, and the higher-order pieces.
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
// The conserved slots' names in checkpoints (the uniform grid's and the adaptive mesh's).
inline constexpr const char* kConservedNames[kMaxVars] = {"rho",   "mom_x", "mom_y",
                                                          "mom_z", "E",     "rho_c"};

template <class T, int NV>
struct State {
  T v[NV];
};

// Riemann solvers selectable with fv.riemann (RiemannSolvers.hpp says what each is).
enum class Riemann : int { llf = 0, hll = 1, hllc = 2, hlle = 3, hlli = 4 };

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

// The pressure of a conservative state whose density is positive, without a floor.
template <class T, int NV>
FLUXVIEW_HD T raw_pressure(const State<T, NV>& u, const Physics<T>& ph) {
  const T mx = u.v[kMomX], my = u.v[kMomX + 1], mz = u.v[kMomX + 2];
  const T kin = T(0.5) * (mx * mx + my * my + mz * mz) / u.v[kRho];
  return (ph.gamma - T(1)) * (u.v[kEnergy] - kin);
}

// Whether a conservative state is physical: density and pressure above their floors.
template <class T, int NV>
FLUXVIEW_HD bool admissible(const State<T, NV>& u, const Physics<T>& ph) {
  if (!(u.v[kRho] > ph.rho_floor)) return false;  // also catches NaN
  return raw_pressure(u, ph) > ph.p_floor;
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

// The CFL signal rate of a cell from its conservative state, in double for the reductions.
template <class T, int NV>
FLUXVIEW_HD double cell_signal_rate(const State<T, NV>& u, const Physics<T>& ph,
                                    const T inv_dx[3]) {
  return double(signal_rate(cons_to_prim(u, ph), ph.gamma, inv_dx));
}

}  // namespace fluxview::fv
