// The pointwise pieces composed into whole schemes by a plain loop in this test (not the
// solver's): the Euler equations on a periodic 2D grid, a smooth problem, the L1 error of
// the density against the exact solution at two resolutions, and the observed order per
// reconstruction and time stepper. This checks that the pieces fit together at their
// design order before any solver uses them.
#include <gtest/gtest.h>
#include <algorithm>
#include <memory>
#include <utility>

#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/CellReconstruction.hpp"
#include "sim/fv/EulerPolicies.hpp"
#include "sim/fv/ModalFaceFlux.hpp"
#include "sim/fv/TimeSteppers.hpp"

using namespace fluxview::fv;

namespace {

using S = State<double, 5>;
constexpr double kGamma = 1.4;

// The isentropic vortex of Balsara & Shu (2000) sec. IV.b / Shu (1998): strength beta,
// moving with (1, 1) through a periodic box [-5, 5]^2.
S vortex_primitive(double x, double y) {
  const double beta = 5, r2 = x * x + y * y, pi = M_PI, g = kGamma;
  const double e = std::exp(0.5 * (1 - r2));
  const double temp = 1 - (g - 1) * beta * beta / (8 * g * pi * pi) * e * e;
  const double rho = std::pow(temp, 1 / (g - 1));
  return S{{rho, 1 - beta / (2 * pi) * e * y, 1 + beta / (2 * pi) * e * x, 0, rho * temp}};
}

// Cell averages of the vortex at time t by 5x5 Gauss quadrature (periodic images).
S vortex_average(double xc, double yc, double h, double t) {
  const double gx[5] = {-0.4530899229693320, -0.2692346550528415, 0, 0.2692346550528415,
                        0.4530899229693320};
  const double gw[5] = {0.1184634425280945, 0.2393143352496832, 0.2844444444444444,
                        0.2393143352496832, 0.1184634425280945};
  S avg{};
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) {
      double x = xc + gx[a] * h - t, y = yc + gx[b] * h - t;
      x -= 10 * std::floor((x + 5) / 10);
      y -= 10 * std::floor((y + 5) / 10);
      const S u = prim_to_cons(vortex_primitive(x, y), kGamma);
      for (int v = 0; v < 5; ++v) avg.v[v] += gw[a] * gw[b] * u.v[v];
    }
  return avg;
}

struct Grid2 {
  int n, g;
  double h;
  std::vector<S> u;
  int idx(int i, int j) const { return (j + g) * (n + 2 * g) + (i + g); }
  void periodic() {
    for (int j = -g; j < n + g; ++j)
      for (int i = -g; i < n + g; ++i)
        if (i < 0 || i >= n || j < 0 || j >= n)
          u[idx(i, j)] = u[idx(((i % n) + n) % n, ((j % n) + n) % n)];
  }
};

// dU/dt (RK) or the step-averaged dU/dt (ADER) of every interior cell.
template <int Deg, bool Ader>
void divergence(const Grid2& G, double dt, ReconstructionVariables vars, Riemann rs,
                std::vector<S>& l) {
  const int n = G.n;
  const bool active[3] = {true, true, false};
  EulerLineVariables<double, 5> policy;
  policy.vars = vars;
  policy.ph.gamma = kGamma;
  EulerFaceSolver<double, 5> face{policy.ph};
  face.ph.riemann = rs;
  EulerFlux<double, 5> fl{policy.ph};
  const int m = n + 2;
  std::vector<SpaceTimePolynomial<double, 5, Deg>> poly(std::size_t(m) * m);
  const double nu[3] = {dt / G.h, dt / G.h, 0};
  for (int j = -1; j <= n; ++j)
    for (int i = -1; i <= n; ++i) {
      auto at = [&](int di, int dj, int) { return G.u[G.idx(i + di, j + dj)]; };
      auto& st = poly[(j + 1) * m + (i + 1)];
      reconstruct_cell<Deg>(at, policy, active, SlopeRule<double>{}, st.c);
      for (int q = modes_up_to(Deg); q < space_time_modes(Deg); ++q) st.c[q] = S{};
      if constexpr (Ader) ader_predict<Deg>(fl, st, active, nu);
    }
  l.assign(std::size_t(n) * n, S{});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= n; ++i) {
      bool fb;
      const S f = modal_face_flux<0, Deg>(face, poly[(j + 1) * m + i], poly[(j + 1) * m + i + 1],
                                          active, Ader ? Deg : 0, fb);
      for (int v = 0; v < 5; ++v) {
        if (i > 0) l[j * n + i - 1].v[v] -= f.v[v] / G.h;
        if (i < n) l[j * n + i].v[v] += f.v[v] / G.h;
      }
    }
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i < n; ++i) {
      bool fb;
      const S f = modal_face_flux<1, Deg>(face, poly[j * m + i + 1], poly[(j + 1) * m + i + 1],
                                          active, Ader ? Deg : 0, fb);
      for (int v = 0; v < 5; ++v) {
        if (j > 0) l[(j - 1) * n + i].v[v] -= f.v[v] / G.h;
        if (j < n) l[j * n + i].v[v] += f.v[v] / G.h;
      }
    }
}

