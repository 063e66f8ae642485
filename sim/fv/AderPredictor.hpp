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
//     those of the interpolating polynomial in tau, written as fixed weights of the
//     samples, so that each layer in time adds its part to q_n as soon as it is known.
// Both interpolations err by O(h^(M+1)) in the cell's local units, the order of the scheme.
// A point that several axes' formulas use (the centre, the corners of a plane, the cell's
// corners) is evaluated once and gives the flux along each of them (flux_layer): the
// evaluation of q, 20 to 34 modes of every variable, is the predictor's main cost. Per
// cell (3D), values of q and flux evaluations: M = 1: 6 and 6; M = 2: 19 + 6 and 33 + 6;
// M = 3: 33 + 38 + 12 and 75 + 66 + 12 (before the sharing: as many values as fluxes).
// At M = 1 this is the MUSCL-Hancock half step (the paper's second-order ADER, its Fig. 5).
#include <type_traits>

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

// How many basis functions of total degree <= d a cell's polynomial has (three variables),
// and where its time coefficient q_n starts in a polynomial of degree m: the layout of
// SpaceTimePolynomial. FaceTrace.hpp has the same for a face's trace (two variables), and
// both evaluate through space_time_sum.
struct CellModes {
  FLUXVIEW_HD static constexpr int up_to(int d) { return modes_up_to(d); }
  FLUXVIEW_HD static constexpr int offset(int m, int n) { return time_coefficient_offset(m, n); }
};

// The value of a space-time polynomial of degree M whose mode k is coef(k) (a State for
// every variable at once, or one variable's T), in the layout Modes gives (q_0, then q_1
// ...), from the basis at the point (phi) and time tau, with q_n only up to time degree
// nt (0: the spatial polynomial alone, as a Runge-Kutta stage uses it; the predictor
// evaluates the iterate it has so far).
template <int M, class Modes, class V, class T, class Coef>
FLUXVIEW_HD V space_time_sum(const Coef& coef, const T* phi, T tau, int nt) {
  V v = coef(0);
#pragma unroll
  for (int m = 1; m < Modes::up_to(M); ++m) detail::add_mode(v, coef(m), phi[m]);
  T tn = T(1);
#pragma unroll
  for (int n = 1; n <= M; ++n) {
    if (n > nt) break;
    tn *= tau;
    const int first = Modes::offset(M, n);
#pragma unroll
    for (int m = 0; m < Modes::up_to(M - n); ++m)
      detail::add_time_mode(v, tn, coef(first + m), phi[m]);
  }
  return v;
}

