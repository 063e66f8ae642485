#pragma once
// The variables a higher-order reconstruction of the Euler equations works in, as linear
// maps of conserved differences about a cell's own state: the one physics-specific piece
// of the reconstruction (CellReconstruction.hpp is generic over it; an MHD physics brings
// its own).
//
// A finite-volume scheme above second order must reconstruct cell averages, and only a
// linear map takes cell averages to cell averages. So "primitive" here means the primitive
// variables linearised about the cell's state, dW = (dW/dU)(U_i) dU, applied to every
// cell of the stencil, and "characteristic" the projection of those on the left
// eigenvectors of the primitive Jacobian along the reconstruction's axis at U_i
// (Toro 2009, sec. 3.2; the primitive form because its eigenvectors are sparse: a
// projection costs a few multiplications, not a dense 5x5 product). The reconstructed
// modes are mapped back with the inverse maps, so the polynomial is in conserved
// variables and its mean is the conserved cell average exactly.
//
// Primitive W = (rho, u_x, u_y, u_z, p [, c]); along axis D the characteristic fields are
//   0: u_n - c wave   -rho/(2c) du_n + dp/(2c^2)
//   1: entropy        drho - dp/c^2
//   2, 3: shear       du_t1, du_t2 (the two other axes in increasing order)
//   4: u_n + c wave   rho/(2c) du_n + dp/(2c^2)
//   5: tracer         dc
#include <cmath>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"
#include "sim/fv/MhdCharacteristics.hpp"

namespace fluxview::fv {

// The variables a reconstruction works in (fv.variables).
enum class ReconstructionVariables : int { conserved = 0, primitive = 1, characteristic = 2 };

// dW = (dW/dU)(q) dU: conserved differences to primitive ones at the primitive state q.
//   drho = drho,  du = (dm - u drho) / rho,  dp = (g-1) (dE - u.dm + |u|^2/2 drho),
//   dc = (d(rho c) - c drho) / rho
template <class T, int NV>
FLUXVIEW_HD State<T, NV> conserved_to_primitive_delta(const State<T, NV>& du, const State<T, NV>& q,
                                                      T gamma) {
  const T inv = T(1) / q.v[0];
  const T ux = q.v[1], uy = q.v[2], uz = q.v[3];
  State<T, NV> dw;
  dw.v[0] = du.v[0];
  dw.v[1] = (du.v[1] - ux * du.v[0]) * inv;
  dw.v[2] = (du.v[2] - uy * du.v[0]) * inv;
  dw.v[3] = (du.v[3] - uz * du.v[0]) * inv;
  dw.v[4] = (gamma - T(1)) * (du.v[4] - ux * du.v[1] - uy * du.v[2] - uz * du.v[3] +
                              T(0.5) * (ux * ux + uy * uy + uz * uz) * du.v[0]);
  if constexpr (NV == 6) dw.v[5] = (du.v[5] - q.v[5] * du.v[0]) * inv;
  if constexpr (is_mhd<NV>) {
    // MHD: E holds B^2/2 as well, so dp loses (g-1) B.dB; B and psi are both forms.
    dw.v[4] -= (gamma - T(1)) *
               (q.v[kBx] * du.v[kBx] + q.v[kBx + 1] * du.v[kBx + 1] + q.v[kBx + 2] * du.v[kBx + 2]);
#pragma unroll
    for (int m = kBx; m <= kPsi; ++m) dw.v[m] = du.v[m];
    if constexpr (has_tracer<NV>) {
      constexpr int c = tracer_slot<NV>;
      dw.v[c] = (du.v[c] - q.v[c] * du.v[0]) * inv;
    }
  }
  return dw;
}

// The inverse: dU = (dU/dW)(q) dW.
//   dm = u drho + rho du,  dE = |u|^2/2 drho + rho u.du + dp/(g-1),  d(rho c) = c drho + rho dc
template <class T, int NV>
FLUXVIEW_HD State<T, NV> primitive_to_conserved_delta(const State<T, NV>& dw, const State<T, NV>& q,
                                                      T gamma) {
  const T rho = q.v[0], ux = q.v[1], uy = q.v[2], uz = q.v[3];
  State<T, NV> du;
  du.v[0] = dw.v[0];
  du.v[1] = ux * dw.v[0] + rho * dw.v[1];
  du.v[2] = uy * dw.v[0] + rho * dw.v[2];
  du.v[3] = uz * dw.v[0] + rho * dw.v[3];
  du.v[4] = T(0.5) * (ux * ux + uy * uy + uz * uz) * dw.v[0] +
            rho * (ux * dw.v[1] + uy * dw.v[2] + uz * dw.v[3]) + dw.v[4] / (gamma - T(1));
  if constexpr (NV == 6) du.v[5] = q.v[5] * dw.v[0] + rho * dw.v[5];
  if constexpr (is_mhd<NV>) {
    du.v[4] += q.v[kBx] * dw.v[kBx] + q.v[kBx + 1] * dw.v[kBx + 1] + q.v[kBx + 2] * dw.v[kBx + 2];
#pragma unroll
    for (int m = kBx; m <= kPsi; ++m) du.v[m] = dw.v[m];
    if constexpr (has_tracer<NV>) {
      constexpr int c = tracer_slot<NV>;
      du.v[c] = q.v[c] * dw.v[0] + rho * dw.v[c];
    }
  }
  return du;
}

// Primitive differences to characteristic ones along axis D at density rho, sound speed c.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> primitive_to_characteristic(const State<T, NV>& dw, T rho, T c) {
  constexpr int t1 = D == 0 ? 2 : 1, t2 = D == 2 ? 2 : 3;
  const T ic = T(1) / c;
  const T a = T(0.5) * rho * ic * dw.v[1 + D];  // rho/(2c) du_n
  const T b = T(0.5) * ic * ic * dw.v[4];       // dp/(2c^2)
  State<T, NV> w;
  w.v[0] = b - a;
  w.v[1] = dw.v[0] - T(2) * b;
  w.v[2] = dw.v[t1];
  w.v[3] = dw.v[t2];
  w.v[4] = b + a;
  if constexpr (NV == 6) w.v[5] = dw.v[5];
  return w;
}