// L1 error of the density of the vortex at t_end on an n x n grid.
template <int Deg>
double vortex_error(int n, TimeStepper ts, double t_end, ReconstructionVariables vars,
                    Riemann rs = Riemann::hllc) {
  const double h = 10.0 / n, cfl = 0.4;
  const int g = Deg + 1;
  const RkScheme sch = rk_scheme(ts);
  std::vector<Grid2> reg(sch.registers,
                         Grid2{n, g, h, std::vector<S>(std::size_t(n + 2 * g) * (n + 2 * g))});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      reg[0].u[reg[0].idx(i, j)] = vortex_average(-5 + (i + 0.5) * h, -5 + (j + 0.5) * h, h, 0);
  double t = 0;
  std::vector<S> l;
  while (t < t_end - 1e-12) {
    double rate = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const S q = cons_to_prim(reg[0].u[reg[0].idx(i, j)], Physics<double>{});
        const double c = sound_speed(q.v[0], q.v[4], kGamma);
        rate = std::max(rate, (std::fabs(q.v[1]) + c) / h + (std::fabs(q.v[2]) + c) / h);
      }
    const double dt = std::min(cfl / rate, t_end - t);
    for (int s = 0; s < sch.stages; ++s) {
      const RkStage& st = sch.stage[s];
      reg[st.in].periodic();
      if (ts == TimeStepper::ader)
        divergence<Deg, true>(reg[st.in], dt, vars, rs, l);
      else
        divergence<Deg, false>(reg[st.in], dt, vars, rs, l);
      std::vector<Grid2> next = reg;
      for (int o = 0; o < st.outputs; ++o)
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const int c = reg[0].idx(i, j);
            const S* r[3] = {&reg[0].u[c], sch.registers > 1 ? &reg[1].u[c] : nullptr,
                             sch.registers > 2 ? &reg[2].u[c] : nullptr};
            next[st.out[o].reg].u[c] = rk_output_value(st.out[o], r, l[j * n + i], dt);
          }
      reg = next;
    }
    if (sch.result != 0) std::swap(reg[0], reg[sch.result]);
    t += dt;
  }
  double err = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      err += std::fabs(reg[0].u[reg[0].idx(i, j)].v[0] -
                       vortex_average(-5 + (i + 0.5) * h, -5 + (j + 0.5) * h, h, t_end).v[0]);
  return err / (double(n) * n);
}

template <int Deg>
void check_order(TimeStepper ts, int n1, double t_end, double min_order,
                 ReconstructionVariables vars = ReconstructionVariables::characteristic) {
  const double e1 = vortex_error<Deg>(n1, ts, t_end, vars),
               e2 = vortex_error<Deg>(2 * n1, ts, t_end, vars);
  const double order = std::log2(e1 / e2);
  std::printf(
      "vortex degree %d stepper %d vars %d: L1(rho) %.3e (%d^2) -> %.3e (%d^2), order %.2f\n", Deg,
      int(ts), int(vars), e1, n1, e2, 2 * n1, order);
  EXPECT_GT(order, min_order) << "degree " << Deg << " stepper " << int(ts);
}

}  // namespace

TEST(ModalSchemeOrder, VortexAder) {
  check_order<1>(TimeStepper::ader, 32, 0.5, 1.9);
  check_order<2>(TimeStepper::ader, 32, 0.5, 2.8);
  check_order<3>(TimeStepper::ader, 32, 0.5, 3.8);
}

TEST(ModalSchemeOrder, VortexRungeKutta) {
  check_order<2>(TimeStepper::ssprk3, 32, 0.5, 2.8);
  check_order<3>(TimeStepper::rk4, 32, 0.5, 3.8);
}
