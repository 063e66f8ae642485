#pragma once
// The ADER predictor: from the polynomial w(xi) of a cell at t^n (CellReconstruction.hpp),
// a polynomial q(xi, tau) in space and time that solves the PDE inside the cell,
//   dq/dtau + sum_d nu_d d f_d(q) / dxi_d = 0,   q(xi, 0) = w(xi),   nu_d = dt / dx_d,
// with tau = (t - t^n) / dt in [0, 1] and xi in the cell's local coordinates. The
// corrector (a Riemann solver at the Gauss points of each face in space and time) then
// updates the cell in one step. Generic over the physics: it needs only the flux along
// each axis of a conserved state.
//
// Formulation (the one implemented here; the approach is that of the local space-time
// predictors of Dumbser, Balsara, Toro & Munz 2008, JCP 227, 8209, and Balsara et al.
// 2013, JCP 235, 934, written in a Taylor basis in time): q is a polynomial of total
// degree M in (xi, tau),
//   q = q_0(xi) + tau q_1(xi) + tau^2 q_2(xi) + tau^3 q_3(xi),  deg q_n = M - n,  q_0 = w,
// and matching powers of tau in the PDE gives
//   q_n = -(1/n) sum_d nu_d d[f_d]_{n-1} / dxi_d,
// [f]_k being the tau^k Taylor coefficient of f(q(xi, tau)). Since [f]_{n-1} depends only
// on q_0 .. q_{n-1}, the coefficients follow one after the other (a Picard iteration
// that is exact after M sweeps). The Taylor coefficients of the flux are not formed from
// Jacobians (which would tie the predictor to one physics) but from point values:
//   * in space, f is sampled at nodes of the cell and its derivative's modes taken from
//     tensor-product difference formulas on the nodes {-1/2, 0, 1/2} per axis (and
//     {-1/2, -1/4, 0, 1/4, 1/2} along the derivative's own axis at M = 3), which are exact
//     for the polynomial degrees involved;
//   * in time, f is sampled at tau = 0, 1/M, ..., (M-1)/M and the Taylor coefficients are
//     those of the interpolating polynomial in tau (Newton form).
// Both interpolations err by O(h^(M+1)) in the cell's local units, the order of the scheme.
// Nodes per cell (3D): M = 1: 6 flux evaluations; M = 2: 33 + 6; M = 3: 69 + 66 + 12.
// At M = 1 this is the MUSCL-Hancock half step (the paper's second-order ADER, its Fig. 5).
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"
#include "sim/fv/ModalPolynomial.hpp"

