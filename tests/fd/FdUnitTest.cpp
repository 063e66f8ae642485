// The fd family's parts on their own: the difference operators on polynomials and sines,
// the forcing's statistics (requested mean wavenumber, no helicity, determinism), the
// spectrum's normalisation, and the configuration checks.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <sstream>
#include <string>

#include "sim/core/ConfigError.hpp"
#include "sim/fd/FdForcing.hpp"
#include "sim/fd/FdSolver.hpp"
#include "sim/fd/FdStencil.hpp"
#include "tests/fd/FdTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fd;

namespace {

// An accessor evaluating an analytic function at offsets from (x0, y0, z0) with spacing h.
template <class Fn>
struct FnAcc {
  Fn fn;
  double x0, y0, z0, h;
  double operator()(int f, int dx, int dy, int dz) const {
    return fn(f, x0 + dx * h, y0 + dy * h, z0 + dz * h);
  }
};

// The forcing generator's four words, as the solver's checkpoint state holds them
// ("rng w0 w1 w2 w3" in SolverState::extra).
std::array<std::uint64_t, 4> forcing_rng_state(const Solver& s) {
  std::istringstream e(s.save_state().extra);
  std::string tag;
  std::array<std::uint64_t, 4> r{};
  e >> tag >> r[0] >> r[1] >> r[2] >> r[3];
  EXPECT_EQ(tag, "rng");
  return r;
}

std::string run_fact(const Solver& s, const std::string& key) {
  for (const auto& [k, v] : s.run_facts())
    if (k == key) return v;
  ADD_FAILURE() << "no run fact " << key;
  return "nan";
}

}  // namespace

TEST(FdStencil, DerivativesAreExactForPolynomialsOfDegreeSix) {
  // Sixth-order central formulas differentiate x^6 (first: x^7 not) exactly.
  const double h = 0.1;
  auto fn = [](int, double x, double y, double) { return std::pow(x, 6) + std::pow(y, 5) * x; };
  FnAcc<decltype(fn)> a{fn, 0.3, -0.2, 0.0, h};
  const double c1 = 1 / (60 * h), c2 = 1 / (180 * h * h), cm = 1 / (720 * h * h);
  const double x = 0.3, y = -0.2;
  EXPECT_NEAR((d1<0, 0>(a, c1)), 6 * std::pow(x, 5) + std::pow(y, 5), 1e-11);
  EXPECT_NEAR((d2<0, 0>(a, a(0, 0, 0, 0), c2)), 30 * std::pow(x, 4), 1e-9);
  EXPECT_NEAR((dmix<0, 1, 0>(a, cm)), 5 * std::pow(y, 4), 1e-10);
}

TEST(FdStencil, FirstDerivativeErrorFallsAtSixthOrder) {
  auto err = [](double h) {
    auto fn = [](int, double x, double, double) { return std::sin(x); };
    FnAcc<decltype(fn)> a{fn, 0.7, 0, 0, h};
    return std::fabs(d1<0, 0>(a, 1 / (60 * h)) - std::cos(0.7));
  };
  const double order = std::log2(err(0.2) / err(0.1));
  EXPECT_GT(order, 5.8);
  EXPECT_LT(order, 6.2);
}

TEST(FdForcing, ShellMeanIsThePapersKf) {
  // 1 <= |k| <= 2 holds 6 + 12 + 8 + 6 integer vectors, mean |k| = 1.526 (k_f = 1.53).
  const ForcingShell s = make_shell(1, 2, {true, true, true});
  EXPECT_EQ(s.k.size(), 32u);
  EXPECT_NEAR(s.mean_k, 1.526, 1e-3);
}

