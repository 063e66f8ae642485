#pragma once
// Reconstruction of one variable along one line of cells, written once for both backends.
//
// Finite-volume WENO of whole polynomials (the ADER-WENO form of Balsara et al. 2009, JCP
// 228, 2480, and Dumbser et al. 2013, JCP 248, 257): every candidate stencil gives a
// polynomial of the design degree in the cell's local coordinate xi in [-1/2, 1/2], as
// modes on the scaled Legendre basis (ModalPolynomial.hpp); the nonlinear weights mix
// the candidates' modes, not values at one face, so the result is a polynomial over the
// whole cell (what the ADER predictor and the Gauss points of a face need). Because each
// candidate alone is exact for polynomials of the design degree, so is every mixture:
// the nonlinear weights can never cost accuracy on smooth data, only pick the smoothest
// candidates near a discontinuity.
//   weno2: degree 1 from the slopes of {i-1, i}, {i-1..i+1} (centred) and {i, i+1}: the
//          WENO limiter of the paper's second order (its Fig. 1 calls it the Limiter
//          step; Balsara et al. 2009 give the second-order member). Unlike a TVD slope it
//          keeps the centred slope at a smooth extremum (there the one-sided slopes are
//          large and of opposite signs, the centred one small, so the centred candidate is
//          the smoothest), where theta-minmod clips the slope to zero and the extremum
//          with it: first order in L-infinity on the vortex.
//   weno3: degree 2 from the three stencils {i-2..i}, {i-1..i+1}, {i..i+2} (5 cells).
//          Where the three candidates are alike (optimal_mix_switch), the polynomial
//          is their optimal mix, 1/6, 2/3, 1/6: its slope (u[-2] - 8 u[-1] + 8 u[1] -
//          u[2]) / 12 makes its face values exact for cubics, one order above a single
//          quadratic's (the polynomial stays exact for quadratics). Near a discontinuity it is the
//          WENO mix, and a blend in between. The weights alone (1, 10^5, 1) keep the centred
//          quadratic on smooth data (Table XII's errors up to 1.4 times the paper's, 5 times the
//          optimal mix's); linear
//          weights of 1, 4, 1 put the optimal mix through the WENO weights, which then
//          leave it wherever two indicators differ by 4^(1/4), and widened Brio-Wu's
//          error in conserved variables by 13% (docs/fv.md has both).
//   weno4: degree 3 from the four stencils {i-3..i}, ..., {i..i+3} (7 cells).
// Weights: omega_k proportional to lambda_k / (eps + IS_k)^4 with lambda = 10^5 for the
// centred stencils and 1 for the others (the centred ones are preferred wherever the data
// allow), IS_k the integral over the cell of the squared derivatives of candidate k, in
// local units (Jiang & Shu 1996): for a line the squared slope, for a quadratic ux^2 + 13/3 uxx^2,
// for a cubic (ux + uxxx/10)^2 + 13/3 uxx^2 + 781/20 uxxx^2. eps is 1e-12 of the sum of the IS (so
// the weights do not depend on the units of the variable) plus a floor, (1e-6 s)^2 for a variable
// of scale s (the caller's: EulerProjection::scale): variations below a millionth of the variable's
// own size count as smooth and get the linear weights. Without the floor the weights are scale-free
// all the way down to rounding noise, pick stencils by that noise where the flow is nearly uniform,
// and the noise grows: on the vortex a 1-ulp change of the initial state grew 2e6-fold in 20 steps
// at weno3 + ADER (a difference of 7e-10 between two runs, and between the CPU and the GPU, whose
// fused multiply-adds round differently), against 1e-14 with the floor. The weights are
// formed as ratios to the smallest IS, so nothing overflows in single precision.
//
// WENO-Z (Borges, Carmona, Costa & Don 2008) at fifth order gives the value at one face
// from five cells, as codes reconstructing dimension by dimension use it: the reference
// the other schemes are compared with. Its smoothness indicators are normalised by their
// sum in the same way.
//
// "Few values live", as the paper stresses for GPUs: a reconstruction reads its 5 or 7
// values once, keeps only the candidates' modes (3 or 4 of 2 or 3 numbers) and their
// indicators, and returns 2 or 3 modes.
#include <limits>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::fv {

