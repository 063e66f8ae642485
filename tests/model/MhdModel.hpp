#pragma once
// The model of one second-order fv step of ideal MHD with GLM cleaning (fv.physics = mhd),
// written from Wang, Abel & Kaehler 2010 (eqs. 7-8, 11, 14-16), Dedner et al. 2002
// (eq. 42, the GLM pair), Miyoshi & Kusano 2005 (HLLD, eqs. 38-63 and 67) and docs/mhd.md
// and docs/fv.md, with none of the solver's code. U = (rho, rho u, E, B, psi [, rho c]),
// E = p/(gamma-1) + rho |u|^2/2 + |B|^2/2, method of lines:
//   L(U) = -sum_a (F_a,i+1/2 - F_a,i-1/2) / dx_a - (0, .., 0, decay psi, 0)
//   U1 = U + dt L(U),  U' = 1/2 U + 1/2 (U1 + dt L(U1))            (TVD RK2, fv.time = rk2)
//   or U2 = 3/4 U + 1/4 (U1 + dt L(U1)), U' = 1/3 U + 2/3 (U2 + dt L(U2))  (SSP RK3, ssprk3;
//   Shu & Osher 1988), or SSP RK(5,4) (rk4; fv_model_runge_kutta, FvModelGrid.hpp)
// c_h and decay = alpha c_h max_a(1/dx_a) are set once a step from the rate of the state
// it starts from: c_h = rate / sum_a (1/dx_a), rate = max_cells sum_a (|u_a| + c_f,a)/dx_a
// (docs/mhd.md, "When and in what precision"), and held through every stage.
// Faces: primitives (rho, u, p, B, psi [, c]) by PLM as for hydro (eq. 11, face values
// u_i +- slope/2, the cell values where a face's rho or p is not positive). The Riemann
// flux along n: first the exact solution of the linear (B_n, psi) system,
//   B_n* = (B_nL + B_nR)/2 - (psi_R - psi_L)/(2 c_h),  psi* = (psi_L + psi_R)/2 - c_h (B_nR -
//   B_nL)/2
// whose fluxes are psi* (for B_n) and c_h^2 B_n* (for psi); then the seven other waves
// with B_n = B_n* on both sides (the primitive face states with B_n replaced) by LLF
// (max |u_n| + c_f), HLL or HLLD with S_L = min(u_nL, u_nR) - max(c_fL, c_fR) and S_R the
// mirror (M&K eq. 67). Without cleaning c_h = 0: B_n* the mean, both fluxes 0.
// A cell whose stage result has rho <= rho_floor or p <= p_floor (p without floor, the
// field's energy taken off) is recomputed with first-order HLL fluxes (fast speeds, the
// GLM pair), then floored if still not admissible (rho and p raised, u, B, psi kept), and
// counted (corrected_cells). Ghosts by index arithmetic: outflow repeats, periodic wraps,
// reflecting mirrors with the normal momentum and the normal field negated.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "sim/core/Types.hpp"
#include "tests/model/FvModelGrid.hpp"
#include "tests/model/Tracked.hpp"

namespace fluxview::model {

// Conserved state of every cell, x fastest, in the solver's checkpoint slots.
using MhdState = std::array<std::vector<Tracked>, 10>;
inline const char* const kMhdConserved[10] = {"rho", "mom_x", "mom_y", "mom_z", "E",
                                              "B_x", "B_y",   "B_z",   "psi",   "rho_c"};

class MhdModel : public FvModelGrid {
 public:
  enum class Riemann { llf, hll, hlld };
  // Slots: rho, (rho) u_x..u_z, E or p, B_x..B_z, psi, (rho) c.
  using Vars = std::array<Tracked, 10>;
  static constexpr int kE = 4, kB = 5, kPsi = 8, kC = 9;

  long double gamma = 1.4L, theta = 1.5L, rho_floor = 0, p_floor = 0, cfl = 0.4L;
  long double alpha = 0.1L;  // fv.glm_alpha
  bool cleaning = true;      // fv.mhd_divergence = glm
  bool plm = true;
  bool wenoz = false;                // fv.reconstruction = wenoz5 (wenoz_face_flux)
  bool primitive_variables = false;  // its fv.variables: primitive, else conserved
  bool tracer = false;
  FvModelTime time = FvModelTime::rk2;  // fv.time
  Riemann riemann = Riemann::hlld;

