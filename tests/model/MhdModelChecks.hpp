#pragma once
// The fv solver with fv.physics = mhd against its model (MhdModel.hpp): a random state is
// put into the solver (load_state), then each of a few steps is compared with the
// model's step from the state the solver started it from: the nine (ten with the tracer)
// conserved fields, the velocity and gas pressure views, the time step and the count of
// corrected cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Grid.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Types.hpp"
#include "tests/model/MhdModel.hpp"
#include "tests/model/ModelTestUtil.hpp"
#include "tests/model/Tracked.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fluxview::model {

// The longest chain of roundings in one MHD step as the model counts it. Per stage: a
// primitive about 8 (the quotients, the kinetic and magnetic energies, the pressure),
// the PLM face value 5 more, the GLM pair 3-4 with c_h (itself the CFL rate's chain, about
// 12, plus 3), the fast speed 9, HLLD's contact speed, total pressure, outer and inner
// states and the fluxes across three waves about 35-45, the flux differences and the stage
// update up to 8; the second stage starts from the first one's result. The bound is the
// longest chain the model counts over every case of MhdModelTest, rounded up; Tracked.hpp
// says why the error in ulp of the magnitude of the values involved is below it.
inline constexpr double kMhdStepUlps = 160;

struct MhdCase {
  std::array<int, 3> n{8, 6, 5};
  std::string riemann = "hlld";
  std::vector<std::string> bc = {"fv.bc=outflow"};
  std::vector<std::string> more;  // further overrides
  // The random state: rho in [rho_lo, rho_hi], p in [p_lo, p_hi], each velocity
  // component in [-u_max, u_max], each field component in [-b_max, b_max], psi in
  // [-psi_max, psi_max], tracer c in [0, 1].
  double rho_lo = 0.5, rho_hi = 2, p_lo = 0.4, p_hi = 2.5, u_max = 0.8, b_max = 1, psi_max = 0.2;
  // Or a given state: primitives (rho, ux, uy, uz, p, bx, by, bz, psi, c) of cell (i, j, k).
  std::function<std::array<long double, 10>(int, int, int)> given;
  // HLLD's 0/0 guard is checked by the results instead of by its distance from the
  // threshold (MhdModel.HlldGuardMatchesTheModel says why).
  bool guard_by_result = false;
};

inline std::vector<std::string> mhd_overrides(const MhdCase& c) {
  std::vector<std::string> o = {
      "grid.nx=" + std::to_string(c.n[0]), "grid.ny=" + std::to_string(c.n[1]),
      "grid.nz=" + std::to_string(c.n[2]),
      // Unequal spacings, so that a flux difference divided by the wrong spacing shows,
      // and c_h's sum and psi's damping's max of 1/dx_a differ.
      "grid.lx=1", "grid.ly=0.8", "grid.lz=1.2", "fv.init=uniform", "fv.physics=mhd",
      "fv.riemann=" + c.riemann};
  o.insert(o.end(), c.bc.begin(), c.bc.end());
  o.insert(o.end(), c.more.begin(), c.more.end());
  return o;
}

// Puts a state (random, or MhdCase::given) into the solver as conserved values; returns
// what it holds.
inline MhdState put_mhd_state(Solver& s, const MhdModel& m, const MhdCase& c, std::uint64_t seed) {
  TestRandom r(seed);
  const std::int64_t cells = s.grid().cells();
  std::map<std::string, std::vector<long double>> v;
  for (int f = 0; f < m.vars(); ++f) v[kMhdConserved[f]].resize(cells);
  const auto& n = s.grid().n;
  for (std::int64_t i = 0; i < cells; ++i) {
    std::array<long double, 10> q;
    q[0] = r.uniform(c.rho_lo, c.rho_hi);
    for (int a = 0; a < 3; ++a) q[1 + a] = r.uniform(-c.u_max, c.u_max);
    q[4] = r.uniform(c.p_lo, c.p_hi);
    for (int a = 0; a < 3; ++a) q[5 + a] = r.uniform(-c.b_max, c.b_max);
    q[8] = r.uniform(-c.psi_max, c.psi_max);
    q[9] = r.uniform(0, 1);
    if (c.given) q = c.given(int(i % n[0]), int(i / n[0] % n[1]), int(i / n[0] / n[1]));
    const long double k2 = q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    const long double b2 = q[5] * q[5] + q[6] * q[6] + q[7] * q[7];
    v["rho"][i] = q[0];
    v["mom_x"][i] = q[0] * q[1];
    v["mom_y"][i] = q[0] * q[2];
    v["mom_z"][i] = q[0] * q[3];
    v["E"][i] = q[4] / (m.gamma - 1) + 0.5L * q[0] * k2 + 0.5L * b2;
    v["B_x"][i] = q[5];
    v["B_y"][i] = q[6];
    v["B_z"][i] = q[7];
    v["psi"][i] = q[8];
    if (m.tracer) v["rho_c"][i] = q[0] * q[9];
  }
  const auto held = put_state(s, v);
  MhdState st;
  for (int f = 0; f < m.vars(); ++f) st[f] = exact(held.at(kMhdConserved[f]));
  return st;
}