// Modes of one variable along one axis (mode 0, the cell average, is the data itself),
// and how smooth the data looked: `smooth` is the weight the centred candidates got over
// the weight they would have on smooth data (1 for polynomial data of the design degree,
// near 0 at a discontinuity). The cross modes of a multidimensional reconstruction are
// switched by it (CellReconstruction.hpp).
template <class T>
struct LineModes {
  T x = 0, xx = 0, xxx = 0;
  T smooth = 1;
};

inline constexpr double kWenoCentralWeight = 1e5;  // lambda of a centred candidate
inline constexpr double kWenoRelativeEps = 1e-12;  // eps / sum of the IS
inline constexpr double kWenoFloor = 1e-6;         // variations below this x scale: smooth

// The ratio (eps + IS_min) / (eps + IS) to the fourth power: the nonlinear weight of a
// candidate relative to the smoothest one, before the linear weight.
template <class T>
FLUXVIEW_HD T weno_relative_weight(T is, T is_min, T eps) {
  const T r = (is_min + eps) / (is + eps);
  const T r2 = r * r;
  return r2 * r2;
}

// floor: (kWenoFloor s)^2 for a variable of scale s (weno_floor), 0 for scale-free weights.
template <class T>
FLUXVIEW_HD T weno_eps(T is_sum, T floor) {
  return T(kWenoRelativeEps) * is_sum + floor + T(1e-30);
}

template <class T>
FLUXVIEW_HD T weno_floor(T scale, T fraction = T(kWenoFloor)) {
  const T f = fraction * scale;
  return f * f;
}

// weno2's floor along an axis of `cells` cells (the whole grid's, so that every MPI rank
// agrees): variations below kWeno2FloorPerCell / cells of a variable's scale count as
// smooth, an eps that falls with the grid as Arandiga et al. (2011) ask for at critical
// points. Why weno2 needs it: next to a smooth extremum one one-sided slope is near zero
// and the centred one is not, so weights with a floor of 1e-6 of the scale picked the
// one-sided slope there, a first-order error in those cells that held the MHD vortex's
// L-infinity order near 1.2 and its L1 order at 1.76 at the paper's sizes. The slopes there
// are of the size h^2 u'', below 0.1 / N of the scale on the paper's grids, so the weights
// stay linear and keep the centred slope: L1 and L-infinity orders 2.0-2.1 (docs/mhd.md).
// A jump is far above it. Measured (docs/fv.md): 0.1 keeps Sod within plm's tolerances
// (L1 0.00564 and 0.00159 at 100 and 400 cells, 0.00545 and 0.00155 with the fixed floor);
// 0.25 and above do not, 0.1 to 1 give the vortex the same errors to four digits.
inline constexpr double kWeno2FloorPerCell = 0.1;
constexpr double weno2_floor_fraction(int cells) {
  return kWeno2FloorPerCell / (cells > 0 ? cells : 1);
}

// The weights of three candidates (left, centred, right) from their indicators, before
// normalisation (multiply by inv): the centred one preferred by lambda; smooth is
// omega_c / gamma_c with gamma_c = lambda / (lambda + 2); spread is (eps + IS_min) /
// (eps + IS_max), 1 where the candidates are alike (weno3's optimal_mix_switch). weno2 and
// weno3 share them.
template <class T>
struct ThreeWeights {
  T l, c, r, inv, smooth, spread;
};

template <class T>
FLUXVIEW_HD ThreeWeights<T> three_weights(T isl, T isc, T isr, T floor) {
  const T is_min = fv_min(isl, fv_min(isc, isr));
  const T eps = weno_eps(isl + isc + isr, floor);
  const T lam = T(kWenoCentralWeight);
  ThreeWeights<T> w;
  w.l = weno_relative_weight(isl, is_min, eps);
  w.c = lam * weno_relative_weight(isc, is_min, eps);
  w.r = weno_relative_weight(isr, is_min, eps);
  w.inv = T(1) / (w.l + w.c + w.r);
  w.smooth = w.c * w.inv * (lam + T(2)) / lam;
  w.spread = (is_min + eps) / (fv_max(isl, fv_max(isc, isr)) + eps);
  return w;
}

