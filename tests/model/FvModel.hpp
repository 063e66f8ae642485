#pragma once
// The model of one fv step, written from Wang, Abel & Kaehler 2010 (secs. 4-5), Toro's
// "Riemann Solvers and Numerical Methods for Fluid Dynamics" (3rd ed., ch. 10: HLL and
// HLLC) and docs/fv.md, with none of the solver's code. Compressible Euler for an ideal
// gas, U = (rho, rho u, E [, rho c]), E = p/(gamma-1) + rho |u|^2/2, method of lines:
//   L(U) = -sum_a (F_a,i+1/2 - F_a,i-1/2) / dx_a            (eq. 7; no flux along a reduced axis)
//   U1 = U + dt L(U),  U' = 1/2 U + 1/2 (U1 + dt L(U1))     (eq. 8, TVD RK2)
// Faces: primitives (rho, u, p [, c]) reconstructed by PLM with the slope
// minmod(theta dm, theta dp, (dm + dp)/2), minmod(a, b, c) = 1/4 (sgn a + sgn b)
// |sgn a + sgn c| min(|a|, |b|, |c|) (eq. 11), face values u_i +- slope/2; the cell values
// themselves at a face where that leaves rho <= 0 or p <= 0, and everywhere with
// fv.reconstruction = constant. Fluxes: LLF (eq. 12), HLL and HLLC with the Davis speeds
// S_L = min(u_L - c_L, u_R - c_R), S_R = max(u_L + c_L, u_R + c_R).
// Primitives come from the conserved state with rho and p held at their floors.
// A cell whose stage result has rho <= rho_floor or p <= p_floor is recomputed with
// first-order fluxes on its faces, HLL with Einfeldt's speeds whatever fv.riemann says; if that
// fails too, rho and p are raised to the floors (velocity kept); each such cell-stage is counted
// (corrected_cells). Ghost cells, two per side: outflow repeats the edge cell, reflecting mirrors
// the cells with the normal momentum negated, periodic wraps; here they are index arithmetic. Time
// step: dt = cfl / max_cells sum_a (|u_a| + c) / dx_a.
//
// The WENO schemes of the modal path (docs/fv.md, "Higher-order schemes"; WenoModelTest
// checks the lines alone), with the Runge-Kutta schemes and ADER in 1D, 2D and 3D: each
// cell's polynomial along each line, variable by variable, from
// WenoModel.hpp (weno2: slope, weno3: degree 2, weno4: degree 3) in fv.variables
// (conserved averages, or their differences from the cell's state mapped to primitive or
// characteristic variables about it, the modes mapped back: to_fields, from_fields) with
// eps's floor (1e-6 s)^2 for the scale s of the variable at the cell's primitive state
// (scales: in conserved variables rho for rho, rho (|u| + c) for the momenta,
// p/(gamma-1) + rho |u|^2/2 for E, rho for rho c); in 2D and 3D the cross modes from the
// block of averages around the cell times the switch of its lines (cell_poly), and each
// face's Riemann fluxes at the Gauss points of its transverse axes (modal_face_flux). A face's
// states are the two polynomials at the face (P1 = +-1/2, P2 = 1/6, P3 = +-1/20 there), the Riemann
// flux of fv.riemann between them; the face takes that flux of the two cell averages instead if a
// face state is not admissible (rho > rho_floor, p without floor > p_floor) or its rho or p
// lies outside [min / 10, max * 10] of the two cells'. Time: fv.time = rk2 as above or
// ssprk3, U1 = U + dt L(U), U2 = 3/4 U + 1/4 (U1 + dt L(U1)), U' = 1/3 U + 2/3 (U2 + dt
// L(U2)) (Shu & Osher 1988), or rk4, SSP RK(5,4) (fv_model_runge_kutta, FvModelGrid.hpp);
// each stage's cells through the same fallback and floors.
//
// fv.time = ader (docs/fv.md, "The ADER formulation implemented"; in 2D and 3D as
// `predicted` says), from
// its definition and none of the solver's formulas: the cell's polynomial w of degree M (1
// weno2, 2 weno3, 3 weno4) grows into q(xi, tau) = sum_n tau^n q_n(xi), deg q_n = M - n,
// q_0 = w, with q_n = -(nu/n) d[f]_(n-1)/dxi, nu = dt/dx. [f]_(n-1) is the tau^(n-1)
// coefficient of the polynomial in tau through the flux of the iterate sum_(k<n) tau^k q_k
// at tau = j/M (j = 0 .. M-1; tau = 0 alone for n = 1), at the nodes {-1/2, 0, 1/2} of the
// cell ({-1/2, -1/4, 0, 1/4, 1/2} for n = 1 at M = 3); in xi, the polynomial through those
// nodes, L2-projected onto degree M - n + 1, differentiated; the flux is that of the
// iterate's conserved state with the velocity and pressure of its primitives (floors
// included: the nodes of a random state reach them). All of those weights are
// computed here in long double from Lagrange polynomials and Gauss quadrature. The
// corrector: at each face the Riemann flux between the two q's on their sides at tau =
// 1/2 (M = 1) or the two Gauss points 1/2 -+ 1/(2 sqrt 3) (weights 1/2), the face falling
// back to the flux of the two cell averages as above if a state at any point is not
// trusted; one update U' = U + dt L with the same cell fallback and floors.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "sim/core/Types.hpp"
#include "sim/fv/WenoReconstruction.hpp"
#include "tests/model/FvModelGrid.hpp"
#include "tests/model/Tracked.hpp"
#include "tests/model/WenoModel.hpp"

namespace fluxview::model {

// Conserved state of every cell, x fastest: rho, mom_x, mom_y, mom_z, E, rho_c.
using FvState = std::array<std::vector<Tracked>, 6>;
inline const char* const kFvConserved[6] = {"rho", "mom_x", "mom_y", "mom_z", "E", "rho_c"};

class FvModel : public FvModelGrid {
 public:
  enum class Riemann { llf, hll, hllc };
  using Vars = std::array<Tracked, 6>;