  static MhdModel from(const ParamSet& p, Precision precision) {
    MhdModel m;
    static_cast<FvModelGrid&>(m) = FvModelGrid::from(p);
    if (p.get_string("fv.physics") != "mhd")
      throw std::invalid_argument("the mhd model needs fv.physics = mhd");
    m.gamma = p.get_real("fv.gamma");
    m.theta = p.get_real("fv.theta");
    const std::string rec = p.get_string("fv.reconstruction");
    if (rec != "plm" && rec != "constant" && rec != "wenoz5")
      throw std::invalid_argument("the mhd model has plm, constant and wenoz5 only, not " + rec);
    m.plm = rec == "plm";
    m.wenoz = rec == "wenoz5";
    const std::string variables = p.get_string("fv.variables");
    if (m.wenoz && variables != "primitive" && variables != "conserved")
      throw std::invalid_argument(
          "the mhd model reconstructs wenoz5 in primitive or conserved variables, not " +
          variables);
    m.primitive_variables = variables == "primitive";
    m.time = fv_model_time(p.get_string("fv.time"));
    const std::string r = p.get_string("fv.riemann");
    m.riemann = r == "llf"                  ? Riemann::llf
                : r == "hll" || r == "hlle" ? Riemann::hll
                                            : Riemann::hlld;  // hlld, auto
    m.rho_floor = p.get_real("fv.rho_floor");
    m.p_floor = p.get_real("fv.p_floor");
    m.cfl = p.get_real("fv.cfl");
    m.alpha = p.get_real("fv.glm_alpha");
    m.cleaning = p.get_string("fv.mhd_divergence") == "glm";
    m.tracer = p.get_bool("fv.tracer");
    m.single_precision = precision == Precision::f32;
    return m;
  }

  int vars() const { return tracer ? 10 : 9; }

  // The GLM speed and psi's damping rate of a step.
  struct Cleaning {
    Tracked ch = Tracked(0), decay = Tracked(0);
  };

  struct StepResult {
    MhdState state;
    Cleaning cleaning;
    int corrected = 0;  // cell-stages that took the fallback or the floors
    int floored = 0;    // of those, the ones that needed the floors
    int guarded = 0;    // HLLD outer states that took the 0/0 guard (per side, face, stage)
    // The narrowest yes/no decision of the step (a face state positive, a stage result
    // admissible, HLLD's 0/0 guard): the smallest |value - threshold| / magnitude.
    long double closest_call = INFINITY;
    // The same for HLLD's 0/0 guard alone (not in closest_call).
    long double closest_guard = INFINITY;
  };

  // max over cells of sum_a (|u_a| + c_f,a) / dx_a: the CFL rate, which c_h comes from.
  Tracked rate(const MhdState& u) const {
    Tracked r = Tracked(0);
    for (std::int64_t c = 0; c < cells(); ++c) {
      const Vars q = primitive(load(u, c));
      Tracked s = Tracked(0);
      for (int a = 0; a < 3; ++a)
        if (n[a] > 1) s = s + (abs(q[1 + a]) + fast_speed(q, a)) * inv_dx(a);
      r = max(r, s);
    }
    return r;
  }

  Tracked time_step(const MhdState& u) const {
    return Tracked(cfl) / rate(u);  // the solver divides in double
  }

  // c_h = rate / sum_a (1/dx_a), decay = alpha c_h max_a (1/dx_a), both in double and
  // rounded once to the solver's precision (counted as one more rounding each).
  Cleaning cleaning_of(const MhdState& u) const {
    Cleaning k;
    if (!cleaning) return k;
    Tracked sum = Tracked(0), most = Tracked(0);
    for (int a = 0; a < 3; ++a)
      if (n[a] > 1) {
        sum = sum + inv_dx(a);
        most = max(most, inv_dx(a));
      }
    k.ch = rate(u) / sum;
    k.decay = rounded(alpha, 0) * k.ch * most;
    k.ch.ops += 1;
    k.decay.ops += 1;
    return k;
  }

