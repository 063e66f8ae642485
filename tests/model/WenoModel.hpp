#pragma once
// The model of the line reconstructions of the higher-order fv schemes, written from
// docs/fv.md and the papers with none of the solver's code (no WenoReconstruction.hpp):
//   * a candidate of degree d on d+1 consecutive cells is the polynomial
//     u0 + sum_n a_n P_n(xi) (P1 = xi, P2 = xi^2 - 1/12, P3 = xi^3 - 3 xi/20) whose means
//     over those cells equal their averages; the mean of P_n over the cell at offset j is
//     found here by integrating P_n exactly, and the coefficients by Gaussian elimination
//     in long double, once per stencil;
//   * its smoothness indicator is the integral over the cell of the squares of its first,
//     second and third derivatives, by 3-point Gauss quadrature (exact for these degrees);
//   * the weights are omega_k = lambda_k / (eps + IS_k)^4 normalised, lambda = 1e5 for the
//     centred stencils and 1 for the others, eps = 1e-12 sum_k IS_k + (k s)^2 + 1e-30
//     for a variable of scale s, k = 1e-6 (0.1 / N for weno2 along an axis of N cells; 0
//     where a test asks for scale-free weights; the caller gives (k s)^2); `smooth` is
//     the centred stencils' share of the weight over their share of the linear weights;
//   * at degree 2 the result then moves towards the three quadratics' optimal mix (1/6,
//     2/3, 1/6) by g = clamp(32 (eps + IS_min) / (eps + IS_max) - 1, 0, 1);
//   * WENO-Z at fifth order (Borges et al. 2008): the three parabolas' face values, Jiang
//     and Shu's indicators, tau = |beta_0 - beta_2|, weights d_k (1 + (tau / (beta_k + eps))^2)
//     with the betas and tau divided by their sum and eps = 1e-10 (docs/fv.md).
// In Tracked arithmetic (Tracked.hpp), so a comparison can say how many units in the last
// place of the solver's precision a difference is worth.
#include <array>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "tests/model/Tracked.hpp"

namespace fluxview::model {

struct LineModesModel {
  Tracked x, xx, xxx, smooth;
};

// Mean over the cell [j - 1/2, j + 1/2] of P_n, from its antiderivative.
inline long double legendre_mean_model(int n, int j) {
  auto anti = [n](long double s) -> long double {
    switch (n) {
      case 1:
        return s * s / 2;
      case 2:
        return s * s * s / 3 - s / 12;
      default:
        return s * s * s * s / 4 - 3 * s * s / 40;
    }
  };
  return anti(j + 0.5L) - anti(j - 0.5L);
}

// coef[n][c]: mode n+1 of the candidate on cells first .. first + d as a combination of
// the averages of those cells (index c from `first`). The cell itself has offset 0.
inline std::array<std::array<long double, 4>, 3> candidate_coefficients(int d, int first) {
  // Unknowns a_1..a_d; one equation per cell j != 0 of the stencil:
  // sum_n a_n mean_n(j) = u_j - u_0. Solve M a = I for the inverse, column by column.
  std::vector<int> cells;
  for (int c = 0; c <= d; ++c)
    if (first + c != 0) cells.push_back(first + c);
  long double m[3][6] = {};
  for (int r = 0; r < d; ++r) {
    for (int n = 0; n < d; ++n) m[r][n] = legendre_mean_model(n + 1, cells[r]);
    m[r][d + r] = 1;
  }
  for (int col = 0; col < d; ++col) {  // Gauss-Jordan with partial pivoting
    int piv = col;
    for (int r = col + 1; r < d; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[piv][col])) piv = r;
    for (int k = 0; k < 2 * d; ++k) std::swap(m[col][k], m[piv][k]);
    const long double p = m[col][col];
    for (int k = 0; k < 2 * d; ++k) m[col][k] /= p;
    for (int r = 0; r < d; ++r)
      if (r != col) {
        const long double f = m[r][col];
        for (int k = 0; k < 2 * d; ++k) m[r][k] -= f * m[col][k];
      }
  }
  std::array<std::array<long double, 4>, 3> coef{};
  for (int n = 0; n < d; ++n) {
    long double self = 0;
    for (int r = 0; r < d; ++r) {
      const long double g = m[n][d + r];  // d a_n / d u_{cells[r]}
      coef[n][cells[r] - first] = g;
      self -= g;
    }
    coef[n][-first] = self;
  }
  return coef;
}