// The inverse (the right eigenvectors): drho = w0 + w1 + w4, du_n = c/rho (w4 - w0),
// dp = c^2 (w0 + w4), du_t = w2, w3.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> characteristic_to_primitive(const State<T, NV>& w, T rho, T c) {
  constexpr int t1 = D == 0 ? 2 : 1, t2 = D == 2 ? 2 : 3;
  State<T, NV> dw;
  dw.v[0] = w.v[0] + w.v[1] + w.v[4];
  dw.v[1 + D] = c / rho * (w.v[4] - w.v[0]);
  dw.v[t1] = w.v[2];
  dw.v[t2] = w.v[3];
  dw.v[4] = c * c * (w.v[0] + w.v[4]);
  if constexpr (NV == 6) dw.v[5] = w.v[5];
  return dw;
}

// The projection a reconstruction along axis D applies about the state u0 of its cell:
// to_fields maps conserved differences to the reconstructed variables, from_fields maps
// their modes back. Built once per cell and axis.
template <int D, class T, int NV>
struct EulerProjection {
  ReconstructionVariables vars;
  State<T, NV> q;  // primitive state of the cell
  T gamma, c;
  MhdEigen<T> eigen{};  // MHD's eigenvectors along D (characteristic variables only)

  // For MHD c is the fastest magnetosonic speed, sqrt((gamma p + B^2) / rho), and the
  // characteristic variables are MHD's (MhdCharacteristics.hpp).
  FLUXVIEW_HD EulerProjection(const State<T, NV>& u0, ReconstructionVariables v,
                              const Physics<T>& ph)
      : vars(v), q(cons_to_prim(u0, ph)), gamma(ph.gamma), c(signal_speed(q, ph.gamma)) {
    if constexpr (is_mhd<NV>)
      if (vars == ReconstructionVariables::characteristic) eigen = mhd_eigen<D>(q, gamma);
  }

