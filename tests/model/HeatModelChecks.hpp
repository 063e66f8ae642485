#pragma once
// The heat solver against its model (HeatModel.hpp), for the CPU test and the GPU test:
// a random interior between unequal walls is put into the solver, then each of a few
// steps is compared with the model's step from the state the solver started it from,
// and the solver's free run with the model's.
#include <gtest/gtest.h>
#include <map>
#include <memory>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/model/HeatModel.hpp"
#include "tests/model/ModelTestUtil.hpp"

namespace fluxview::model {

// One FTCS update, as the model counts its roundings (the solver makes the same ones or
// fewer, e.g. with fused multiply-adds): the coefficient c_a (5: see HeatModel::step),
// its product with the bracket (1; the bracket itself takes 3 and a wall value 1), and
// the three additions to T: 5 + 1 + 3 = 9. By Tracked.hpp the error is then below
// 9 ulp of the magnitude of the values involved (about |T| + sum_a 4 c_a max |T|).
inline constexpr double kHeatStepUlps = 9;

inline std::vector<std::string> heat_overrides(std::array<int, 3> n, const double walls[6],
                                               const std::string& kernel, double dt = 0) {
  const char* keys[6] = {"heat.T_xmin", "heat.T_xmax", "heat.T_ymin",
                         "heat.T_ymax", "heat.T_zmin", "heat.T_zmax"};
  std::vector<std::string> o = {"grid.nx=" + std::to_string(n[0]),
                                "grid.ny=" + std::to_string(n[1]),
                                "grid.nz=" + std::to_string(n[2]),
                                // Unequal spacings, so that a coefficient applied along the
                                // wrong axis shows.
                                "grid.lx=0.1", "grid.ly=0.13", "grid.lz=0.07", "heat.alpha=1.9e-5",
                                "heat.steady_tol=0", "heat.kernel=" + kernel};
  char buf[64];
  for (int f = 0; f < 6; ++f) {
    std::snprintf(buf, sizeof buf, "%s=%.17g", keys[f], walls[f]);
    o.push_back(buf);
  }
  if (dt > 0) {
    std::snprintf(buf, sizeof buf, "heat.dt=%.17g", dt);
    o.push_back(buf);
  }
  return o;
}

// Puts a random interior (uniform in [lo, hi]) into the solver; returns what it holds.
inline std::vector<long double> random_heat_state(Solver& s, std::uint64_t seed, double lo,
                                                  double hi) {
  TestRandom r(seed);
  std::vector<long double> t(s.grid().cells());
  for (auto& x : t) x = r.uniform(lo, hi);
  return put_state(s, {{"T", t}})["T"];
}

// `steps` steps, each compared with the model's step from the solver's state before it;
// then the same number of steps of a fresh run compared with the model's free run.
// `dt` is the step the model expects the solver to take (heat.safety times the stability
// limit unless heat.dt is given).
inline void check_heat(BackendKind backend, Precision precision,
                       const std::vector<std::string>& overrides, const std::string& context,
                       int steps = 4) {
  SCOPED_TRACE(context);
  Run run = make_run("heat/hot-wall", overrides, backend, precision);
  Solver& s = *run.solver;
  const HeatModel model = HeatModel::from(run.params);
  const double dt_given = run.params.get_real("heat.dt");
  const long double dt_model =
      dt_given > 0 ? dt_given : run.params.get_real("heat.safety") * model.stable_dt();
  // The solver's step in double: a handful of roundings on the way (spacing, squares,
  // sums, quotient, safety factor), far below 1e-14 relative.
  EXPECT_NEAR(s.dt(), double(dt_model), 1e-14 * double(dt_model)) << "heat time step";

  const std::vector<long double> initial = random_heat_state(s, 2024, -40, 140);
  std::vector<long double> held = initial;
  for (int step = 1; step <= steps; ++step) {
    const std::vector<Tracked> expect = model.step(exact(held), s.dt());
    s.advance(1);
    s.synchronize();
    held = field(s, "T");
    const Comparison c = compare("T", held, expect, precision, model.n);
    expect_within(c, kHeatStepUlps, "step " + std::to_string(step));
    if (step == 1 || step == steps)
      std::printf("heat %s %s %dx%dx%d step %d: %s\n", name_of(backend), name_of(precision),
                  model.n[0], model.n[1], model.n[2], step, c.describe().c_str());
  }

  // Free run. FTCS with alpha dt sum 1/d^2 <= 1/2 weighs T and its neighbours with
  // non-negative weights that sum to 1, so a difference between two runs never grows
  // (maximum norm); the rounding errors of the steps add up. Bound: the sum over steps of
  // kHeatStepUlps ulp at the largest magnitude of that step.
  Run fresh = make_run("heat/hot-wall", overrides, backend, precision);
  put_state(*fresh.solver, {{"T", initial}});
  std::vector<long double> free_state = initial;
  long double budget = 0;
  for (int step = 0; step < steps; ++step) {
    const std::vector<Tracked> t = model.step(exact(free_state), fresh.solver->dt());
    long double m = 0;
    for (const auto& x : t) m = std::max(m, x.mag);
    budget += kHeatStepUlps * (precision == Precision::f32 ? ulp_at<float>(m) : ulp_at<double>(m));
    free_state = values_of(t);
  }
  fresh.solver->advance(steps);
  fresh.solver->synchronize();
  const std::vector<long double> ran = field(*fresh.solver, "T");
  long double worst = 0;
  for (std::size_t i = 0; i < ran.size(); ++i)
    worst = std::max(worst, std::fabs(ran[i] - free_state[i]));
  EXPECT_LE(worst, budget) << "free run of " << steps << " steps";
}

}  // namespace fluxview::model
