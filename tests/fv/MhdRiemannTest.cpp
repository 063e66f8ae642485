// The pointwise pieces of ideal MHD (MhdState.hpp, MhdRiemann.hpp): conversions, the fast
// speed, and the Riemann solvers' consistency, their exactness for the discontinuities
// HLLD is built to hold (a contact and a rotational discontinuity with B_n != 0), and the
// exact solution of the GLM pair (B_n, psi).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <memory>

#include "sim/fv/FvPhysics.hpp"

using namespace fluxview::fv;

namespace {

using S9 = State<double, 9>;
using S10 = State<double, 10>;

// Primitive MHD state (rho, u, p, B, psi).
S9 prim(double rho, double ux, double uy, double uz, double p, double bx, double by, double bz,
        double psi = 0) {
  return S9{{rho, ux, uy, uz, p, bx, by, bz, psi}};
}

Physics<double> physics(Riemann r, double gamma = 5.0 / 3, double ch = 0) {
  Physics<double> ph;
  ph.gamma = gamma;
  ph.riemann = r;
  ph.ch = ch;
  return ph;
}

double max_difference(const S9& a, const S9& b) {
  double d = 0;
  for (int m = 0; m < 9; ++m) d = std::max(d, std::fabs(a.v[m] - b.v[m]));
  return d;
}

// The flux of one state along D as the solvers must return it for equal sides: the
// seven-wave flux with psi in the B_n slot and c_h^2 B_n in psi's.
template <int D>
S9 consistent_flux(const S9& q, double gamma, double ch) {
  return mhd_glm_flux<D>(q, prim_to_cons(q, gamma), ch);
}

}  // namespace

TEST(MhdState, ConversionsRoundTripAndEnergyHoldsTheField) {
  const S10 q{{1.3, 0.2, -0.4, 0.7, 0.9, 0.5, -1.1, 0.3, 0.05, 0.25}};
  const double g = 5.0 / 3;
  const S10 u = prim_to_cons(q, g);
  EXPECT_DOUBLE_EQ(u.v[kEnergy],
                   0.9 / (g - 1) + 0.5 * 1.3 * (0.04 + 0.16 + 0.49) + 0.5 * (0.25 + 1.21 + 0.09));
  EXPECT_DOUBLE_EQ(u.v[9], 1.3 * 0.25);  // rho c, the tracer last
  Physics<double> ph;
  ph.gamma = g;
  const S10 back = cons_to_prim(u, ph);
  for (int m = 0; m < 10; ++m) EXPECT_NEAR(back.v[m], q.v[m], 1e-14) << m;
  EXPECT_NEAR(raw_pressure(u, ph), 0.9, 1e-14);
}

TEST(MhdState, FastSpeedLimits) {
  const double g = 1.4, a = std::sqrt(g * 1.0 / 2.0);
  // No field: the sound speed.
  EXPECT_NEAR(fast_speed<0>(prim(2, 0, 0, 0, 1, 0, 0, 0), g), a, 1e-15);
  // Field along the normal: the larger of the sound and Alfven speeds.
  const double ca = 3 / std::sqrt(2.0);
  EXPECT_NEAR(fast_speed<1>(prim(2, 0, 0, 0, 1, 0, 3, 0), g), std::max(a, ca), 1e-14);
  // Field across the normal: sqrt(a^2 + c_A^2).
  EXPECT_NEAR(fast_speed<2>(prim(2, 0, 0, 0, 1, 0, 3, 0), g), std::sqrt(a * a + ca * ca), 1e-14);
  // The CFL rate sums |u_a| + c_f along the active axes.
  const double inv[3] = {10, 0, 5};
  const S9 q = prim(2, 0.5, 0, -0.25, 1, 0, 3, 0);
  EXPECT_NEAR(mhd_signal_rate(q, g, inv),
              (0.5 + std::sqrt(a * a + ca * ca)) * 10 + (0.25 + std::sqrt(a * a + ca * ca)) * 5,
              1e-12);
}

TEST(MhdRiemann, EverySolverIsConsistentForEqualStates) {
  const S9 q = prim(1.2, 0.3, -0.2, 0.1, 0.8, 0.6, -0.4, 0.9, 0.02);
  for (Riemann r : {Riemann::llf, Riemann::hll, Riemann::hlle, Riemann::hlld})
    for (double ch : {0.0, 2.5}) {
      S9 want0 = consistent_flux<0>(q, 5.0 / 3, ch), want1 = consistent_flux<1>(q, 5.0 / 3, ch);
      if (ch == 0) want0.v[kBx] = want1.v[kBx + 1] = 0;  // no cleaning: psi is not transported
      EXPECT_LT(max_difference(riemann_flux<0>(q, q, physics(r, 5.0 / 3, ch)), want0), 1e-14)
          << int(r) << " ch " << ch;
      EXPECT_LT(max_difference(riemann_flux<1>(q, q, physics(r, 5.0 / 3, ch)), want1), 1e-14)
          << int(r) << " ch " << ch;
    }
}