  long double gamma = 1.4L, theta = 1.5L, rho_floor = 0, p_floor = 0, cfl = 0.4L;
  bool plm = true;
  int weno = 0;        // the modal WENO path: 1 weno2, 2 weno3, 3 weno4 (degree); 0: PLM/constant
  bool wenoz = false;  // fv.reconstruction = wenoz5: WENO-Z face values (wenoz_face_flux)
  FvModelTime time = FvModelTime::rk2;  // fv.time (but ader)
  bool ader = false;                    // fv.time = ader: one predictor-corrector stage
  bool tracer = false;
  enum class Variables { conserved, primitive, characteristic };
  Variables variables = Variables::conserved;  // fv.variables, for the WENO path
  Riemann riemann = Riemann::hllc;

  static FvModel from(const ParamSet& p, Precision precision) {
    FvModel m;
    static_cast<FvModelGrid&>(m) = FvModelGrid::from(p);
    m.gamma = p.get_real("fv.gamma");
    m.theta = p.get_real("fv.theta");
    const std::string rec = p.get_string("fv.reconstruction");
    m.plm = rec == "plm";
    m.weno = rec == "weno2" ? 1 : rec == "weno3" ? 2 : rec == "weno4" ? 3 : 0;
    m.wenoz = rec == "wenoz5";
    const std::string time = p.get_string("fv.time");
    m.ader = time == "ader";
    if (!m.ader) m.time = fv_model_time(time);
    int active = 0;
    for (int a = 0; a < 3; ++a) active += m.n[a] > 1;
    if (m.ader && !m.weno)
      throw std::invalid_argument("the fv model has ader with weno2, weno3 and weno4 only");
    const std::string variables = p.get_string("fv.variables");
    m.variables = variables == "primitive"        ? Variables::primitive
                  : variables == "characteristic" ? Variables::characteristic
                                                  : Variables::conserved;
    if (m.ader && m.wenoz)
      throw std::invalid_argument("the fv model has no ader with wenoz5 (nor has the solver)");
    if (!m.weno && !m.wenoz && rec != "plm" && rec != "constant")
      throw std::invalid_argument("the fv model has no " + rec);
    const std::string r = p.get_string("fv.riemann");
    m.riemann = r == "llf" ? Riemann::llf : r == "hll" ? Riemann::hll : Riemann::hllc;
    m.rho_floor = p.get_real("fv.rho_floor");
    m.p_floor = p.get_real("fv.p_floor");
    m.cfl = p.get_real("fv.cfl");
    m.tracer = p.get_bool("fv.tracer");
    m.single_precision = precision == Precision::f32;
    return m;
  }

  int vars() const { return tracer ? 6 : 5; }

  struct StepResult {
    FvState state;
    int corrected = 0;  // cell-stages that took the fallback or the floors
    int floored = 0;    // of those, the cell-stages that needed the floors
    // The narrowest of the step's yes/no decisions (a reconstructed face state positive,
    // a stage result admissible): the smallest |value - threshold| / magnitude. A
    // comparison is only meaningful if the solver cannot have decided otherwise by
    // rounding, i.e. if this is well above the bound times the unit roundoff.
    long double closest_call = INFINITY;
  };

  // The step the solver should take from state u: cfl / max signal rate.
  Tracked time_step(const FvState& u) const {
    Tracked rate = Tracked(0);
    for (std::int64_t c = 0; c < cells(); ++c) {
      const Vars q = primitive(load(u, c));
      const Tracked cs = sound_speed(q);
      Tracked r = Tracked(0);
      for (int a = 0; a < 3; ++a)
        if (n[a] > 1) r = r + (abs(q[1 + a]) + cs) * inv_dx(a);
      rate = max(rate, r);
    }
    return Tracked(cfl) / rate;  // the solver divides in double
  }

  StepResult step(const FvState& u0, double dt) const {
    StepResult res;
    const Tracked h = single_precision ? Tracked((long double)(float)dt) : Tracked((long double)dt);
    if (ader) {  // U' = U + dt L(U), L from the corrector's fluxes
      res.state = stage(u0, u0, h, {}, res);
      return res;
    }
    res.state = fv_model_runge_kutta(
        time, u0, [&](const FvState& other, const FvState& in, const RkWeights& k) {
          return stage(other, in, h, k, res);
        });
    return res;
  }

  // The derived fields of the snapshots (docs/fv.md): velocity, pressure, tracer c.
  Tracked derived(const FvState& u, std::int64_t c, const std::string& name) const {
    const Vars q = primitive(load(u, c));
    if (name == "ux") return q[1];
    if (name == "uy") return q[2];
    if (name == "uz") return q[3];
    if (name == "p") return q[4];
    return q[5];  // tracer
  }

 private:
  bool single_precision = false;

  // Parameters as the solver holds them: converted to its precision (one rounding).
  Tracked g() const { return rounded(gamma, 1); }

  Vars load(const FvState& u, std::int64_t c) const {
    Vars v;
    for (int m = 0; m < 6; ++m) v[m] = m < vars() ? u[m][c] : Tracked(0);
    return v;
  }

  // The conserved state of the cell at position pos, which may lie beyond the grid
  // (FvModelGrid::source_of), with a reflecting wall's normal momentum negated.
  Vars cell_at(const FvState& u, const int pos[3]) const {
    bool flip[3];
    Vars v = load(u, source_of(pos, flip));
    for (int a = 0; a < 3; ++a)
      if (flip[a]) v[1 + a] = -v[1 + a];
    return v;
  }
  // The cell `s` cells from `idx` along axis a.
  Vars neighbour(const FvState& u, const int idx[3], int a, int s) const {
    int q[3] = {idx[0], idx[1], idx[2]};
    q[a] += s;
    return cell_at(u, q);
  }

  Vars primitive(const Vars& u) const {
    Vars q;
    const Tracked rho = max(u[0], rounded(rho_floor, 1));
    q[0] = rho;
    for (int a = 0; a < 3; ++a) q[1 + a] = u[1 + a] / rho;
    const Tracked kinetic = Tracked(0.5) * (u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) / rho;
    q[4] = max((g() - Tracked(1)) * (u[4] - kinetic), rounded(p_floor, 1));
    q[5] = u[5] / rho;
    return q;
  }

  Vars conserved(const Vars& q) const {
    Vars u;
    u[0] = q[0];
    for (int a = 0; a < 3; ++a) u[1 + a] = q[0] * q[1 + a];
    u[4] =
        q[4] / (g() - Tracked(1)) + Tracked(0.5) * q[0] * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    u[5] = q[0] * q[5];
    return u;
  }

