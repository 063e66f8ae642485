// The higher-order schemes through the whole solver (fv.reconstruction, fv.time), on the
// CPU: the design order of each on smooth problems with exact solutions (a 1D density
// wave and the 2D isentropic vortex of Balsara & Shu, the paper's accuracy test in one
// and two dimensions so that it runs in seconds), the errors read from the solver's own
// diagnostics density_error_l1 and density_error_linf.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <cmath>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/fv/ExactRiemann.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;
using fluxview::fv::ExactRiemann;

namespace {

struct Scheme {
  const char* reconstruction;
  const char* time;
  // The order the finer pair must reach on the 1D wave and on the 2D vortex (a little
  // under the design order; see wenoz5 below).
  double wave_order, vortex_order;
};

// L1 and L-infinity density errors of the vortex at t on an n x n grid.
struct Errors {
  double l1 = 0, linf = 0;
};

Errors vortex_errors(const Scheme& s, int n, double t, Precision p = Precision::f64) {
  auto solver = make_solver(
      "fv/isentropic-vortex",
      {"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n),
       std::string("fv.reconstruction=") + s.reconstruction, std::string("fv.time=") + s.time},
      BackendKind::cpu, p);
  run_until(*solver, t);
  EXPECT_EQ(diagnostic(*solver, "corrected_cells"), 0) << s.reconstruction << " " << s.time;
  return {diagnostic(*solver, "density_error_l1"), diagnostic(*solver, "density_error_linf")};
}

// A density wave of amplitude 0.2 carried once across a periodic unit line.
Errors wave_errors(const Scheme& s, int n) {
  auto solver =
      make_solver("fv/isentropic-vortex",
                  {"fv.init=smooth-wave", "grid.nx=" + std::to_string(n), "grid.ny=1", "grid.lx=1",
                   "fv.ux=1", "fv.uy=0", std::string("fv.reconstruction=") + s.reconstruction,
                   std::string("fv.time=") + s.time, "run.until=1"});
  run_until(*solver, 1.0);
  return {diagnostic(*solver, "density_error_l1"), diagnostic(*solver, "density_error_linf")};
}

// WENO-Z is fifth order along a line (the 1D wave), but its face flux is one Riemann
// solve at the face centre, which is second-order accurate for the face average of a
// nonlinear flux in 2D and 3D (Zhang, Zhang & Shu 2011, Commun. Comput. Phys. 9, 807):
// so the codes that use it are, asymptotically, and the vortex asks only for that. The
// modal schemes integrate the face with Gauss points and keep their order in 2D. plm with
// ADER (MUSCL-Hancock) measures 1.91 on the vortex at 32^2 -> 64^2, still short of its
// asymptote there; the 1.9 is for the paper's finer 3D pairs (the GPU test).
// weno2 with rk2 measures 1.85 on the wave at 64 -> 128 (its weights still move near the
// extrema there; with ADER 1.94); its L-infinity error is what it is for: on the 2D
// vortex to t = 1 at 192^2 it is 1.1e-3 against plm's 3.3e-3.
const Scheme kSchemes[] = {
    {"plm", "rk2", 1.9, 1.9},    {"plm", "ader", 1.9, 1.85},    {"weno2", "rk2", 1.8, 1.9},
    {"weno2", "ader", 1.9, 1.9}, {"weno3", "ssprk3", 2.8, 2.8}, {"weno3", "ader", 2.8, 2.8},
    {"weno4", "rk4", 3.8, 3.8},  {"weno4", "ader", 3.8, 3.8},   {"wenoz5", "ssprk3", 2.8, 1.9},
    {"wenoz5", "rk4", 4.8, 1.9},
};

}  // namespace

TEST(FvSchemeOrder, VortexReachesTheDesignOrders) {
  // 32^2 -> 64^2 to t = 0.5: about 20 and 40 steps, the vortex core (radius ~1) over 3
  // and 6 cells. L1 of the density, as in the paper's Table XII.
  for (const Scheme& s : kSchemes) {
    const Errors a = vortex_errors(s, 32, 0.5), b = vortex_errors(s, 64, 0.5);
    const double order = std::log2(a.l1 / b.l1), order_inf = std::log2(a.linf / b.linf);
    std::printf("vortex %-6s %-6s L1 %.3e -> %.3e (order %.2f)  Linf %.3e -> %.3e (order %.2f)\n",
                s.reconstruction, s.time, a.l1, b.l1, order, a.linf, b.linf, order_inf);
    EXPECT_GT(order, s.vortex_order) << s.reconstruction << " " << s.time;
  }
}