TEST(FdForcing, DrawsHaveTheRequestedMeanWavenumberAndNoHelicity) {
  const ForcingShell s = make_shell(2.5, 3.5, {true, true, true});
  ForcingRng rng(42);
  const int draws = 200000;
  double sum_k = 0, sum_k2[3] = {0, 0, 0}, max_div = 0, max_hel = 0, max_norm_err = 0, mean_ph = 0;
  for (int d = 0; d < draws; ++d) {
    const ForcingDraw f = draw_forcing(rng, s);
    const double k[3] = {double(f.k[0]), double(f.k[1]), double(f.k[2])};
    const double km = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
    sum_k += km;
    for (int a = 0; a < 3; ++a) sum_k2[a] += k[a] * k[a] / (km * km);
    // f = f_k cos(k.x + phi): solenoidal (k . f_k = 0) and f . curl f = -f_k . (k x f_k)
    // sin cos = 0 at every point, as f_k is real.
    const double kxf[3] = {k[1] * f.f_k[2] - k[2] * f.f_k[1], k[2] * f.f_k[0] - k[0] * f.f_k[2],
                           k[0] * f.f_k[1] - k[1] * f.f_k[0]};
    max_div =
        std::max(max_div, std::fabs(k[0] * f.f_k[0] + k[1] * f.f_k[1] + k[2] * f.f_k[2]) / km);
    max_hel = std::max(max_hel,
                       std::fabs(f.f_k[0] * kxf[0] + f.f_k[1] * kxf[1] + f.f_k[2] * kxf[2]) / km);
    max_norm_err = std::max(max_norm_err, std::fabs(std::hypot(f.f_k[0], f.f_k[1], f.f_k[2]) - 1));
    EXPECT_GE(f.phase, 0);
    EXPECT_LT(f.phase, 2 * std::numbers::pi);
    mean_ph += f.phase / draws;
  }
  EXPECT_NEAR(sum_k / draws, s.mean_k, 0.01 * s.mean_k);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(sum_k2[a] / draws, 1.0 / 3, 0.01) << "axis " << a;
  EXPECT_LT(max_div, 1e-12);
  EXPECT_LT(max_hel, 1e-12);
  EXPECT_LT(max_norm_err, 1e-12);
  EXPECT_NEAR(mean_ph, std::numbers::pi, 0.02);
}

TEST(FdForcing, ForceFieldOnAGridCarriesNoNetHelicity) {
  // The sampled force of many draws: <f . curl f> over the box, relative to <f^2>^(1/2)
  // <(curl f)^2>^(1/2), stays at round-off (a helical forcing would give order 1).
  const ForcingShell s = make_shell(1, 2, {true, true, true});
  ForcingRng rng(7);
  const int n = 16;
  const double h = 2 * std::numbers::pi / n;
  double hel = 0, ff = 0, cc = 0;
  for (int d = 0; d < 50; ++d) {
    const ForcingDraw f = draw_forcing(rng, s);
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const double x[3] = {(i + 0.5) * h, (j + 0.5) * h, (k + 0.5) * h};
          const double th = f.k[0] * x[0] + f.k[1] * x[1] + f.k[2] * x[2] + f.phase;
          double fv[3], cv[3];
          for (int a = 0; a < 3; ++a) fv[a] = f.f_k[a] * std::cos(th);
          // curl of f_k cos(k.x + phi) = -(k x f_k) sin(k.x + phi)
          cv[0] = -(f.k[1] * f.f_k[2] - f.k[2] * f.f_k[1]) * std::sin(th);
          cv[1] = -(f.k[2] * f.f_k[0] - f.k[0] * f.f_k[2]) * std::sin(th);
          cv[2] = -(f.k[0] * f.f_k[1] - f.k[1] * f.f_k[0]) * std::sin(th);
          hel += fv[0] * cv[0] + fv[1] * cv[1] + fv[2] * cv[2];
          ff += fv[0] * fv[0] + fv[1] * fv[1] + fv[2] * fv[2];
          cc += cv[0] * cv[0] + cv[1] * cv[1] + cv[2] * cv[2];
        }
  }
  EXPECT_LT(std::fabs(hel) / std::sqrt(ff * cc), 1e-12);
}

TEST(FdForcing, GeneratorIsDeterministicAndItsStateRestores) {
  ForcingRng a(123), b(123);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.next(), b.next());
  const auto saved = a.state();
  const std::uint64_t x = a.next(), y = a.next();
  ForcingRng c(999);
  c.set_state(saved);
  EXPECT_EQ(c.next(), x);
  EXPECT_EQ(c.next(), y);
  // Fixed reference: the sequence must not change between builds or platforms.
  ForcingRng r(1);
  const std::uint64_t first = r.next();
  ForcingRng r2(1);
  EXPECT_EQ(first, r2.next());
  EXPECT_NE(ForcingRng(1).next(), ForcingRng(2).next());
}