// Value at a point and time tau of a cell's space-time polynomial given by its modes
// (coef(m): mode m in the layout of SpaceTimePolynomial) and the basis at the point (phi,
// basis_at); nt as space_time_sum. A pass that holds one variable's modes
// (FvModalLoops.hpp) and one that holds whole polynomials both evaluate through this, so
// each variable sums the same terms in the same order.
template <int M, class V, class T, class Coef>
FLUXVIEW_HD V space_time_value_of(const Coef& coef, const T* phi, T tau, int nt) {
  return space_time_sum<M, CellModes, V>(coef, phi, tau, nt);
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

// The iterate with time degree Nt at the point (x, y, z) of the cell (cell units) and time
// tau.
template <int Nt, class T, int NV, int M>
FLUXVIEW_HD State<T, NV> value_at(const SpaceTimePolynomial<T, NV, M>& st, T x, T y, T z, T tau) {
  const T p[3] = {x, y, z};
  return space_time_value<M, Nt>(st, p, tau);
}

// The point at offset s along axis a and t along axis b (a == b: s alone).
template <int A, int B, int Nt, class T, int NV, int M>
FLUXVIEW_HD State<T, NV> value_off(const SpaceTimePolynomial<T, NV, M>& st, T s, T t, T tau) {
  T o[3] = {T(0), T(0), T(0)};
  o[A] = s;
  if constexpr (A != B) o[B] = t;
  return value_at<Nt>(st, o[0], o[1], o[2], tau);
}

// The iterate at the centre and at -+1/2 along each active axis: the points a layer shares
// between axes. plus and minus are kept only for a sink whose kKeepsAxisStates says so
// (the first layer at fourth order needs the flux along D at -+1/2 e_e for its planes).
template <class T, int NV>
struct AxisStates {
  State<T, NV> centre, plus[3], minus[3];
};

// One layer in time: the flux along every active axis at time tau of the iterate with time
// degree Nt, at the points the 3-point difference formulas on {-1/2, 0, 1/2} need. Each
// point is evaluated once, however many axes' fluxes it feeds (the centre and the
// corners (+-1/2, +-1/2) of each plane feed two or three), and the fluxes go to the sink:
//   sink.axis<D>(f(+1/2 e_D), f(-1/2 e_D), f(0), states)         every active D
//   sink.plane<D, E>(f(++), f(+-), f(-+), f(--), states)   every active D != E,
// the signs those of (xi_D, xi_E), f the flux along D. WithPlanes false: only the two
// points along each axis (sink.axis gets f(0) = f(+1/2 e_D) then, unused). A sink also
// says whether it reads the states' plus and minus (static bool kKeepsAxisStates).
template <int Nt, bool WithPlanes, class Flux, class T, int NV, int M, class Sink>
FLUXVIEW_HD void flux_layer(const Flux& fl, const SpaceTimePolynomial<T, NV, M>& st,
                            const bool active[3], T tau, Sink& sink) {
  const T h = T(0.5);
  AxisStates<T, NV> s{};
  if constexpr (WithPlanes) s.centre = value_at<Nt>(st, T(0), T(0), T(0), tau);
  auto axis = [&](auto d) {
    constexpr int D = decltype(d)::value;
    if (!active[D]) return;
    const State<T, NV> up = value_off<D, D, Nt>(st, h, h, tau),
                       um = value_off<D, D, Nt>(st, -h, -h, tau);
    // Kept only for a sink that asks (their registers are what limits the predictor).
    if constexpr (Sink::kKeepsAxisStates) {
      s.plus[D] = up;
      s.minus[D] = um;
    }
    const State<T, NV> fp = fl.template flux<D>(up), fm = fl.template flux<D>(um);
    if constexpr (WithPlanes)
      sink.template axis<D>(fp, fm, fl.template flux<D>(s.centre), s);
    else
      sink.template axis<D>(fp, fm, fp, s);
  };
  axis(std::integral_constant<int, 0>{});
  axis(std::integral_constant<int, 1>{});
  axis(std::integral_constant<int, 2>{});
  if constexpr (WithPlanes) {
    auto plane = [&](auto a, auto b) {
      constexpr int A = decltype(a)::value, B = decltype(b)::value;
      if (!active[A] || !active[B]) return;
      const State<T, NV> pp = value_off<A, B, Nt>(st, h, h, tau),
                         pm = value_off<A, B, Nt>(st, h, -h, tau),
                         mp = value_off<A, B, Nt>(st, -h, h, tau),
                         mm = value_off<A, B, Nt>(st, -h, -h, tau);
      sink.template plane<A, B>(fl.template flux<A>(pp), fl.template flux<A>(pm),
                                fl.template flux<A>(mp), fl.template flux<A>(mm), s);
      // Seen from B, (xi_B, xi_A) = (+, -) is the point (xi_A, xi_B) = (-, +).
      sink.template plane<B, A>(fl.template flux<B>(pp), fl.template flux<B>(mp),
                                fl.template flux<B>(pm), fl.template flux<B>(mm), s);
    };
    plane(std::integral_constant<int, 0>{}, std::integral_constant<int, 1>{});
    plane(std::integral_constant<int, 0>{}, std::integral_constant<int, 2>{});
    plane(std::integral_constant<int, 1>{}, std::integral_constant<int, 2>{});
  }
}

// The low modes of f_D a layer gives (exact for total degree <= 2 and the tensor terms):
// c_d = f(+) - f(-), c_dd = 2 (f(+) + f(-) - 2 f(0)), c_de = the mixed difference of the
// four corners of the plane of D and e.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> odd_part(const State<T, NV>& fp, const State<T, NV>& fm) {
  State<T, NV> d;
#pragma unroll
  for (int k = 0; k < NV; ++k) d.v[k] = fp.v[k] - fm.v[k];
  return d;
}
template <class T, int NV>
FLUXVIEW_HD State<T, NV> even_part(const State<T, NV>& fp, const State<T, NV>& fm,
                                   const State<T, NV>& f0) {
  State<T, NV> d;
#pragma unroll
  for (int k = 0; k < NV; ++k) d.v[k] = T(2) * (fp.v[k] + fm.v[k] - T(2) * f0.v[k]);
  return d;
}
template <class T, int NV>
FLUXVIEW_HD State<T, NV> mixed_part(const State<T, NV>& pp, const State<T, NV>& pm,
                                    const State<T, NV>& mp, const State<T, NV>& mm) {
  State<T, NV> d;
#pragma unroll
  for (int k = 0; k < NV; ++k) d.v[k] = (pp.v[k] - pm.v[k]) - (mp.v[k] - mm.v[k]);
  return d;
}