// Value of the k-th derivative (k = 1..3) of sum_n a_n P_n at s.
inline Tracked derivative_model(const Tracked a[3], int k, long double s) {
  const Tracked p1 = k == 1 ? Tracked(1) : Tracked(0);
  Tracked v = a[0] * p1;
  // P2' = 2s, P2'' = 2; P3' = 3s^2 - 3/20, P3'' = 6s, P3''' = 6.
  const long double d2[4] = {0, 2 * s, 2, 0};
  const long double d3[4] = {0, 3 * s * s - 0.15L, 6 * s, 6};
  v = v + a[1] * rounded(d2[k], k == 1 ? 1 : 0) + a[2] * rounded(d3[k], 2);
  return v;
}

inline Tracked smoothness_model(const Tracked a[3]) {
  const long double g = std::sqrt(0.6L) / 2;  // 3-point Gauss on [-1/2, 1/2]
  const long double xs[3] = {-g, 0, g}, ws[3] = {5.0L / 18, 8.0L / 18, 5.0L / 18};
  Tracked is(0);
  for (int q = 0; q < 3; ++q)
    for (int k = 1; k <= 3; ++k) {
      const Tracked d = derivative_model(a, k, xs[q]);
      is = is + rounded(ws[q], 1) * d * d;
    }
  return is;
}

// Modes of one line by the whole-polynomial WENO of degree 2 (u: 5 cells, i-2..i+2) or 3
// (u: 7 cells, i-3..i+3). floor: the part of eps that variations below a millionth of the
// variable's scale s contribute, (1e-6 s)^2 (0: scale-free weights).
inline LineModesModel weno_line_model(int degree, const Tracked* u,
                                      const Tracked& floor = Tracked(0)) {
  const int r = degree, nc = degree + 1, ns = degree + 1;  // reach, cells per stencil, stencils
  std::vector<std::array<Tracked, 3>> a(ns);
  std::vector<Tracked> is(ns);
  Tracked sum_is(0);
  for (int k = 0; k < ns; ++k) {
    const int first = -r + k;
    const auto coef = candidate_coefficients(degree, first);
    for (int n = 0; n < 3; ++n) {
      a[k][n] = Tracked(0);
      if (n >= degree) continue;
      for (int c = 0; c < nc; ++c) a[k][n] += rounded(coef[n][c], 1) * u[first + c + r];
    }
    is[k] = smoothness_model(a[k].data());
    sum_is += is[k];
  }
  const Tracked eps = rounded(1e-12L, 1) * sum_is + floor + rounded(1e-30L, 1);
  auto central = [&](int k) { return degree == 2 ? k == 1 : (k == 1 || k == 2); };
  std::vector<Tracked> w(ns);
  Tracked total(0), cw(0);
  long double lin_total = 0, lin_central = 0;
  for (int k = 0; k < ns; ++k) {
    const long double lam = central(k) ? 1e5L : 1;
    const Tracked e = eps + is[k];
    w[k] = Tracked(lam) / (e * e * e * e);
    total += w[k];
    lin_total += lam;
    if (central(k)) {
      cw += w[k];
      lin_central += lam;
    }
  }
  LineModesModel m;
  Tracked* out[3] = {&m.x, &m.xx, &m.xxx};
  for (int n = 0; n < 3; ++n) {
    Tracked s(0);
    for (int k = 0; k < ns; ++k) s += w[k] * a[k][n];
    *out[n] = s / total;
  }
  m.smooth = cw / total / rounded(lin_central / lin_total, 2);
  if (degree == 2) {
    // Where the three quadratics' indicators agree to within 16 times, their optimal mix
    // 1/6, 2/3, 1/6 (exact at the faces for cubics), the WENO mix where 32 times apart,
    // blended linearly in (eps + IS_min) / (eps + IS_max) between (docs/fv.md).
    const Tracked lo = min(is[0], min(is[1], is[2])), hi = max(is[0], max(is[1], is[2]));
    const Tracked spread = (lo + eps) / (hi + eps);
    // The clamped ends are exact (min and max would carry the ramp's error bound into them).
    const Tracked ramp = spread * rounded(32, 0) - Tracked(1);
    const Tracked g_spread = ramp.v >= 1 ? Tracked(1) : ramp.v <= 0 ? Tracked(0) : ramp;
    // Times the gate of resolved data: with r^2 = d4^2 / (range^2 + floor), d4 the fourth
    // difference of the five averages, 1 up to r = 1/2, 0 from r = 1, linear in r^2 between;
    // 1 on flat data.
    const Tracked d4 =
        u[0] - rounded(4, 0) * u[1] + rounded(6, 0) * u[2] - rounded(4, 0) * u[3] + u[4];
    const Tracked range = max(max(max(u[0], u[1]), max(u[2], u[3])), u[4]) -
                          min(min(min(u[0], u[1]), min(u[2], u[3])), u[4]);
    const Tracked scale2 = range * range + floor;
    Tracked gate(1);
    if (scale2.v > 0) {
      const Tracked lin = rounded(4.0L / 3, 1) * (Tracked(1) - d4 * d4 / scale2);
      gate = lin.v >= 1 ? Tracked(1) : lin.v <= 0 ? Tracked(0) : lin;
    }
    const Tracked g = g_spread * gate;
    for (int n = 0; n < 2; ++n) {
      const Tracked optimal = (a[0][n] + rounded(4, 0) * a[1][n] + a[2][n]) / 6;
      *out[n] = *out[n] + g * (optimal - *out[n]);
    }
  }
  return m;
}