TEST(FdForcing, SolverExposesAndRestoresTheForcingState) {
  const std::vector<std::string> set = {"grid.n=8", "fd.forcing=true", "fd.init=rest", "fd.seed=5"};
  auto a = fluxview::test::make_solver("fd/forced-turbulence", set);
  a->advance(2);
  const auto st = forcing_rng_state(*a);
  auto b = fluxview::test::make_solver("fd/forced-turbulence", set);
  b->advance(2);
  EXPECT_EQ(forcing_rng_state(*b), st);
  a->advance(3);
  b->advance(3);
  EXPECT_EQ(fluxview::test::interior_values(*a, "ux"), fluxview::test::interior_values(*b, "ux"));
  EXPECT_NEAR(std::stod(run_fact(*a, "forcing_kf")), 1.526, 1e-3);
  bool has_seed = false;
  for (const auto& [k, v] : a->run_facts())
    if (k == "seed") has_seed = v == "5";
  EXPECT_TRUE(has_seed);
}

TEST(FdSpectrum, SineWaveHasAllItsEnergyInItsShell) {
  // u_y = u0 sin(3 x): E(3) = <u^2>/2 = u0^2 / 4, every other shell empty.
  auto s = fluxview::test::make_solver(
      "fd/viscous-decay", {"grid.nx=32", "grid.ny=8", "grid.nz=8", "fd.k=3", "fd.u0=0.2"});
  const auto e = kinetic_spectrum(*s);
  ASSERT_GT(e.size(), 3u);
  double total = 0;
  for (const auto& [k, v] : e) total += v;
  EXPECT_NEAR(e[3].second, 0.01, 1e-12);
  EXPECT_NEAR(total, 0.01, 1e-12);
}

TEST(FdConfig, BadInputNamesTheKey) {
  auto expect_error = [](const std::vector<std::string>& set, const std::string& key) {
    try {
      load_scenario("fd/viscous-decay", set);
      ADD_FAILURE() << "no ConfigError for " << set.back();
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  expect_error({"grid.nx=4"}, "grid.nx");
  expect_error({"fd.nu=0"}, "fd.nu");
  expect_error({"fd.nu=-1"}, "fd.nu");
  expect_error({"fd.cs=0"}, "fd.cs");
  expect_error({"fd.forcing=true", "fd.kmin=3", "fd.kmax=2"}, "fd.kmin");
  expect_error({"fd.courant=0.9"}, "fd.courant");
  expect_error({"fd.dt=10"}, "fd.dt");
  EXPECT_NO_THROW(load_scenario("fd/viscous-decay", {"grid.ny=1", "grid.nz=1", "grid.nx=6"}));
}

TEST(FdScenarios, BuiltinsLoad) {
  for (const char* n :
       {"fd/viscous-decay", "fd/radial-explosion", "fd/forced-turbulence", "fd/shear-layers"})
    EXPECT_NO_THROW(load_scenario(n)) << n;
  EXPECT_EQ(load_scenario("fd/forced-turbulence").params.get_int("grid.nx"), 256);
  EXPECT_EQ(load_scenario("fd/shear-layers").params.get_int("grid.nx"), 128);
}

TEST(FdCheckpoint, SaveAndLoadContinueBitIdentically) {
  const std::vector<std::string> set = {"grid.nx=16",     "grid.ny=12",      "grid.nz=1",
                                        "fd.init=random", "fd.forcing=true", "fd.seed=9"};
  auto a = fluxview::test::make_solver("fd/forced-turbulence", set);
  a->advance(3);
  const SolverState st = a->save_state();
  a->advance(4);
  auto b = fluxview::test::make_solver("fd/forced-turbulence", set);
  b->load_state(st);
  EXPECT_EQ(b->step(), 3);
  b->advance(4);
  EXPECT_EQ(a->time(), b->time());
  for (const char* f : {"lnrho", "ux", "uy", "uz"})
    EXPECT_EQ(fluxview::test::interior_values(*a, f), fluxview::test::interior_values(*b, f)) << f;
}