namespace fluxview::fv {

// Modes of a space-time polynomial of total degree M: q_0 (modes_up_to(M)), then q_1, ...
FLUXVIEW_HD constexpr int space_time_modes(int m) {
  int s = 0;
  for (int n = 0; n <= m; ++n) s += modes_up_to(m - n);
  return s;
}
// Where q_n starts.
FLUXVIEW_HD constexpr int time_coefficient_offset(int m, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += modes_up_to(m - k);
  return s;
}

template <class T, int NV, int M>
struct SpaceTimePolynomial {
  State<T, NV> c[space_time_modes(M)];
  FLUXVIEW_HD State<T, NV>* q(int n) { return c + time_coefficient_offset(M, n); }
  FLUXVIEW_HD const State<T, NV>* q(int n) const { return c + time_coefficient_offset(M, n); }
};

namespace detail {
// v += c phi and v += tn c phi, for one variable (T) or all of a state's.
template <class T>
FLUXVIEW_HD void add_mode(T& v, T c, T phi) {
  v += c * phi;
}
template <class T, int NV>
FLUXVIEW_HD void add_mode(State<T, NV>& v, const State<T, NV>& c, T phi) {
#pragma unroll
  for (int k = 0; k < NV; ++k) v.v[k] += c.v[k] * phi;
}
template <class T>
FLUXVIEW_HD void add_time_mode(T& v, T tn, T c, T phi) {
  v += tn * c * phi;
}
template <class T, int NV>
FLUXVIEW_HD void add_time_mode(State<T, NV>& v, T tn, const State<T, NV>& c, T phi) {
#pragma unroll
  for (int k = 0; k < NV; ++k) v.v[k] += tn * c.v[k] * phi;
}
}  // namespace detail

// Value at a point and time tau of a space-time polynomial given by its modes (coef(m):
// mode m in the layout of SpaceTimePolynomial, q_0 then q_1 ...; a State for every
// variable at once, or one variable's T), the basis at the point (phi, basis_at), and q_n
// only up to time degree nt (0: the spatial polynomial alone, as a Runge-Kutta stage uses
// it; the predictor evaluates the iterate it has so far). A pass that holds one variable's
// modes (FvModalLoops.hpp) and one that holds whole polynomials both evaluate through
// this, so each variable sums the same terms in the same order.
template <int M, class V, class T, class Coef>
FLUXVIEW_HD V space_time_value_of(const Coef& coef, const T* phi, T tau, int nt) {
  V v = coef(0);
#pragma unroll
  for (int m = 1; m < modes_up_to(M); ++m) detail::add_mode(v, coef(m), phi[m]);
  T tn = T(1);
#pragma unroll
  for (int n = 1; n <= M; ++n) {
    if (n > nt) break;
    tn *= tau;
    const int first = time_coefficient_offset(M, n);
#pragma unroll
    for (int m = 0; m < modes_up_to(M - n); ++m)
      detail::add_time_mode(v, tn, coef(first + m), phi[m]);
  }
  return v;
}

// Value of q at the point p of the cell and time tau (every variable; nt as above).
template <int M, class T, int NV>
FLUXVIEW_HD State<T, NV> space_time_value(const SpaceTimePolynomial<T, NV, M>& st, const T p[3],
                                          T tau, int nt) {
  T phi[modes_up_to(M)];
  basis_at<M>(p, phi);
  return space_time_value_of<M, State<T, NV>>([&](int m) -> const State<T, NV>& { return st.c[m]; },
                                              phi, tau, nt);
}

template <int M, int Nt = M, class T, int NV>
FLUXVIEW_HD State<T, NV> space_time_value(const SpaceTimePolynomial<T, NV, M>& st, const T p[3],
                                          T tau) {
  return space_time_value<M>(st, p, tau, Nt);
}

namespace detail {

template <class T, int NV>
FLUXVIEW_HD void axpy(State<T, NV>& y, T a, const State<T, NV>& x) {
#pragma unroll
  for (int k = 0; k < NV; ++k) y.v[k] += a * x.v[k];
}

template <class T, int NV>
FLUXVIEW_HD State<T, NV> diff(const State<T, NV>& a, const State<T, NV>& b) {
  State<T, NV> d;
#pragma unroll
  for (int k = 0; k < NV; ++k) d.v[k] = a.v[k] - b.v[k];
  return d;
}

// The flux along D at the point (offsets o along the axes, in cell units) and time tau
// of the iterate with time degree Nt.
template <int D, int Nt, class T, int NV, int M, class Flux>
FLUXVIEW_HD State<T, NV> flux_at(const Flux& fl, const SpaceTimePolynomial<T, NV, M>& st, T ox,
                                 T oy, T oz, T tau) {
  const T p[3] = {ox, oy, oz};
  return fl.template flux<D>(space_time_value<M, Nt>(st, p, tau));
}

template <class T>
FLUXVIEW_HD void offsets(int a, T s, int b, T t, T o[3]) {
  o[0] = o[1] = o[2] = T(0);
  o[a] = s;
  o[b] = t;
}

// The low-degree modes of f_D that the degree-(M-1) derivative needs, from the 3-point
// formulas on {-1/2, 0, 1/2} (exact for total degree <= 2 and the tensor terms):
// c_d = f(+) - f(-), c_dd = 2 (f(+) + f(-) - 2 f(0)), c_de = mixed difference of the four
// corners (+-1/2, +-1/2) in the plane of D and e.
template <class T, int NV>
struct LowModes {
  State<T, NV> d, dd, de[3];  // de[e] for e != D
};

template <int D, int Nt, class T, int NV, int M, class Flux>
FLUXVIEW_HD LowModes<T, NV> low_modes(const Flux& fl, const SpaceTimePolynomial<T, NV, M>& st,
                                      const bool active[3], T tau, bool with_dd) {
  const T h = T(0.5);
  T o[3];
  LowModes<T, NV> r{};
  offsets(D, h, D, h, o);
  const State<T, NV> fp = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
  offsets(D, -h, D, -h, o);
  const State<T, NV> fm = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
  r.d = diff(fp, fm);
  if (!with_dd) return r;
  const State<T, NV> f0 = flux_at<D, Nt>(fl, st, T(0), T(0), T(0), tau);
#pragma unroll
  for (int k = 0; k < NV; ++k) r.dd.v[k] = T(2) * (fp.v[k] + fm.v[k] - T(2) * f0.v[k]);
#pragma unroll
  for (int e = 0; e < 3; ++e) {
    if (e == D || !active[e]) continue;
    offsets(D, h, e, h, o);
    const State<T, NV> pp = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
    offsets(D, h, e, -h, o);
    const State<T, NV> pm = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
    offsets(D, -h, e, h, o);
    const State<T, NV> mp = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
    offsets(D, -h, e, -h, o);
    const State<T, NV> mm = flux_at<D, Nt>(fl, st, o[0], o[1], o[2], tau);
#pragma unroll
    for (int k = 0; k < NV; ++k) r.de[e].v[k] = (pp.v[k] - pm.v[k]) - (mp.v[k] - mm.v[k]);
  }
  return r;
}

// Taylor coefficients in tau of a quantity sampled at tau = 0, t1, t2 (Newton form):
// [1] = D1 - t1 D2, [2] = D2.
template <class T, int NV>
FLUXVIEW_HD void taylor3(const State<T, NV>& l0, const State<T, NV>& l1, const State<T, NV>& l2,
                         T t1, T t2, State<T, NV>* first, State<T, NV>* second) {
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    const T d1 = (l1.v[k] - l0.v[k]) / t1;
    const T d1b = (l2.v[k] - l1.v[k]) / (t2 - t1);
    const T d2 = (d1b - d1) / t2;
    if (first) first->v[k] = d1 - t1 * d2;
    if (second) second->v[k] = d2;
  }
}

// M = 1 (MUSCL-Hancock): q_1 = -sum_d nu_d (f_d(w(+1/2 e_d)) - f_d(w(-1/2 e_d))).
template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor1_axis(const Flux& fl, SpaceTimePolynomial<T, NV, 1>& st, T nu) {
  const bool all[3] = {true, true, true};
  const LowModes<T, NV> r = low_modes<D, 0>(fl, st, all, T(0), false);
  axpy(st.q(1)[0], -nu, r.d);
}

// M = 2. Sweep 1 (tau = 0): q_1 (degree 1) from the 3-point modes of f_D(w); the layer
// at tau = 0 is kept for sweep 2. Sweep 2 (tau = 1/2): q_2 (degree 0).
template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor2_sweep1(const Flux& fl, SpaceTimePolynomial<T, NV, 2>& st,
                                   const bool active[3], T nu, State<T, NV>& layer0_d) {
  const LowModes<T, NV> r = low_modes<D, 0>(fl, st, active, T(0), true);
  State<T, NV>* q1 = st.q(1);
  axpy(q1[0], -nu, r.d);
  axpy(q1[mode_p1(D)], T(-2) * nu, r.dd);
#pragma unroll
  for (int e = 0; e < 3; ++e)
    if (e != D && active[e]) axpy(q1[mode_p1(e)], -nu, r.de[e]);
  layer0_d = r.d;
}

template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor2_sweep2(const Flux& fl, SpaceTimePolynomial<T, NV, 2>& st,
                                   const State<T, NV>& layer0_d, T nu) {
  const bool all[3] = {true, true, true};
  const T t1 = T(0.5);
  const LowModes<T, NV> r = low_modes<D, 1>(fl, st, all, t1, false);
  // [f]_1 from tau = 0 and 1/2; q_2 = -1/2 nu d[f]_1/dxi (its constant mode).
  State<T, NV> f1;
#pragma unroll
  for (int k = 0; k < NV; ++k) f1.v[k] = (r.d.v[k] - layer0_d.v[k]) / t1;
  axpy(st.q(2)[0], T(-0.5) * nu, f1);
}

// M = 3, sweep 1 (tau = 0): every mode of f_D(w) the degree-2 derivative needs, from the
// axis nodes {-1/2, -1/4, 0, 1/4, 1/2} (5-point formulas), the four corners and the
// transverse points +-1/2 of each plane through D, and the eight corners of the cell.
template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor3_sweep1(const Flux& fl, SpaceTimePolynomial<T, NV, 3>& st,
                                   const bool active[3], T nu, LowModes<T, NV>& layer0) {
  const T h = T(0.5), qt = T(0.25);
  T o[3];
  State<T, NV>* q1 = st.q(1);
  // Along D.
  offsets(D, h, D, h, o);
  const State<T, NV> fp = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
  offsets(D, -h, D, -h, o);
  const State<T, NV> fm = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
  offsets(D, qt, D, qt, o);
  const State<T, NV> fq = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
  offsets(D, -qt, D, -qt, o);
  const State<T, NV> fr = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
  const State<T, NV> f0 = flux_at<D, 0>(fl, st, T(0), T(0), T(0), T(0));
  State<T, NV> c0, cd, cdd;
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    const T odd_h = fp.v[k] - fm.v[k], odd_q = fq.v[k] - fr.v[k];
    const T c1 = (T(7) * odd_h + T(16) * odd_q) / T(15);
    const T c2 = T(2) / T(21) *
                 (T(17) * (fp.v[k] + fm.v[k]) + T(16) * (fq.v[k] + fr.v[k]) - T(66) * f0.v[k]);
    const T c3 = T(16) / T(3) * (odd_h - T(2) * odd_q);
    // d/dxi of c1 P1 + c2 P2 + c3 P3 = (c1 + c3/10) + 2 c2 P1 + 3 c3 P2.
    c0.v[k] = c1 + T(0.1) * c3;
    cd.v[k] = T(2) * c2;
    cdd.v[k] = T(3) * c3;
    layer0.d.v[k] = odd_h;
    layer0.dd.v[k] = T(2) * (fp.v[k] + fm.v[k] - T(2) * f0.v[k]);
  }
  axpy(q1[0], -nu, c0);
  axpy(q1[mode_p1(D)], -nu, cd);
  axpy(q1[mode_p2(D)], -nu, cdd);
  // The planes through D.
#pragma unroll
  for (int e = 0; e < 3; ++e) {
    if (e == D || !active[e]) continue;
    offsets(D, h, e, h, o);
    const State<T, NV> pp = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    offsets(D, h, e, -h, o);
    const State<T, NV> pm = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    offsets(D, -h, e, h, o);
    const State<T, NV> mp = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    offsets(D, -h, e, -h, o);
    const State<T, NV> mm = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    offsets(e, h, e, h, o);
    const State<T, NV> zp = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    offsets(e, -h, e, -h, o);
    const State<T, NV> zm = flux_at<D, 0>(fl, st, o[0], o[1], o[2], T(0));
    State<T, NV> cde, cdde, cdee;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      const T gp = pp.v[k] - pm.v[k], gm = mp.v[k] - mm.v[k], g0 = zp.v[k] - zm.v[k];
      const T hp = pp.v[k] - mp.v[k], hm = pm.v[k] - mm.v[k], h0 = fp.v[k] - fm.v[k];
      cde.v[k] = gp - gm;                        // xi_D xi_e
      cdde.v[k] = T(2) * (gp + gm - T(2) * g0);  // P2(xi_D) xi_e
      cdee.v[k] = T(2) * (hp + hm - T(2) * h0);  // xi_D P2(xi_e)
    }
    layer0.de[e] = cde;
    // d/dxi_D: xi_D xi_e -> xi_e;  P2(D) xi_e -> 2 xi_D xi_e;  xi_D P2(e) -> P2(e).
    axpy(q1[mode_p1(e)], -nu, cde);
    axpy(q1[mode_p1p1(D, e)], T(-2) * nu, cdde);
    axpy(q1[mode_p2(e)], -nu, cdee);
    // On the axis (xi_e = 0) xi_D P2(xi_e) reads -xi_D / 12, so the axis formula took
    // c_dee / 12 off the slope c_d; give it back (it is O(h^3): needed at fourth order).
    axpy(q1[0], -nu / T(12), cdee);
  }
  // The corners: xi_x xi_y xi_z -> the product of the two other axes.
  if (active[0] && active[1] && active[2]) {
    State<T, NV> cxyz;
#pragma unroll
    for (int k = 0; k < NV; ++k) cxyz.v[k] = T(0);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      const T sx = (c & 1) ? h : -h, sy = (c & 2) ? h : -h, sz = (c & 4) ? h : -h;
      const State<T, NV> f = flux_at<D, 0>(fl, st, sx, sy, sz, T(0));
      const T s = (sx * sy * sz > T(0)) ? T(1) : T(-1);
      axpy(cxyz, s, f);
    }
    constexpr int e1 = D == 0 ? 1 : 0, e2 = D == 2 ? 1 : 2;
    axpy(q1[mode_p1p1(e1, e2)], -nu, cxyz);
  }
}