// Where a layer's low modes go: q_n (the time coefficient the layer feeds) gets
//   weight * c_d, 2 weight * c_dd (mode P1 of D), weight * c_de (mode P1 of e)
// with weight = coef * nu_D: the derivative along D of c_d P1 + c_dd P2 + c_de P1 P1.
// coef is -(1/n) times the layer's weight in the Taylor coefficient [f]_(n-1) it is
// sampled for (the interpolation in time is linear in the layers, so each layer adds its
// part as soon as it is known and none is kept).
template <class T, int NV>
struct LayerToCoefficient {
  static constexpr bool kKeepsAxisStates = false;
  State<T, NV>* q;
  T weight[3];
  bool with_modes;  // c_dd and c_de too (q_n of degree >= 1)
  template <int D>
  FLUXVIEW_HD void axis(const State<T, NV>& fp, const State<T, NV>& fm, const State<T, NV>& f0,
                        const AxisStates<T, NV>&) {
    axpy(q[0], weight[D], odd_part(fp, fm));
    if (with_modes) axpy(q[mode_p1(D)], T(2) * weight[D], even_part(fp, fm, f0));
  }
  template <int D, int E>
  FLUXVIEW_HD void plane(const State<T, NV>& pp, const State<T, NV>& pm, const State<T, NV>& mp,
                         const State<T, NV>& mm, const AxisStates<T, NV>&) {
    if (with_modes) axpy(q[mode_p1(E)], weight[D], mixed_part(pp, pm, mp, mm));
  }
};

// Taylor coefficients in tau of what is sampled at tau = i/M, i = 0 .. M-1, as the
// weight of sample i in coefficient n: at M = 2, [f]_1 = 2 (l_1 - l_0); at M = 3,
// [f]_1 = -9/2 l_0 + 6 l_1 - 3/2 l_2 and [f]_2 = 9/2 l_0 - 9 l_1 + 9/2 l_2.
template <class T>
FLUXVIEW_HD constexpr T taylor_weight(int m, int n, int i) {
  if (m == 2) return i == 0 ? T(-2) : T(2);
  if (n == 1) return i == 0 ? T(-4.5) : i == 1 ? T(6) : T(-1.5);
  return i == 1 ? T(-9) : T(4.5);
}

// Both of two sinks get a layer's fluxes.
template <class S1, class S2>
struct BothSinks {
  static constexpr bool kKeepsAxisStates = S1::kKeepsAxisStates || S2::kKeepsAxisStates;
  S1& first;
  S2& second;
  template <int D, class F, class S>
  FLUXVIEW_HD void axis(const F& fp, const F& fm, const F& f0, const S& s) {
    first.template axis<D>(fp, fm, f0, s);
    second.template axis<D>(fp, fm, f0, s);
  }
  template <int D, int E, class F, class S>
  FLUXVIEW_HD void plane(const F& pp, const F& pm, const F& mp, const F& mm, const S& s) {
    first.template plane<D, E>(pp, pm, mp, mm, s);
    second.template plane<D, E>(pp, pm, mp, mm, s);
  }
};