  StepResult step(const MhdState& u0, double dt) const {
    StepResult res;
    res.cleaning = cleaning_of(u0);
    const Tracked h = single_precision ? Tracked((long double)(float)dt) : Tracked((long double)dt);
    res.state = fv_model_runge_kutta(
        time, u0, [&](const MhdState& other, const MhdState& in, const RkWeights& k) {
          return stage(other, in, h, k, res);
        });
    return res;
  }

  // The snapshot fields: velocity and gas pressure.
  Tracked derived(const MhdState& u, std::int64_t c, const std::string& name) const {
    const Vars q = primitive(load(u, c));
    if (name == "ux") return q[1];
    if (name == "uy") return q[2];
    if (name == "uz") return q[3];
    if (name == "p") return q[kE];
    return q[kC];  // tracer
  }

 private:
  bool single_precision = false;

  Tracked g() const { return rounded(gamma, 1); }
  // HLLD's 0/0 tolerance (docs/mhd.md).
  long double tiny() const { return single_precision ? 1e-6L : 1e-12L; }

  Vars load(const MhdState& u, std::int64_t c) const {
    Vars v;
    for (int m = 0; m < 10; ++m) v[m] = m < vars() ? u[m][c] : Tracked(0);
    return v;
  }

  // The cell at pos, which may lie beyond the grid (FvModelGrid::source_of), with a
  // perfectly conducting wall's u_n and B_n mirrored.
  Vars cell_at(const MhdState& u, const int pos[3]) const {
    bool flip[3];
    Vars v = load(u, source_of(pos, flip));
    for (int a = 0; a < 3; ++a)
      if (flip[a]) {
        v[1 + a] = -v[1 + a];
        v[kB + a] = -v[kB + a];
      }
    return v;
  }
  Vars neighbour(const MhdState& u, const int idx[3], int a, int s) const {
    int q[3] = {idx[0], idx[1], idx[2]};
    q[a] += s;
    return cell_at(u, q);
  }

  static Tracked dot3(const Tracked* x, const Tracked* y) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  }

  // The gas pressure of a conserved state, without floor.
  Tracked pressure(const Vars& u) const {
    const Tracked kinetic = Tracked(0.5) * dot3(&u[1], &u[1]) / u[0];
    const Tracked magnetic = Tracked(0.5) * dot3(&u[kB], &u[kB]);
    return (g() - Tracked(1)) * (u[kE] - kinetic - magnetic);
  }

  Vars primitive(const Vars& u) const {
    Vars q = u;
    const Tracked rho = max(u[0], rounded(rho_floor, 1));
    q[0] = rho;
    for (int a = 0; a < 3; ++a) q[1 + a] = u[1 + a] / rho;
    const Tracked kinetic = Tracked(0.5) * dot3(&u[1], &u[1]) / rho;
    const Tracked magnetic = Tracked(0.5) * dot3(&u[kB], &u[kB]);
    q[kE] = max((g() - Tracked(1)) * (u[kE] - kinetic - magnetic), rounded(p_floor, 1));
    q[kC] = u[kC] / rho;
    return q;
  }

  Vars conserved(const Vars& q) const {
    Vars u = q;
    for (int a = 0; a < 3; ++a) u[1 + a] = q[0] * q[1 + a];
    u[kE] = q[kE] / (g() - Tracked(1)) + Tracked(0.5) * q[0] * dot3(&q[1], &q[1]) +
            Tracked(0.5) * dot3(&q[kB], &q[kB]);
    u[kC] = q[0] * q[kC];
    return u;
  }

  // The fast magnetosonic speed along a (docs/mhd.md).
  Tracked fast_speed(const Vars& q, int a) const {
    const Tracked a2 = g() * q[kE] / q[0];
    const Tracked b2 = dot3(&q[kB], &q[kB]) / q[0];
    const Tracked ba2 = q[kB + a] * q[kB + a] / q[0];
    const Tracked s = a2 + b2;
    const Tracked disc = max(s * s - Tracked(4) * a2 * ba2, Tracked(0));
    return sqrt(Tracked(0.5) * (s + sqrt(disc)));
  }