// M = 3, sweep 2: q_2 (degree 1) from [f]_1 at tau = 0, 1/3, 2/3 of the iterate w + tau q_1.
template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor3_sweep2(const Flux& fl, SpaceTimePolynomial<T, NV, 3>& st,
                                   const bool active[3], T nu, const LowModes<T, NV>& layer0) {
  const T t1 = T(1) / T(3), t2 = T(2) / T(3);
  const LowModes<T, NV> l1 = low_modes<D, 1>(fl, st, active, t1, true);
  const LowModes<T, NV> l2 = low_modes<D, 1>(fl, st, active, t2, true);
  State<T, NV>* q2 = st.q(2);
  State<T, NV> f1;
  const T a = T(-0.5) * nu;
  taylor3(layer0.d, l1.d, l2.d, t1, t2, &f1, static_cast<State<T, NV>*>(nullptr));
  axpy(q2[0], a, f1);
  taylor3(layer0.dd, l1.dd, l2.dd, t1, t2, &f1, static_cast<State<T, NV>*>(nullptr));
  axpy(q2[mode_p1(D)], T(2) * a, f1);
#pragma unroll
  for (int e = 0; e < 3; ++e) {
    if (e == D || !active[e]) continue;
    taylor3(layer0.de[e], l1.de[e], l2.de[e], t1, t2, &f1, static_cast<State<T, NV>*>(nullptr));
    axpy(q2[mode_p1(e)], a, f1);
  }
}