// M = 3, the layer at tau = 0: every mode of f_D(w) the degree-2 derivative q_1 needs. The
// layer's points give the axis formula at {-1/2, 0, 1/2}; two more points along D
// (-+1/4: the 5-point formulas), the flux along D at -+1/2 e_e (from the layer's states)
// and the eight corners of the cell (after the layer) make it exact. The 3-point modes go
// on to q_2 and q_3 as the first of their three layers.
// Those few lines repeat what LayerToCoefficient does for the later layers. Routing the
// layer through LayerToCoefficient instead (both sinks, as at M = 2) was measured on the
// H100 on 2026-11-25, side by side in one session: weno4 + ader at 192^3 double fell from
// 3.27e7 to 3.10e7 zones/s (ptxas: stack 2160 -> 2304 bytes, 28 bytes spilled), float and
// MHD unchanged within 0.5%; so the first layer keeps its own copy (docs/performance.md).
template <class T, int NV, int M, class Flux>
struct FirstLayerOfDegree3 {
  static constexpr bool kKeepsAxisStates = true;  // the flux along D at -+1/2 e_e
  const Flux& fl;
  SpaceTimePolynomial<T, NV, M>& st;
  T nu[3];
  State<T, NV> odd_h[3];  // f(+1/2 e_D) - f(-1/2 e_D), for the planes
  template <int D>
  FLUXVIEW_HD void axis(const State<T, NV>& fp, const State<T, NV>& fm, const State<T, NV>& f0,
                        const AxisStates<T, NV>&) {
    const T qt = T(0.25);
    const State<T, NV> fq = fl.template flux<D>(value_off<D, D, 0>(st, qt, qt, T(0)));
    const State<T, NV> fr = fl.template flux<D>(value_off<D, D, 0>(st, -qt, -qt, T(0)));
    State<T, NV> c0, cd, cdd;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      const T oh = fp.v[k] - fm.v[k], oq = fq.v[k] - fr.v[k];
      const T c1 = (T(7) * oh + T(16) * oq) / T(15);
      const T c2 = T(2) / T(21) *
                   (T(17) * (fp.v[k] + fm.v[k]) + T(16) * (fq.v[k] + fr.v[k]) - T(66) * f0.v[k]);
      const T c3 = T(16) / T(3) * (oh - T(2) * oq);
      // d/dxi of c1 P1 + c2 P2 + c3 P3 = (c1 + c3/10) + 2 c2 P1 + 3 c3 P2.
      c0.v[k] = c1 + T(0.1) * c3;
      cd.v[k] = T(2) * c2;
      cdd.v[k] = T(3) * c3;
    }
    State<T, NV>* q1 = st.q(1);
    axpy(q1[0], -nu[D], c0);
    axpy(q1[mode_p1(D)], -nu[D], cd);
    axpy(q1[mode_p2(D)], -nu[D], cdd);
    odd_h[D] = odd_part(fp, fm);
    // The first of three layers of q_2 = -1/2 nu d[f]_1/dxi and q_3 = -1/3 nu d[f]_2/dxi.
    const State<T, NV> dd = even_part(fp, fm, f0);
    const T a2 = T(-0.5) * nu[D] * taylor_weight<T>(3, 1, 0);
    axpy(st.q(2)[0], a2, odd_h[D]);
    axpy(st.q(2)[mode_p1(D)], T(2) * a2, dd);
    axpy(st.q(3)[0], -nu[D] / T(3) * taylor_weight<T>(3, 2, 0), odd_h[D]);
  }
  template <int D, int E>
  FLUXVIEW_HD void plane(const State<T, NV>& pp, const State<T, NV>& pm, const State<T, NV>& mp,
                         const State<T, NV>& mm, const AxisStates<T, NV>& s) {
    const State<T, NV> zp = fl.template flux<D>(s.plus[E]), zm = fl.template flux<D>(s.minus[E]);
    State<T, NV> cde, cdde, cdee;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      const T gp = pp.v[k] - pm.v[k], gm = mp.v[k] - mm.v[k], g0 = zp.v[k] - zm.v[k];
      const T hp = pp.v[k] - mp.v[k], hm = pm.v[k] - mm.v[k], h0 = odd_h[D].v[k];
      cde.v[k] = gp - gm;                        // xi_D xi_e
      cdde.v[k] = T(2) * (gp + gm - T(2) * g0);  // P2(xi_D) xi_e
      cdee.v[k] = T(2) * (hp + hm - T(2) * h0);  // xi_D P2(xi_e)
    }
    State<T, NV>* q1 = st.q(1);
    // d/dxi_D: xi_D xi_e -> xi_e;  P2(D) xi_e -> 2 xi_D xi_e;  xi_D P2(e) -> P2(e).
    axpy(q1[mode_p1(E)], -nu[D], cde);
    axpy(q1[mode_p1p1(D, E)], T(-2) * nu[D], cdde);
    axpy(q1[mode_p2(E)], -nu[D], cdee);
    // On the axis (xi_e = 0) xi_D P2(xi_e) reads -xi_D / 12, so the axis formula took
    // c_dee / 12 off the slope c_d; give it back (it is O(h^3): needed at fourth order).
    axpy(q1[0], -nu[D] / T(12), cdee);
    axpy(st.q(2)[mode_p1(E)], T(-0.5) * nu[D] * taylor_weight<T>(3, 1, 0), cde);
  }
  // The corners: xi_x xi_y xi_z -> the product of the two other axes, for every axis.
  FLUXVIEW_HD void corners() {
    const T h = T(0.5);
    State<T, NV> cxyz[3];
#pragma unroll
    for (int d = 0; d < 3; ++d)
#pragma unroll
      for (int k = 0; k < NV; ++k) cxyz[d].v[k] = T(0);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      const T sx = (c & 1) ? h : -h, sy = (c & 2) ? h : -h, sz = (c & 4) ? h : -h;
      const State<T, NV> u = value_at<0>(st, sx, sy, sz, T(0));
      const T s = (sx * sy * sz > T(0)) ? T(1) : T(-1);
      axpy(cxyz[0], s, fl.template flux<0>(u));
      axpy(cxyz[1], s, fl.template flux<1>(u));
      axpy(cxyz[2], s, fl.template flux<2>(u));
    }
    State<T, NV>* q1 = st.q(1);
    axpy(q1[mode_p1p1(1, 2)], -nu[0], cxyz[0]);
    axpy(q1[mode_p1p1(0, 2)], -nu[1], cxyz[1]);
    axpy(q1[mode_p1p1(0, 1)], -nu[2], cxyz[2]);
  }
};

