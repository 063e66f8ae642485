#pragma once
// The polynomial a higher-order finite-volume scheme keeps in each cell: a modal
// expansion in the cell's local coordinates (xi, eta, zeta) in [-1/2, 1/2]^3 on the
// scaled Legendre polynomials
//   P0 = 1,  P1(s) = s,  P2(s) = s^2 - 1/12,  P3(s) = s^3 - 3 s / 20,
// truncated to total degree <= 3 (the modal ADER-WENO basis of Balsara et al. 2009,
// JCP 228, 2480, and Balsara et al. 2013, JCP 235, 934). Every mode but the first has
// zero mean over the cell, so mode 0 is the cell average, and the mean of a mode over a
// neighbour cell at integer offset j along an axis is j (P1), j^2 (P2), j^3 + j/10 (P3):
// that is what turns cell averages into modes (WenoReconstruction.hpp,
// CellReconstruction.hpp).
//
// Mode numbering (degree 0: 1 mode, <= 1: 4, <= 2: 10, <= 3: 20):
//   0  1
//   1  x      2  y      3  z                                (P1 of one axis)
//   4  xx     5  yy     6  zz                               (P2 of one axis)
//   7  xy     8  yz     9  zx                               (P1 P1)
//   10 xxx    11 yyy    12 zzz                              (P3 of one axis)
//   13 xxy    14 xxz    15 yyx    16 yyz    17 zzx    18 zzy  (P2 of a, P1 of b)
//   19 xyz                                                  (P1 P1 P1)
// The functions here are pointwise (FLUXVIEW_HD) and know nothing of the physics beyond
// a State of NV numbers.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"

namespace fluxview::fv {

// Modes of a polynomial of total degree <= d in three variables (0 for d < 0).
FLUXVIEW_HD constexpr int modes_up_to(int d) {
  return d < 0 ? 0 : (d + 1) * (d + 2) * (d + 3) / 6;
}

// Mode numbers by the axes they involve (a, b, c in 0..2, a != b).
FLUXVIEW_HD constexpr int mode_p1(int a) {
  return 1 + a;
}
FLUXVIEW_HD constexpr int mode_p2(int a) {
  return 4 + a;
}
// P1(a) P1(b): xy = 7, yz = 8, zx = 9 whichever order a, b come in.
FLUXVIEW_HD constexpr int mode_p1p1(int a, int b) {
  return (a + b == 1) ? 7 : (a + b == 3) ? 8 : 9;
}
FLUXVIEW_HD constexpr int mode_p3(int a) {
  return 10 + a;
}
// P2(a) P1(b).
FLUXVIEW_HD constexpr int mode_p2p1(int a, int b) {
  return 13 + 2 * a + (b < a ? b : b - 1);
}
inline constexpr int kModeXyz = 19;

// The scaled Legendre polynomials on [-1/2, 1/2].
template <class T>
FLUXVIEW_HD T legendre_p2(T s) {
  return s * s - T(1) / T(12);
}
template <class T>
FLUXVIEW_HD T legendre_p3(T s) {
  return s * (s * s - T(3) / T(20));
}

// The values of the basis functions of total degree <= Degree at a point, in mode order.
template <int Degree, class T>
FLUXVIEW_HD void basis_at(const T p[3], T* phi) {
  phi[0] = T(1);
  if constexpr (Degree >= 1) {
    for (int a = 0; a < 3; ++a) phi[mode_p1(a)] = p[a];
  }
  if constexpr (Degree >= 2) {
    for (int a = 0; a < 3; ++a) phi[mode_p2(a)] = legendre_p2(p[a]);
    phi[7] = p[0] * p[1];
    phi[8] = p[1] * p[2];
    phi[9] = p[2] * p[0];
  }
  if constexpr (Degree >= 3) {
    for (int a = 0; a < 3; ++a) phi[mode_p3(a)] = legendre_p3(p[a]);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        if (a != b) phi[mode_p2p1(a, b)] = legendre_p2(p[a]) * p[b];
    phi[kModeXyz] = p[0] * p[1] * p[2];
  }
}

// Value at the point p of the polynomial with modes c[0 .. modes_up_to(Degree)).
template <int Degree, class T, int NV>
FLUXVIEW_HD State<T, NV> evaluate_modes(const State<T, NV>* c, const T p[3]) {
  T phi[modes_up_to(Degree)];
  basis_at<Degree>(p, phi);
  State<T, NV> v = c[0];
#pragma unroll
  for (int m = 1; m < modes_up_to(Degree); ++m)
#pragma unroll
    for (int k = 0; k < NV; ++k) v.v[k] += c[m].v[k] * phi[m];
  return v;
}

// The two-point Gauss-Legendre rule on [-1/2, 1/2] (exact to degree 3, weights 1/2):
// nodes at -+ 1/(2 sqrt 3). On [0, 1] (time) the nodes are 1/2 -+ the same offset.
template <class T>
FLUXVIEW_HD constexpr T gauss2_offset() {
  return T(0.28867513459481288225457439025097872782380087563506);
}

}  // namespace fluxview::fv
