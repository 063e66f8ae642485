#pragma once
// The flux through one face from the polynomials of the two cells beside it: the
// corrector of the ADER scheme (averaged over the face and over the step) and the
// method-of-lines flux of the Runge-Kutta schemes (averaged over the face at one instant).
//
// The face integral is a Gauss rule: one point (the face centre) for polynomials of degree
// <= 1, otherwise the two-point rule along each active transverse axis (exact to degree 3,
// so the face average is as accurate as the polynomials); in time, for ADER, the midpoint
// at degree 1 and the two-point rule on [0, 1] above. At each point the two cells'
// polynomials are evaluated on their sides of the face (hydro's of degree 2 through their
// traces on it, FaceTrace.hpp) and a Riemann solver gives the flux. The paper's second-order scheme
// is the one-point case (its Fig. 5).
//
// Face fallback: if the state on either side at any point is not trusted (not admissible,
// or outside a band around the two cells' averages: EulerFaceSolver::trusted_state), the
// face takes the first-order flux of the two cell averages instead. The decision depends
// only on what both cells share, so both see the same flux and the scheme stays
// conservative.
//
// Generic over the physics through a policy: band(a, b) and trusted_state(u, band) of the
// point values, and the Riemann flux along D of two conserved states.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/EulerState.hpp"
#include "sim/fv/FaceTrace.hpp"
#include "sim/fv/ModalPolynomial.hpp"

namespace fluxview::fv {

// Points of the one-dimensional rule for a polynomial of degree m: their offsets in
// [-1/2, 1/2] and weights.
template <class T>
FLUXVIEW_HD int face_rule(int degree, T x[2], T w[2]) {
  if (degree <= 1) {
    x[0] = T(0);
    w[0] = T(1);
    return 1;
  }
  x[0] = -gauss2_offset<T>();
  x[1] = gauss2_offset<T>();
  w[0] = w[1] = T(0.5);
  return 2;
}

// The most points a face's rule has (two along each transverse axis and in time).
inline constexpr int kMaxFacePoints = 8;
// At most two points along each of the face's two transverse axes.
inline constexpr int kMaxFaceSpacePoints = 4;

// The points of a face's rule, in the order the flux sums them (transverse axis e1, then
// e2, then time), with their positions on the two sides and their weights. Both the flux
// from polynomials (below) and the flux from point values stored by a pass of their own
// (FvModalLoops.hpp, degree 3) walk the points through this, so they sum the same
// terms in the same order.
template <int D, class T>
struct FaceRule {
  static constexpr int e1 = D == 0 ? 1 : 0, e2 = D == 2 ? 1 : 2;
  int n1 = 1, n2 = 1, nt = 1;  // points along e1, e2 and in time
  T xs[2] = {T(0), T(0)}, ws[2] = {T(1), T(1)}, xt[2] = {T(0), T(0)}, wt[2] = {T(1), T(1)};