TEST(FvSchemeOrder, WaveReachesTheDesignOrders) {
  // 64 -> 128 cells: at 32 the limiter of plm still clips the extrema enough to show.
  for (const Scheme& s : kSchemes) {
    const Errors a = wave_errors(s, 64), b = wave_errors(s, 128);
    const double order = std::log2(a.l1 / b.l1);
    std::printf("wave   %-6s %-6s L1 %.3e -> %.3e (order %.2f)\n", s.reconstruction, s.time, a.l1,
                b.l1, order);
    EXPECT_GT(order, s.wave_order) << s.reconstruction << " " << s.time;
  }
}

namespace {

// L1 density error of Sod at t = 0.14 on n cells against the exact solution (as in
// FvSodTest.cpp), with the given scheme.
double sod_l1(const Scheme& s, int n) {
  static const ExactRiemann exact({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  auto solver = make_solver("fv/sod", {"grid.nx=" + std::to_string(n),
                                       std::string("fv.reconstruction=") + s.reconstruction,
                                       std::string("fv.time=") + s.time});
  run_until(*solver, 0.14);
  const auto rho = interior_values(*solver, "rho");
  double err = 0;
  for (int i = 0; i < n; ++i) {
    const double x = solver->grid().coord(0, i);
    err += std::fabs(rho[i] - exact.sample((x - 0.5) / 0.14).rho) / n;
  }
  return err;
}

}  // namespace

TEST(FvSchemeShocks, SodWithinThePlmTolerancesAtEveryOrder) {
  // The bounds of FvSod.DensityErrorFallsWithResolution (PLM: 0.0050 and 0.0014 measured).
  for (const Scheme& s : kSchemes) {
    const double e100 = sod_l1(s, 100), e400 = sod_l1(s, 400);
    std::printf("Sod %-6s %-6s L1(rho): n=100 %.5f  n=400 %.5f\n", s.reconstruction, s.time, e100,
                e400);
    EXPECT_LT(e100, 0.006) << s.reconstruction << " " << s.time;
    EXPECT_LT(e400, 0.0017) << s.reconstruction << " " << s.time;
  }
}

TEST(FvSchemeShocks, SedovIn2DKeepsItsEnergyAtEveryOrder) {
  // The 2D blast (p = 1e-5 around it) to t = 0.05, before it reaches the walls: every
  // scheme keeps the total energy to round-off with no cell corrected. weno4 + ADER used to
  // blow up here (energy 8e151): its predictor, fed a point of density barely above the
  // floor, sent a point value of 1e35 to the Riemann solver; faces now take the first-order
  // flux when a point value leaves the band of the two cells beside them.
  for (const Scheme& sc : kSchemes) {
    auto s = make_solver("fv/sedov", {"grid.nx=32", "grid.ny=32", "grid.nz=1",
                                      std::string("fv.reconstruction=") + sc.reconstruction,
                                      std::string("fv.time=") + sc.time});
    const double e0 = diagnostic(*s, "energy");
    run_until(*s, 0.05);
    const double e = diagnostic(*s, "energy");
    std::printf("Sedov 2D 32^2 %-6s %-6s: energy %.12f -> %.12f, corrected %g\n", sc.reconstruction,
                sc.time, e0, e, diagnostic(*s, "corrected_cells"));
    EXPECT_NEAR(e, e0, 1e-9 * e0) << sc.reconstruction << " " << sc.time;
    EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0) << sc.reconstruction << " " << sc.time;
    EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0) << sc.reconstruction << " " << sc.time;
  }
}

// Sedov in 3D at the higher orders is FvHigherOrderCuda.Sedov128AtEveryOrder (the GPU
// test): on the CI CPU the 3D fourth-order octant of FvSedov takes over ten times plm's
// time (more than four CPU minutes).

