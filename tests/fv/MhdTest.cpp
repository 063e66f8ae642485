// Ideal MHD with GLM cleaning through the solver, on the CPU (docs/mhd.md): Brio-Wu (Wang,
// Abel & Kaehler 2010, sec. 7.2) converging to a 3200-cell run of the same scheme and the
// same along every axis; with no field the scheme is a hydro scheme (Sod against the exact
// solution); the Orszag-Tang vortex conserves what it must, and its div B stays small with
// the cleaning and grows without it; a 3D blast in a field with the tracer conserves too;
// checkpoints restart bit-identically; combinations MHD does not run with are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/fv/ExactRiemann.hpp"
#include "sim/fv/MhdProblems.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// A run of `scenario` to time t on the CPU.
std::unique_ptr<Solver> run_to(const std::string& scenario, const std::vector<std::string>& o,
                               double t, Precision precision = Precision::f64) {
  auto s = make_solver(scenario, o, BackendKind::cpu, precision);
  run_until(*s, t);
  return s;
}

// Brio-Wu's density at t = 0.1 on n cells along x.
std::vector<double> brio_wu(int n, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> o = {"grid.nx=" + std::to_string(n)};
  o.insert(o.end(), extra.begin(), extra.end());
  return interior_values(*run_to("fv/brio-wu", o, 0.1), "rho");
}

// The 3200-cell reference, computed once.
const std::vector<double>& reference() {
  static const std::vector<double> r = brio_wu(3200);
  return r;
}

// L1 distance of an n-cell profile from the reference averaged onto its cells.
double l1_from_reference(const std::vector<double>& rho) {
  const int n = int(rho.size()), f = 3200 / n;
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double avg = 0;
    for (int k = 0; k < f; ++k) avg += reference()[std::size_t(i) * f + k];
    e += std::fabs(rho[i] - avg / f) / n;
  }
  return e;
}

}  // namespace

TEST(MhdBrioWu, DensityConvergesToTheReferenceRun) {
  const double e200 = l1_from_reference(brio_wu(200)), e400 = l1_from_reference(brio_wu(400));
  const double l200 = l1_from_reference(brio_wu(200, {"fv.riemann=hll"}));
  std::printf("Brio-Wu L1(rho) against 3200 cells: hlld n=200 %.5f  n=400 %.5f; hll n=200 %.5f\n",
              e200, e400, l200);
  // Measured 0.00534 and 0.00282 (hlld), 0.00672 (hll): first order at the discontinuities.
  EXPECT_LT(e200, 0.0062);
  EXPECT_LT(e400, 0.6 * e200);
  // HLLD resolves the contact and the rotational waves that HLL smears.
  EXPECT_LT(e200, 0.9 * l200);
  // The plateaux of the solution, the values quoted for it (Brio & Wu 1988; Ryu & Jones
  // 1995; from memory, docs/mhd.md): 0.676 behind the fast rarefaction, 0.234 between the
  // contact and the slow shock, 0.117 before the right fast rarefaction, at x = 0.44, 0.60
  // and 0.70 of the 3200-cell run.
  const auto at = [&](double x) { return reference()[std::size_t(x * 3200)]; };
  EXPECT_NEAR(at(0.44), 0.676, 0.004);
  EXPECT_NEAR(at(0.60), 0.234, 0.003);
  EXPECT_NEAR(at(0.70), 0.117, 0.001);
}

// The higher orders through Brio-Wu's discontinuities: every scheme stays within its
// bound of the 3200-cell second-order run (the reference is a second-order solution, so
// this measures robustness and resolution, not order).
TEST(MhdBrioWu, HigherOrdersCrossTheDiscontinuities) {
  const std::vector<std::vector<std::string>> schemes = {
      {"fv.reconstruction=weno3", "fv.time=ader"},
      {"fv.reconstruction=weno4", "fv.time=ader"},
      {"fv.reconstruction=wenoz5", "fv.time=ssprk3"},
      {"fv.reconstruction=weno3", "fv.time=ssprk3", "fv.variables=conserved"},
      {"fv.reconstruction=weno3", "fv.time=ader", "fv.variables=characteristic"},
      {"fv.reconstruction=weno4", "fv.time=ader", "fv.variables=characteristic"}};
  // The total variation of the reference averaged onto 200 cells: what a profile without
  // oscillations has.
  auto variation = [](const std::vector<double>& r) {
    double tv = 0;
    for (std::size_t i = 1; i < r.size(); ++i) tv += std::fabs(r[i] - r[i - 1]);
    return tv;
  };
  std::vector<double> ref200(200, 0.0);
  for (int i = 0; i < 200; ++i)
    for (int k = 0; k < 16; ++k) ref200[i] += reference()[std::size_t(i) * 16 + k] / 16;
  std::printf("Brio-Wu reference total variation %.5f\n", variation(ref200));
  for (const auto& sc : schemes) {
    std::vector<std::string> o = sc;
    const auto rho = brio_wu(200, o);
    const double e = l1_from_reference(rho);
    std::printf(
        "Brio-Wu 200 cells %s %s %s: L1(rho) against 3200 cells %.5f, total variation "
        "%.5f\n",
        sc[0].c_str(), sc[1].c_str(), sc.size() > 2 ? sc[2].c_str() : "", e, variation(rho));
    EXPECT_TRUE(std::all_of(rho.begin(), rho.end(), [](double r) { return r > 0.1; }))
        << sc[0] << " " << sc[1];
    EXPECT_LT(e, 0.0062) << sc[0] << " " << sc[1];
  }
}

