// The face flux from stored point values (sim/fv/ModalFaceFlux.hpp, face_flux_at_points),
// which the fourth-order stage uses (FvModalLoops.hpp, pass 3a), against the flux from the
// two polynomials (modal_face_flux), and from the values one time layer at a time
// (face_flux_in_layers, the device's degree-2 MHD pass): the same bits, for ADER and
// Runge-Kutta rules, along
// each axis, in 1D, 2D and 3D, and where the face falls back to first order. The point
// values are computed as pass 3a computes them: one variable's modes at a time.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/EulerPolicies.hpp"
#include "sim/fv/ModalFaceFlux.hpp"
#include "tests/support/SameBits.hpp"

using namespace fluxview::fv;
using fluxview::test::same_bits;

namespace {

constexpr int kDeg = 3;
using Poly = SpaceTimePolynomial<double, 5, kDeg>;
using S = State<double, 5>;

// A smooth state (rho 1, u (0.3, -0.2, 0.1), p 1) with small random higher modes; `wild`
// makes the modes large enough that the face often falls back to first order.
Poly random_poly(std::mt19937& rng, bool wild) {
  std::uniform_real_distribution<double> d(-1, 1);
  Poly st{};
  const double rho = 1, u[3] = {0.3, -0.2, 0.1}, p = 1, gamma = 1.4;
  st.c[0].v[0] = rho;
  for (int a = 0; a < 3; ++a) st.c[0].v[1 + a] = rho * u[a];
  st.c[0].v[4] = p / (gamma - 1) + 0.5 * rho * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  const double scale = wild ? 3.0 : 0.01;
  for (int m = 1; m < space_time_modes(kDeg); ++m)
    for (int v = 0; v < 5; ++v) st.c[m].v[v] = scale * d(rng);
  return st;
}

template <int D>
void check(const EulerFaceSolver<double, 5>& rs, const Poly& L, const Poly& R, const bool active[3],
           int nt, int& fallbacks) {
  bool fb_poly = false, fb_points = false;
  const S from_poly = modal_face_flux<D, kDeg>(rs, L, R, active, nt, fb_poly);
  const FaceRule<D, double> rule = face_rule_of<D, kDeg, double>(active, nt);
  // The points as pass 3a stores them: [side][point][variable].
  double stored[2][kMaxFacePoints][5];
  for (int side = 0; side < 2; ++side)
    for (int v = 0; v < 5; ++v)
      for (int p = 0; p < rule.points(); ++p) {
        double pos[3], tau;
        rule.point(p, side, pos, tau);
        double phi[modes_up_to(kDeg)];
        basis_at<kDeg>(pos, phi);
        const Poly& st = side == 0 ? L : R;
        stored[side][p][v] =
            space_time_value_of<kDeg, double>([&](int m) { return st.c[m].v[v]; }, phi, tau, nt);
      }
  const auto value = [&](int side, int p, const double*, double) {
    S u;
    for (int v = 0; v < 5; ++v) u.v[v] = stored[side][p][v];
    return u;
  };
  const S from_points = face_flux_at_points<D>(rs, rule, L.c[0], R.c[0], value, fb_points);
  // The same values one time layer at a time, as the device's degree-2 MHD face pass
  // streams them (layered_face_fluxes).
  bool fb_layers = false;
  const auto layer = [&](int t, S(*u)[kMaxFaceSpacePoints]) {
    for (int side = 0; side < 2; ++side)
      for (int q = 0; q < rule.n1 * rule.n2; ++q)
        for (int v = 0; v < 5; ++v) u[side][q].v[v] = stored[side][q * rule.nt + t][v];
  };
  const S from_layers = face_flux_in_layers<D>(rs, rule, L.c[0], R.c[0], layer, fb_layers);
  EXPECT_EQ(fb_points, fb_poly);
  EXPECT_EQ(fb_layers, fb_poly);
  fallbacks += fb_poly ? 1 : 0;
  for (int v = 0; v < 5; ++v) {
    EXPECT_TRUE(same_bits(from_points.v[v], from_poly.v[v]))
        << "axis " << D << ", variable " << v << ": " << from_points.v[v] << " vs "
        << from_poly.v[v];
    EXPECT_TRUE(same_bits(from_layers.v[v], from_poly.v[v]))
        << "in layers, axis " << D << ", variable " << v << ": " << from_layers.v[v] << " vs "
        << from_poly.v[v];
  }
}

}  // namespace