// The switch of the cross modes from the smoothness of the lines along both of their
// axes: 1 (cross modes kept) where the centred candidates kept at least half their
// linear weight, 0 below a quarter, linear in between. It is exactly 1 on smooth, resolved
// data and on polynomials of the design degree, so it costs no accuracy there.
template <class T>
FLUXVIEW_HD T cross_mode_switch(T smooth) {
  return fv_min(T(1), fv_max(T(0), T(4) * smooth - T(1)));
}

// weno3's switch from the WENO mix to the optimal one (1/6, 2/3, 1/6): 1 where every
// candidate's indicator is within 16 times the smallest, 0 beyond 32 times, linear in the
// spread between. 16 is about where the weights themselves stop preferring the centred
// candidate ((10^5)^(1/4) = 17.8); a stencil across a jump has an indicator thousands of
// times the others'. On smooth data the indicators differ by O(h), so the switch is 1 and
// costs no accuracy. Measured in docs/fv.md: a switch at 2 to 4 times (or the cross
// modes' switch alone, which lets a candidate across a jump into the mix) lost half the
// gain on the vortex, or overshot at a jump next to the centred stencil.
inline constexpr double kWeno3OptimalSpread = 1.0 / 32;
template <class T>
FLUXVIEW_HD T optimal_mix_switch(T spread) {
  return fv_min(T(1), fv_max(T(0), spread / T(kWeno3OptimalSpread) - T(1)));
}

// And only where the five averages are no rougher than a resolved wave: the indicators'
// spread cannot tell noise at the grid scale (random data, say) from smooth data, since
// noise makes every candidate equally rough. Their fourth difference can: on a smooth field
// d4 = u0 - 4 u1 + 6 u2 - 4 u3 + u4 is O(h^4) where the five cells' range is O(h); on a
// sine, |d4| / range is at most 0.34 at 8 cells a wavelength, 0.67 at 6 and 1.06 at 5
// (at its extrema), on noise about 2 or more. With r^2 = d4^2 / (range^2 + floor): 1 up
// to r = 1/2 (fully open from about 7 cells a wavelength), 0 from r = 1, linear in r^2.
// The floor (weno_floor: variations below a millionth of the variable's scale) keeps the
// gate at 1 where a field is flat to rounding, so that rounding there does not flip it.
template <class T>
FLUXVIEW_HD T resolved_data_gate(const T u[5], T floor) {
  const T d4 = u[0] - T(4) * u[1] + T(6) * u[2] - T(4) * u[3] + u[4];
  const T lo = fv_min(fv_min(fv_min(u[0], u[1]), fv_min(u[2], u[3])), u[4]);
  const T hi = fv_max(fv_max(fv_max(u[0], u[1]), fv_max(u[2], u[3])), u[4]);
  const T scale2 = (hi - lo) * (hi - lo) + floor;
  if (!(scale2 > T(0))) return T(1);  // flat data: every mix is the same
  return fv_min(T(1), fv_max(T(0), (T(4) / T(3)) * (T(1) - d4 * d4 / scale2)));
}

// Piecewise linear: the theta-minmod slope of FvPhysics.hpp as the P1 mode (the second-
// order member of the family; no nonlinear weights, smooth = 1).
template <class T>
FLUXVIEW_HD LineModes<T> plm_line_modes(T um, T u0, T up, T theta) {
  LineModes<T> m;
  m.x = limited_slope(u0 - um, up - u0, theta);
  return m;
}

// Second order: u[0..2] are the averages of cells i-1 .. i+1; floor as for weno3. smooth
// is omega_c / gamma_c as for the higher orders (a degree-1 polynomial has no cross modes
// to switch, so nothing reads it yet).
template <class T>
FLUXVIEW_HD LineModes<T> weno2_line_modes(const T u[3], T floor = T(0)) {
  const T l = u[1] - u[0], c = T(0.5) * (u[2] - u[0]), r = u[2] - u[1];
  const ThreeWeights<T> w = three_weights(l * l, c * c, r * r, floor);
  LineModes<T> m;
  m.x = (w.l * l + w.c * c + w.r * r) * w.inv;
  m.smooth = w.smooth;
  return m;
}