  static FLUXVIEW_HD T signal_speed(const State<T, NV>& q, T gamma) {
    if constexpr (is_mhd<NV>)
      return std::sqrt((gamma * q.v[kPressure] + T(2) * magnetic_pressure(q)) / q.v[kRho]);
    else
      return sound_speed(q.v[0], q.v[4], gamma);
  }

  FLUXVIEW_HD State<T, NV> to_fields(const State<T, NV>& du) const {
    if (vars == ReconstructionVariables::conserved) return du;
    const State<T, NV> dw = conserved_to_primitive_delta(du, q, gamma);
    if (vars == ReconstructionVariables::primitive) return dw;
    if constexpr (is_mhd<NV>)
      return mhd_primitive_to_characteristic<D>(dw, eigen);
    else
      return primitive_to_characteristic<D>(dw, q.v[0], c);
  }
  // The size of each reconstructed variable at this state, the scale below which the WENO
  // weights see no structure (WenoReconstruction.hpp): densities and the characteristic
  // amplitudes (in density units) rho, velocities |u| + c, momenta rho (|u| + c), pressure
  // p, energy E, the tracer 1 (its values lie in [0, 1]).
  FLUXVIEW_HD State<T, NV> scale() const {
    const T rho = q.v[0], u2 = q.v[1] * q.v[1] + q.v[2] * q.v[2] + q.v[3] * q.v[3];
    const T speed = std::sqrt(u2) + c;
    State<T, NV> s;
    // MHD: B is measured against the field whose pressure is the total pressure.
    [[maybe_unused]] T field = T(0);
    if constexpr (is_mhd<NV>) {
      field = std::sqrt(T(2) * total_pressure(q));
      if (vars == ReconstructionVariables::characteristic)
        return mhd_characteristic_scale<T, NV>(eigen, speed, field);
    }
    if (vars == ReconstructionVariables::characteristic) {
      s.v[0] = s.v[1] = s.v[4] = rho;
      s.v[2] = s.v[3] = speed;
    } else if (vars == ReconstructionVariables::primitive) {
      s.v[0] = rho;
      s.v[1] = s.v[2] = s.v[3] = speed;
      s.v[4] = q.v[4];
    } else {
      s.v[0] = rho;
      s.v[1] = s.v[2] = s.v[3] = rho * speed;
      s.v[4] = q.v[4] / (gamma - T(1)) + T(0.5) * rho * u2;
    }
    if constexpr (NV == 6) s.v[5] = vars == ReconstructionVariables::conserved ? rho : T(1);
    if constexpr (is_mhd<NV>) {
      // The energy holds the field's; psi (a field times a speed) is measured against the
      // field times the speed.
      if (vars == ReconstructionVariables::conserved) s.v[4] += magnetic_pressure(q);
      s.v[kBx] = s.v[kBx + 1] = s.v[kBx + 2] = field;
      s.v[kPsi] = field * speed;
      if constexpr (has_tracer<NV>)
        s.v[tracer_slot<NV>] = vars == ReconstructionVariables::conserved ? rho : T(1);
    }
    return s;
  }
  FLUXVIEW_HD State<T, NV> from_fields(const State<T, NV>& dv) const {
    if (vars == ReconstructionVariables::conserved) return dv;
    State<T, NV> dw = dv;
    if (vars == ReconstructionVariables::characteristic) {
      if constexpr (is_mhd<NV>)
        dw = mhd_characteristic_to_primitive<D>(dv, eigen);
      else
        dw = characteristic_to_primitive<D>(dv, q.v[0], c);
    }
    return primitive_to_conserved_delta(dw, q, gamma);
  }
};

}  // namespace fluxview::fv