  FLUXVIEW_HD int points() const { return n1 * n2 * nt; }
  // The point (a, b) of the face on side `side` (0: the cell below, at its +1/2 face; 1:
  // the cell above, at its -1/2 face) as a position in that cell.
  FLUXVIEW_HD void position(int a, int b, int side, T pos[3]) const {
    pos[D] = side == 0 ? T(0.5) : T(-0.5);
    pos[e1] = n1 > 1 ? xs[a] : T(0);
    pos[e2] = n2 > 1 ? xs[b] : T(0);
  }
  FLUXVIEW_HD T weight(int a, int b, int t) const {
    return (n1 > 1 ? ws[a] : T(1)) * (n2 > 1 ? ws[b] : T(1)) * wt[t];
  }
  // Point p = (a n2 + b) nt + t (the order of the flux's sum): position, time in [0, 1].
  FLUXVIEW_HD void point(int p, int side, T pos[3], T& tau) const {
    position(p / (nt * n2), (p / nt) % n2, side, pos);
    tau = xt[p % nt];
  }
};

// The rule of a face normal to D for polynomials of total degree M with time degree nt
// (nt = 0: the polynomials are spatial only and the flux is that of the instant, as a
// Runge-Kutta stage needs; nt = M: the ADER corrector's average over the step).
template <int D, int M, class T>
FLUXVIEW_HD FaceRule<D, T> face_rule_of(const bool active[3], int nt) {
  FaceRule<D, T> r;
  const int ns = face_rule(M, r.xs, r.ws);
  r.n1 = active[FaceRule<D, T>::e1] ? ns : 1;
  r.n2 = active[FaceRule<D, T>::e2] ? ns : 1;
  if (nt > 0) {
    r.nt = face_rule(M, r.xt, r.wt);
#pragma unroll
    for (int k = 0; k < 2; ++k) r.xt[k] += T(0.5);  // [-1/2, 1/2] -> [0, 1]
  }
  return r;
}

// The flux through a face from the states on its two sides at the rule's points:
// value(side, p, pos, tau) gives them (side 0 below, 1 above; p = (a n2 + b) nt + t, at
// the position pos in that cell and time tau), meanL and meanR are the two cells'
// averages. Sets `fell_back` if the face took the first-order flux.
template <int D, class T, int NV, class Solver, class PointValue>
FLUXVIEW_HD State<T, NV> face_flux_at_points(const Solver& rs, const FaceRule<D, T>& rule,
                                             const State<T, NV>& meanL, const State<T, NV>& meanR,
                                             const PointValue& value, bool& fell_back) {
  State<T, NV> f;
#pragma unroll
  for (int k = 0; k < NV; ++k) f.v[k] = T(0);
  fell_back = false;
  const auto band = rs.band(meanL, meanR);
  // Unrolled where the rule's counts are constants (a pass built for a fixed shape,
  // FvModalLoops.hpp); nvcc leaves loops with other counts as they are.
#pragma unroll
  for (int a = 0; a < rule.n1; ++a)
#pragma unroll
    for (int b = 0; b < rule.n2; ++b)
#pragma unroll
      for (int t = 0; t < rule.nt; ++t) {
        const int p = (a * rule.n2 + b) * rule.nt + t;
        T pl[3], pr[3];
        rule.position(a, b, 0, pl);
        rule.position(a, b, 1, pr);
        const State<T, NV> uL = value(0, p, pl, rule.xt[t]);
        const State<T, NV> uR = value(1, p, pr, rule.xt[t]);
        if (!(rs.trusted_state(uL, band) && rs.trusted_state(uR, band))) {
          fell_back = true;
          return rs.template flux<D>(meanL, meanR);
        }
        const T w = rule.weight(a, b, t);
        const State<T, NV> g = rs.template flux<D>(uL, uR);
#pragma unroll
        for (int k = 0; k < NV; ++k) f.v[k] += w * g.v[k];
      }
  return f;
}

// The same flux with the values taken one time point of the rule at a time:
// layer(t, u) fills u[side][a n2 + b] with the states of both sides at the spatial points
// at the rule's time xt[t] (a pass that streams each cell's modes once a layer rather
// than holding both polynomials, FvModalLoops.hpp). The sum runs in face_flux_at_points'
// order ((a, b) outer, t inner), so the first layer's fluxes are kept until the second's
// are known; any untrusted state gives the first-order flux, as there.
template <int D, class T, int NV, class Solver, class Layer>
FLUXVIEW_HD State<T, NV> face_flux_in_layers(const Solver& rs, const FaceRule<D, T>& rule,
                                             const State<T, NV>& meanL, const State<T, NV>& meanR,
                                             const Layer& layer, bool& fell_back) {
  State<T, NV> f, first[kMaxFaceSpacePoints];
#pragma unroll
  for (int k = 0; k < NV; ++k) f.v[k] = T(0);
  fell_back = false;
  const auto band = rs.band(meanL, meanR);
  const int ns = rule.n1 * rule.n2;
  for (int t = 0; t < rule.nt; ++t) {
    State<T, NV> u[2][kMaxFaceSpacePoints];
    layer(t, u);
    for (int p = 0; p < ns; ++p) {
      if (!(rs.trusted_state(u[0][p], band) && rs.trusted_state(u[1][p], band))) {
        fell_back = true;
        return rs.template flux<D>(meanL, meanR);
      }
      const State<T, NV> g = rs.template flux<D>(u[0][p], u[1][p]);
      const int a = p / rule.n2, b = p % rule.n2;
      if (t + 1 < rule.nt) {
        first[p] = g;  // rule.nt is 1 or 2
        continue;
      }
      if (t > 0) {
        const T w0 = rule.weight(a, b, 0);
#pragma unroll
        for (int k = 0; k < NV; ++k) f.v[k] += w0 * first[p].v[k];
      }
      const T w = rule.weight(a, b, t);
#pragma unroll
      for (int k = 0; k < NV; ++k) f.v[k] += w * g.v[k];
    }
  }
  return f;
}

// Which faces take the two cells' traces (FaceTrace.hpp) rather than their polynomials:
// hydro's (5 or 6 variables; MHD has 9) at degree 2. Measured on an H200
// (docs/performance.md, 2026-11-29, side by side, traces everywhere against none): weno3 on
// the 192^3 vortex took 0.81 of the time a step with ADER and 0.89 with SSP-RK3, on a
// 2048^2 x-y grid 0.85 and 0.50; but degree 1 (weno2 + ADER, 192^3) took 1.85 times as
// long and MHD's layered pass (the 128^3 MHD vortex, weno3 + ADER) 1.12 times, so those keep
// the polynomials (not analysed further: both ran kernels built for any rule's shape, the
// degree-2 hydro faces there ran kernels built for theirs). Every path is one that passed
// the GPU's agreement tests in that form.
template <int M, int NV>
inline constexpr bool kFaceTracesOn = M == 2 && NV < 9;

// The flux through a face from the traces of the two cells beside it (FaceTrace.hpp, up
// to time power nt), meanL and meanR being the two cells' averages (for the fallback).
template <int D, int M, class T, int NV, class Solver>
FLUXVIEW_HD State<T, NV> trace_face_flux(const Solver& rs, const FaceRule<D, T>& rule,
                                         const State<T, NV>& meanL, const State<T, NV>& meanR,
                                         const FaceTrace<T, NV, M>& L, const FaceTrace<T, NV, M>& R,
                                         int nt, bool& fell_back) {
  const auto value = [&](int side, int, const T pos[3], T tau) {
    const FaceTrace<T, NV, M>& tr = side == 0 ? L : R;
    return face_trace_value_of<M, State<T, NV>>(
        [&](int m) -> const State<T, NV>& { return tr.c[m]; }, pos[rule.e1], pos[rule.e2], tau, nt);
  };
  return face_flux_at_points<D>(rs, rule, meanL, meanR, value, fell_back);
}

// The flux through the face normal to D between the cell L (below) and R (above), from
// their space-time polynomials of total degree M with time degree nt (as face_rule_of):
// through their traces on the face where kFaceTracesOn, else by evaluating the polynomials
// at the face's points. active: the axes with more than one cell. Sets `fell_back` if the
// face took the first-order flux.
template <int D, int M, class T, int NV, class Solver>
FLUXVIEW_HD State<T, NV> modal_face_flux(const Solver& rs, const SpaceTimePolynomial<T, NV, M>& L,
                                         const SpaceTimePolynomial<T, NV, M>& R,
                                         const bool active[3], int nt, bool& fell_back) {
  const FaceRule<D, T> rule = face_rule_of<D, M, T>(active, nt);
  if constexpr (kFaceTracesOn<M, NV>) {
    FaceTrace<T, NV, M> tl, tr;
    face_trace_of<D, M, State<T, NV>, T>([&](int m) -> const State<T, NV>& { return L.c[m]; }, 0,
                                         nt, tl.c);
    face_trace_of<D, M, State<T, NV>, T>([&](int m) -> const State<T, NV>& { return R.c[m]; }, 1,
                                         nt, tr.c);
    return trace_face_flux<D, M>(rs, rule, L.c[0], R.c[0], tl, tr, nt, fell_back);
  } else {
    const auto value = [&](int side, int, const T pos[3], T tau) {
      return space_time_value<M>(side == 0 ? L : R, pos, tau, nt);
    };
    return face_flux_at_points<D>(rs, rule, L.c[0], R.c[0], value, fell_back);
  }
}

}  // namespace fluxview::fv
