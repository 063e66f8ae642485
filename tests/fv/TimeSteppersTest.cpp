// The time steppers as data (sim/fv/TimeSteppers.hpp): each Shu-Osher schedule, turned
// into its Butcher tableau, meets the order conditions of its order; it never writes the
// register whose neighbours a stage reads; every weight is non-negative (the SSP
// property the positivity fallback relies on); and run on an ODE it converges at its
// order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "sim/fv/TimeSteppers.hpp"

using namespace fluxview::fv;

namespace {

const TimeStepper kRk[] = {TimeStepper::rk2, TimeStepper::ssprk3, TimeStepper::rk4};

// Runs the scheme as the solver does, on registers of an ODE system y' = f(y), and
// records, as linear combinations of the stage derivatives k_s = f(R_in of stage s), what
// each register holds: the Butcher form of the schedule.
struct Linear {
  std::vector<double> base;  // coefficient of y^n
  std::vector<double> k;     // coefficients of dt k_s
};

}  // namespace

TEST(TimeSteppers, ButcherTableauMeetsTheOrderConditions) {
  for (TimeStepper t : kRk) {
    const RkScheme s = rk_scheme(t);
    std::vector<Linear> reg(s.registers, Linear{{0}, std::vector<double>(s.stages, 0)});
    reg[0].base[0] = 1;
    std::vector<std::vector<double>> A;  // A[s] = coefficients of register in of stage s
    for (int st = 0; st < s.stages; ++st) {
      const RkStage& g = s.stage[st];
      A.push_back(reg[g.in].k);
      EXPECT_NEAR(reg[g.in].base[0], 1.0, 1e-15) << "stage " << st << " input is a state";
      std::vector<Linear> next = reg;
      for (int o = 0; o < g.outputs; ++o) {
        const RkOutput& out = g.out[o];
        EXPECT_NE(out.reg, g.in) << "stage " << st << " writes the register it reads around";
        Linear v{{0}, std::vector<double>(s.stages, 0)};
        for (int r = 0; r < kMaxRkRegisters; ++r) {
          EXPECT_GE(out.a[r], 0.0);
          if (out.a[r] == 0) continue;
          ASSERT_LT(r, s.registers);
          v.base[0] += out.a[r] * reg[r].base[0];
          for (int q = 0; q < s.stages; ++q) v.k[q] += out.a[r] * reg[r].k[q];
        }
        EXPECT_GE(out.b, 0.0);
        v.k[st] += out.b;
        next[out.reg] = v;
      }
      reg = next;
    }
    const Linear& res = reg[s.result];
    EXPECT_NEAR(res.base[0], 1.0, 1e-14);
    const auto& b = res.k;
    std::vector<double> c(s.stages, 0), Ac(s.stages, 0), Ac2(s.stages, 0), AAc(s.stages, 0);
    for (int i = 0; i < s.stages; ++i)
      for (int j = 0; j < s.stages; ++j) c[i] += A[i][j];
    for (int i = 0; i < s.stages; ++i) {
      EXPECT_NEAR(c[i], s.stage[i].time, 1e-14) << "stage time " << i;
      for (int j = 0; j < s.stages; ++j) {
        Ac[i] += A[i][j] * c[j];
        Ac2[i] += A[i][j] * c[j] * c[j];
      }
    }
    for (int i = 0; i < s.stages; ++i)
      for (int j = 0; j < s.stages; ++j) AAc[i] += A[i][j] * Ac[j];
    auto dot = [&](const std::vector<double>& x, auto&& g) {
      double r = 0;
      for (int i = 0; i < s.stages; ++i) r += x[i] * g(i);
      return r;
    };
    const double tol = 1e-14;
    EXPECT_NEAR(dot(b, [](int) { return 1.0; }), 1.0, tol);
    EXPECT_NEAR(dot(b, [&](int i) { return c[i]; }), 0.5, tol);
    if (s.order >= 3) {
      EXPECT_NEAR(dot(b, [&](int i) { return c[i] * c[i]; }), 1.0 / 3, tol);
      EXPECT_NEAR(dot(b, [&](int i) { return Ac[i]; }), 1.0 / 6, tol);
    }
    if (s.order >= 4) {
      EXPECT_NEAR(dot(b, [&](int i) { return c[i] * c[i] * c[i]; }), 0.25, tol);
      EXPECT_NEAR(dot(b, [&](int i) { return c[i] * Ac[i]; }), 1.0 / 8, tol);
      EXPECT_NEAR(dot(b, [&](int i) { return Ac2[i]; }), 1.0 / 12, tol);
      EXPECT_NEAR(dot(b, [&](int i) { return AAc[i]; }), 1.0 / 24, tol);
    }
  }
}

