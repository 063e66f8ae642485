// The Riemann solvers (sim/fv/RiemannSolvers.hpp): consistency F(U, U) = F(U) for all of
// them, upwinding of a supersonic state, a stationary contact and a shear layer kept
// exactly by the solvers that promise it, mirror symmetry, and the positivity of the
// first-order Godunov scheme with HLLE that the fallback relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "sim/fv/RiemannSolvers.hpp"

using namespace fluxview::fv;

namespace {

using S = State<double, 6>;
const Riemann kAll[] = {Riemann::llf, Riemann::hll, Riemann::hllc, Riemann::hlle, Riemann::hlli};
const char* name(Riemann r) {
  const char* n[] = {"llf", "hll", "hllc", "hlle", "hlli"};
  return n[int(r)];
}

template <int D>
S flux_of(const S& q, double g) {
  return physical_flux<D>(q, prim_to_cons(q, g));
}

template <int D>
S solve(Riemann r, const S& l, const S& rr, double g) {
  return riemann_solve<D>(r, l, rr, g);
}

}  // namespace

TEST(RiemannSolvers, ConsistentWithThePhysicalFlux) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(0.1, 3), vel(-4, 4), conc(0, 1);
  for (int t = 0; t < 200; ++t) {
    const S q{{pos(rng), vel(rng), vel(rng), vel(rng), pos(rng), conc(rng)}};
    for (Riemann r : kAll) {
      const S fx = solve<0>(r, q, q, 1.4), fy = solve<1>(r, q, q, 1.4), fz = solve<2>(r, q, q, 1.4);
      const S ex = flux_of<0>(q, 1.4), ey = flux_of<1>(q, 1.4), ez = flux_of<2>(q, 1.4);
      for (int v = 0; v < 6; ++v) {
        EXPECT_NEAR(fx.v[v], ex.v[v], 1e-12 * (1 + std::fabs(ex.v[v]))) << name(r);
        EXPECT_NEAR(fy.v[v], ey.v[v], 1e-12 * (1 + std::fabs(ey.v[v]))) << name(r);
        EXPECT_NEAR(fz.v[v], ez.v[v], 1e-12 * (1 + std::fabs(ez.v[v]))) << name(r);
      }
    }
  }
}

TEST(RiemannSolvers, SupersonicStatesAreUpwinded) {
  const S l{{1.0, 5.0, 0.1, 0, 1.0, 1}}, r{{0.5, 4.0, -0.2, 0, 0.8, 0}};  // both > c to the right
  for (Riemann k : {Riemann::hll, Riemann::hllc, Riemann::hlle, Riemann::hlli}) {
    const S f = solve<0>(k, l, r, 1.4), e = flux_of<0>(l, 1.4);
    for (int v = 0; v < 6; ++v) EXPECT_NEAR(f.v[v], e.v[v], 1e-13) << name(k);
  }
}

TEST(RiemannSolvers, ContactAndShearKeptWhereTheSolverPromisesIt) {
  // A stationary contact: rho and the tracer jump, p and u do not. The exact flux is
  // (0, p, 0, 0, 0, 0); HLLC and HLLI give it, the two-wave solvers smear it.
  const double g = 1.4;
  auto deviation = [&](Riemann k, const S& l, const S& r) {
    const S f = solve<0>(k, l, r, g);
    double dev = 0;
    for (int v = 0; v < 6; ++v) dev = std::max(dev, std::fabs(f.v[v] - (v == 1 ? l.v[4] : 0.0)));
    return dev;
  };
  const S l{{1.0, 0, 0, 0, 1.0, 1.0}}, r{{0.125, 0, 0, 0, 1.0, 0.0}};
  for (Riemann k : kAll) {
    if (k == Riemann::hllc || k == Riemann::hlli)
      EXPECT_LT(deviation(k, l, r), 1e-14) << name(k);
    else
      EXPECT_GT(deviation(k, l, r), 1e-2) << name(k) << ": a two-wave solver smears the contact";
  }
  // With shear (tangential velocities jump too): HLLC is still exact; HLLI, whose
  // eigenvectors are those of the HLL state (the energy of the shear is not linear in
  // the jump), removes most of HLLE's dissipation.
  const S ls{{1.0, 0, 0.5, -0.3, 1.0, 1.0}}, rs{{0.125, 0, -0.2, 0.4, 1.0, 0.0}};
  EXPECT_LT(deviation(Riemann::hllc, ls, rs), 1e-14);
  EXPECT_LT(deviation(Riemann::hlli, ls, rs), 0.2 * deviation(Riemann::hlle, ls, rs));
  // Moving contact (u_n = 0.3): HLLC and HLLI carry the upwind mass and tracer exactly.
  const S lm{{1.0, 0.3, 0, 0, 1.0, 1.0}}, rm{{0.125, 0.3, 0, 0, 1.0, 0.0}};
  for (Riemann k : {Riemann::hllc, Riemann::hlli}) {
    const S f = solve<0>(k, lm, rm, g);
    EXPECT_NEAR(f.v[0], 0.3, 1e-14) << name(k);
    EXPECT_NEAR(f.v[5], 0.3, 1e-14) << name(k);
  }
}