// The target: L1(rho) at 200 cells within 1.2 times what Athena++ gives there.
// tests/fv/data/brio-wu-athena-200.txt holds Athena++'s own 200-cell density (HLLD, PLM,
// VL2, cfl 0.4: its shipped Brio-Wu input) and its 12800-cell density averaged onto the
// same cells, the reference both codes are measured against (a code independent of ours).
TEST(MhdBrioWu, WithinOneAndAFifthOfAthenaAgainstAthenasReference) {
  std::vector<double> x, athena, reference;
  {
    std::FILE* f = std::fopen(FLUXVIEW_SOURCE_DIR "/tests/fv/data/brio-wu-athena-200.txt", "r");
    ASSERT_NE(f, nullptr);
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      double c[3];
      if (line[0] != '#' && std::sscanf(line, "%lf %lf %lf", &c[0], &c[1], &c[2]) == 3) {
        x.push_back(c[0]);
        athena.push_back(c[1]);
        reference.push_back(c[2]);
      }
    }
    std::fclose(f);
  }
  ASSERT_EQ(reference.size(), 200u);
  auto l1 = [&](const std::vector<double>& rho) {
    double e = 0;
    for (std::size_t i = 0; i < rho.size(); ++i) e += std::fabs(rho[i] - reference[i]) / 200;
    return e;
  };
  // The same cells: Athena++'s [-0.5, 0.5] shifted onto ours.
  const auto s = run_to("fv/brio-wu", {"grid.nx=200"}, 0.1);
  const Grid& g = s->grid();
  for (int i = 0; i < 200; i += 50) EXPECT_NEAR(g.origin[0] + i * g.spacing[0], x[i], 1e-12);
  const double ours = l1(interior_values(*s, "rho")), theirs = l1(athena);
  const double weno4 =
      l1(brio_wu(200, {"fv.reconstruction=weno4", "fv.time=ader", "fv.variables=characteristic"}));
  std::printf(
      "Brio-Wu 200 cells, L1(rho) against Athena++'s 12800 cells: Athena++ (PLM, HLLD) %.5f, "
      "fluxview (PLM, HLLD, RK2) %.5f = %.3f of it, weno4 + ADER characteristic %.5f\n",
      theirs, ours, ours / theirs, weno4);
  EXPECT_NEAR(theirs, 5.765e-3, 0.001e-3);  // the data as written (docs/mhd.md)
  EXPECT_LT(ours, 1.2 * theirs);
  EXPECT_LT(weno4, 1.2 * theirs);
}

TEST(MhdBrioWu, SameAlongXYZ) {
  const int n = 200;
  std::vector<double> ref;
  for (const char* ax : {"x", "y", "z"}) {
    auto s =
        run_to("fv/brio-wu",
               {"grid.nx=1", "grid.ny=1", "grid.nz=1",
                std::string("grid.n") + ax + "=" + std::to_string(n), std::string("fv.axis=") + ax},
               0.1);
    const auto rho = interior_values(*s, "rho");
    ASSERT_EQ(rho.size(), std::size_t(n));
    // The transverse field swings from +1 to -1 along the axis after the tube's.
    const std::string bt = std::string("b") + "xyz"[(ax[0] - 'x' + 1) % 3];
    const auto b = interior_values(*s, bt);
    EXPECT_NEAR(b.front(), 1.0, 1e-12) << ax;
    EXPECT_NEAR(b.back(), -1.0, 1e-12) << ax;
    if (ref.empty()) {
      ref = rho;
      continue;
    }
    double diff = 0;
    for (int i = 0; i < n; ++i) diff = std::max(diff, std::fabs(rho[i] - ref[i]));
    EXPECT_LT(diff, 1e-13) << "axis " << ax;
  }
}