  Tracked sound_speed(const Vars& q) const { return sqrt(g() * q[4] / q[0]); }

  static long double sgn(long double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
  // Eq. (11).
  static Tracked minmod(const Tracked& a, const Tracked& b, const Tracked& c) {
    const long double f = 0.25L * (sgn(a.v) + sgn(b.v)) * std::fabs(sgn(a.v) + sgn(c.v));
    if (f == 0) return Tracked(0);
    return Tracked(f) * min(abs(a), min(abs(b), abs(c)));
  }
  Tracked slope(const Tracked& dm, const Tracked& dp) const {
    const Tracked t = rounded(theta, 1);
    return minmod(t * dm, t * dp, Tracked(0.5) * (dm + dp));
  }

  void note_decision(const Tracked& x, const Tracked& threshold, StepResult& res) const {
    const long double m = std::max(x.mag, threshold.mag);
    if (m > 0) res.closest_call = std::min(res.closest_call, std::fabs(x.v - threshold.v) / m);
  }

  // Physical flux along axis a (eqs. 3-5) of primitive state q.
  Vars physical_flux(const Vars& q, int a) const {
    const Vars u = conserved(q);
    Vars f;
    const Tracked un = q[1 + a];
    for (int m = 0; m < 6; ++m) f[m] = u[m] * un;
    f[1 + a] = f[1 + a] + q[4];
    f[4] = (u[4] + q[4]) * un;
    return f;
  }

  // The flux along axis a of a conserved state u: u u_a, plus p in the normal momentum and
  // the energy, the velocity and p from the primitives (floors included; the predictor's
  // nodes can reach them, and then E + p is not the energy of the floored state).
  Vars conserved_flux(const Vars& u, int a) const {
    const Vars q = primitive(u);
    const Tracked un = q[1 + a];
    Vars f;
    for (int m = 0; m < 6; ++m) f[m] = u[m] * un;
    f[1 + a] = f[1 + a] + q[4];
    f[4] = (u[4] + q[4]) * un;
    return f;
  }

  // The Riemann flux along axis a between face states L and R (primitives).
  // einfeldt: the fallback's flux, HLL with Einfeldt's speeds whatever fv.riemann says.
  Vars riemann_flux(const Vars& L, const Vars& R, int a, bool einfeldt = false) const {
    const Vars uL = conserved(L), uR = conserved(R);
    const Vars fL = physical_flux(L, a), fR = physical_flux(R, a);
    const Tracked cL = sound_speed(L), cR = sound_speed(R);
    const Tracked vL = L[1 + a], vR = R[1 + a];
    Vars f;
    if (einfeldt) {
      // Einfeldt 1988: S_L = min(u_L - c_L, u~ - c~), S_R = max(u_R + c_R, u~ + c~), with
      // u~, H~ the Roe averages (weights sqrt(rho)), c~^2 = (g - 1) (H~ - |u~|^2 / 2).
      const Tracked rl = sqrt(L[0]), rr = sqrt(R[0]);
      Tracked u2 = Tracked(0), un = Tracked(0);
      for (int b = 0; b < 3; ++b) {
        const Tracked ub = (rl * L[1 + b] + rr * R[1 + b]) / (rl + rr);
        u2 = u2 + ub * ub;
        if (b == a) un = ub;
      }
      const Tracked hL = (uL[4] + L[4]) / L[0], hR = (uR[4] + R[4]) / R[0];
      const Tracked h = (rl * hL + rr * hR) / (rl + rr);
      const Tracked c2 = (g() - Tracked(1)) * (h - Tracked(0.5) * u2);
      const Tracked c = sqrt(max(c2, Tracked(0)));
      const Tracked sL = min(vL - cL, un - c), sR = max(vR + cR, un + c);
      if (sL.v >= 0) return fL;
      if (sR.v <= 0) return fR;
      for (int m = 0; m < 6; ++m)
        f[m] = (sR * fL[m] - sL * fR[m] + sL * sR * (uR[m] - uL[m])) / (sR - sL);
      return f;
    }
    if (riemann == Riemann::llf) {
      // Eq. (12): F = 1/2 (F_L + F_R - lambda_0 (U_R - U_L)), lambda_0 = max |u| + c.
      const Tracked l0 = max(abs(vL) + cL, abs(vR) + cR);
      for (int m = 0; m < 6; ++m) f[m] = Tracked(0.5) * (fL[m] + fR[m] - l0 * (uR[m] - uL[m]));
      return f;
    }
    const Tracked sL = min(vL - cL, vR - cR), sR = max(vL + cL, vR + cR);
    if (sL.v >= 0) return fL;
    if (sR.v <= 0) return fR;
    if (riemann == Riemann::hll) {
      // Toro (10.21): the flux of the single intermediate state.
      for (int m = 0; m < 6; ++m)
        f[m] = (sR * fL[m] - sL * fR[m] + sL * sR * (uR[m] - uL[m])) / (sR - sL);
      return f;
    }
    // HLLC, Toro (10.37)-(10.39): the contact speed, then the star state of the side of
    // the face.
    const Tracked mL = L[0] * (sL - vL), mR = R[0] * (sR - vR);
    const Tracked sM = (R[4] - L[4] + mL * vL - mR * vR) / (mL - mR);
    const bool left = sM.v >= 0;
    const Vars& q = left ? L : R;
    const Vars& uK = left ? uL : uR;
    const Vars& fK = left ? fL : fR;
    const Tracked sK = left ? sL : sR, vK = left ? vL : vR;
    const Tracked factor = q[0] * (sK - vK) / (sK - sM);
    Vars star;
    star[0] = factor;
    for (int b = 0; b < 3; ++b) star[1 + b] = factor * (b == a ? sM : q[1 + b]);
    star[4] = factor * (uK[4] / q[0] + (sM - vK) * (sM + q[4] / (q[0] * (sK - vK))));
    star[5] = factor * q[5];
    for (int m = 0; m < 6; ++m) f[m] = fK[m] + sK * (star[m] - uK[m]);
    return f;
  }

  // Flux through the face between the cells at offsets `left` and left + 1 from idx
  // along axis a (left = -1: the face below the cell, 0: the one above), from the
  // stencil of four cells around it.
  Vars face_flux(const FvState& u, const int idx[3], int a, int left, bool first_order,
                 StepResult& res) const {
    Vars q[4];
    for (int s = 0; s < 4; ++s) q[s] = primitive(neighbour(u, idx, a, left - 1 + s));
    Vars L = q[1], R = q[2];
    if (plm && !first_order) {
      for (int m = 0; m < 6; ++m) {
        L[m] = q[1][m] + Tracked(0.5) * slope(q[1][m] - q[0][m], q[2][m] - q[1][m]);
        R[m] = q[2][m] - Tracked(0.5) * slope(q[2][m] - q[1][m], q[3][m] - q[2][m]);
      }
      for (const Tracked* x : {&L[0], &L[4], &R[0], &R[4]}) note_decision(*x, Tracked(0), res);
      if (!(L[0].v > 0 && L[4].v > 0 && R[0].v > 0 && R[4].v > 0)) {
        L = q[1];
        R = q[2];
      }
    }
    return riemann_flux(L, R, a, first_order);
  }

  // The variables a line is reconstructed in (fv.variables, docs/fv.md): the conserved
  // averages themselves, or their differences from the cell's own state U_i mapped
  // linearly about it: primitive, dW = (dW/dU)(W_i) dU, or characteristic along the
  // line's axis a, the amplitudes of the primitive system's waves (Toro 2009, sec. 3.2):
  //   u_n - c: (dp/c^2 - rho du_n/c)/2,  entropy: drho - dp/c^2,  shear: du_t1, du_t2
  //   (the other two axes in increasing order),  u_n + c: (dp/c^2 + rho du_n/c)/2,
  // the tracer's concentration passing through. The modes are mapped back with the
  // inverse maps, so the polynomial's mean stays the conserved average.
  Vars to_fields(const Vars& du, const Vars& q, int a) const {
    if (variables == Variables::conserved) return du;
    Vars dw;
    dw[0] = du[0];
    for (int b = 0; b < 3; ++b) dw[1 + b] = (du[1 + b] - q[1 + b] * du[0]) / q[0];
    const Tracked kinetic = Tracked(0.5) * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    dw[4] = (g() - Tracked(1)) *
            (du[4] - (q[1] * du[1] + q[2] * du[2] + q[3] * du[3]) + kinetic * du[0]);
    dw[5] = (du[5] - q[5] * du[0]) / q[0];
    if (variables == Variables::primitive) return dw;
    const Tracked c = sound_speed(q);
    const Tracked pressure_part = dw[4] / (c * c), velocity_part = q[0] * dw[1 + a] / c;
    const int t1 = a == 0 ? 1 : 0, t2 = a == 2 ? 1 : 2;
    Vars w;
    w[0] = Tracked(0.5) * (pressure_part - velocity_part);
    w[1] = dw[0] - pressure_part;
    w[2] = dw[1 + t1];
    w[3] = dw[1 + t2];
    w[4] = Tracked(0.5) * (pressure_part + velocity_part);
    w[5] = dw[5];
    return w;
  }
  Vars from_fields(const Vars& w, const Vars& q, int a) const {
    if (variables == Variables::conserved) return w;
    Vars dw = w;
    if (variables == Variables::characteristic) {
      const Tracked c = sound_speed(q);
      const int t1 = a == 0 ? 1 : 0, t2 = a == 2 ? 1 : 2;
      dw[0] = w[0] + w[1] + w[4];
      dw[1 + a] = c / q[0] * (w[4] - w[0]);
      dw[1 + t1] = w[2];
      dw[1 + t2] = w[3];
      dw[4] = c * c * (w[0] + w[4]);
      dw[5] = w[5];
    }
    Vars du;
    du[0] = dw[0];
    for (int b = 0; b < 3; ++b) du[1 + b] = q[1 + b] * dw[0] + q[0] * dw[1 + b];
    du[4] = Tracked(0.5) * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) * dw[0] +
            q[0] * (q[1] * dw[1] + q[2] * dw[2] + q[3] * dw[3]) + dw[4] / (g() - Tracked(1));
    du[5] = q[5] * dw[0] + q[0] * dw[5];
    return du;
  }
  // The size of each reconstructed variable, below which the WENO weights see no
  // structure (docs/fv.md): densities (and the characteristic amplitudes, in density
  // units) rho, velocities |u| + c, momenta rho (|u| + c), pressure p, energy E, the
  // tracer rho in conserved variables and 1 as a concentration.
  std::array<Tracked, 6> scales(const Vars& q) const {
    const Tracked u2 = q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    const Tracked speed = sqrt(u2) + sound_speed(q);
    switch (variables) {
      case Variables::characteristic:
        return {q[0], q[0], speed, speed, q[0], Tracked(1)};
      case Variables::primitive:
        return {q[0], speed, speed, speed, q[4], Tracked(1)};
      default:
        return {q[0],
                q[0] * speed,
                q[0] * speed,
                q[0] * speed,
                q[4] / (g() - Tracked(1)) + Tracked(0.5) * q[0] * u2,
                q[0]};
    }
  }

