// The ADER predictor (sim/fv/AderPredictor.hpp): exact for linear advection of a
// polynomial (the exact solution is then a polynomial of the same degree) at every order
// and in 1D, 2D and 3D, for a scalar test flux and for the Euler equations carrying a
// density wave; for a nonlinear flux (Burgers along every axis) its error at the end of
// the step falls as h^(M+1).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/FvPhysics.hpp"

using namespace fluxview::fv;

namespace {

using S1 = State<double, 1>;

// Linear advection f_d(u) = a_d u.
struct Advection {
  double a[3];
  template <int D>
  S1 flux(const S1& u) const {
    return S1{{a[D] * u.v[0]}};
  }
};

// Burgers along every axis: f_d(u) = u^2 / 2.
struct Burgers {
  template <int D>
  S1 flux(const S1& u) const {
    return S1{{0.5 * u.v[0] * u.v[0]}};
  }
};

// The Euler equations through FvPhysics.hpp.
struct Euler {
  Physics<double> ph;
  template <int D>
  State<double, 5> flux(const State<double, 5>& u) const {
    return physical_flux<D>(cons_to_prim(u, ph), u);
  }
};

// Whether mode m of degree <= M varies along an axis that is not active.
template <int M>
bool involves_inactive(int m, const bool active[3]) {
  for (int a = 0; a < 3; ++a) {
    double q1[3] = {0.21, 0.33, 0.17}, q2[3] = {0.21, 0.33, 0.17};
    q2[a] = -0.4;
    double phi1[20], phi2[20];
    basis_at<M>(q1, phi1);
    basis_at<M>(q2, phi2);
    if (!active[a] && phi1[m] != phi2[m]) return true;
  }
  return false;
}

// Value of a spatial modal polynomial of degree M at p.
template <int M, int NV>
State<double, NV> poly_value(const State<double, NV>* c, const double p[3]) {
  return evaluate_modes<M>(c, p);
}

template <int M>
void check_advection_exact(const bool active[3]) {
  std::mt19937 rng(17 + M);
  std::uniform_real_distribution<double> c(-1, 1);
  SpaceTimePolynomial<double, 1, M> st;
  for (int m = 0; m < modes_up_to(M); ++m) st.c[m].v[0] = c(rng);
  // A reduced axis has no modes.
  for (int m = 1; m < modes_up_to(M); ++m)
    if (involves_inactive<M>(m, active)) st.c[m].v[0] = 0;
  Advection adv{{0.7, -0.45, 0.3}};
  const double nu[3] = {active[0] ? 0.8 : 0.0, active[1] ? 0.6 : 0.0, active[2] ? 0.5 : 0.0};
  const SpaceTimePolynomial<double, 1, M> w = st;
  ader_predict<M>(adv, st, active, nu);
  // q(xi, tau) = w(xi - nu a tau).
  for (double tau : {0.0, 0.2113, 0.5, 0.7887, 1.0})
    for (int s = 0; s < 8; ++s) {
      const double p[3] = {(s & 1) ? 0.5 : -0.3, (s & 2) ? -0.5 : 0.1, (s & 4) ? 0.45 : -0.2};
      double back[3];
      for (int a = 0; a < 3; ++a) back[a] = p[a] - nu[a] * adv.a[a] * tau;
      const double pa[3] = {active[0] ? p[0] : 0, active[1] ? p[1] : 0, active[2] ? p[2] : 0};
      const double ba[3] = {active[0] ? back[0] : 0, active[1] ? back[1] : 0,
                            active[2] ? back[2] : 0};
      const double got = space_time_value<M>(st, pa, tau).v[0];
      const double want = poly_value<M, 1>(w.c, ba).v[0];
      EXPECT_NEAR(got, want, 1e-13) << "M " << M << " tau " << tau << " point " << s;
    }
}

}  // namespace

TEST(AderPredictor, ExactForAdvectedPolynomials) {
  const bool dims[4][3] = {
      {true, false, false}, {true, true, false}, {true, false, true}, {true, true, true}};
  for (const auto& active : dims) {
    check_advection_exact<1>(active);
    check_advection_exact<2>(active);
    check_advection_exact<3>(active);
  }
}

TEST(AderPredictor, EulerDensityWaveIsAdvectedExactly) {
  // Uniform velocity and pressure, density a cubic: the Euler fluxes are linear in the
  // conserved state along this family, so the exact local solution is the cubic
  // translated by nu u tau in every conserved variable.
  const double g = 1.4, u[3] = {0.9, -0.5, 0.3}, p = 1.0;
  Euler eu;
  eu.ph.gamma = g;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> c(-0.05, 0.05);
  double rho_modes[20] = {1.0};
  for (int m = 1; m < 20; ++m) rho_modes[m] = c(rng);
  auto cons_of_rho = [&](double rho) {
    return prim_to_cons(State<double, 5>{{rho, u[0], u[1], u[2], p}}, g);
  };
  // Conserved modes: momentum and energy modes are rho's times u and |u|^2/2 (the
  // pressure only enters the mean).
  SpaceTimePolynomial<double, 5, 3> st;
  st.c[0] = cons_of_rho(rho_modes[0]);
  for (int m = 1; m < 20; ++m) {
    const double r = rho_modes[m];
    st.c[m] = State<double, 5>{
        {r, r * u[0], r * u[1], r * u[2], 0.5 * r * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2])}};
  }
  const bool active[3] = {true, true, true};
  const double nu[3] = {0.4, 0.3, 0.5};
  ader_predict<3>(eu, st, active, nu);
  for (double tau : {0.25, 0.75, 1.0})
    for (int s = 0; s < 8; ++s) {
      const double pt[3] = {(s & 1) ? 0.5 : -0.5, (s & 2) ? 0.5 : -0.5, (s & 4) ? 0.3 : -0.3};
      double back[3];
      for (int a = 0; a < 3; ++a) back[a] = pt[a] - nu[a] * u[a] * tau;
      double phi[20];
      basis_at<3>(back, phi);
      double rho = 0;
      for (int m = 0; m < 20; ++m) rho += rho_modes[m] * phi[m];
      const State<double, 5> want = cons_of_rho(rho);
      const State<double, 5> got = space_time_value<3>(st, pt, tau);
      for (int v = 0; v < 5; ++v) EXPECT_NEAR(got.v[v], want.v[v], 1e-13) << "var " << v;
    }
}

