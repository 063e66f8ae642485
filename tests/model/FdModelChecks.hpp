#pragma once
// The fd solver against its model (FdModel.hpp), for the CPU test and the GPU test: a
// random state is put into the solver (load_state, the forcing generator left at its
// seed), then each of a few steps is compared with the model's step from the state the
// solver started it from, field by field and cell by cell; the time step with the
// model's CFL rule; the forcing generator's words (saved in checkpoints) with the
// model's generator after the same draws.
#include <gtest/gtest.h>
#include <memory>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/model/FdModel.hpp"
#include "tests/model/ModelTestUtil.hpp"

namespace fluxview::model {

// The longest chain of roundings in one full step (three substeps) as the model counts it:
// a sixth-order derivative takes about 7 (its six-term sum and the coefficient), a rate
// about 12 more (products and the sums of eq. 2), an RK substep 3; a substep's input
// carries the chain of the one before, so the chain grows by about 20 per substep. With
// forcing, the force amplitude starts with 48 (the draw, made in double by the solver).
// The model counts at most 74 unforced and 104 forced (two-pass); the bound is that,
// rounded up. Tracked.hpp says why the error in ulp of the magnitude of the values
// involved is below it.
inline constexpr double kFdStepUlps = 120;

struct FdCase {
  std::array<int, 3> n{12, 10, 8};
  std::string method = "19point";
  bool forcing = false;
  double fixed_dt = 0;  // 0: automatic
};

inline std::vector<std::string> fd_overrides(const FdCase& c) {
  char dt[64];
  std::snprintf(dt, sizeof dt, "fd.dt=%.17g", c.fixed_dt);
  return {"grid.nx=" + std::to_string(c.n[0]), "grid.ny=" + std::to_string(c.n[1]),
          "grid.nz=" + std::to_string(c.n[2]),
          // Unequal spacings, so that a coefficient of the wrong axis shows.
          "grid.lx=1", "grid.ly=1.3", "grid.lz=0.9", "fd.init=rest", "fd.cs=1.1", "fd.nu=0.02",
          "fd.method=" + c.method, std::string("fd.forcing=") + (c.forcing ? "true" : "false"),
          // Strong enough that the force changes u by a few per cent in a step, so an
          // error in it is far above round-off.
          "fd.f0=0.05", "fd.kmin=1", "fd.kmax=2", "fd.seed=7", dt};
}

// A random state: ln rho = 0.2 + 0.3 r, u = 0.4 r per component (r uniform in [-1, 1]),
// independent per cell, so that every coefficient of every stencil matters.
inline FdState random_fd_state(Solver& s, std::uint64_t seed) {
  TestRandom r(seed);
  const std::int64_t cells = s.grid().cells();
  std::map<std::string, std::vector<long double>> v;
  for (int f = 0; f < 4; ++f) {
    auto& a = v[kFdFields[f]];
    a.resize(cells);
    for (auto& x : a) x = f == 0 ? 0.2 + 0.3 * r.uniform(-1, 1) : 0.4 * r.uniform(-1, 1);
  }
  const auto held = put_state(s, v);
  FdState st;
  for (int f = 0; f < 4; ++f) st[f] = exact(held.at(kFdFields[f]));
  return st;
}

inline FdState fd_fields(const Solver& s) {
  FdState st;
  for (int f = 0; f < 4; ++f) st[f] = exact(field(s, kFdFields[f]));
  return st;
}

// The generator's four words from a checkpoint's extra text ("rng a b c d", docs/fd.md).
inline std::array<std::uint64_t, 4> saved_rng_words(const Solver& s) {
  std::istringstream e(s.save_state().extra);
  std::string tag;
  std::array<std::uint64_t, 4> w{};
  e >> tag >> w[0] >> w[1] >> w[2] >> w[3];
  return w;
}

inline void check_fd(BackendKind backend, Precision precision, const FdCase& fc,
                     const std::string& context, int steps = 3) {
  SCOPED_TRACE(context);
  Run run = make_run("fd/viscous-decay", fd_overrides(fc), backend, precision);
  Solver& s = *run.solver;
  FdModel model = FdModel::from(run.params, precision);
  FdState held = random_fd_state(s, 99);
  double time = 0;
  for (int step = 1; step <= steps; ++step) {
    // The CFL rule, computed by the solver in double from its state.
    const long double dt_model = model.time_step(held);
    EXPECT_NEAR(s.dt(), double(dt_model), 1e-14 * double(dt_model)) << "step " << step;
    const FdState expect = model.step(held, s.dt());
    time += s.dt();
    s.advance(1);
    s.synchronize();
    held = fd_fields(s);
    for (int f = 0; f < 4; ++f) {
      const Comparison c = compare(kFdFields[f], values_of(held[f]), expect[f], precision, model.n);
      expect_within(c, kFdStepUlps, "step " + std::to_string(step));
      if (step == 1 || step == steps)
        std::printf("fd %s %s %s%s %dx%dx%d step %d: %s\n", name_of(backend), name_of(precision),
                    fc.method.c_str(), fc.forcing ? " forced" : "", model.n[0], model.n[1],
                    model.n[2], step, c.describe().c_str());
    }
    EXPECT_EQ(saved_rng_words(s), model.force.rng().words())
        << "the forcing generator after step " << step;
  }
  EXPECT_NEAR(s.time(), time, 1e-15 * time);
}

}  // namespace fluxview::model