  // The pure modes along axis a of the cell at pos: modes[0] the average, then the
  // coefficients of P1, P2, P3 of that axis. `smooth`: the smallest over the flow's
  // variables (the tracer has no say) of how near the line's WENO weights stayed to their
  // linear values (WenoModel.hpp).
  std::array<Vars, 4> line_modes(const FvState& u, const int pos[3], int a, Tracked& smooth) const {
    const int r = weno == 1 ? 1 : weno;
    smooth = Tracked(1);
    Vars line[7];
    for (int j = -r; j <= r; ++j) line[j + r] = neighbour(u, pos, a, j);
    const Vars c = line[r];
    const Vars q = primitive(c);
    const std::array<Tracked, 6> scale = scales(q);
    // In conserved variables the averages themselves; otherwise the mapped differences.
    if (variables != Variables::conserved)
      for (int j = 0; j <= 2 * r; ++j) {
        Vars d;
        for (int m = 0; m < 6; ++m) d[m] = j == r ? Tracked(0) : line[j][m] - c[m];
        line[j] = to_fields(d, q, a);
      }
    std::array<Vars, 4> modes;
    for (int m = 0; m < 6; ++m) {
      if (m >= vars()) {
        for (auto& k : modes) k[m] = Tracked(0);
        continue;
      }
      Tracked values[7];
      for (int j = 0; j <= 2 * r; ++j) values[j] = line[j][m];
      // The floor: variations below a millionth of the scale count as smooth; for weno2 a
      // fraction that falls with the axis's cells (weno2_floor_fraction).
      const Tracked f =
          rounded(weno == 1 ? (long double)fv::weno2_floor_fraction(n[a]) : 1e-6L, 1) * scale[m];
      const LineModesModel lm =
          weno == 1 ? weno2_line_model(values, f * f) : weno_line_model(weno, values, f * f);
      if (m < 5) smooth = min(smooth, lm.smooth);
      modes[0][m] = c[m];
      modes[1][m] = lm.x;
      modes[2][m] = lm.xx;
      modes[3][m] = lm.xxx;
    }
    if (variables != Variables::conserved)
      for (int k = 1; k <= 3; ++k) {
        modes[k] = from_fields(modes[k], q, a);
        for (int m = vars(); m < 6; ++m) modes[k][m] = Tracked(0);
      }
    return modes;
  }