inline MhdState mhd_conserved(const Solver& s, const MhdModel& m) {
  MhdState st;
  for (int f = 0; f < m.vars(); ++f) st[f] = exact(state_array(s, kMhdConserved[f]));
  return st;
}

// What the model counted over the steps.
struct MhdCorrections {
  int corrected = 0, floored = 0;
  int guarded = 0;  // HLLD outer states that took the 0/0 guard
  int longest_chain = 0;
};

inline MhdCorrections check_mhd(BackendKind backend, Precision precision, const MhdCase& mc,
                                const std::string& context, int steps = 2,
                                double ulps = kMhdStepUlps) {
  SCOPED_TRACE(context);
  Run run = make_run("fv/sod", mhd_overrides(mc), backend, precision);
  Solver& s = *run.solver;
  const MhdModel model = MhdModel::from(run.params, precision);
  MhdState held = put_mhd_state(s, model, mc, 4321);
  MhdCorrections total;
  for (int step = 1; step <= steps; ++step) {
    const std::string at = "step " + std::to_string(step);
    // The CFL rule: the solver reduces the fast-speed rate in its precision, divides in
    // double.
    const Tracked dt = model.time_step(held);
    expect_within(compare("dt", {(long double)s.dt()}, {dt}, precision, {1, 1, 1}), ulps, at);
    const MhdModel::StepResult expect = model.step(held, s.dt());
    // Only meaningful where the solver cannot have decided a yes/no question (a positive
    // face state, an admissible update, HLLD's 0/0 guard) the other way by rounding.
    EXPECT_GT(expect.closest_call, (ulps + 1) * unit_roundoff(precision))
        << at << ": the test state puts a decision within round-off of its threshold";
    if (!mc.guard_by_result)
      EXPECT_GT(expect.closest_guard, (ulps + 1) * unit_roundoff(precision))
          << at << ": the test state puts HLLD's 0/0 guard within round-off of its threshold";
    total.corrected += expect.corrected;
    total.floored += expect.floored;
    total.guarded += expect.guarded;
    s.advance(1);
    s.synchronize();
    held = mhd_conserved(s, model);
    std::vector<Comparison> cs;
    for (int f = 0; f < model.vars(); ++f)
      cs.push_back(
          compare(kMhdConserved[f], values_of(held[f]), expect.state[f], precision, model.n));
    std::vector<std::string> views = {"ux", "uy", "uz", "p"};
    for (const auto& name : views) {
      std::vector<Tracked> d(model.cells());
      for (std::int64_t c = 0; c < model.cells(); ++c) d[c] = model.derived(expect.state, c, name);
      cs.push_back(compare(name, field(s, name), d, precision, model.n));
    }
    const Comparison* worst = &cs.front();
    for (const auto& c : cs) {
      expect_within(c, ulps, at);
      total.longest_chain = std::max(total.longest_chain, c.longest_chain);
      if (c.worst_ulps > worst->worst_ulps) worst = &c;
    }
    if (step == steps)  // the worst field of the last step
      std::printf("mhd %s %s %s: step %d: %s\n", name_of(backend), name_of(precision),
                  context.c_str(), step, worst->describe().c_str());
    EXPECT_EQ(test::diagnostic(s, "corrected_cells"), total.corrected) << at;
  }
  return total;
}

}  // namespace fluxview::model