  static long double sgn(long double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
  // Wang et al. eq. (11).
  static Tracked minmod(const Tracked& a, const Tracked& b, const Tracked& c) {
    const long double f = 0.25L * (sgn(a.v) + sgn(b.v)) * std::fabs(sgn(a.v) + sgn(c.v));
    if (f == 0) return Tracked(0);
    return Tracked(f) * min(abs(a), min(abs(b), abs(c)));
  }
  Tracked slope(const Tracked& dm, const Tracked& dp) const {
    const Tracked t = rounded(theta, 1);
    return minmod(t * dm, t * dp, Tracked(0.5) * (dm + dp));
  }

  static long double closeness(const Tracked& x, const Tracked& threshold) {
    const long double m = std::max(x.mag, threshold.mag);
    return m > 0 ? std::fabs(x.v - threshold.v) / m : INFINITY;
  }
  static void note_decision(const Tracked& x, const Tracked& threshold, StepResult& res) {
    res.closest_call = std::min(res.closest_call, closeness(x, threshold));
  }

  // The ideal MHD flux along a (Wang et al. eqs. 15-16) of primitive state q, without the
  // GLM pair's entries (B_a and psi: 0 here, set by the Riemann solver).
  Vars physical_flux(const Vars& q, const Vars& u, int a) const {
    Vars f;
    const Tracked un = q[1 + a], bn = q[kB + a];
    const Tracked pt = q[kE] + Tracked(0.5) * dot3(&q[kB], &q[kB]);
    f[0] = u[0] * un;
    for (int b = 0; b < 3; ++b) {
      f[1 + b] = u[1 + b] * un - q[kB + b] * bn;
      if (b == a) f[1 + b] = f[1 + b] + pt;
      f[kB + b] = b == a ? Tracked(0) : q[kB + b] * un - q[1 + b] * bn;
    }
    f[kE] = (u[kE] + pt) * un - bn * dot3(&q[1], &q[kB]);
    f[kPsi] = Tracked(0);
    f[kC] = u[kC] * un;
    return f;
  }

  // f + s (b - a): the flux behind a wave of speed s (Rankine-Hugoniot).
  static Vars across(const Vars& f, const Tracked& s, const Vars& b, const Vars& a) {
    Vars r;
    for (int m = 0; m < 10; ++m) r[m] = f[m] + s * (b[m] - a[m]);
    return r;
  }

  // HLLD's outer intermediate state of one side (Miyoshi & Kusano eqs. 43-48): primitives
  // q, conservatives u, total pressure pt, outer speed s; contact speed sM, total pressure
  // ptS there. Its velocity v and field b are kept for the inner states.
  struct Outer {
    Vars u;
    Tracked v[3], b[3];
  };
  Outer outer_state(const Vars& q, const Vars& u, const Tracked& pt, const Tracked& s,
                    const Tracked& sM, const Tracked& ptS, int a, StepResult& res) const {
    const Tracked bn = q[kB + a], d = s - q[1 + a];
    Outer o;
    o.u = u;                       // B_n and psi as they are (their fluxes come from the GLM pair)
    o.u[0] = q[0] * d / (s - sM);  // eq. 43
    const Tracked den = q[0] * d * (s - sM) - bn * bn;
    const Tracked guard = rounded(tiny(), 1) * (ptS + pt);
    res.closest_guard = std::min(res.closest_guard, closeness(abs(den), guard));
    o.v[a] = sM;
    o.b[a] = bn;
    if (std::fabs(den.v) <= guard.v) ++res.guarded;
    for (int t = 0; t < 3; ++t) {
      if (t == a) continue;
      if (std::fabs(den.v) <= guard.v) {  // eqs. 44-47 are 0/0: no jump in v_t, B_t
        o.v[t] = q[1 + t];
        o.b[t] = q[kB + t];
      } else {
        o.v[t] = q[1 + t] - bn * q[kB + t] * (sM - q[1 + a]) / den;  // eqs. 44, 46
        o.b[t] = q[kB + t] * (q[0] * d * d - bn * bn) / den;         // eqs. 45, 47
      }
    }
    for (int t = 0; t < 3; ++t) {
      o.u[1 + t] = o.u[0] * o.v[t];
      if (t != a) o.u[kB + t] = o.b[t];
    }
    // eq. 48
    o.u[kE] = (d * u[kE] - pt * q[1 + a] + ptS * sM + bn * (dot3(&q[1], &q[kB]) - dot3(o.v, o.b))) /
              (s - sM);
    o.u[kC] = o.u[0] * q[kC];
    return o;
  }

  // The seven-wave flux by HLLD (B_n already B_n* on both sides).
  Vars hlld(const Vars& L, const Vars& R, const Vars& uL, const Vars& uR, const Vars& fL,
            const Vars& fR, const Tracked& sL, const Tracked& sR, int a, StepResult& res) const {
    const Tracked bn = L[kB + a];
    const Tracked ptL = L[kE] + Tracked(0.5) * dot3(&L[kB], &L[kB]);
    const Tracked ptR = R[kE] + Tracked(0.5) * dot3(&R[kB], &R[kB]);
    const Tracked dL = sL - L[1 + a], dR = sR - R[1 + a];
    const Tracked mL = dL * L[0], mR = dR * R[0];
    // eq. 38: the contact's speed; eq. 41: the total pressure across it.
    const Tracked sM = (mR * R[1 + a] - mL * L[1 + a] - ptR + ptL) / (mR - mL);
    const Tracked ptS =
        (mR * ptL - mL * ptR + L[0] * R[0] * dR * dL * (R[1 + a] - L[1 + a])) / (mR - mL);
    const Outer ol = outer_state(L, uL, ptL, sL, sM, ptS, a, res);
    const Outer orr = outer_state(R, uR, ptR, sR, sM, ptS, a, res);
    // eq. 51: the Alfven waves.
    const Tracked qL = sqrt(ol.u[0]), qR = sqrt(orr.u[0]);
    const Tracked sLs = sM - abs(bn) / qL, sRs = sM + abs(bn) / qR;
    const Vars fLs = across(fL, sL, ol.u, uL), fRs = across(fR, sR, orr.u, uR);
    if (sLs.v >= 0) return fLs;
    if (sRs.v <= 0) return fRs;
    // eqs. 59-63: the inner states, common v and B_t, each side's energy.
    const Tracked sg = Tracked(sgn(bn.v));
    Tracked v[3], b[3];
    v[a] = sM;
    b[a] = bn;
    const Tracked sum = qL + qR;
    for (int t = 0; t < 3; ++t) {
      if (t == a) continue;
      v[t] = (qL * ol.v[t] + qR * orr.v[t] + (orr.b[t] - ol.b[t]) * sg) / sum;
      b[t] = (qL * orr.b[t] + qR * ol.b[t] + qL * qR * (orr.v[t] - ol.v[t]) * sg) / sum;
    }
    const Tracked vb = dot3(v, b);
    const bool left = sM.v >= 0;
    const Outer& o = left ? ol : orr;
    Vars inner = o.u;
    for (int t = 0; t < 3; ++t)
      if (t != a) {
        inner[1 + t] = o.u[0] * v[t];
        inner[kB + t] = b[t];
      }
    const Tracked jump = (left ? qL : qR) * (dot3(o.v, o.b) - vb) * sg;
    inner[kE] = left ? o.u[kE] - jump : o.u[kE] + jump;  // eq. 63
    return left ? across(fLs, sLs, inner, ol.u) : across(fRs, sRs, inner, orr.u);
  }

  // The Riemann flux along a between primitive face states L and R. first_order: the
  // fallback's HLL whatever fv.riemann says.
  Vars riemann_flux(Vars L, Vars R, int a, const Cleaning& k, bool first_order,
                    StepResult& res) const {
    // The GLM pair (Dedner et al. eq. 42).
    const Tracked bnL = L[kB + a], bnR = R[kB + a];
    Tracked bn = Tracked(0.5) * (bnL + bnR), psi = Tracked(0);
    if (cleaning) {
      bn = bn - (R[kPsi] - L[kPsi]) / (Tracked(2) * k.ch);
      psi = Tracked(0.5) * (L[kPsi] + R[kPsi]) - k.ch * (bnR - bnL) * Tracked(0.5);
    }
    L[kB + a] = bn;
    R[kB + a] = bn;
    const Vars uL = conserved(L), uR = conserved(R);
    const Vars fL = physical_flux(L, uL, a), fR = physical_flux(R, uR, a);
    const Tracked cL = fast_speed(L, a), cR = fast_speed(R, a);
    const Tracked vL = L[1 + a], vR = R[1 + a];
    Vars f;
    const Riemann kind = first_order ? Riemann::hll : riemann;
    if (kind == Riemann::llf) {
      const Tracked l0 = max(abs(vL) + cL, abs(vR) + cR);
      for (int m = 0; m < 10; ++m) f[m] = Tracked(0.5) * (fL[m] + fR[m] - l0 * (uR[m] - uL[m]));
    } else {
      const Tracked cmax = max(cL, cR);
      const Tracked sL = min(vL, vR) - cmax, sR = max(vL, vR) + cmax;  // M&K eq. 67
      if (sL.v >= 0)
        f = fL;
      else if (sR.v <= 0)
        f = fR;
      else if (kind == Riemann::hll)
        for (int m = 0; m < 10; ++m)
          f[m] = (sR * fL[m] - sL * fR[m] + sL * sR * (uR[m] - uL[m])) / (sR - sL);
      else
        f = hlld(L, R, uL, uR, fL, fR, sL, sR, a, res);
    }
    f[kB + a] = psi;
    f[kPsi] = cleaning ? k.ch * k.ch * bn : Tracked(0);
    return f;
  }

  // The flux through the face between the cells at offsets `left` and left + 1 from idx
  // along a, from the four cells around it.
  Vars face_flux(const MhdState& u, const int idx[3], int a, int left, const Cleaning& k,
                 bool first_order, StepResult& res) const {
    Vars q[4];
    for (int s = 0; s < 4; ++s) q[s] = primitive(neighbour(u, idx, a, left - 1 + s));
    Vars L = q[1], R = q[2];
    if (plm && !first_order) {
      for (int m = 0; m < 10; ++m) {
        L[m] = q[1][m] + Tracked(0.5) * slope(q[1][m] - q[0][m], q[2][m] - q[1][m]);
        R[m] = q[2][m] - Tracked(0.5) * slope(q[2][m] - q[1][m], q[3][m] - q[2][m]);
      }
      for (const Tracked* x : {&L[0], &L[kE], &R[0], &R[kE]}) note_decision(*x, Tracked(0), res);
      if (!(L[0].v > 0 && L[kE].v > 0 && R[0].v > 0 && R[kE].v > 0)) {
        L = q[1];
        R = q[2];
      }
    }
    return riemann_flux(L, R, a, k, first_order, res);
  }

  // The differences dU of conserved states from U_m mapped to the reconstructed variables
  // about U_m's primitives q (docs/fv.md, "Variables"): themselves, or linearised
  // primitives, dp = (gamma-1) (dE - u.dm + |u|^2/2 drho - B.dB) (E holds B^2/2), B and psi
  // passing through; and back.
  Vars to_fields(const Vars& du, const Vars& q) const {
    if (!primitive_variables) return du;
    Vars dw = du;
    for (int b = 0; b < 3; ++b) dw[1 + b] = (du[1 + b] - q[1 + b] * du[0]) / q[0];
    dw[kE] =
        (g() - Tracked(1)) * (du[kE] - dot3(&q[1], &du[1]) +
                              Tracked(0.5) * dot3(&q[1], &q[1]) * du[0] - dot3(&q[kB], &du[kB]));
    dw[kC] = (du[kC] - q[kC] * du[0]) / q[0];
    return dw;
  }
  Vars from_fields(const Vars& dw, const Vars& q) const {
    if (!primitive_variables) return dw;
    Vars du = dw;
    for (int b = 0; b < 3; ++b) du[1 + b] = q[1 + b] * dw[0] + q[0] * dw[1 + b];
    du[kE] = Tracked(0.5) * dot3(&q[1], &q[1]) * dw[0] + q[0] * dot3(&q[1], &dw[1]) +
             dw[kE] / (g() - Tracked(1)) + dot3(&q[kB], &dw[kB]);
    du[kC] = q[kC] * dw[0] + q[0] * dw[kC];
    return du;
  }

  // Whether a face state (conserved) is trusted: admissible, and rho and the gas pressure
  // within a factor 10 of the range of the two cells beside the face (primitives cl, cr).
  bool trusted(const Vars& u, const Vars& cl, const Vars& cr, StepResult& res) const {
    if (!admissible(u, res)) return false;
    return fv_model_in_face_band(
        u[0], pressure(u), cl, cr, kE,
        [&](const Tracked& x, const Tracked& t) { note_decision(x, t, res); });
  }

  // The WENO-Z flux through the face between the cells at offsets `left` and left + 1
  // from idx along a (docs/fv.md, "Higher orders"): the six cells across it mapped about
  // the mean U_m of the two beside it, each variable's two face values by WENO-Z5 from the
  // five cells on its side, mapped back and added to U_m; the two averages instead if
  // either face state is not trusted; the Riemann flux (with the GLM pair) at the centre.
  Vars wenoz_face_flux(const MhdState& u, const int idx[3], int a, int left, const Cleaning& k,
                       StepResult& res) const {
    Vars c[6];
    for (int s = 0; s < 6; ++s) c[s] = neighbour(u, idx, a, left - 2 + s);
    const auto [ul, ur] = fv_model_wenoz_states(
        c, vars(), [&](const Vars& x) { return primitive(x); },
        [&](const Vars& d, const Vars& q) { return to_fields(d, q); },
        [&](const Vars& w, const Vars& q) { return from_fields(w, q); },
        [&](const Vars& x, const Vars& cl, const Vars& cr) { return trusted(x, cl, cr, res); });
    return riemann_flux(primitive(ul), primitive(ur), a, k, false, res);
  }

  // L(U) at a cell: the flux differences along x, then y, then z, and psi's damping.
  Vars rate_of_change(const MhdState& u, const int idx[3], const Cleaning& k, bool first_order,
                      StepResult& res) const {
    Vars l;
    for (auto& x : l) x = Tracked(0);
    for (int a = 0; a < 3; ++a) {
      if (n[a] == 1) continue;
      const auto flux = [&](int left) {
        if (wenoz && !first_order) return wenoz_face_flux(u, idx, a, left, k, res);
        return face_flux(u, idx, a, left, k, first_order, res);
      };
      const Vars lo = flux(-1), hi = flux(0);
      for (int m = 0; m < 10; ++m) l[m] = l[m] + (lo[m] - hi[m]) * inv_dx(a);
    }
    if (cleaning) l[kPsi] = l[kPsi] - k.decay * u[kPsi][index(idx)];
    return l;
  }

  bool admissible(const Vars& u, StepResult& res) const {
    const Tracked rf = rounded(rho_floor, 1), pf = rounded(p_floor, 1);
    note_decision(u[0], rf, res);
    if (!(u[0].v > rf.v)) return false;
    const Tracked p = pressure(u);
    note_decision(p, pf, res);
    return p.v > pf.v;
  }

  // One stage: out = w.w0 U0 + w.w (in + w.s dt L(in)).
  MhdState stage(const MhdState& u0, const MhdState& in, const Tracked& h, const RkWeights& w,
                 StepResult& res) const {
    const Cleaning& k = res.cleaning;
    return fv_model_stage<Vars>(
        *this, vars(), u0, in, h, w,
        [&](const int idx[3], bool first_order) {
          return rate_of_change(in, idx, k, first_order, res);
        },
        [&](const Vars& r) { return admissible(r, res); },
        [&](const Vars& r) { return conserved(primitive(r)); }, res.corrected, res.floored);
  }
};

}  // namespace fluxview::model