TEST(FvSchemeChoices, BadCombinationsAreRefusedWithTheKeyAndWhatIsAllowed) {
  // A name that is not a scheme.
  EXPECT_NE(config_error("fv/sod", {"fv.reconstruction=weno6"}).find("fv.reconstruction"),
            std::string::npos);
  EXPECT_NE(config_error("fv/sod", {"fv.time=rk3"}).find("fv.time"), std::string::npos);
  EXPECT_NE(config_error("fv/sod", {"fv.variables=entropy"}).find("fv.variables"),
            std::string::npos);
  // ADER evolves a cell polynomial; WENO-Z has face values only.
  const std::string ader = config_error("fv/sod", {"fv.reconstruction=wenoz5", "fv.time=ader"});
  EXPECT_NE(ader.find("fv.time = ader"), std::string::npos) << ader;
  EXPECT_NE(ader.find("allowed"), std::string::npos) << ader;
  // An active axis must hold the scheme's ghost layers: weno4 reads 4, plm 2.
  const std::string narrow = config_error("fv/sod", {"grid.nx=3", "fv.reconstruction=weno4"});
  EXPECT_NE(narrow.find("grid.nx = 3"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("at least 4"), std::string::npos) << narrow;
  EXPECT_EQ(config_error("fv/sod", {"grid.nx=4", "fv.reconstruction=weno4"}), "");
  EXPECT_EQ(config_error("fv/sod", {"grid.nx=3", "fv.reconstruction=plm"}), "");
  // The vortex is an x-y problem.
  EXPECT_NE(config_error("fv/isentropic-vortex", {"grid.ny=1"}).find("grid.ny > 1"),
            std::string::npos);
  for (const char* name : {"fv/isentropic-vortex", "fv/shu-osher", "fv/double-mach"})
    EXPECT_EQ(config_error(name, {}), "") << name;
}

TEST(FvSchemeChoices, CheckpointsRecordTheSchemeAndRestartBitIdentically) {
  const std::vector<std::string> o = {"grid.nx=24", "grid.ny=24", "fv.reconstruction=weno4",
                                      "fv.time=rk4"};
  // rk4 keeps three registers and leaves its result in another one than it started in:
  // a restart must still continue bit for bit.
  auto a = make_solver("fv/isentropic-vortex", o);
  a->advance(3);
  const SolverState st = a->save_state();
  a->advance(4);
  auto b = make_solver("fv/isentropic-vortex", o);
  b->load_state(st);
  b->advance(4);
  EXPECT_EQ(b->time(), a->time());
  EXPECT_EQ(interior_values(*a, "rho"), interior_values(*b, "rho"));
  EXPECT_EQ(interior_values(*a, "p"), interior_values(*b, "p"));
  // Another scheme is refused, naming both and the way to allow it ...
  auto c = make_solver("fv/isentropic-vortex",
                       {"grid.nx=24", "grid.ny=24", "fv.reconstruction=weno3", "fv.time=ader"});
  try {
    c->load_state(st);
    ADD_FAILURE() << "a checkpoint of weno4/rk4 loaded into a weno3/ader run";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("weno4"), std::string::npos) << m;
    EXPECT_NE(m.find("weno3"), std::string::npos) << m;
    EXPECT_NE(m.find("fv.allow_scheme_change"), std::string::npos) << m;
  }
  // ... unless asked for, and then the run continues from the saved state.
  auto d =
      make_solver("fv/isentropic-vortex", {"grid.nx=24", "grid.ny=24", "fv.reconstruction=weno3",
                                           "fv.time=ader", "fv.allow_scheme_change=true"});
  d->load_state(st);
  EXPECT_EQ(d->step(), 3);
  d->advance(1);
  EXPECT_EQ(diagnostic(*d, "nonfinite_cells"), 0);
}