  // A cell's polynomial in 1D, 2D or 3D: c[i][j][k] the coefficient of
  // P_i(x) P_j(y) P_k(z), i + j + k <= the degree (zero beyond it and along reduced axes).
  struct CellPoly {
    Vars c[4][4][4];
  };

  // The polynomial of the cell at pos (docs/fv.md, Higher orders; CellReconstruction's
  // description): the pure modes of each active axis from its line (line_modes); at
  // degree 2 and above the cross modes of each plane from the 3x3 block of conserved
  // averages U(sa, sb) around the cell, the combinations that are exact for every
  // polynomial of total degree <= 3 (the mean of P1 over the cell at offset j is j, of P2
  // j^2 - 0, so the pure modes cancel):
  //   ab  = 1/4 [U(+,+) - U(+,-) - U(-,+) + U(-,-)]
  //   aab = 1/4 [(U(+,+) + U(-,+) - 2 U(0,+)) - (U(+,-) + U(-,-) - 2 U(0,-))]  (P2(a) P1(b))
  //   xyz = 1/8 sum over the 8 corners of sx sy sz U(sx, sy, sz)
  // each times the switch min over its axes of clamp(4 smooth_a - 1, 0, 1), which drops
  // them where a line is not smooth.
  CellPoly cell_poly(const FvState& u, const int pos[3]) const {
    CellPoly p;
    for (auto& x : p.c)
      for (auto& y : x)
        for (auto& z : y)
          for (auto& v : z) v = Tracked(0);
    const Vars c = cell_at(u, pos);
    p.c[0][0][0] = c;
    Tracked sw[3] = {Tracked(0), Tracked(0), Tracked(0)};
    for (int a = 0; a < 3; ++a) {
      if (n[a] == 1) continue;
      Tracked smooth;
      const std::array<Vars, 4> w = line_modes(u, pos, a, smooth);
      for (int k = 1; k <= weno; ++k) {
        int e[3] = {0, 0, 0};
        e[a] = k;
        p.c[e[0]][e[1]][e[2]] = w[k];
      }
      sw[a] = min(Tracked(1), max(Tracked(0), Tracked(4) * smooth - Tracked(1)));
    }
    if (weno < 2) return p;
    auto at = [&](int a, int sa, int b, int sb) {
      int q[3] = {pos[0], pos[1], pos[2]};
      q[a] += sa;
      q[b] += sb;
      return cell_at(u, q);
    };
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b) {
        if (n[a] == 1 || n[b] == 1) continue;
        const Tracked q = Tracked(0.25L) * min(sw[a], sw[b]);
        const Vars pp = at(a, 1, b, 1), pm = at(a, 1, b, -1), mp = at(a, -1, b, 1),
                   mm = at(a, -1, b, -1);
        int e[3] = {0, 0, 0};
        e[a] = e[b] = 1;
        for (int m = 0; m < vars(); ++m)
          p.c[e[0]][e[1]][e[2]][m] = q * ((pp[m] - pm[m]) - (mp[m] - mm[m]));
        if (weno < 3) continue;
        const Vars zp = at(a, 0, b, 1), zm = at(a, 0, b, -1), pz = at(a, 1, b, 0),
                   mz = at(a, -1, b, 0);
        const Tracked two(2);
        int eaab[3] = {0, 0, 0}, eabb[3] = {0, 0, 0};
        eaab[a] = 2, eaab[b] = 1;
        eabb[a] = 1, eabb[b] = 2;
        for (int m = 0; m < vars(); ++m) {
          p.c[eaab[0]][eaab[1]][eaab[2]][m] =
              q * ((pp[m] + mp[m] - two * zp[m]) - (pm[m] + mm[m] - two * zm[m]));
          p.c[eabb[0]][eabb[1]][eabb[2]][m] =
              q * ((pp[m] + pm[m] - two * pz[m]) - (mp[m] + mm[m] - two * mz[m]));
        }
      }
    if (weno >= 3 && n[0] > 1 && n[1] > 1 && n[2] > 1) {
      const Tracked q = Tracked(0.125L) * min(sw[0], min(sw[1], sw[2]));
      Vars sum;
      for (auto& x : sum) x = Tracked(0);
      for (int corner = 0; corner < 8; ++corner) {
        const int o[3] = {corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? 1 : -1};
        const int q3[3] = {pos[0] + o[0], pos[1] + o[1], pos[2] + o[2]};
        const Vars v = cell_at(u, q3);
        const bool plus = o[0] * o[1] * o[2] > 0;
        for (int m = 0; m < vars(); ++m) sum[m] = plus ? sum[m] + v[m] : sum[m] - v[m];
      }
      for (int m = 0; m < vars(); ++m) p.c[1][1][1][m] = q * sum[m];
    }
    return p;
  }

  // P_k(x) as the solver forms it in its precision: exact where x and the value are
  // (0, +-1/2 for P0 and P1), else a few roundings (the Gauss offset, x^2 - 1/12, ...).
  static Tracked basis_value(int k, long double x) {
    const long double v = legendre(k, x);
    const bool exact = k == 0 || (k == 1 && x == (long double)(double)x);
    return exact ? Tracked(v) : rounded(v, k + 2);
  }