// How the degree-1 member takes its slope: theta-minmod (fv.reconstruction = plm, with
// fv.theta) or the second-order WENO (weno2).
template <class T>
struct SlopeRule {
  T theta = T(1.5);
  bool weno = false;
  T weno_floor[3] = {T(kWenoFloor), T(kWenoFloor), T(kWenoFloor)};  // weno2's, per axis
};

// Third order: u[0..4] are the averages of cells i-2 .. i+2; floor: weno_floor of the
// variable's scale (0: scale-free weights); optimal: false keeps the WENO mix everywhere
// (MHD: CellReconstruction.hpp says why).
template <class T>
FLUXVIEW_HD LineModes<T> weno3_line_modes(const T u[5], T floor = T(0), bool optimal = true) {
  const T h = T(0.5);
  // Candidate modes (x, xx) on the left, centred and right stencils (exact for quadratics:
  // the mean of P1 over the cell at offset j is j, of P2 it is j^2).
  const T lx = h * (u[0] - T(4) * u[1] + T(3) * u[2]), lxx = h * (u[0] - T(2) * u[1] + u[2]);
  const T cx = h * (u[3] - u[1]), cxx = h * (u[1] - T(2) * u[2] + u[3]);
  const T rx = h * (-T(3) * u[2] + T(4) * u[3] - u[4]), rxx = h * (u[2] - T(2) * u[3] + u[4]);
  const T c13 = T(13) / T(3);
  const T isl = lx * lx + c13 * lxx * lxx;
  const T isc = cx * cx + c13 * cxx * cxx;
  const T isr = rx * rx + c13 * rxx * rxx;
  const ThreeWeights<T> w = three_weights(isl, isc, isr, floor);
  LineModes<T> m;
  m.x = (w.l * lx + w.c * cx + w.r * rx) * w.inv;
  m.xx = (w.l * lxx + w.c * cxx + w.r * rxx) * w.inv;
  m.smooth = w.smooth;
  // Where the data are smooth, the quadratics' optimal mix instead (the header says why).
  const T sixth = T(1) / T(6);
  const T g = optimal ? optimal_mix_switch(w.spread) * resolved_data_gate(u, floor) : T(0);
  m.x += g * ((lx + T(4) * cx + rx) * sixth - m.x);
  m.xx += g * ((lxx + T(4) * cxx + rxx) * sixth - m.xx);
  return m;
}

// Modes (x, xx, xxx) of the cubic through the averages of four consecutive cells, the
// first at offset s0 in {-3, -2, -1, 0} from the cell: u[0..3] (exact for cubics: the
// mean of P3 over the cell at offset j is j^3 + j/10).
template <class T>
FLUXVIEW_HD void cubic_candidate(const T u[4], int s0, T& x, T& xx, T& xxx) {
  const T i60 = T(1) / T(60), h = T(0.5), i6 = T(1) / T(6);
  switch (s0) {
    case -3:  // cells -3, -2, -1, 0
      x = (T(109) * u[3] - T(177) * u[2] + T(87) * u[1] - T(19) * u[0]) * i60;
      xx = (T(2) * u[3] - T(5) * u[2] + T(4) * u[1] - u[0]) * h;
      xxx = (u[3] - T(3) * u[2] + T(3) * u[1] - u[0]) * i6;
      break;
    case -2:  // cells -2, -1, 0, 1
      x = (T(33) * u[2] - T(63) * u[1] + T(11) * u[0] + T(19) * u[3]) * i60;
      xx = (u[1] - T(2) * u[2] + u[3]) * h;
      xxx = (-T(3) * u[2] + T(3) * u[1] - u[0] + u[3]) * i6;
      break;
    case -1:  // cells -1, 0, 1, 2
      x = (-T(33) * u[1] - T(19) * u[0] + T(63) * u[2] - T(11) * u[3]) * i60;
      xx = (u[0] - T(2) * u[1] + u[2]) * h;
      xxx = (T(3) * u[1] - u[0] - T(3) * u[2] + u[3]) * i6;
      break;
    default:  // cells 0, 1, 2, 3
      x = (-T(109) * u[0] + T(177) * u[1] - T(87) * u[2] + T(19) * u[3]) * i60;
      xx = (T(2) * u[0] - T(5) * u[1] + T(4) * u[2] - u[3]) * h;
      xxx = (-u[0] + T(3) * u[1] - T(3) * u[2] + u[3]) * i6;
      break;
  }
}