// The sink that adds a layer's part to q_n (coef as in LayerToCoefficient).
template <class T, int NV, int M>
FLUXVIEW_HD LayerToCoefficient<T, NV> into(SpaceTimePolynomial<T, NV, M>& st, int n, T coef,
                                           const T nu[3], bool with_modes) {
  return {st.q(n), {coef * nu[0], coef * nu[1], coef * nu[2]}, with_modes};
}

}  // namespace detail

// The predictor: st.c[0 .. modes_up_to(M)) hold the cell's polynomial w on entry; on exit
// the time coefficients q_1 .. q_M are filled. nu[d] = dt / dx_d (0 along a reduced axis,
// whose nodes are then skipped). Flux: fl.template flux<D>(u) is the physical flux along
// D of the conserved state u.
//   M = 1: q_1 from the layer at tau = 0 (two points per axis).
//   M = 2: the layer at tau = 0 with its planes gives q_1 (degree 1) and the first part of
//          q_2; the layer at tau = 1/2 of w + tau q_1 the second.
//   M = 3: the layer at tau = 0 (FirstLayerOfDegree3) gives q_1 (degree 2) and the first
//          parts of q_2 and q_3; the layers at tau = 1/3 and 2/3 of w + tau q_1 (with
//          planes) finish q_2 (degree 1); those of w + tau q_1 + tau^2 q_2 (axes only)
//          finish q_3 (degree 0).
template <int M, class T, int NV, class Flux>
FLUXVIEW_HD void ader_predict(const Flux& fl, SpaceTimePolynomial<T, NV, M>& st,
                              const bool active[3], const T nu[3]) {
  using detail::flux_layer;
  using detail::into;
  constexpr int first = modes_up_to(M);
#pragma unroll
  for (int m = first; m < space_time_modes(M); ++m)
#pragma unroll
    for (int k = 0; k < NV; ++k) st.c[m].v[k] = T(0);
  auto w = [](int n, int i) { return detail::taylor_weight<T>(M, n, i); };
  if constexpr (M == 1) {
    auto q1 = into(st, 1, T(-1), nu, false);
    flux_layer<0, false>(fl, st, active, T(0), q1);
  } else if constexpr (M == 2) {
    auto q1 = into(st, 1, T(-1), nu, true);
    auto q2 = into(st, 2, T(-0.5) * w(1, 0), nu, false);
    detail::BothSinks<decltype(q1), decltype(q2)> both{q1, q2};
    flux_layer<0, true>(fl, st, active, T(0), both);
    auto q2b = into(st, 2, T(-0.5) * w(1, 1), nu, false);
    flux_layer<1, false>(fl, st, active, T(0.5), q2b);
  } else if constexpr (M == 3) {
    detail::FirstLayerOfDegree3<T, NV, M, Flux> first_layer{fl, st, {nu[0], nu[1], nu[2]}, {}};
    flux_layer<0, true>(fl, st, active, T(0), first_layer);
    if (active[0] && active[1] && active[2]) first_layer.corners();
    const T tau[3] = {T(0), T(1) / T(3), T(2) / T(3)};
#pragma unroll
    for (int i = 1; i <= 2; ++i) {
      auto q2 = into(st, 2, T(-0.5) * w(1, i), nu, true);
      flux_layer<1, true>(fl, st, active, tau[i], q2);
    }
#pragma unroll
    for (int i = 1; i <= 2; ++i) {
      auto q3 = into(st, 3, -w(2, i) / T(3), nu, false);
      flux_layer<2, false>(fl, st, active, tau[i], q3);
    }
  }
}

}  // namespace fluxview::fv