// Second order (weno2): the slope of the cell from three linear candidates on cells
// i-1..i+1 (u: 3 cells), the one-sided differences and the centred one, each a line whose
// smoothness indicator is its slope squared (the integral of u'^2 over the cell), weighted
// as above with lambda = 1e5 for the centred one.
inline LineModesModel weno2_line_model(const Tracked* u, const Tracked& floor = Tracked(0)) {
  const Tracked slope[3] = {u[1] - u[0], (u[2] - u[0]) / 2, u[2] - u[1]};
  Tracked sum_is(0), is[3];
  for (int k = 0; k < 3; ++k) {
    is[k] = slope[k] * slope[k];
    sum_is += is[k];
  }
  const Tracked eps = rounded(1e-12L, 1) * sum_is + floor + rounded(1e-30L, 1);
  Tracked num(0), total(0), cw(0);
  for (int k = 0; k < 3; ++k) {
    const Tracked e = eps + is[k];
    const Tracked w = Tracked(k == 1 ? 1e5L : 1) / (e * e * e * e);
    num += w * slope[k];
    total += w;
    if (k == 1) cw = w;
  }
  LineModesModel m;
  m.x = num / total;
  m.xx = m.xxx = Tracked(0);
  m.smooth = cw / total / rounded(1e5L / (1e5L + 2), 2);
  return m;
}

// WENO-Z5: the value at the face i+1/2 from the averages of cells i-2..i+2.
inline Tracked wenoz5_model(const Tracked* u) {
  // The three parabolas' values at the face (Jiang & Shu 1996, eq. 2.11).
  const Tracked q[3] = {(rounded(2, 0) * u[0] - rounded(7, 0) * u[1] + rounded(11, 0) * u[2]) / 6,
                        (-u[1] + rounded(5, 0) * u[2] + rounded(2, 0) * u[3]) / 6,
                        (rounded(2, 0) * u[2] + rounded(5, 0) * u[3] - u[4]) / 6};
  auto beta = [&](int k) {
    const Tracked* v = u + k;
    const Tracked a = v[0] - rounded(2, 0) * v[1] + v[2];
    Tracked b;
    if (k == 0) b = v[0] - rounded(4, 0) * v[1] + rounded(3, 0) * v[2];
    if (k == 1) b = v[0] - v[2];
    if (k == 2) b = rounded(3, 0) * v[0] - rounded(4, 0) * v[1] + v[2];
    return rounded(13.0L / 12, 1) * a * a + rounded(0.25L, 0) * b * b;
  };
  const Tracked be[3] = {beta(0), beta(1), beta(2)};
  const Tracked sum = be[0] + be[1] + be[2];
  const long double d[3] = {0.1L, 0.6L, 0.3L};
  if (!(sum.v > 0))
    return rounded(d[0], 1) * q[0] + rounded(d[1], 1) * q[1] + rounded(d[2], 1) * q[2];
  const Tracked tau = abs(be[0] - be[2]) / sum;
  Tracked num(0), den(0);
  for (int k = 0; k < 3; ++k) {
    const Tracked r = tau / (be[k] / sum + rounded(1e-10L, 1));
    const Tracked w = rounded(d[k], 1) * (Tracked(1) + r * r);
    num += w * q[k];
    den += w;
  }
  return num / den;
}

}  // namespace fluxview::model