namespace {

// L1 error of B across the axis (the first transverse component) after one period of the
// circularly polarised Alfven wave on n cells along `axis`, against the exact cell averages.
double alfven_error(int n, const std::vector<std::string>& scheme, char axis = 'x') {
  std::vector<std::string> o = {"grid.nx=1", "grid.ny=1", "grid.nz=1",
                                std::string("grid.n") + axis + "=" + std::to_string(n),
                                std::string("fv.axis=") + axis};
  o.insert(o.end(), scheme.begin(), scheme.end());
  auto s = run_to("fv/alfven-wave", o, 1.0);
  fv::AlfvenWave w;  // the scenario's wave: rho 1, p 0.1, B0 1, A 0.1, one wavelength
  const int a = axis - 'x';
  const auto b = interior_values(*s, std::string("b") + "xyz"[(a + 1) % 3]);
  const double h = s->grid().spacing[a];
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += std::fabs(b[i] - w.field_average(0, s->grid().coord(a, i), h, s->time())) / n;
  return e;
}

}  // namespace

// The design order of each scheme on the Alfven wave: the smooth test MHD codes are judged
// by (Toth 2000). Errors on 16, 32 and 64 cells (64, 128 and 256 at second order); the
// order of the finer pair is asserted.
TEST(MhdAlfvenWave, EverySchemeReachesItsDesignOrder) {
  struct Case {
    std::vector<std::string> scheme;
    double order;
  };
  const Case cases[] = {
      {{"fv.reconstruction=plm", "fv.time=rk2"}, 1.9},
      {{"fv.reconstruction=weno2", "fv.time=rk2"}, 1.9},
      {{"fv.reconstruction=weno3", "fv.time=ssprk3"}, 2.8},
      {{"fv.reconstruction=weno3", "fv.time=ader"}, 2.8},
      {{"fv.reconstruction=weno4", "fv.time=rk4"}, 3.8},
      {{"fv.reconstruction=weno4", "fv.time=ader"}, 3.8},
      {{"fv.reconstruction=wenoz5", "fv.time=rk4"}, 3.8},
  };
  for (const Case& c : cases) {
    // The second-order limiters clip the wave's extrema on coarse grids: one doubling more.
    const int n = c.order < 2 ? 64 : 16;
    const double e1 = alfven_error(n, c.scheme), e2 = alfven_error(2 * n, c.scheme),
                 e3 = alfven_error(4 * n, c.scheme);
    const double o1 = std::log2(e1 / e2), o2 = std::log2(e2 / e3);
    std::printf("Alfven wave %-26s %-12s L1(B_y) on %d, %d, %d: %.3e %.3e %.3e  orders %.2f %.2f\n",
                c.scheme[0].c_str(), c.scheme[1].c_str(), n, 2 * n, 4 * n, e1, e2, e3, o1, o2);
    EXPECT_GE(o2, c.order) << c.scheme[0] << " " << c.scheme[1];
  }
  // Along y and z the same numbers (the axis is a template parameter of every flux).
  const std::vector<std::string> w4 = {"fv.reconstruction=weno4", "fv.time=ader"};
  const double ex = alfven_error(32, w4, 'x');
  EXPECT_NEAR(alfven_error(32, w4, 'y'), ex, 1e-14);
  EXPECT_NEAR(alfven_error(32, w4, 'z'), ex, 1e-14);
}