// IS of a cubic in local units: integral over the cell of (u')^2 + (u'')^2 + (u''')^2.
template <class T>
FLUXVIEW_HD T cubic_smoothness(T x, T xx, T xxx) {
  const T a = x + T(0.1) * xxx;
  return a * a + T(13) / T(3) * xx * xx + T(781) / T(20) * xxx * xxx;
}

// Fourth order: u[0..6] are the averages of cells i-3 .. i+3; floor as for weno3.
template <class T>
FLUXVIEW_HD LineModes<T> weno4_line_modes(const T u[7], T floor = T(0)) {
  T x[4], xx[4], xxx[4], is[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    cubic_candidate(u + k, k - 3, x[k], xx[k], xxx[k]);
    is[k] = cubic_smoothness(x[k], xx[k], xxx[k]);
  }
  const T is_min = fv_min(fv_min(is[0], is[1]), fv_min(is[2], is[3]));
  const T eps = weno_eps(is[0] + is[1] + is[2] + is[3], floor);
  const T lam = T(kWenoCentralWeight);
  T w[4], sum = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    w[k] = (k == 1 || k == 2 ? lam : T(1)) * weno_relative_weight(is[k], is_min, eps);
    sum += w[k];
  }
  const T inv = T(1) / sum;
  LineModes<T> m;
  m.x = m.xx = m.xxx = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    m.x += w[k] * x[k];
    m.xx += w[k] * xx[k];
    m.xxx += w[k] * xxx[k];
  }
  m.x *= inv;
  m.xx *= inv;
  m.xxx *= inv;
  m.smooth = (w[1] + w[2]) * inv * (T(2) * lam + T(2)) / (T(2) * lam);
  return m;
}

// WENO-Z at fifth order: the value at the face i+1/2 seen from cell i, from the averages
// u[0..4] of cells i-2 .. i+2 (the value at i-1/2 seen from cell i is the same function
// of the mirrored stencil u[4..0]).
template <class T>
FLUXVIEW_HD T wenoz5_face(const T u[5]) {
  const T q0 = (T(2) * u[0] - T(7) * u[1] + T(11) * u[2]) / T(6);
  const T q1 = (-u[1] + T(5) * u[2] + T(2) * u[3]) / T(6);
  const T q2 = (T(2) * u[2] + T(5) * u[3] - u[4]) / T(6);
  const T c13 = T(13) / T(12), q = T(0.25);
  const T a0 = u[0] - T(2) * u[1] + u[2], b0 = u[0] - T(4) * u[1] + T(3) * u[2];
  const T a1 = u[1] - T(2) * u[2] + u[3], b1 = u[1] - u[3];
  const T a2 = u[2] - T(2) * u[3] + u[4], b2 = T(3) * u[2] - T(4) * u[3] + u[4];
  const T be0 = c13 * a0 * a0 + q * b0 * b0;
  const T be1 = c13 * a1 * a1 + q * b1 * b1;
  const T be2 = c13 * a2 * a2 + q * b2 * b2;
  const T sum = be0 + be1 + be2;
  // Linear data, and data whose indicators underflow: below the smallest normal number
  // 1 / sum overflows and the relative indicators become inf * 0 = NaN. (A 3D MHD blast on
  // the adaptive mesh met it: momentum differences of 1e-164 ahead of the wave, squared.)
  if (!(sum >= std::numeric_limits<T>::min())) return q1 * T(0.6) + q0 * T(0.1) + q2 * T(0.3);
  // Indicators relative to their sum: the weights do not depend on the variable's units.
  const T inv = T(1) / sum, eps = T(1e-10);
  const T tau = fv_abs(be0 - be2) * inv;
  const T r0 = tau / (be0 * inv + eps), r1 = tau / (be1 * inv + eps), r2 = tau / (be2 * inv + eps);
  const T w0 = T(0.1) * (T(1) + r0 * r0), w1 = T(0.6) * (T(1) + r1 * r1),
          w2 = T(0.3) * (T(1) + r2 * r2);
  return (w0 * q0 + w1 * q1 + w2 * q2) / (w0 + w1 + w2);
}

}  // namespace fluxview::fv