TEST(RiemannSolvers, MirrorSymmetric) {
  // Swapping the sides and reversing the normal velocity reverses the mass and energy
  // fluxes and keeps the normal momentum flux.
  const S l{{1.0, 0.7, 0.2, 0, 2.0, 0.3}}, r{{0.3, -0.4, 0.1, 0.5, 0.5, 0.8}};
  S lm = r, rm = l;
  lm.v[1] = -lm.v[1];
  rm.v[1] = -rm.v[1];
  for (Riemann k : kAll) {
    const S f = solve<0>(k, l, r, 1.4), fm = solve<0>(k, lm, rm, 1.4);
    EXPECT_NEAR(f.v[0], -fm.v[0], 1e-13) << name(k);
    EXPECT_NEAR(f.v[1], fm.v[1], 1e-13) << name(k);
    EXPECT_NEAR(f.v[4], -fm.v[4], 1e-13) << name(k);
  }
}

TEST(RiemannSolvers, FirstOrderHlleKeepsDensityAndPressurePositive) {
  // 1D first-order Godunov steps with HLLE at CFL 0.5 (dt max over cells of |u| + c equal
  // to half a cell) on random strong data: near-vacuum next to dense gas, streams flying
  // apart at many times the sound speed, colliding streams. Density and pressure stay
  // positive in every cell of every step.
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> lr(-12, 1), vel(-30, 30);
  const double g = 1.4;
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 16;
    std::vector<S> q(n);
    for (auto& s : q) s = S{{std::pow(10.0, lr(rng)), vel(rng), 0, 0, std::pow(10.0, lr(rng)), 0}};
    for (int step = 0; step < 20; ++step) {
      double rate = 0;
      for (const auto& s : q)
        rate = std::max(rate, std::fabs(s.v[1]) + sound_speed(s.v[0], s.v[4], g));
      const double lam = 0.5 / rate;  // dt / dx
      std::vector<S> f(n + 1), u(n);
      for (int i = 0; i <= n; ++i)
        f[i] = solve<0>(Riemann::hlle, q[std::max(i - 1, 0)], q[std::min(i, n - 1)], g);
      for (int i = 0; i < n; ++i) {
        u[i] = prim_to_cons(q[i], g);
        for (int v = 0; v < 6; ++v) u[i].v[v] -= lam * (f[i + 1].v[v] - f[i].v[v]);
        ASSERT_GT(u[i].v[0], 0.0) << "trial " << trial << " step " << step << " cell " << i;
        const double kin = 0.5 * (u[i].v[1] * u[i].v[1]) / u[i].v[0];
        ASSERT_GT(u[i].v[4] - kin, 0.0) << "trial " << trial << " step " << step << " cell " << i;
        q[i].v[0] = u[i].v[0];
        q[i].v[1] = u[i].v[1] / u[i].v[0];
        q[i].v[4] = (g - 1) * (u[i].v[4] - kin);
      }
    }
  }
}