// The MHD vortex of Balsara (2004), the paper's Table XIII in two dimensions (its 3D
// version is uniform along z): the errors of B_x from the solver's own diagnostics
// bx_error_l1 and bx_error_linf, 32^2 -> 64^2 to t = 0.5. The vortex is steady only if its
// pressure holds its field's tension and its rotation: a wrong balance would leave an error
// that does not shrink with the grid. At t = 0 the state is the exact averages.
TEST(MhdVortex, EverySchemeReachesItsDesignOrder) {
  struct Case {
    const char *reconstruction, *time;
    double order;
  };
  // plm's theta-minmod clips the vortex's smooth extrema: 1.86 at 32^2 -> 64^2, still short
  // of its asymptote there (the GPU test measures the paper's finer 3D grids).
  const Case cases[] = {{"plm", "rk2", 1.8},    {"weno2", "ader", 1.9}, {"weno3", "ssprk3", 2.8},
                        {"weno3", "ader", 2.8}, {"weno4", "rk4", 3.8},  {"weno4", "ader", 3.8}};
  for (const Case& c : cases) {
    double l1[2], linf[2];
    for (int r = 0; r < 2; ++r) {
      const int n = 32 << r;
      auto s = make_solver(
          "fv/mhd-vortex",
          {"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n),
           std::string("fv.reconstruction=") + c.reconstruction, std::string("fv.time=") + c.time},
          BackendKind::cpu, Precision::f64);
      EXPECT_LT(diagnostic(*s, "bx_error_linf"), 1e-15);
      run_until(*s, 0.5);
      EXPECT_EQ(diagnostic(*s, "corrected_cells"), 0) << c.reconstruction << " " << c.time;
      l1[r] = diagnostic(*s, "bx_error_l1");
      linf[r] = diagnostic(*s, "bx_error_linf");
    }
    const double order = std::log2(l1[0] / l1[1]), order_inf = std::log2(linf[0] / linf[1]);
    std::printf(
        "mhd vortex %-6s %-6s L1(B_x) %.3e -> %.3e (order %.2f)  Linf %.3e -> %.3e "
        "(order %.2f)\n",
        c.reconstruction, c.time, l1[0], l1[1], order, linf[0], linf[1], order_inf);
    EXPECT_GT(order, c.order) << c.reconstruction << " " << c.time;
  }
  // An MHD problem in the x-y plane: hydro and a reduced y axis are refused.
  EXPECT_NE(config_error("fv/mhd-vortex", {"fv.physics=hydro"}).find("set fv.physics = mhd"),
            std::string::npos);
  EXPECT_NE(config_error("fv/mhd-vortex", {"grid.ny=1"}).find("grid.ny > 1"), std::string::npos);
}

// Two MHD vortex runs whose initial states differ by rounding (kappa one ulp apart), as
// the CPU's and the GPU's differ: after 20 steps of weno3 + ADER they still agree to near
// rounding. When psi's WENO weights also switched the cross modes of every variable
// (CellReconstruction.hpp) the difference in psi grew to 0.37 of psi's size in
// characteristic variables and 1.0e-7 in primitive ones (now 4.8e-8 and 7.3e-10).
TEST(MhdVortex, RoundingDifferencesDoNotGrowThroughPsi) {
  struct Case {
    const char* variables;
    double bound;
  };
  for (const Case& c : {Case{"characteristic", 1e-6}, Case{"primitive", 1e-8}}) {
    std::unique_ptr<Solver> run[2];
    for (int k = 0; k < 2; ++k) {
      char kappa[64];
      std::snprintf(kappa, sizeof kappa, "fv.vortex_strength=%.17g",
                    k ? std::nextafter(1.0, 2.0) : 1.0);
      run[k] = make_solver("fv/mhd-vortex",
                           {"grid.nx=45", "grid.ny=37", kappa, "fv.reconstruction=weno3",
                            "fv.time=ader", std::string("fv.variables=") + c.variables},
                           BackendKind::cpu, Precision::f64);
      run[k]->advance(20);
    }
    const double psi = fluxview::test::max_relative_difference(*run[0], *run[1], "psi");
    const double bx = fluxview::test::max_relative_difference(*run[0], *run[1], "bx");
    double psi_size = 0;
    for (double v : fluxview::test::interior_values(*run[1], "psi"))
      psi_size = std::max(psi_size, std::fabs(v));
    std::printf(
        "mhd vortex weno3 ader %-14s: a 1-ulp change of kappa grew to %.2e in psi (of size "
        "%.2e), %.2e in B_x (relative) in 20 steps\n",
        c.variables, psi, psi_size, bx);
    EXPECT_LT(psi, c.bound) << c.variables;
    EXPECT_LT(bx, c.bound) << c.variables;
  }
}

namespace {

// The decaying turbulence of Wang et al. sec. 7.4 on a small grid: n^3 cells, modes up to
// kmax, Mach 10, gamma 1.001.
std::unique_ptr<Solver> turbulence(int n, int kmax, std::vector<std::string> extra = {}) {
  std::vector<std::string> o = {"grid.n=" + std::to_string(n),
                                "fv.turbulence_kmax=" + std::to_string(kmax)};
  o.insert(o.end(), extra.begin(), extra.end());
  return make_solver("fv/mhd-turbulence", o, BackendKind::cpu, Precision::f64);
}

}  // namespace