  // The polynomial's value at the point x of its cell (cell units, [-1/2, 1/2] per axis).
  Vars poly_value(const CellPoly& p, const long double x[3]) const {
    Tracked b[3][4];
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < 4; ++k) b[a][k] = basis_value(k, x[a]);
    Vars v = p.c[0][0][0];
    for (int i = 0; i <= weno; ++i)
      for (int j = 0; i + j <= weno; ++j)
        for (int k = 0; i + j + k <= weno; ++k) {
          if (i + j + k == 0 || (i && n[0] == 1) || (j && n[1] == 1) || (k && n[2] == 1)) continue;
          const Tracked phi = b[0][i] * b[1][j] * b[2][k];
          for (int m = 0; m < vars(); ++m) v[m] = v[m] + p.c[i][j][k][m] * phi;
        }
    return v;
  }

  // The ADER predictor's space-time polynomial of a cell: q[n] the coefficient of tau^n,
  // a polynomial of total degree M - n in space.
  struct SpaceTimeCell {
    CellPoly q[4];
  };

  // P_k(x) on [-1/2, 1/2] (P0 = 1, P1 = x, P2 = x^2 - 1/12, P3 = x^3 - 3x/20).
  static long double legendre(int k, long double x) {
    switch (k) {
      case 0:
        return 1;
      case 1:
        return x;
      case 2:
        return x * x - 1.0L / 12;
      default:
        return x * x * x - 0.15L * x;
    }
  }
  // The product of the polynomials (coefficients by power) a and b.
  static std::vector<long double> times(const std::vector<long double>& a,
                                        const std::vector<long double>& b) {
    std::vector<long double> r(a.size() + b.size() - 1, 0);
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
    return r;
  }
  // The Lagrange polynomial of node i of `nodes`, by power.
  static std::vector<long double> lagrange(const std::vector<long double>& nodes, std::size_t i) {
    std::vector<long double> p = {1};
    for (std::size_t j = 0; j < nodes.size(); ++j)
      if (j != i) p = times(p, {-nodes[j] / (nodes[i] - nodes[j]), 1 / (nodes[i] - nodes[j])});
    return p;
  }
  static long double value_of(const std::vector<long double>& p, long double x) {
    long double v = 0;
    for (std::size_t k = p.size(); k-- > 0;) v = v * x + p[k];
    return v;
  }
  // weights[m][i]: the coefficient of P_m in the L2 projection onto degree `degree` of
  // the polynomial through the values at `nodes` (the node's Lagrange polynomial
  // projected; 5-point Gauss on the cell, exact here).
  static std::vector<std::vector<long double>> projection_weights(
      const std::vector<long double>& nodes, int degree) {
    std::vector<std::vector<long double>> w(degree + 1, std::vector<long double>(nodes.size(), 0));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const auto li = lagrange(nodes, i);
      for (int k = 0; k <= degree; ++k)
        w[k][i] = gauss5([&](long double x) { return value_of(li, x) * legendre(k, x); }) /
                  gauss5([&](long double x) { return legendre(k, x) * legendre(k, x); });
    }
    return w;
  }
  template <class F>
  static long double gauss5(F f) {
    const long double gx[5] = {-0.45308992296933199640L, -0.26923465505284154552L, 0,
                               0.26923465505284154552L, 0.45308992296933199640L};
    const long double gw[5] = {0.11846344252809454376L, 0.23931433524968323402L,
                               0.28444444444444444444L, 0.23931433524968323402L,
                               0.11846344252809454376L};
    long double s = 0;
    for (int q = 0; q < 5; ++q) s += gw[q] * f(gx[q]);
    return s;
  }
  // The coefficient of P_m in P_k' (the closed forms: P_k' by differences is not exact).
  static long double derivative_coefficient(int k, int m) {
    auto dlegendre = [](int k, long double x) -> long double {
      return k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 2 * x : 3 * x * x - 0.15L;
    };
    return gauss5([&](long double x) { return dlegendre(k, x) * legendre(m, x); }) /
           gauss5([&](long double x) { return legendre(m, x) * legendre(m, x); });
  }

  // The iterate of time degree nt (q_0 .. q_nt) at the point x of the cell and tau.
  Vars space_time_value(const SpaceTimeCell& st, int nt, const long double x[3],
                        long double tau) const {
    Vars v = poly_value(st.q[0], x);
    for (int t = 1; t <= nt; ++t) {
      // tau^t as the solver forms it: a power of 1/3 is rounded once per factor.
      const Tracked tp = rounded(std::pow(tau, (long double)t), t);
      const Vars qt = poly_value(st.q[t], x);
      for (int m = 0; m < vars(); ++m) v[m] = v[m] + tp * qt[m];
    }
    return v;
  }

  // The predictor of the cell at pos over the step h (docs/fv.md, The ADER formulation
  // implemented): q_n = -(1/n) sum_d nu_d d[f_d]_(n-1)/dx_d, with [f_d]_(n-1) (the time
  // interpolation as in 1D) replaced by the polynomial of total degree K = M - n + 1 whose
  // modes c_ijk (i along d, j and k along the other two axes in increasing order) are
  // read off difference formulas on the nodes {-1/2, 0, 1/2} of each axis, each exact on
  // polynomials of total degree K:
  //   c_i00: the line through the centre along d, its interpolant through 3 nodes (5,
  //          {-1/2, -1/4, 0, 1/4, 1/2}, for n = 1 at M = 3) projected onto degree K; the
  //          line also sees the modes P_i(d) P2(e) there (P2(0) = -1/12), which are
  //          given back: c_i00 = line_i + (c_i20 + c_i02)/12 where i + 2 <= K;
  //   c_ij0, c_i0k (i, j >= 1): the 3 x 3 tensor interpolant in the plane of d and that
  //          axis through the centre;
  //   c_111 (K = 3, 3D): the same over the 8 corners of the cell.
  // Then d/dx_d of sum c_ijk P_i P_j P_k (P_i' in the P_l by its closed form).
  SpaceTimeCell predicted(const FvState& u, const int pos[3], const Tracked& h) const {
    const int M = weno;
    SpaceTimeCell st;
    for (auto& qn : st.q)
      for (auto& x : qn.c)
        for (auto& y : x)
          for (auto& z : y)
            for (auto& v : z) v = Tracked(0);
    st.q[0] = cell_poly(u, pos);
    std::vector<long double> times_at;
    for (int j = 0; j < M; ++j) times_at.push_back((long double)j / M);
    const std::vector<long double> three = {-0.5L, 0, 0.5L}, five = {-0.5L, -0.25L, 0, 0.25L, 0.5L};
    const auto w3 = projection_weights(three, 2);
    for (int n = 1; n <= M; ++n) {
      const int K = M - n + 1;
      const std::size_t nt = n == 1 ? 1 : times_at.size();
      const std::vector<long double> tn(times_at.begin(), times_at.begin() + nt);
      for (int d = 0; d < 3; ++d) {
        if (this->n[d] == 1) continue;
        const int ax[3] = {d, d == 0 ? 1 : 0, d == 2 ? 1 : 2};  // d, then the other two
        const bool act[3] = {true, this->n[ax[1]] > 1, this->n[ax[2]] > 1};
        const std::vector<long double>& line = (M == 3 && n == 1) ? five : three;
        const auto wl = projection_weights(line, K);
        // Node weights of each c_ijk on the grid line x three x three (index along d into
        // `line`; the 3-node formulas use its nodes -1/2, 0, 1/2).
        const int nl = int(line.size());
        auto at3 = [&](int a) { return a == 0 ? 0 : a == 1 ? nl / 2 : nl - 1; };
        using Weights = std::vector<long double>;  // [(k * 3 + j) * nl + i]
        auto zero = [&] { return Weights(std::size_t(nl) * 9, 0); };
        Weights c[4][4][4];
        for (int i = 1; i <= K; ++i)
          for (int j = 0; i + j <= K; ++j)
            for (int k = 0; i + j + k <= K; ++k) {
              if ((j && !act[1]) || (k && !act[2]) || (j && k && !(i == 1 && j == 1 && k == 1)))
                continue;
              Weights w = zero();
              if (!j && !k) {
                for (int a = 0; a < nl; ++a) w[(1 * 3 + 1) * nl + a] = wl[i][a];
              } else {
                if (i > 2 || j > 2 || k > 2) continue;
                for (int a = 0; a < 3; ++a)
                  for (int b = 0; b < 3; ++b)
                    for (int e = 0; e < 3; ++e) {
                      const long double wj = j ? w3[j][b] : (b == 1 ? 1 : 0),
                                        wk = k ? w3[k][e] : (e == 1 ? 1 : 0);
                      w[(e * 3 + b) * nl + at3(a)] += w3[i][a] * wj * wk;
                    }
              }
              c[i][j][k] = w;
            }
        // The line's share of the modes P_i P2 on its axis.
        for (int i = 1; i + 2 <= K; ++i)
          for (const auto* extra : {&c[i][2][0], &c[i][0][2]})
            if (!extra->empty())
              for (std::size_t q = 0; q < c[i][0][0].size(); ++q) c[i][0][0][q] += (*extra)[q] / 12;
        // The weight of each node in each mode of the derivative.
        Weights dmode[4][4][4];
        bool any_node[27 * 5] = {};
        for (int l = 0; l < K; ++l)
          for (int j = 0; l + j < K; ++j)
            for (int k = 0; l + j + k < K; ++k) {
              Weights w = zero();
              bool used = false;
              for (int i = l + 1; i + j + k <= K; ++i) {
                if (c[i][j][k].empty()) continue;
                const long double dc = derivative_coefficient(i, l);
                if (dc == 0) continue;
                for (std::size_t q = 0; q < w.size(); ++q) w[q] += dc * c[i][j][k][q];
                used = true;
              }
              if (!used) continue;
              for (std::size_t q = 0; q < w.size(); ++q)
                if (w[q] != 0) any_node[q] = true;
              dmode[l][j][k] = w;
            }
        // [f_d]_(n-1) at the nodes some mode reads.
        std::vector<Vars> fn(std::size_t(nl) * 9);
        for (int e = 0; e < 3; ++e)
          for (int b = 0; b < 3; ++b)
            for (int a = 0; a < nl; ++a) {
              const std::size_t q = std::size_t((e * 3 + b) * nl + a);
              if (!any_node[q]) continue;
              long double at[3];
              at[ax[0]] = line[a];
              at[ax[1]] = three[b];
              at[ax[2]] = three[e];
              Vars f;
              for (auto& v : f) v = Tracked(0);
              for (std::size_t t = 0; t < nt; ++t) {
                const long double wt = lagrange(tn, t)[n - 1];
                const Vars fl = conserved_flux(space_time_value(st, n - 1, at, tn[t]), d);
                for (int m = 0; m < vars(); ++m) f[m] = f[m] + rounded(wt, 1) * fl[m];
              }
              fn[q] = f;
            }
        const Tracked factor = -(h * inv_dx(d) * rounded(1.0L / n, n == 3 ? 1 : 0));
        for (int l = 0; l < K; ++l)
          for (int j = 0; l + j < K; ++j)
            for (int k = 0; l + j + k < K; ++k) {
              const Weights& w = dmode[l][j][k];
              if (w.empty()) continue;
              int e[3];
              e[ax[0]] = l;
              e[ax[1]] = j;
              e[ax[2]] = k;
              for (int m = 0; m < vars(); ++m) {
                Tracked sum(0);
                for (std::size_t q = 0; q < w.size(); ++q)
                  if (w[q] != 0) sum = sum + rounded(w[q], 1) * fn[q][m];
                Tracked& target = st.q[n].c[e[0]][e[1]][e[2]][m];
                target = target + factor * sum;
              }
            }
      }
    }
    return st;
  }

  // The flux through the face between the cells at offsets `left` and left + 1 from idx
  // along axis a: the two cells' polynomials (with ADER, their predicted space-time
  // polynomials) at the face's Gauss points in space (the centre at degree 1; else two
  // points 1/2 -+ 1/(2 sqrt 3) of the cell, weights 1/2, along each active transverse
  // axis) and, with ADER, in time (tau = 1/2 at M = 1, else 1/2 -+ 1/(2 sqrt 3)), the
  // Riemann flux at each, their weighted sum; or the flux of the two averages if a state
  // at any point is not trusted. h: the step (ADER only).
  Vars modal_face_flux(const FvState& u, const int idx[3], int a, int left, const Tracked& h,
                       StepResult& res) const {
    int pl[3] = {idx[0], idx[1], idx[2]};
    pl[a] += left;
    int pr[3] = {pl[0], pl[1], pl[2]};
    pr[a] += 1;
    SpaceTimeCell L, R;
    if (ader) {
      L = predicted(u, pl, h);
      R = predicted(u, pr, h);
    } else {  // the polynomials alone, at the stage's instant
      L.q[0] = cell_poly(u, pl);
      R.q[0] = cell_poly(u, pr);
    }
    const int nt = ader ? weno : 0;
    const Vars cl = primitive(cell_at(u, pl)), cr = primitive(cell_at(u, pr));
    const long double g = 0.5L / std::sqrt(3.0L);
    // A Runge-Kutta stage's one instant (its tau unused: nt = 0); ADER's midpoint at M = 1,
    // else its two Gauss points.
    const std::vector<long double> taus = !ader ? std::vector<long double>{0}
                                          : weno == 1
                                              ? std::vector<long double>{0.5L}
                                              : std::vector<long double>{0.5L - g, 0.5L + g};
    std::vector<long double> xs[3];
    for (int b = 0; b < 3; ++b)
      xs[b] = (b == a || n[b] == 1 || weno < 2) ? std::vector<long double>{0}
                                                : std::vector<long double>{-g, g};
    Tracked w(taus.size() == 2 ? 0.5L : 1);
    for (int b = 0; b < 3; ++b)
      if (xs[b].size() == 2) w = w * Tracked(0.5L);
    Vars f;
    for (auto& x : f) x = Tracked(0);
    for (const long double x0 : xs[0])
      for (const long double x1 : xs[1])
        for (const long double x2 : xs[2])
          for (const long double tau : taus) {
            long double at_l[3] = {x0, x1, x2}, at_r[3] = {x0, x1, x2};
            at_l[a] = 0.5L;
            at_r[a] = -0.5L;
            const Vars uL = space_time_value(L, nt, at_l, tau),
                       uR = space_time_value(R, nt, at_r, tau);
            if (!(trusted(uL, cl, cr, res) && trusted(uR, cl, cr, res)))
              return riemann_flux(cl, cr, a);
            const Vars r = riemann_flux(primitive(uL), primitive(uR), a);
            for (int m = 0; m < 6; ++m) f[m] = f[m] + w * r[m];
          }
    return f;
  }

  // The WENO-Z flux (docs/fv.md, "Higher orders") through the face between the cells at
  // offsets `left` and left + 1 from idx along axis a: the six cells across it mapped to
  // the run's variables about the mean U_m of the two beside it (to_fields, with U_m's
  // primitives), each variable's two face values by WENO-Z5 (Borges et al. 2008) from the
  // five cells on its side, mapped back and added to U_m; the two averages instead if
  // either face state is not trusted; the Riemann flux at the face centre.
  Vars wenoz_face_flux(const FvState& u, const int idx[3], int a, int left, StepResult& res) const {
    Vars c[6];
    for (int s = 0; s < 6; ++s) c[s] = neighbour(u, idx, a, left - 2 + s);
    const auto [ul, ur] = fv_model_wenoz_states(
        c, vars(), [&](const Vars& x) { return primitive(x); },
        [&](const Vars& d, const Vars& q) { return to_fields(d, q, a); },
        [&](const Vars& w, const Vars& q) { return from_fields(w, q, a); },
        [&](const Vars& x, const Vars& cl, const Vars& cr) { return trusted(x, cl, cr, res); });
    return riemann_flux(primitive(ul), primitive(ur), a);
  }

  // Whether a face state is trusted: admissible, and rho and p within a factor 10 of the
  // range of the two cells beside the face (primitives cl, cr).
  bool trusted(const Vars& u, const Vars& cl, const Vars& cr, StepResult& res) const {
    if (!admissible(u, res)) return false;
    const Tracked p = (g() - Tracked(1)) *
                      (u[4] - Tracked(0.5) * (u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) / u[0]);
    return fv_model_in_face_band(
        u[0], p, cl, cr, 4, [&](const Tracked& x, const Tracked& t) { note_decision(x, t, res); });
  }

  // L(U) at a cell: the flux differences along x, then y, then z (h: the step, for ADER).
  Vars rate_of_change(const FvState& u, const int idx[3], bool first_order, const Tracked& h,
                      StepResult& res) const {
    Vars l;
    for (auto& x : l) x = Tracked(0);
    for (int a = 0; a < 3; ++a) {
      if (n[a] == 1) continue;
      const bool modal = weno && !first_order;
      auto flux = [&](int left) {
        if (wenoz && !first_order) return wenoz_face_flux(u, idx, a, left, res);
        if (!modal) return face_flux(u, idx, a, left, first_order, res);
        return modal_face_flux(u, idx, a, left, h, res);
      };
      const Vars lo = flux(-1), hi = flux(0);
      for (int m = 0; m < 6; ++m) l[m] = l[m] + (lo[m] - hi[m]) * inv_dx(a);
    }
    return l;
  }

  // rho > rho_floor and p > p_floor, p from the conserved state without floors.
  bool admissible(const Vars& u, StepResult& res) const {
    const Tracked rf = rounded(rho_floor, 1), pf = rounded(p_floor, 1);
    note_decision(u[0], rf, res);
    if (!(u[0].v > rf.v)) return false;
    const Tracked p = (g() - Tracked(1)) *
                      (u[4] - Tracked(0.5) * (u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) / u[0]);
    note_decision(p, pf, res);
    return p.v > pf.v;
  }

  // One stage: out = k.w0 U0 + k.w (in + k.s dt L(in)).
  FvState stage(const FvState& u0, const FvState& in, const Tracked& h, const RkWeights& k,
                StepResult& res) const {
    return fv_model_stage<Vars>(
        *this, vars(), u0, in, h, k,
        [&](const int idx[3], bool first_order) {
          return rate_of_change(in, idx, first_order, h, res);
        },
        [&](const Vars& r) { return admissible(r, res); },
        [&](const Vars& r) { return conserved(primitive(r)); }, res.corrected, res.floored);
  }
};

}  // namespace fluxview::model