namespace {

// Burgers along every axis from u0(x) = 1 + A sin(k.x): characteristics x = x0 + u t (1,1,1),
// so u(x, t) = u0(x - u t (1,1,1)), solved by Newton. The cell of size h at the origin,
// time step dt = 0.4 h / max u. The predictor starts from the cell's exact L2 projection
// of degree M (computed by Gauss quadrature), and its value at tau = 1 is compared with
// the exact solution at points of the cell.
double burgers_exact(const double x[3], double t, int dims) {
  const double A = 0.2, k[3] = {2.0, 1.3, 0.7};
  double u = 1;
  for (int it = 0; it < 60; ++it) {
    double arg = 0, darg = 0;
    for (int a = 0; a < dims; ++a) {
      arg += k[a] * (x[a] - u * t);
      darg += -k[a] * t;
    }
    const double f = u - 1 - A * std::sin(arg), df = 1 - A * std::cos(arg) * darg;
    u -= f / df;
  }
  return u;
}

template <int M>
double burgers_error(double h, int dims) {
  // L2 projection onto the modal basis by 4-point Gauss per active axis.
  const double gx[4] = {-0.4305681557970262, -0.1699905217924281, 0.1699905217924281,
                        0.4305681557970262};
  const double gw[4] = {0.1739274225658207, 0.3260725774341793, 0.3260725774341793,
                        0.1739274225658207};
  // Norms of the basis functions (mean of phi^2 over the cell) for the projection.
  SpaceTimePolynomial<double, 1, M> st;
  double norm[20] = {0};
  for (int m = 0; m < modes_up_to(M); ++m) st.c[m].v[0] = 0;
  const int n1 = 4, n2 = dims > 1 ? 4 : 1, n3 = dims > 2 ? 4 : 1;
  for (int a = 0; a < n1; ++a)
    for (int b = 0; b < n2; ++b)
      for (int c = 0; c < n3; ++c) {
        const double p[3] = {gx[a], dims > 1 ? gx[b] : 0.0, dims > 2 ? gx[c] : 0.0};
        const double w = gw[a] * (dims > 1 ? gw[b] : 1.0) * (dims > 2 ? gw[c] : 1.0);
        const double x[3] = {h * p[0], h * p[1], h * p[2]};
        const double u = burgers_exact(x, 0, dims);
        double phi[20];
        basis_at<M>(p, phi);
        for (int m = 0; m < modes_up_to(M); ++m) {
          st.c[m].v[0] += w * u * phi[m];
          norm[m] += w * phi[m] * phi[m];
        }
      }
  const bool active[3] = {true, dims > 1, dims > 2};
  for (int m = 0; m < modes_up_to(M); ++m)
    st.c[m].v[0] = involves_inactive<M>(m, active) ? 0 : st.c[m].v[0] / norm[m];
  const double dt = 0.4 * h / 1.2;
  const double nu[3] = {dt / h, dims > 1 ? dt / h : 0, dims > 2 ? dt / h : 0};
  ader_predict<M>(Burgers{}, st, active, nu);
  double err = 0;
  for (int s = 0; s < 27; ++s) {
    const double p[3] = {0.5 * (s % 3 - 1), dims > 1 ? 0.5 * ((s / 3) % 3 - 1) : 0.0,
                         dims > 2 ? 0.5 * (s / 9 - 1) : 0.0};
    const double x[3] = {h * p[0], h * p[1], h * p[2]};
    for (double tau : {0.5, 1.0})
      err = std::max(
          err, std::fabs(space_time_value<M>(st, p, tau).v[0] - burgers_exact(x, tau * dt, dims)));
  }
  return err;
}

}  // namespace

TEST(AderPredictor, NonlinearErrorFallsAtTheDesignOrder) {
  for (int dims = 1; dims <= 3; ++dims) {
    const double e1[3] = {burgers_error<1>(0.04, dims), burgers_error<2>(0.04, dims),
                          burgers_error<3>(0.04, dims)};
    const double e2[3] = {burgers_error<1>(0.02, dims), burgers_error<2>(0.02, dims),
                          burgers_error<3>(0.02, dims)};
    for (int M = 1; M <= 3; ++M) {
      const double order = std::log2(e1[M - 1] / e2[M - 1]);
      std::printf("Burgers %dD, M = %d: error %.3e -> %.3e, order %.2f\n", dims, M, e1[M - 1],
                  e2[M - 1], order);
      EXPECT_GT(order, M + 1 - 0.2) << dims << "D, M = " << M;
    }
  }
}