// The initial velocity: rms Mach number 10 exactly, no mean flow, no power outside kmin ..
// kmax, and a spectrum E(k) ~ k^-2. E(k) sums the modes with |m| near k, about 4 pi k^2 of
// them, so each mode's power goes as |m|^-4: the slope of log |u_m|^2 against log |m|,
// fitted over every mode of a 32^3 field with modes up to |m| = 8 (a direct transform of
// its velocity; each mode's power is a random draw, the fit over ~3000 of them is within
// 0.1 of its mean).
TEST(MhdTurbulence, TheInitialVelocityHasTheAskedMachNumberAndSpectrum) {
  const int n = 32, kmax = 8;
  auto s = turbulence(n, kmax);
  const double cs = std::sqrt(1.001 * 1.0 / 1.0);
  const auto ux = interior_values(*s, "ux"), uy = interior_values(*s, "uy"),
             uz = interior_values(*s, "uz");
  const std::size_t cells = ux.size();
  double u2 = 0, mean[3] = {0, 0, 0};
  for (std::size_t c = 0; c < cells; ++c) {
    u2 += ux[c] * ux[c] + uy[c] * uy[c] + uz[c] * uz[c];
    mean[0] += ux[c];
    mean[1] += uy[c];
    mean[2] += uz[c];
  }
  EXPECT_NEAR(std::sqrt(u2 / double(cells)) / cs, 10.0, 1e-11);
  for (double m : mean) EXPECT_LT(std::fabs(m / double(cells)), 1e-12);
  // The mean Mach number of a Gaussian field is about sqrt(8 / (3 pi)) = 0.92 of its rms.
  EXPECT_GT(diagnostic(*s, "mean_mach"), 8.5);
  EXPECT_LT(diagnostic(*s, "mean_mach"), 10.0);
  EXPECT_GT(diagnostic(*s, "max_mach"), 20.0);

  // The power |u_m|^2 of each mode m = (a, b, c) with |m| <= kmax + 1, by a separable
  // transform of the three components.
  const double pi = 3.141592653589793;
  const int K = kmax + 1, W = 2 * K + 1;
  std::vector<std::complex<double>> e(std::size_t(W) * n);
  for (int m = -K; m <= K; ++m)
    for (int i = 0; i < n; ++i)
      e[std::size_t(m + K) * n + i] = std::polar(1.0, -2 * pi * m * (i + 0.5) / n);
  std::vector<double> power(std::size_t(W) * W * W, 0.0);
  for (const auto* u : {&ux, &uy, &uz})
    for (int b = -K; b <= K; ++b) {
      std::vector<std::complex<double>> over_y(std::size_t(n) * n);  // [k][i]
      for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i) {
          std::complex<double> sum = 0;
          for (int j = 0; j < n; ++j)
            sum += (*u)[(std::size_t(k) * n + j) * n + i] * e[std::size_t(b + K) * n + j];
          over_y[std::size_t(k) * n + i] = sum;
        }
      for (int a = -K; a <= K; ++a)
        for (int c = -K; c <= K; ++c) {
          std::complex<double> sum = 0;
          for (int k = 0; k < n; ++k)
            for (int i = 0; i < n; ++i)
              sum += over_y[std::size_t(k) * n + i] * e[std::size_t(a + K) * n + i] *
                     e[std::size_t(c + K) * n + k];
          power[(std::size_t(c + K) * W + (b + K)) * W + (a + K)] += std::norm(sum / double(cells));
        }
    }
  double total = 0, outside = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, count = 0;
  std::vector<double> shell(K + 1, 0.0);
  for (int c = -K; c <= K; ++c)
    for (int b = -K; b <= K; ++b)
      for (int a = -K; a <= K; ++a) {
        const double m = std::sqrt(double(a * a + b * b + c * c));
        const double p = power[(std::size_t(c + K) * W + (b + K)) * W + (a + K)];
        if (m == 0 || m > kmax) {
          outside += p;
          continue;
        }
        total += p;
        shell[int(std::lround(m))] += p;
        const double x = std::log(m), y = std::log(p);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        count += 1;
      }
  EXPECT_NEAR(total, 100 * cs * cs, 1e-9 * 100);  // Parseval: all of <|u|^2> in the modes
  EXPECT_LT(outside, 1e-20 * total);
  for (int k = 1; k <= kmax; ++k) std::printf("turbulence shell %d: E = %.4e\n", k, shell[k]);
  const double slope = (count * sxy - sx * sy) / (count * sxx - sx * sx);
  std::printf("turbulence: per-mode power slope %.3f over %g modes (asked -4: E(k) ~ k^-2)\n",
              slope, count);
  EXPECT_NEAR(slope, -4.0, 0.3);

  // Another seed gives another field; a grid too coarse for kmax is refused.
  const auto other = interior_values(*turbulence(n, kmax, {"fv.turbulence_seed=2"}), "ux");
  EXPECT_GT(std::fabs(other[0] - ux[0]) + std::fabs(other[1] - ux[1]), 1e-3);
  const std::string coarse =
      config_error("fv/mhd-turbulence", {"grid.n=16", "fv.turbulence_kmax=8"});
  EXPECT_NE(coarse.find("more than 2 kmax cells"), std::string::npos) << coarse;
}