TEST(FvSchemeChoices, RoundingDifferencesDoNotGrow) {
  // Two vortex runs whose initial states differ by rounding (the strength one ulp apart),
  // as the CPU's and the GPU's differ after every operation that the GPU fuses into a
  // multiply-add: after 20 steps they still agree to rounding. Without the WENO weights'
  // floor (WenoReconstruction.hpp) the difference grew to 7e-10 at weno3 + ADER, which
  // is how the GPU and the CPU came to differ in the ninth digit.
  const double beta = 5.0, nudged = std::nextafter(beta, 6.0);
  for (const Scheme& s : kSchemes) {
    std::unique_ptr<Solver> run[2];
    for (int k = 0; k < 2; ++k) {
      char strength[64];
      std::snprintf(strength, sizeof strength, "fv.vortex_strength=%.17g", k ? nudged : beta);
      run[k] =
          make_solver("fv/isentropic-vortex", {"grid.nx=45", "grid.ny=37", strength,
                                               std::string("fv.reconstruction=") + s.reconstruction,
                                               std::string("fv.time=") + s.time});
      run[k]->advance(20);
      run[k]->synchronize();
    }
    const double d = fluxview::test::max_relative_difference(*run[0], *run[1], "rho");
    std::printf("%-6s %-6s: 1-ulp change of the vortex grew to %.2e in 20 steps\n",
                s.reconstruction, s.time, d);
    EXPECT_LT(d, 1e-12) << s.reconstruction << " " << s.time;
  }
}

TEST(FvSchemeChoices, FloatFollowsDoubleOnTheVortex) {
  // The modal path in float: the error at 32^2 is that of double to float round-off.
  const Scheme s{"weno4", "ader", 0, 0};
  const Errors d = vortex_errors(s, 32, 0.5), f = vortex_errors(s, 32, 0.5, Precision::f32);
  std::printf("vortex weno4 ader 32^2 L1: double %.4e, float %.4e\n", d.l1, f.l1);
  EXPECT_NEAR(f.l1, d.l1, 0.02 * d.l1);
}

namespace {

// The Shu-Osher density at t = 1.8 on n cells with a scheme.
std::vector<double> shu_osher(const Scheme& s, int n) {
  auto solver = make_solver("fv/shu-osher", {"grid.nx=" + std::to_string(n),
                                             std::string("fv.reconstruction=") + s.reconstruction,
                                             std::string("fv.time=") + s.time});
  run_until(*solver, 1.8);
  EXPECT_EQ(diagnostic(*solver, "nonfinite_cells"), 0) << s.reconstruction << " " << s.time;
  return interior_values(*solver, "rho");
}

}  // namespace

TEST(FvSchemeShocks, ShuOsherAgainstAReferenceRun) {
  // The reference: WENO-Z + RK4 on 3200 cells, averaged onto the 400 cells of each run
  // (8 to one). The L1 density error over the box [0, 10]: the compressed entropy waves
  // behind the shock are what the orders differ in. At 3200 cells the reference hardly
  // depends on its scheme: weno4 + ADER's (63 s here, WENO-Z's 25 s) differs from it by
  // 0.0077 in L1, and every ratio to plm below came out the same to two digits against
  // either (2026-11-28).
  const int n = 400, fine = 3200, r = fine / n;
  const std::vector<double> ref = shu_osher({"wenoz5", "rk4", 0, 0}, fine);
  auto l1 = [&](const std::vector<double>& rho) {
    double e = 0;
    for (int i = 0; i < n; ++i) {
      double avg = 0;
      for (int q = 0; q < r; ++q) avg += ref[i * r + q] / r;
      e += std::fabs(rho[i] - avg) * (10.0 / n);
    }
    return e;
  };
  const double plm = l1(shu_osher({"plm", "rk2", 0, 0}, n));
  std::printf("Shu-Osher %d cells, L1(rho) against %d: plm rk2 %.4f\n", n, fine, plm);
  for (const Scheme& s : {Scheme{"weno3", "ader", 0, 0}, Scheme{"weno4", "ader", 0, 0},
                          Scheme{"weno4", "rk4", 0, 0}, Scheme{"wenoz5", "rk4", 0, 0}}) {
    const double e = l1(shu_osher(s, n));
    std::printf("Shu-Osher %d cells, L1(rho) against %d: %s %s %.4f (%.2f of plm)\n", n, fine,
                s.reconstruction, s.time, e, e / plm);
    // Measured 0.47 (weno3), 0.23 and 0.26 (weno4), 0.27 (wenoz5) of plm's error.
    EXPECT_LT(e, 0.6 * plm) << s.reconstruction << " " << s.time;
  }
}