TEST(MhdRiemann, HlldHoldsAStationaryContactThatHllSmears) {
  // Density jumps, pressure, velocity (0) and the oblique field do not.
  const S9 l = prim(1.0, 0, 0, 0, 1, 0.8, 0.5, -0.3), r = prim(0.2, 0, 0, 0, 1, 0.8, 0.5, -0.3);
  const S9 f = riemann_flux<0>(l, r, physics(Riemann::hlld));
  const S9 want = consistent_flux<0>(l, 5.0 / 3, 0);
  EXPECT_LT(max_difference(f, want), 1e-14);
  EXPECT_GT(std::fabs(riemann_flux<0>(l, r, physics(Riemann::hll)).v[kRho]), 0.05);
}

TEST(MhdRiemann, HlldHoldsAStationaryRotationalDiscontinuity) {
  // B_n = 1, rho = 1, u_n = -1: the Alfven wave u_n + B_n/sqrt(rho) stands still. Across it
  // the tangential field turns by 90 degrees and v_t = -B_t, which keeps every flux
  // continuous (Rankine-Hugoniot with speed 0).
  for (double sgn : {1.0, -1.0}) {
    const S9 l = prim(1, -sgn, -1 * sgn * sgn, 0, 0.7, sgn, 1, 0);
    const S9 r = prim(1, -sgn, 0, -1 * sgn * sgn, 0.7, sgn, 0, 1);
    const S9 fl = consistent_flux<0>(l, 5.0 / 3, 0), fr = consistent_flux<0>(r, 5.0 / 3, 0);
    ASSERT_LT(max_difference(fl, fr), 1e-14) << "the set-up is not a stationary discontinuity";
    EXPECT_LT(max_difference(riemann_flux<0>(l, r, physics(Riemann::hlld)), fl), 1e-13) << sgn;
    EXPECT_GT(max_difference(riemann_flux<0>(l, r, physics(Riemann::hll)), fl), 0.05) << sgn;
  }
}

TEST(MhdRiemann, TheGlmPairIsSolvedExactly) {
  // Dedner et al. (2002), eq. 42: B_n* and psi* of the linear pair, whose fluxes are psi*
  // and c_h^2 B_n*, whatever solver takes the rest.
  const double ch = 3;
  const S9 l = prim(1, 0, 0, 0, 1, 0.4, 0.2, 0, 0.3), r = prim(1, 0, 0, 0, 1, 0.9, 0.2, 0, -0.1);
  const double bn = 0.5 * (0.4 + 0.9) - 0.5 * (-0.1 - 0.3) / ch;
  const double psi = 0.5 * (0.3 - 0.1) - 0.5 * ch * (0.9 - 0.4);
  for (Riemann rs : {Riemann::llf, Riemann::hll, Riemann::hlld}) {
    const S9 f = riemann_flux<0>(l, r, physics(rs, 5.0 / 3, ch));
    EXPECT_NEAR(f.v[kBx], psi, 1e-15) << int(rs);
    EXPECT_NEAR(f.v[kPsi], ch * ch * bn, 1e-14) << int(rs);
  }
  // Without cleaning neither is transported.
  const S9 f0 = riemann_flux<0>(l, r, physics(Riemann::hlld));
  EXPECT_EQ(f0.v[kBx], 0);
  EXPECT_EQ(f0.v[kPsi], 0);
}

TEST(MhdRiemann, TheStageSourceDampsPsiOnly) {
  // L_psi gains -psi_decay psi; nothing else has a source.
  Physics<double> ph = physics(Riemann::hlld, 5.0 / 3, 1.0);
  ph.psi_decay = 4;
  const S9 u = prim_to_cons(prim(1, 0, 0, 0, 1, 0.1, 0.2, 0.3, 0.5), ph.gamma);
  S9 zero{};
  EXPECT_NEAR(with_sources(zero, u, ph).v[kPsi], -2.0, 1e-15);
  EXPECT_EQ(with_sources(zero, u, ph).v[kRho], 0);
}
