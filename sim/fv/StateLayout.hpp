#pragma once
// What every piece of the fv solver knows of a state before any physics: its slots, the
// parameters of the pointwise physics, and the small arithmetic helpers both backends
// use. The physics built on it: EulerState.hpp (the Euler equations, and the generic
// functions every scheme calls) and MhdState.hpp (ideal MHD with GLM cleaning).
//
// The number of variables NV says which system a state belongs to:
//   NV = 5, 6   Euler [+ passive tracer]
//   NV = 9, 10  ideal MHD with the GLM scalar psi [+ passive tracer]
// The tracer is always the last slot. Every index into a state is a compile-time constant
// (the axis of a flux is a template parameter): on the GPU a runtime index would put the
// state in local memory.
#include "sim/core/HostDevice.hpp"

namespace fluxview::fv {

inline constexpr int kMaxVars = 10;

// The slots. Conservative U = (rho, rho u_x, rho u_y, rho u_z, E, [B_x, B_y, B_z, psi,]
// [rho c]); primitive q = (rho, u_x, u_y, u_z, p, [B_x, B_y, B_z, psi,] [c]). Along axis a
// the momentum is kMomX + a, the velocity kVelX + a and the magnetic field kBx + a. E is
// the total energy, magnetic included; p the gas pressure.
inline constexpr int kRho = 0;
inline constexpr int kMomX = 1, kEnergy = 4, kRhoC = 5;             // conservative (Euler)
inline constexpr int kVelX = 1, kPressure = 4, kConcentration = 5;  // primitive (Euler)
inline constexpr int kBx = 5, kPsi = 8;                             // MHD, both forms

// Which system a number of variables nv belongs to (the run's, or a template's NV).
constexpr bool mhd_variables(int nv) {
  return nv >= 9;
}
constexpr bool tracer_variables(int nv) {
  return nv == 6 || nv == 10;
}
template <int NV>
inline constexpr bool is_mhd = mhd_variables(NV);
template <int NV>
inline constexpr bool has_tracer = tracer_variables(NV);
// The tracer's slot (rho c conservative, c primitive) when has_tracer<NV>.
template <int NV>
inline constexpr int tracer_slot = NV - 1;

// The number of variables of a run: Euler or MHD, with or without the tracer.
constexpr int variable_count(bool mhd, bool tracer) {
  return (mhd ? 9 : 5) + (tracer ? 1 : 0);
}
inline constexpr int kMhdVariables = variable_count(true, false);  // an MHD state without tracer

// The conserved slots' names in checkpoints (the uniform grid's and the adaptive mesh's).
constexpr const char* conserved_name(int nv, int m) {
  constexpr const char* kEuler[5] = {"rho", "mom_x", "mom_y", "mom_z", "E"};
  constexpr const char* kMhd[4] = {"B_x", "B_y", "B_z", "psi"};
  if (m < 5) return kEuler[m];
  if (m == nv - 1 && tracer_variables(nv)) return "rho_c";
  return kMhd[m - 5];
}

template <class T, int NV>
struct State {
  T v[NV];
};

// Riemann solvers selectable with fv.riemann (RiemannSolvers.hpp and MhdRiemann.hpp say
// what each is). hllc and hlli are the Euler equations' only, hlld MHD's only.
enum class Riemann : int { llf = 0, hll = 1, hllc = 2, hlle = 3, hlli = 4, hlld = 5 };

// Parameters of the pointwise physics, the same on both backends.
template <class T>
struct Physics {
  T gamma = T(1.4);
  T theta = T(1.5);  // 0: first order; 1: minmod; 2: monotonised central
  bool plm = true;   // false: piecewise-constant (first-order) reconstruction
  Riemann riemann = Riemann::hllc;
  T rho_floor = T(1e-10);
  T p_floor = T(1e-12);
  // MHD only (MhdState.hpp): the GLM cleaning speed c_h of this step (0: no cleaning, psi
  // stays 0) and the damping rate of psi, c_h^2 / c_p^2 in 1/s.
  T ch = T(0);
  T psi_decay = T(0);
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

}  // namespace fluxview::fv