// One crossing time of the decaying turbulence (24^3, modes up to 3): mass, momentum and
// energy are conserved while the flow's Mach number decays (Stone et al. 1998: a large
// part of the kinetic energy is gone within one crossing time, the field or not); the
// magnetic energy and the mean Mach number are printed as the paper's Fig. 10.
TEST(MhdTurbulence, DecaysWhileConservingMassMomentumAndEnergy) {
  auto s = turbulence(24, 3);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy"),
               mach0 = diagnostic(*s, "mean_mach"), b0 = diagnostic(*s, "magnetic_energy");
  double mach = mach0;
  std::printf("turbulence t = 0: mean Mach %.3f, magnetic energy %.5f\n", mach0, b0);
  for (int i = 1; i <= 4; ++i) {
    run_until(*s, 0.025 * i);
    mach = diagnostic(*s, "mean_mach");
    std::printf("turbulence t = %.3f: mean Mach %.3f, magnetic energy %.5f, corrected %g\n",
                s->time(), mach, diagnostic(*s, "magnetic_energy"),
                diagnostic(*s, "corrected_cells"));
  }
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  EXPECT_NEAR(diagnostic(*s, "mass"), m0, 1e-13 * m0);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0, 1e-12 * e0);
  for (const char* m : {"momentum_x", "momentum_y", "momentum_z"})
    EXPECT_LT(std::fabs(diagnostic(*s, m)), 1e-12 * m0 * 10) << m;
  EXPECT_LT(mach, 0.7 * mach0);
  EXPECT_GT(diagnostic(*s, "magnetic_energy"), b0);
}

