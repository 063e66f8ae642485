// The one-dimensional reconstructions (sim/fv/WenoReconstruction.hpp): exact on
// polynomials of their design degree whatever the nonlinear weights do, their design
// order on smooth data, no new extrema at a jump, the same weights whatever the units.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sim/fv/WenoReconstruction.hpp"

using namespace fluxview::fv;

namespace {

// Exact cell averages on cells of width h centred at x0 + j h of the function with
// antiderivative F.
template <class F>
double average(const F& antiderivative, double x0, int j, double h) {
  return (antiderivative(x0 + (j + 0.5) * h) - antiderivative(x0 + (j - 0.5) * h)) / h;
}

// The value of the modal polynomial (u0, x, xx, xxx) at xi.
double modal_value(double u0, const LineModes<double>& m, double xi) {
  return u0 + m.x * xi + m.xx * (xi * xi - 1.0 / 12) + m.xxx * (xi * xi * xi - 0.15 * xi);
}

}  // namespace

TEST(WenoReconstruction, ExactOnPolynomialsOfTheDesignDegree) {
  // Random polynomials with wildly different candidate smoothness (so the nonlinear
  // weights are far from linear): every candidate is exact, so the mixture is too.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coef(-3, 3);
  for (int trial = 0; trial < 200; ++trial) {
    const double a = coef(rng), b = coef(rng), c = coef(rng), d = coef(rng);
    // u(xi) = a + b xi + c P2(xi) + d P3(xi) in the local units of cell 0; cell j's average
    // is a + b j + c j^2 + d (j^3 + j/10).
    auto avg = [&](int j, bool cubic) {
      return a + b * j + c * j * j + (cubic ? d * (j * j * j + 0.1 * j) : 0.0);
    };
    double u5[5], u7[7];
    for (int j = -2; j <= 2; ++j) u5[j + 2] = avg(j, false);
    for (int j = -3; j <= 3; ++j) u7[j + 3] = avg(j, true);
    const LineModes<double> m3 = weno3_line_modes(u5);
    EXPECT_NEAR(m3.x, b, 1e-12);
    EXPECT_NEAR(m3.xx, c, 1e-12);
    EXPECT_NEAR(m3.smooth, 1.0, 1e-12);  // all candidates equal: linear weights
    const LineModes<double> m4 = weno4_line_modes(u7);
    EXPECT_NEAR(m4.x, b, 1e-12);
    EXPECT_NEAR(m4.xx, c, 1e-12);
    EXPECT_NEAR(m4.xxx, d, 1e-12);
    EXPECT_NEAR(m4.smooth, 1.0, 1e-12);
    // PLM with the MC limiter is exact on monotone linear data.
    const LineModes<double> m1 = plm_line_modes(a - b, a, a + b, 2.0);
    EXPECT_NEAR(m1.x, b, 1e-12);
  }
  // WENO-Z reproduces the face value of a quadratic exactly (each of its stencils does).
  auto quad_antider = [](double x) { return 0.5 * x + 0.3 * x * x - 0.4 * x * x * x / 3; };
  double u[5];
  for (int j = -2; j <= 2; ++j) u[j + 2] = average(quad_antider, 0.0, j, 0.1);
  EXPECT_NEAR(wenoz5_face(u), 0.5 + 0.6 * 0.05 - 0.4 * 0.05 * 0.05, 1e-13);
}

TEST(WenoReconstruction, WenoZStaysFiniteOnDataWhoseIndicatorsUnderflow) {
  // Ahead of a 3D MHD blast on the adaptive mesh (found there) the momentum was 1e-164 to
  // 1e-150: differences whose squares are subnormal, so 1 / sum overflowed and the face
  // value was NaN.
  const double u[5] = {0, 0, 0, 0, 1e-160};
  const double face = wenoz5_face(u);
  ASSERT_TRUE(std::isfinite(face));
  EXPECT_LE(std::fabs(face), 1e-160);
  const float uf[5] = {0, 0, 0, 0, 1e-20f};
  const float ff = wenoz5_face(uf);
  ASSERT_TRUE(std::isfinite(ff));
  EXPECT_LE(std::fabs(ff), 1e-20f);
}