TEST(TimeSteppers, ForwardEulerStepsWithinTheSspCoefficient) {
  // Each output is a non-negative combination of registers and one forward-Euler step of
  // the input register whose length, b / a_in, is at most 1 / ssp_coefficient: the
  // condition under which a positive forward-Euler step gives a positive stage. The
  // "mass" of a register (its weight of U^n) is 1 for a state; rk4 keeps one partial sum
  // of mass < 1 that its last stage completes.
  for (TimeStepper t : kRk) {
    const RkScheme s = rk_scheme(t);
    double mass[kMaxRkRegisters] = {1, 0, 0};
    for (int st = 0; st < s.stages; ++st) {
      const RkStage& g = s.stage[st];
      EXPECT_NEAR(mass[g.in], 1.0, 1e-14) << "stage " << st << " reads a state";
      double next[kMaxRkRegisters] = {mass[0], mass[1], mass[2]};
      for (int o = 0; o < g.outputs; ++o) {
        const RkOutput& out = g.out[o];
        double m = 0;
        for (int r = 0; r < kMaxRkRegisters; ++r) m += out.a[r] * mass[r];
        next[out.reg] = m;
        ASSERT_GT(out.a[g.in], 0.0);
        EXPECT_LE(out.b / out.a[g.in], 1.0 / s.ssp_coefficient + 1e-12) << "stage " << st;
      }
      for (int r = 0; r < kMaxRkRegisters; ++r) mass[r] = next[r];
    }
    EXPECT_NEAR(mass[s.result], 1.0, 1e-14);
  }
}

TEST(TimeSteppers, ConvergeAtTheirOrderOnAnOde) {
  // y' = -y^2 + sin t, y(0) = 1, to t = 1; reference with rk4 at 1/4 the smallest step.
  auto run = [](TimeStepper t, int n) {
    const RkScheme s = rk_scheme(t);
    const double h = 1.0 / n;
    double time = 0;
    double reg[kMaxRkRegisters] = {1, 0, 0};
    for (int step = 0; step < n; ++step) {
      for (int st = 0; st < s.stages; ++st) {
        const RkStage& g = s.stage[st];
        const double y = reg[g.in], tt = time + g.time * h;
        const double l = -y * y + std::sin(tt);
        double next[kMaxRkRegisters] = {reg[0], reg[1], reg[2]};
        for (int o = 0; o < g.outputs; ++o) {
          const State<double, 1>* regs[kMaxRkRegisters];
          State<double, 1> r[kMaxRkRegisters];
          for (int q = 0; q < kMaxRkRegisters; ++q) {
            r[q].v[0] = reg[q];
            regs[q] = &r[q];
          }
          next[g.out[o].reg] = rk_output_value(g.out[o], regs, State<double, 1>{{l}}, h).v[0];
        }
        for (int q = 0; q < kMaxRkRegisters; ++q) reg[q] = next[q];
      }
      time += h;
      if (s.result != 0) std::swap(reg[0], reg[s.result]);
    }
    return reg[0];
  };
  const double ref = run(TimeStepper::rk4, 4096);
  const struct {
    TimeStepper t;
    double order;
  } cases[] = {{TimeStepper::rk2, 2}, {TimeStepper::ssprk3, 3}, {TimeStepper::rk4, 4}};
  for (const auto& c : cases) {
    const double e1 = std::fabs(run(c.t, 32) - ref), e2 = std::fabs(run(c.t, 64) - ref);
    std::printf("stepper %d: error %.3e -> %.3e, order %.2f\n", int(c.t), e1, e2,
                std::log2(e1 / e2));
    EXPECT_GT(std::log2(e1 / e2), c.order - 0.15) << int(c.t);
  }
}