TEST(MhdHydroLimit, SodWithoutFieldMatchesTheExactSolution) {
  // With B = 0 the MHD solvers are hydro solvers (HLLD's contact is HLLC's), so MHD Sod
  // must be as close to the exact solution as the hydro scheme.
  const fv::ExactRiemann exact({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  const auto l1 = [&](const std::vector<std::string>& o) {
    auto s = run_to("fv/sod", o, 0.14);
    const auto rho = interior_values(*s, "rho");
    double e = 0;
    for (std::size_t i = 0; i < rho.size(); ++i)
      e += std::fabs(rho[i] - exact.sample((s->grid().coord(0, int(i)) - 0.5) / 0.14).rho) /
           double(rho.size());
    return e;
  };
  const double hydro = l1({"grid.nx=200"});
  const double mhd = l1({"grid.nx=200", "fv.physics=mhd"});
  const double mhd_hll = l1({"grid.nx=200", "fv.physics=mhd", "fv.riemann=hll"});
  std::printf("Sod L1(rho), 200 cells: hydro hllc %.5f, mhd hlld %.5f, mhd hll %.5f\n", hydro, mhd,
              mhd_hll);
  EXPECT_LT(mhd, 1.15 * hydro);
  EXPECT_LT(mhd_hll, 1.6 * hydro);
}

TEST(MhdOrszagTang, ConservesAndTheCleaningKeepsDivergenceSmall) {
  auto s =
      make_solver("fv/orszag-tang", {"grid.nx=64", "grid.ny=64"}, BackendKind::cpu, Precision::f64);
  auto none = make_solver("fv/orszag-tang", {"grid.nx=64", "grid.ny=64", "fv.mhd_divergence=none"},
                          BackendKind::cpu, Precision::f64);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy");
  const double em0 = diagnostic(*s, "magnetic_energy");
  // The initial field is divergence-free to round-off by central differences.
  EXPECT_LT(diagnostic(*s, "divergence_b_max"), 1e-12);
  // The time series of mean |div B| with the cleaning and without (docs/mhd.md's table).
  std::printf("Orszag-Tang 64^2: t, mean |div B| glm, none; max |div B| glm, none\n");
  for (int i = 1; i <= 5; ++i) {
    run_until(*s, 0.1 * i);
    run_until(*none, 0.1 * i);
    const double glm = diagnostic(*s, "divergence_b_mean"),
                 off = diagnostic(*none, "divergence_b_mean");
    std::printf("  %.1f  %.4f  %.4f   %.3f  %.3f\n", 0.1 * i, glm, off,
                diagnostic(*s, "divergence_b_max"), diagnostic(*none, "divergence_b_max"));
    // The cleaning keeps div B below what the scheme leaves without it: little at t = 0.1
    // (measured 0.025 against 0.029), less than half from t = 0.2 on (0.075 against 0.19).
    EXPECT_LT(glm, (i == 1 ? 1.0 : 0.5) * off) << "t = " << 0.1 * i;
  }
  std::printf("magnetic energy %.6f -> %.6f; corrected %g\n", em0,
              diagnostic(*s, "magnetic_energy"), diagnostic(*s, "corrected_cells"));
  // Periodic: mass, momentum and total energy to round-off (about 330 steps of sums over
  // 4096 cells; measured 1.0e-13 for the mass).
  EXPECT_NEAR(diagnostic(*s, "mass"), m0, 1e-12 * m0);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0, 1e-12 * e0);
  EXPECT_NEAR(diagnostic(*s, "momentum_x"), 0, 1e-12 * m0);
  EXPECT_NEAR(diagnostic(*s, "momentum_y"), 0, 1e-12 * m0);
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  // The vortex did its work: shocks formed, kinetic energy went into the field.
  EXPECT_GT(diagnostic(*s, "max_mach"), 1.0);
  EXPECT_GT(diagnostic(*s, "magnetic_energy"), 1.2 * em0);
}

TEST(MhdBlast, ThreeDimensionalBlastInAFieldConservesWithTheTracer) {
  const std::vector<std::string> o = {
      "grid.n=20",      "fv.physics=mhd",       "fv.bx=0.6",        "fv.by=0.3",      "fv.bz=-0.2",
      "fv.tracer=true", "fv.cloud_radius=0.15", "fv.ambient_p=0.1", "fv.bc=periodic", "fv.ux=0.3"};
  auto s = make_solver("fv/sedov", o, BackendKind::cpu, Precision::f64);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy");
  const double c0 = diagnostic(*s, "tracer_mass"), px0 = diagnostic(*s, "momentum_x");
  s->advance(30);
  EXPECT_NEAR(diagnostic(*s, "mass"), m0, 1e-12 * m0);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0, 1e-12 * e0);
  EXPECT_NEAR(diagnostic(*s, "tracer_mass"), c0, 1e-12 * m0);
  EXPECT_NEAR(diagnostic(*s, "momentum_x"), px0, 1e-12 * m0);
  EXPECT_GT(diagnostic(*s, "max_mach"), 1.0);
  // Every MHD field is there and finite.
  for (const char* f : {"bx", "by", "bz", "b_magnitude", "magnetic_pressure", "plasma_beta", "psi",
                        "divergence_b", "tracer", "p"}) {
    const auto v = interior_values(*s, f);
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) << f;
  }
  // |B|^2 / 2 is the magnetic pressure and beta = p / (B^2/2), cell by cell.
  const auto b = interior_values(*s, "b_magnitude"), pm = interior_values(*s, "magnetic_pressure"),
             beta = interior_values(*s, "plasma_beta"), p = interior_values(*s, "p");
  for (std::size_t i = 0; i < b.size(); i += 97) {
    EXPECT_NEAR(0.5 * b[i] * b[i], pm[i], 1e-12 * pm[i]);
    EXPECT_NEAR(beta[i], p[i] / pm[i], 1e-12 * beta[i]);
  }
}

// The classic MHD failure: a strong blast in a field whose pressure is 5000 times the gas's
// (beta = 2e-4), where energy conservation leaves gas pressures below zero. The fallback
// and the floors catch those cells and count them; nothing becomes NaN.
TEST(MhdBlast, LowBetaBlastIsCaughtByTheFallbackAndCounted) {
  auto s = make_solver(
      "fv/sedov",
      {"grid.n=24", "fv.physics=mhd", "fv.bx=1", "fv.ambient_p=1e-4", "fv.blast_energy=10"},
      BackendKind::cpu, Precision::f64);
  s->advance(40);
  const double corrected = diagnostic(*s, "corrected_cells");
  const auto p = interior_values(*s, "p");
  const double p_min = *std::min_element(p.begin(), p.end());
  std::printf("low-beta blast 24^3, 40 steps: corrected cells %g, min p %.3g\n", corrected, p_min);
  EXPECT_GT(corrected, 0);
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  EXPECT_GT(p_min, 0);
  EXPECT_FALSE(s->first_unsound_cell().has_value());
}