TEST(FacePoints, TheRulesPointsAndWeights) {
  const bool all[3] = {true, true, true}, x_only[3] = {true, false, false};
  const auto sum = [](const auto& rule) {
    double s = 0;
    for (int a = 0; a < rule.n1; ++a)
      for (int b = 0; b < rule.n2; ++b)
        for (int t = 0; t < rule.nt; ++t) {
          EXPECT_GE(rule.xt[t], 0.0);
          EXPECT_LE(rule.xt[t], 1.0);
          s += rule.weight(a, b, t);
        }
    return s;
  };
  EXPECT_EQ((face_rule_of<0, 3, double>(all, 3).points()), 8);  // 2 x 2 in space, 2 in time
  EXPECT_EQ((face_rule_of<2, 3, double>(all, 0).points()), 4);  // Runge-Kutta: one instant
  EXPECT_EQ((face_rule_of<0, 3, double>(x_only, 3).points()), 2);
  EXPECT_EQ((face_rule_of<0, 1, double>(all, 1).points()), 1);  // degree 1: the face centre
  EXPECT_NEAR(sum(face_rule_of<1, 3, double>(all, 3)), 1.0, 1e-15);
  EXPECT_NEAR(sum(face_rule_of<0, 3, double>(x_only, 0)), 1.0, 1e-15);
  // The two sides of a point meet on the face: +1/2 below, -1/2 above, the rest shared.
  const FaceRule<1, double> r = face_rule_of<1, 3, double>(all, 3);
  for (int p = 0; p < r.points(); ++p) {
    double lo[3], hi[3], t0, t1;
    r.point(p, 0, lo, t0);
    r.point(p, 1, hi, t1);
    EXPECT_EQ(lo[1], 0.5);
    EXPECT_EQ(hi[1], -0.5);
    EXPECT_EQ(lo[0], hi[0]);
    EXPECT_EQ(lo[2], hi[2]);
    EXPECT_EQ(t0, t1);
  }
}

TEST(FacePoints, FluxFromPointValuesIsTheFluxFromThePolynomialsBitForBit) {
  std::mt19937 rng(7);
  EulerFaceSolver<double, 5> rs;
  rs.ph.gamma = 1.4;
  const bool dims[3][3] = {{true, false, false}, {true, true, false}, {true, true, true}};
  int fallbacks = 0, faces = 0;
  for (const Riemann riemann : {Riemann::hllc, Riemann::hll, Riemann::llf, Riemann::hlli}) {
    rs.ph.riemann = riemann;
    for (const auto& active : dims)
      for (int nt : {0, kDeg})
        for (int trial = 0; trial < 4; ++trial) {
          const bool wild = trial == 3;
          const Poly L = random_poly(rng, wild), R = random_poly(rng, wild);
          check<0>(rs, L, R, active, nt, fallbacks);
          if (active[1]) check<1>(rs, L, R, active, nt, fallbacks);
          if (active[2]) check<2>(rs, L, R, active, nt, fallbacks);
          faces += 1 + int(active[1]) + int(active[2]);
        }
  }
  // The large modes of every fourth pair send some faces to the first-order flux, the
  // small ones none: both branches were compared.
  std::printf("%d of %d faces fell back\n", fallbacks, faces);
  EXPECT_GT(fallbacks, 0);
  EXPECT_LT(fallbacks, faces / 4 + 1);
}
