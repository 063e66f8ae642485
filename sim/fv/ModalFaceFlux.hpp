#pragma once
// The flux through one face from the polynomials of the two cells beside it: the
// corrector of the ADER scheme (averaged over the face and over the step) and the
// method-of-lines flux of the Runge-Kutta schemes (averaged over the face at one instant).
//
// The face integral is a Gauss rule: one point (the face centre) for polynomials of degree
// <= 1, otherwise the two-point rule along each active transverse axis (exact to degree 3,
// so the face average is as accurate as the polynomials); in time, for ADER, the midpoint
// at degree 1 and the two-point rule on [0, 1] above. At each point the two cells'
// polynomials are evaluated on their sides of the face and a Riemann solver gives the
// flux. The paper's second-order scheme is the one-point case (its Fig. 5).
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

// The flux through the face normal to D between the cell L (below) and R (above), from
// their space-time polynomials of total degree M with time degree nt (nt = 0: the
// polynomials are spatial only and the flux is that of the instant, as a Runge-Kutta
// stage needs; nt = M: the ADER corrector's average over the step). active: the axes with
// more than one cell. Sets `fell_back` if the face took the first-order flux.
template <int D, int M, class T, int NV, class Solver>
FLUXVIEW_HD State<T, NV> modal_face_flux(const Solver& rs, const SpaceTimePolynomial<T, NV, M>& L,
                                         const SpaceTimePolynomial<T, NV, M>& R,
                                         const bool active[3], int nt, bool& fell_back) {
  constexpr int e1 = D == 0 ? 1 : 0, e2 = D == 2 ? 1 : 2;
  T xs[2], ws[2], xt[2], wt[2];
  const int ns = face_rule(M, xs, ws);
  const int n1 = active[e1] ? ns : 1, n2 = active[e2] ? ns : 1;
  int points_t = 1;
  xt[0] = T(0);
  wt[0] = T(1);
  if (nt > 0) {
    points_t = face_rule(M, xt, wt);
#pragma unroll
    for (int k = 0; k < 2; ++k) xt[k] += T(0.5);  // [-1/2, 1/2] -> [0, 1]
  }
  State<T, NV> f;
#pragma unroll
  for (int k = 0; k < NV; ++k) f.v[k] = T(0);
  fell_back = false;
  const auto band = rs.band(L.c[0], R.c[0]);
  for (int a = 0; a < n1; ++a)
    for (int b = 0; b < n2; ++b)
      for (int t = 0; t < points_t; ++t) {
        T pl[3], pr[3];
        pl[D] = T(0.5);
        pr[D] = T(-0.5);
        pl[e1] = pr[e1] = n1 > 1 ? xs[a] : T(0);
        pl[e2] = pr[e2] = n2 > 1 ? xs[b] : T(0);
        const State<T, NV> uL = space_time_value<M>(L, pl, xt[t], nt);
        const State<T, NV> uR = space_time_value<M>(R, pr, xt[t], nt);
        if (!(rs.trusted_state(uL, band) && rs.trusted_state(uR, band))) {
          fell_back = true;
          return rs.template flux<D>(L.c[0], R.c[0]);
        }
        const T w = (n1 > 1 ? ws[a] : T(1)) * (n2 > 1 ? ws[b] : T(1)) * wt[t];
        const State<T, NV> g = rs.template flux<D>(uL, uR);
#pragma unroll
        for (int k = 0; k < NV; ++k) f.v[k] += w * g.v[k];
      }
  return f;
}

}  // namespace fluxview::fv