TEST(MhdCheckpoints, RestartIsBitIdenticalAndAHydroCheckpointIsRefused) {
  const std::vector<std::string> o = {"grid.nx=32", "grid.ny=32"};
  auto a = make_solver("fv/orszag-tang", o, BackendKind::cpu, Precision::f64);
  a->advance(10);
  const SolverState st = a->save_state();
  a->advance(10);
  auto b = make_solver("fv/orszag-tang", o, BackendKind::cpu, Precision::f64);
  b->load_state(st);
  b->advance(10);
  for (const char* f : {"rho", "bx", "by", "psi", "p"})
    EXPECT_EQ(interior_values(*a, f), interior_values(*b, f)) << f;
  // A hydro state is not an MHD state.
  auto hydro = make_solver("fv/kelvin-helmholtz", {"grid.nx=32", "grid.ny=32"}, BackendKind::cpu,
                           Precision::f64);
  auto c = make_solver("fv/orszag-tang", o, BackendKind::cpu, Precision::f64);
  try {
    c->load_state(hydro->save_state());
    ADD_FAILURE() << "a hydro checkpoint was loaded into an MHD run";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("scheme"), std::string::npos) << e.what();
  }
}

TEST(MhdChoices, WhatMhdDoesNotRunWithIsRefusedNamingWhatIsAllowed) {
  const std::string hllc = config_error("fv/brio-wu", {"fv.riemann=hllc"});
  EXPECT_NE(hllc.find("fv.riemann = hllc"), std::string::npos) << hllc;
  EXPECT_NE(hllc.find("hlld"), std::string::npos) << hllc;
  EXPECT_NE(config_error("fv/brio-wu", {"fv.riemann=hlli"}).find("allowed with mhd"),
            std::string::npos);
  const std::string hlld = config_error("fv/sod", {"fv.riemann=hlld"});
  EXPECT_NE(hlld.find("fv.physics = hydro"), std::string::npos) << hlld;
  EXPECT_NE(config_error("fv/orszag-tang", {"fv.physics=hydro"}).find("set fv.physics = mhd"),
            std::string::npos);
  EXPECT_NE(config_error("fv/orszag-tang", {"grid.ny=1"}).find("grid.ny > 1"), std::string::npos);
  EXPECT_NE(config_error("fv/double-mach", {"fv.physics=mhd", "fv.riemann=hll",
                                            "fv.reconstruction=plm", "fv.time=rk2"})
                .find("double-mach"),
            std::string::npos);
  // What is allowed.
  for (const char* ok : {"fv.riemann=hll", "fv.riemann=llf", "fv.riemann=hlle", "fv.riemann=auto",
                         "fv.reconstruction=constant", "fv.time=ssprk3", "fv.time=rk4",
                         "fv.mhd_divergence=none", "fv.variables=characteristic"})
    EXPECT_EQ(config_error("fv/brio-wu", {ok}), "") << ok;
  EXPECT_EQ(config_error("fv/sedov", {"fv.physics=mhd"}), "");
#if defined(FLUXVIEW_HAVE_AMR)  // a build without p4est refuses the mesh for every physics
  EXPECT_EQ(config_error("fv/brio-wu", {"fv.mesh=amr", "fv.amr.block=8"}), "");
#endif
}

// A passive tracer stays passive at every order: with and without it the flow is the same
// (the WENO orders' cross modes used to be switched off by the tracer's own edges too,
// which moved the density of a 3D cloud by 3% in 20 steps). Hydro and MHD.
TEST(MhdTracer, TheTracerDoesNotMoveTheFlowAtAnyOrder) {
  for (const char* physics : {"fv.physics=mhd", "fv.physics=hydro"})
    for (const char* rec : {"fv.reconstruction=weno3", "fv.reconstruction=weno4"}) {
      std::vector<std::vector<double>> rho;
      for (const char* tracer : {"fv.tracer=true", "fv.tracer=false"}) {
        auto s = make_solver(
            "fv/sedov",
            {"grid.nx=14", "grid.ny=12", "grid.nz=10", physics, "fv.bx=0.5", "fv.by=0.3",
             "fv.ambient_p=0.1", "fv.cloud_radius=0.12", rec, "fv.time=ader", tracer},
            BackendKind::cpu, Precision::f64);
        s->advance(10);
        rho.push_back(interior_values(*s, "rho"));
      }
      double d = 0;
      for (std::size_t i = 0; i < rho[0].size(); ++i)
        d = std::max(d, std::fabs(rho[0][i] - rho[1][i]));
      EXPECT_LT(d, 1e-13) << physics << " " << rec;
    }
}
