// The heat solver against what is known exactly: a decaying sine mode (second-order
// convergence) and the steady state of the hot-wall problem (bounds, symmetry, and the
// centre value 100/6 that superposing the six faces gives).
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cmath>
#include <numbers>

#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

namespace {

std::unique_ptr<Solver> run_to_end(const Scenario& s, Precision p = Precision::f64) {
  auto solver = find_family(s.solver).create(BackendKind::cpu, p);
  solver->reset(s.params);
  const double until = s.params.get_real("run.until");
  if (until > 0)
    solver->advance_until(until, std::int64_t(1) << 40);
  else
    while (!solver->finished() && solver->step() < s.params.get_int("run.steps"))
      solver->advance(100);
  return solver;
}

// Max-norm error of the sine-decay run against T = A exp(-alpha |k|^2 t) prod sin(k_i x_i).
double sine_decay_error(int n) {
  const Scenario s =
      load_scenario("heat/sine-decay", {"grid.n=" + std::to_string(n), "run.until=0.02"});
  auto solver = run_to_end(s);
  const double t = solver->time();
  EXPECT_NEAR(t, 0.02, 1e-12);
  const double pi = std::numbers::pi;
  const double decay = std::exp(-1.0 * 3 * pi * pi * t);
  const HostArray T = gather_interior(solver->view("T"));
  const Grid& g = solver->grid();
  double err = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double exact = decay * std::sin(pi * g.coord(0, i)) * std::sin(pi * g.coord(1, j)) *
                             std::sin(pi * g.coord(2, k));
        err = std::max(err, std::fabs(T.at((std::int64_t(k) * n + j) * n + i) - exact));
      }
  return err;
}

}  // namespace

TEST(HeatPhysics, SineDecayConvergesAtSecondOrder) {
  // n interior points between walls: dx = 1/(n+1) = 1/8, 1/16, 1/32; dt follows dx^2.
  const double e8 = sine_decay_error(7), e16 = sine_decay_error(15), e32 = sine_decay_error(31);
  const double order1 = std::log2(e8 / e16), order2 = std::log2(e16 / e32);
  RecordProperty("errors",
                 std::to_string(e8) + " " + std::to_string(e16) + " " + std::to_string(e32));
  EXPECT_NEAR(order1, 2.0, 0.15) << "errors " << e8 << " " << e16;
  EXPECT_NEAR(order2, 2.0, 0.1) << "errors " << e16 << " " << e32;
  EXPECT_LT(e32, 2e-3);
}

TEST(HeatPhysics, HotWallSteadyStateIsBoundedSymmetricAndHasTheSuperpositionCentre) {
  const int n = 21;  // odd: a point sits at the centre
  const Scenario s =
      load_scenario("heat/hot-wall", {"grid.n=" + std::to_string(n), "heat.steady_tol=1e-6",
                                      "heat.check_every=50", "run.steps=200000"});
  auto solver = run_to_end(s);
  ASSERT_TRUE(solver->finished()) << "no steady state after " << solver->step() << " steps";
  const HostArray T = gather_interior(solver->view("T"));
  auto at = [&](int i, int j, int k) { return T.at((std::int64_t(k) * n + j) * n + i); };
  double mn = 1e300, mx = -1e300, asym = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double v = at(i, j, k);
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        // The hot face is y = ly; its centre lines are x = lx/2 and z = lz/2, and the
        // problem is also symmetric under swapping x and z.
        asym = std::max({asym, std::fabs(v - at(n - 1 - i, j, k)),
                         std::fabs(v - at(i, j, n - 1 - k)), std::fabs(v - at(k, j, i))});
      }
  EXPECT_GE(mn, 0.0);
  EXPECT_LE(mx, 100.0);
  EXPECT_GT(mx, 80.0);  // next to the hot face
  EXPECT_LT(asym, 1e-9);
  // Six faces at 100 degC would give 100 everywhere; by symmetry each contributes 1/6
  // at the centre, in the discrete problem as in the continuous one.
  EXPECT_NEAR(at(n / 2, n / 2, n / 2), 100.0 / 6.0, 2e-3);
}

TEST(HeatPhysics, FloatRunTracksDoubleRun) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.n=24", "run.steps=50"});
  auto d = find_family("heat").create(BackendKind::cpu, Precision::f64);
  auto f = find_family("heat").create(BackendKind::cpu, Precision::f32);
  d->reset(s.params);
  f->reset(s.params);
  d->advance(50);
  f->advance(50);
  const HostArray a = gather_interior(d->view("T")), b = gather_interior(f->view("T"));
  ASSERT_EQ(b.precision, Precision::f32);
  double err = 0;
  for (std::int64_t c = 0; c < a.count(); ++c) err = std::max(err, std::fabs(a.at(c) - b.at(c)));
  EXPECT_LT(err, 1e-3);  // 100 degC scale, float epsilon 6e-8 per step
  EXPECT_GT(err, 0.0);   // they are really two precisions
}

TEST(HeatPhysics, DiagnosticsMatchTheField) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.n=16"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  double tmax = 0, tmin = 0;
  for (const auto& d : solver->diagnostics()) {
    if (d.name == "T_max") tmax = d.value;
    if (d.name == "T_min") tmin = d.value;
  }
  EXPECT_EQ(tmax, 100.0);
  EXPECT_EQ(tmin, 20.0);
}