TEST(WenoReconstruction, DesignOrderOnSmoothData) {
  // Face values of u = sin(2 pi x) + cos(pi x)/2 from exact averages; max error over the
  // cells of [0, 1] at N and 2N cells; the observed order.
  auto f = [](double x) { return std::sin(2 * M_PI * x) + 0.5 * std::cos(M_PI * x); };
  auto F = [](double x) {
    return -std::cos(2 * M_PI * x) / (2 * M_PI) + 0.5 * std::sin(M_PI * x) / M_PI;
  };
  auto errors = [&](int n, int which) {
    const double h = 1.0 / n;
    double e = 0;
    for (int i = 0; i < n; ++i) {
      const double x0 = (i + 0.5) * h;
      double u[7];
      for (int j = -3; j <= 3; ++j) u[j + 3] = average(F, x0, j, h);
      double right = 0, left = 0;
      if (which == 3) {
        const LineModes<double> m = weno3_line_modes(u + 1);
        right = modal_value(u[3], m, 0.5);
        left = modal_value(u[3], m, -0.5);
      } else if (which == 4) {
        const LineModes<double> m = weno4_line_modes(u);
        right = modal_value(u[3], m, 0.5);
        left = modal_value(u[3], m, -0.5);
      } else {
        right = wenoz5_face(u + 1);
        const double mirrored[5] = {u[5], u[4], u[3], u[2], u[1]};
        left = wenoz5_face(mirrored);
      }
      e = std::max(e,
                   std::max(std::fabs(right - f(x0 + 0.5 * h)), std::fabs(left - f(x0 - 0.5 * h))));
    }
    return e;
  };
  const struct {
    int which;
    double min_order;
  } cases[] = {{3, 2.8}, {4, 3.8}, {5, 4.7}};
  for (const auto& c : cases) {
    const double e1 = errors(40, c.which), e2 = errors(80, c.which), e3 = errors(160, c.which);
    const double o2 = std::log2(e1 / e2), o3 = std::log2(e2 / e3);
    std::printf("scheme %d: max face error %.3e %.3e %.3e, orders %.2f %.2f\n", c.which, e1, e2, e3,
                o2, o3);
    EXPECT_GT(o3, c.min_order) << "scheme " << c.which;
  }
}

TEST(WenoReconstruction, NoNewExtremaAtAJumpAndTheSwitchOpens) {
  // A jump between cells 0 and 1 (and between -1 and 0): the face values stay within the
  // range of the data to a small fraction of the jump, and the smoothness measure drops.
  for (int pos = -2; pos <= 2; ++pos) {
    double u[7];
    for (int j = -3; j <= 3; ++j) u[j + 3] = j <= pos ? 1.0 : 0.1;
    const LineModes<double> m4 = weno4_line_modes(u);
    const LineModes<double> m3 = weno3_line_modes(u + 1);
    for (double xi : {-0.5, 0.5}) {
      EXPECT_LE(modal_value(u[3], m4, xi), 1.0 + 1e-3) << pos;
      EXPECT_GE(modal_value(u[3], m4, xi), 0.1 - 1e-3) << pos;
      EXPECT_LE(modal_value(u[3], m3, xi), 1.0 + 1e-3) << pos;
      EXPECT_GE(modal_value(u[3], m3, xi), 0.1 - 1e-3) << pos;
    }
    if (pos == -1 || pos == 0) {  // the jump next to the cell: the centred candidates cross it
      EXPECT_LT(m4.smooth, 0.01) << pos;
      EXPECT_LT(m3.smooth, 0.01) << pos;
      EXPECT_EQ(cross_mode_switch(m4.smooth), 0.0);
    }
    double w[5];
    for (int j = -2; j <= 2; ++j) w[j + 2] = u[j + 3];
    const double face = wenoz5_face(w);
    EXPECT_LE(face, 1.0 + 1e-3);
    EXPECT_GE(face, 0.1 - 1e-3);
  }
}

TEST(WenoReconstruction, WeightsDoNotDependOnUnits) {
  // The relative epsilon: data scaled by 1e-6 or 1e6 gives the scaled modes.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> v(0, 1);
  for (int trial = 0; trial < 50; ++trial) {
    double u[7], lo[7], hi[7];
    for (int j = 0; j < 7; ++j) {
      u[j] = v(rng) + (j > 3 ? 2.0 : 0.0);
      lo[j] = 1e-6 * u[j];
      hi[j] = 1e6 * u[j];
    }
    const LineModes<double> m = weno4_line_modes(u), ml = weno4_line_modes(lo),
                            mh = weno4_line_modes(hi);
    EXPECT_NEAR(ml.x * 1e6, m.x, 1e-9 * (1 + std::fabs(m.x)));
    EXPECT_NEAR(mh.xxx * 1e-6, m.xxx, 1e-9 * (1 + std::fabs(m.xxx)));
    EXPECT_NEAR(ml.smooth, m.smooth, 1e-9);
    EXPECT_NEAR(wenoz5_face(lo + 1) * 1e6, wenoz5_face(u + 1), 1e-9);
  }
}

TEST(WenoReconstruction, FloatMatchesDoubleAndStaysFinite) {
  // Single precision: no overflow in the weights even for a jump of 10 orders of magnitude.
  float u[7] = {1e-5f, 1e-5f, 1e-5f, 1e-5f, 1e5f, 1e5f, 1e5f};
  const LineModes<float> m = weno4_line_modes(u);
  EXPECT_TRUE(std::isfinite(m.x) && std::isfinite(m.xx) && std::isfinite(m.xxx));
  const float w[5] = {1e-5f, 1e-5f, 1e-5f, 1e5f, 1e5f};
  EXPECT_TRUE(std::isfinite(wenoz5_face(w)));
  const LineModes<float> c = weno3_line_modes(w);
  EXPECT_TRUE(std::isfinite(c.x) && std::isfinite(c.xx));
  // Smooth data: float and double agree to float round-off.
  double ud[7];
  float uf[7];
  for (int j = 0; j < 7; ++j) uf[j] = float(ud[j] = std::sin(0.3 * j));
  const LineModes<double> md = weno4_line_modes(ud);
  const LineModes<float> mf = weno4_line_modes(uf);
  EXPECT_NEAR(mf.x, md.x, 1e-5);
  EXPECT_NEAR(mf.xx, md.xx, 1e-5);
}
