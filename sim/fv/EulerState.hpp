#pragma once
// The state of the Euler equations and what every piece of the fv solver needs of it,
// written once for both backends: the ideal-gas EOS, primitive <-> conservative
// conversion with floors, admissibility, the CFL signal rate and the physical flux (Wang,
// Abel & Kaehler 2010, eqs. 1-6). The functions the schemes call for any state
// (prim_to_cons, cons_to_prim, raw_pressure, admissible, apply_floors, cell_signal_rate)
// take an MHD state too: the field's energy B^2/2 and the fast speed are MhdState.hpp's. The
// schemes are built on it: FvPhysics.hpp (PLM, the fallback, a stage's cell update),
// RiemannSolvers.hpp and MhdRiemann.hpp, and the higher-order pieces. The slots: StateLayout.hpp.
//
// Variables: NV = 5 (Euler) or 6 (Euler plus a passive tracer); 9 or 10 MHD.
//   primitive    q = (rho, ux, uy, uz, p [, c])        c: tracer concentration
//   conservative U = (rho, rho ux, rho uy, rho uz, E [, rho c]),  E = p/(g-1) + rho u^2/2
#include <cmath>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/MhdState.hpp"
#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

// ---- equation of state and variable conversion ---------------------------------------

template <class T>
FLUXVIEW_HD T sound_speed(T rho, T p, T gamma) {
  return std::sqrt(gamma * p / rho);
}

// The Mach number |u| / c_s of a primitive state, in double.
template <class T, int NV>
FLUXVIEW_HD double mach_number(const State<T, NV>& q, T gamma) {
  const double v2 = double(q.v[kVelX]) * q.v[kVelX] + double(q.v[kVelX + 1]) * q.v[kVelX + 1] +
                    double(q.v[kVelX + 2]) * q.v[kVelX + 2];
  return std::sqrt(v2) / double(sound_speed(q.v[kRho], q.v[kPressure], gamma));
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
  if constexpr (is_mhd<NV>) {  // E holds B^2/2; B and psi are both forms
    u.v[kEnergy] += magnetic_pressure(q);
#pragma unroll
    for (int m = kBx; m <= kPsi; ++m) u.v[m] = q.v[m];
  }
  if constexpr (has_tracer<NV>) u.v[tracer_slot<NV>] = rho * q.v[tracer_slot<NV>];
  return u;
}

// Conservative to primitive. Density and (gas) pressure are held at their floors so that a
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
  T internal = u.v[kEnergy] - T(0.5) * (u.v[kMomX] * q.v[kVelX] + u.v[kMomX + 1] * q.v[kVelX + 1] +
                                        u.v[kMomX + 2] * q.v[kVelX + 2]);
  if constexpr (is_mhd<NV>) {
    internal -= magnetic_pressure(u);
#pragma unroll
    for (int m = kBx; m <= kPsi; ++m) q.v[m] = u.v[m];
  }
  q.v[kPressure] = fv_max((ph.gamma - T(1)) * internal, ph.p_floor);
  if constexpr (has_tracer<NV>) q.v[tracer_slot<NV>] = u.v[tracer_slot<NV>] * inv;
  return q;
}

// The pressure of a conservative state whose density is positive, without a floor.
template <class T, int NV>
FLUXVIEW_HD T raw_pressure(const State<T, NV>& u, const Physics<T>& ph) {
  const T mx = u.v[kMomX], my = u.v[kMomX + 1], mz = u.v[kMomX + 2];
  T internal = u.v[kEnergy] - T(0.5) * (mx * mx + my * my + mz * mz) / u.v[kRho];
  if constexpr (is_mhd<NV>) internal -= magnetic_pressure(u);
  return (ph.gamma - T(1)) * internal;
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
  static_assert(!is_mhd<NV>, "MHD fluxes: mhd_flux (MhdState.hpp) and MhdRiemann.hpp");
  const T un = q.v[kVelX + D];
  State<T, NV> f;
  f.v[kRho] = u.v[kRho] * un;
  f.v[kMomX] = u.v[kMomX] * un;
  f.v[kMomX + 1] = u.v[kMomX + 1] * un;
  f.v[kMomX + 2] = u.v[kMomX + 2] * un;
  f.v[kMomX + D] += q.v[kPressure];
  f.v[kEnergy] = (u.v[kEnergy] + q.v[kPressure]) * un;
  if constexpr (NV == 6) f.v[kRhoC] = u.v[kRhoC] * un;
  return f;
}

// The CFL signal rate of a cell from its conservative state, in double for the reductions.
template <class T, int NV>
FLUXVIEW_HD double cell_signal_rate(const State<T, NV>& u, const Physics<T>& ph,
                                    const T inv_dx[3]) {
  if constexpr (is_mhd<NV>) return double(mhd_signal_rate(cons_to_prim(u, ph), ph.gamma, inv_dx));
  return double(signal_rate(cons_to_prim(u, ph), ph.gamma, inv_dx));
}

}  // namespace fluxview::fv