// M = 3, sweep 3: q_3 (degree 0) from [f]_2 of the iterate w + tau q_1 + tau^2 q_2.
template <int D, class T, int NV, class Flux>
FLUXVIEW_HD void predictor3_sweep3(const Flux& fl, SpaceTimePolynomial<T, NV, 3>& st, T nu,
                                   const LowModes<T, NV>& layer0) {
  const bool all[3] = {true, true, true};
  const T t1 = T(1) / T(3), t2 = T(2) / T(3);
  const LowModes<T, NV> l1 = low_modes<D, 2>(fl, st, all, t1, false);
  const LowModes<T, NV> l2 = low_modes<D, 2>(fl, st, all, t2, false);
  State<T, NV> f2;
  taylor3(layer0.d, l1.d, l2.d, t1, t2, static_cast<State<T, NV>*>(nullptr), &f2);
  axpy(st.q(3)[0], -nu / T(3), f2);
}

}  // namespace detail

// The predictor: st.c[0 .. modes_up_to(M)) hold the cell's polynomial w on entry; on exit
// the time coefficients q_1 .. q_M are filled. nu[d] = dt / dx_d (0 along a reduced axis,
// whose nodes are then skipped). Flux: fl.template flux<D>(u) is the physical flux along
// D of the conserved state u.
template <int M, class T, int NV, class Flux>
FLUXVIEW_HD void ader_predict(const Flux& fl, SpaceTimePolynomial<T, NV, M>& st,
                              const bool active[3], const T nu[3]) {
  using detail::LowModes;
  constexpr int first = modes_up_to(M);
#pragma unroll
  for (int m = first; m < space_time_modes(M); ++m)
#pragma unroll
    for (int k = 0; k < NV; ++k) st.c[m].v[k] = T(0);
  if constexpr (M == 1) {
    if (active[0]) detail::predictor1_axis<0>(fl, st, nu[0]);
    if (active[1]) detail::predictor1_axis<1>(fl, st, nu[1]);
    if (active[2]) detail::predictor1_axis<2>(fl, st, nu[2]);
  } else if constexpr (M == 2) {
    State<T, NV> l0[3] = {};
    if (active[0]) detail::predictor2_sweep1<0>(fl, st, active, nu[0], l0[0]);
    if (active[1]) detail::predictor2_sweep1<1>(fl, st, active, nu[1], l0[1]);
    if (active[2]) detail::predictor2_sweep1<2>(fl, st, active, nu[2], l0[2]);
    if (active[0]) detail::predictor2_sweep2<0>(fl, st, l0[0], nu[0]);
    if (active[1]) detail::predictor2_sweep2<1>(fl, st, l0[1], nu[1]);
    if (active[2]) detail::predictor2_sweep2<2>(fl, st, l0[2], nu[2]);
  } else if constexpr (M == 3) {
    LowModes<T, NV> l0[3] = {};
    if (active[0]) detail::predictor3_sweep1<0>(fl, st, active, nu[0], l0[0]);
    if (active[1]) detail::predictor3_sweep1<1>(fl, st, active, nu[1], l0[1]);
    if (active[2]) detail::predictor3_sweep1<2>(fl, st, active, nu[2], l0[2]);
    if (active[0]) detail::predictor3_sweep2<0>(fl, st, active, nu[0], l0[0]);
    if (active[1]) detail::predictor3_sweep2<1>(fl, st, active, nu[1], l0[1]);
    if (active[2]) detail::predictor3_sweep2<2>(fl, st, active, nu[2], l0[2]);
    if (active[0]) detail::predictor3_sweep3<0>(fl, st, nu[0], l0[0]);
    if (active[1]) detail::predictor3_sweep3<1>(fl, st, nu[1], l0[1]);
    if (active[2]) detail::predictor3_sweep3<2>(fl, st, nu[2], l0[2]);
  }
}

}  // namespace fluxview::fv
