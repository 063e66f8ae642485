// The CUDA backend against the CPU backend (the same physics functions, different data
// movement), and the full-size 3D Sedov check that is too slow for the CPU in CI.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <cmath>

#include "sim/fv/MhdProblems.hpp"
#include "tests/fv/FvTestUtil.hpp"
#include "tests/support/NeedCuda.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// Largest difference of every field between the two solvers, relative to the largest
// magnitude of that field in the CPU result.
double max_relative_difference(const Solver& cpu, const Solver& gpu) {
  double worst = 0;
  for (const auto& f : cpu.fields()) {
    const auto a = interior_values(cpu, f.name), b = interior_values(gpu, f.name);
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      scale = std::max(scale, std::fabs(a[i]));
      diff = std::max(diff, std::fabs(a[i] - b[i]));
    }
    const double rel = scale > 0 ? diff / scale : diff;
    if (rel > worst) worst = rel;
    if (!(rel < 1e-3)) ADD_FAILURE() << "field " << f.name << " differs by " << rel;
  }
  return worst;
}

void compare(const std::string& scenario, const std::vector<std::string>& o, int steps, Precision p,
             double tol) {
  auto cpu = make_solver(scenario, o, BackendKind::cpu, p);
  auto gpu = make_solver(scenario, o, BackendKind::cuda, p);
  cpu->advance(steps);
  gpu->advance(steps);
  gpu->synchronize();
  const double rel = max_relative_difference(*cpu, *gpu);
  std::printf("%s %s %s: max relative difference after %d steps %.3g\n", scenario.c_str(),
              p == Precision::f64 ? "double" : "float", o.empty() ? "" : o.back().c_str(), steps,
              rel);
  EXPECT_LT(rel, tol);
  EXPECT_NEAR(gpu->time(), cpu->time(), tol * cpu->time());
  EXPECT_EQ(diagnostic(*gpu, "corrected_cells"), diagnostic(*cpu, "corrected_cells"));
  EXPECT_NEAR(diagnostic(*gpu, "mass"), diagnostic(*cpu, "mass"), tol * diagnostic(*cpu, "mass"));
  EXPECT_NEAR(diagnostic(*gpu, "energy"), diagnostic(*cpu, "energy"),
              tol * diagnostic(*cpu, "energy"));
  EXPECT_NEAR(diagnostic(*gpu, "max_mach"), diagnostic(*cpu, "max_mach"),
              1e3 * tol * diagnostic(*cpu, "max_mach"));
}

}  // namespace

TEST(FvCuda, SedovMatchesCpuAfter100Steps) {
  FLUXVIEW_NEED_CUDA();
  for (const char* rs : {"fv.riemann=hllc", "fv.riemann=hll"}) {
    compare("fv/sedov", {"grid.n=40", rs}, 100, Precision::f64, 1e-12);
    compare("fv/sedov", {"grid.n=40", rs}, 100, Precision::f32, 1e-5);
  }
  // The other tile shape (auto takes 32x4 for double), on a grid that is no multiple of it.
  compare("fv/sedov", {"grid.nx=45", "grid.ny=37", "grid.nz=29", "fv.cuda_tile=32x8"}, 100,
          Precision::f64, 1e-12);
}

TEST(FvCuda, CloudWithTracerMatchesCpu) {
  FLUXVIEW_NEED_CUDA();
  const std::vector<std::string> o = {"grid.n=48", "fv.cloud_radius=0.08"};
  compare("fv/cloud-disruption", o, 60, Precision::f64, 1e-12);
  compare("fv/cloud-disruption", o, 60, Precision::f32, 1e-5);
}

TEST(FvCuda, ReducedAxesMatchCpu) {
  FLUXVIEW_NEED_CUDA();
  for (const char* ax : {"x", "y", "z"})
    compare("fv/sod",
            {"grid.nx=1", "grid.ny=1", "grid.nz=1", std::string("grid.n") + ax + "=300",
             std::string("fv.axis=") + ax},
            150, Precision::f64, 1e-12);
  compare("fv/kelvin-helmholtz", {"grid.nx=96", "grid.ny=64", "fv.bc_y=reflecting"}, 100,
          Precision::f64, 1e-12);
  compare("fv/sedov", {"grid.nx=40", "grid.ny=1", "grid.nz=36", "fv.bc=periodic"}, 60,
          Precision::f64, 1e-12);
}

// MHD (nine and, with the tracer, ten variables, the four-row tile whatever fv.cuda_tile
// says): Brio-Wu along each axis, Orszag-Tang, and a 3D blast in a uniform field that
// crosses every face of the tile and the z column.
TEST(FvCuda, MhdMatchesCpu) {
  FLUXVIEW_NEED_CUDA();
  for (const char* ax : {"x", "y", "z"})
    compare("fv/brio-wu",
            {"grid.nx=1", "grid.ny=1", "grid.nz=1", std::string("grid.n") + ax + "=300",
             std::string("fv.axis=") + ax},
            150, Precision::f64, 1e-11);
  // Brio-Wu's double runs differ by 1.1e-12 after 150 steps on the H100 (the device
  // contracts HLLD's products into FMAs), twice the hydro Sod's 4.5e-13: eleven digits.
  compare("fv/orszag-tang", {"grid.nx=70", "grid.ny=60"}, 100, Precision::f64, 1e-11);
  compare("fv/orszag-tang", {"grid.nx=70", "grid.ny=60", "fv.riemann=hll"}, 100, Precision::f64,
          1e-11);
  compare("fv/orszag-tang", {"grid.nx=64", "grid.ny=64"}, 50, Precision::f32, 1e-4);
  const std::vector<std::string> blast = {
      "grid.nx=36",       "grid.ny=33",       "grid.nz=30",     "fv.physics=mhd",
      "fv.bx=0.5",        "fv.by=0.3",        "fv.tracer=true", "fv.cloud_radius=0.1",
      "fv.ambient_p=0.1", "fv.cuda_tile=32x8"};
  compare("fv/sedov", blast, 60, Precision::f64, 1e-11);
  // The higher-order (modal and WENO-Z) paths with nine and ten variables.
  compare("fv/brio-wu", {"fv.reconstruction=weno4", "fv.time=ader"}, 100, Precision::f64, 1e-11);
  // MHD's characteristic variables (its eigenvectors along each axis): along a line with
  // ADER to eleven digits (1.1e-13 after 100 steps on the H100). In 2D, Orszag-Tang with
  // RK4 to seven (9.9e-9 apart after 30 steps on the H100, against 3.4e-13 for primitive
  // variables). The likely cause, not confirmed: the field passes through states where c_f
  // - c_s is small, where the eigenvectors turn with the rounding of c_f^2 - c_s^2, which
  // the device's fused multiply-adds change. With ADER, whose cleaning amplifies rounding
  // in 2D (docs/mhd.md), psi was 4e-11 apart after 3 steps and 5e-3 after 20.
  const std::vector<std::string> characteristic = {"fv.reconstruction=weno3", "fv.time=ader",
                                                   "fv.variables=characteristic"};
  compare("fv/brio-wu", characteristic, 100, Precision::f64, 1e-11);
  // In float the shocks amplify the backends' rounding differences: 5.8e-5 apart on the H100
  // before the predictor shared its points (AderPredictor.hpp, 2026-11-24), 2.8e-4 after,
  // while the double runs stayed 1e-13 apart and the float predictor's own error against a
  // double one did not change (measured on the CPU). Three digits.
  compare("fv/brio-wu", characteristic, 100, Precision::f32, 1e-3);
  compare("fv/orszag-tang",
          {"grid.nx=48", "grid.ny=40", "fv.reconstruction=weno4", "fv.time=rk4",
           "fv.variables=characteristic"},
          30, Precision::f64, 1e-7);
  compare("fv/orszag-tang",
          {"grid.nx=48", "grid.ny=40", "fv.reconstruction=weno3", "fv.time=ssprk3"}, 60,
          Precision::f64, 1e-11);
  // The Alfven wave's normal velocity is round-off noise, which a relative comparison of
  // fields cannot take: the error of B_y after one period is compared instead.
  const auto alfven_error = [](BackendKind b) {
    auto s = make_solver("fv/alfven-wave", {"fv.reconstruction=wenoz5", "fv.time=rk4"}, b,
                         Precision::f64);
    run_until(*s, 1.0);
    const fv::AlfvenWave w;
    const auto by = interior_values(*s, "by");
    double e = 0;
    for (std::size_t i = 0; i < by.size(); ++i)
      e += std::fabs(
          by[i] - w.field_average(0, s->grid().coord(0, int(i)), s->grid().spacing[0], s->time()));
    return e / double(by.size());
  };
  const double e_cpu = alfven_error(BackendKind::cpu), e_gpu = alfven_error(BackendKind::cuda);
  std::printf("alfven wave wenoz5 rk4, one period: L1(B_y) cpu %.12e gpu %.12e\n", e_cpu, e_gpu);
  // B_y is 0.1 and its error 6.1e-8: the backends' B_y agree to round-off, so the errors do
  // in absolute terms (measured 2.9e-16 apart on the H100), not relative to the error.
  EXPECT_NEAR(e_gpu, e_cpu, 1e-14);
  // The modal path in 3D with ten fields. Five steps: psi and div B of a cloud's edge
  // amplify round-off (after 20 steps the backends differ by up to 5e-7 in psi).
  std::vector<std::string> modal_blast = blast;
  modal_blast.push_back("fv.reconstruction=weno3");
  modal_blast.push_back("fv.time=ader");
  compare("fv/sedov", modal_blast, 5, Precision::f64, 1e-11);
}

TEST(FvCuda, ConservesOnTheDevice) {
  FLUXVIEW_NEED_CUDA();
  auto s = make_solver(
      "fv/sedov", {"grid.n=64", "fv.blast_x=0.3", "fv.ux=0.5", "fv.uy=-0.25", "fv.bc=periodic"},
      BackendKind::cuda, Precision::f64);
  const double m0 = diagnostic(*s, "mass"), e0 = diagnostic(*s, "energy"),
               px0 = diagnostic(*s, "momentum_x");
  s->advance(200);
  EXPECT_NEAR(diagnostic(*s, "mass"), m0, 1e-12 * m0);
  EXPECT_NEAR(diagnostic(*s, "energy"), e0, 1e-12 * e0);
  EXPECT_NEAR(diagnostic(*s, "momentum_x"), px0, 1e-12 * m0);
}

TEST(FvCuda, Sedov128ShockRadiusWithinThreePercent) {
  FLUXVIEW_NEED_CUDA();
  const double t = 0.1;
  for (Precision p : {Precision::f64, Precision::f32}) {
    auto s = make_solver("fv/sedov", {"grid.n=128"}, BackendKind::cuda, p);
    run_until(*s, t);
    const double c[3] = {0.5, 0.5, 0.5};
    const double r = shock_radius(*s, c, 1.0), want = sedov_radius(1.0, t, 1.0);
    std::printf("Sedov 128^3 %s: R = %.4f, similarity %.4f, error %.2f%%, %lld steps\n",
                p == Precision::f64 ? "double" : "float", r, want, 100 * (r / want - 1),
                (long long)s->step());
    EXPECT_NEAR(r / want, 1.0, 0.03);
    // Spherical: the shock is as far along the axes as along the diagonals (within two
    // cells, the staircase of a sphere on a grid).
    const auto rho = interior_values(*s, "rho");
    const double peak = *std::max_element(rho.begin(), rho.end());
    const double dirs[4][3] = {{1, 0, 0}, {0, -1, 0}, {1, 1, 1}, {-1, 1, -1}};
    double lo = 1e30, hi = 0;
    for (const auto& d : dirs) {
      const double rr = ray_shock_radius(rho, s->grid(), c, d, peak, 1.0);
      lo = std::min(lo, rr);
      hi = std::max(hi, rr);
    }
    std::printf("  shock along axes and diagonals: %.4f .. %.4f\n", lo, hi);
    EXPECT_LT(hi - lo, 2 * s->grid().spacing[0]);
    EXPECT_NEAR(0.5 * (lo + hi), r, 3 * s->grid().spacing[0]);
    EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
  }
}

TEST(FvCuda, CloudDisruptionMixesCloudMaterial) {
  FLUXVIEW_NEED_CUDA();
  // The default scenario (256^3, cloud radius 16 cells) in float: the blast reaches the
  // cloud near t = 0.014 and shreds it; the mixed fraction of cloud material rises from
  // the cut cells of the initial surface.
  auto s = make_solver("fv/cloud-disruption", {}, BackendKind::cuda, Precision::f32);
  const double m0 = diagnostic(*s, "mixed_fraction"), c0 = diagnostic(*s, "tracer_mass");
  std::printf("cloud-disruption 256^3 float: t mixed_fraction tracer_mass corrected_cells\n");
  std::printf("  %.3f %.4f %.6g %g\n", 0.0, m0, c0, diagnostic(*s, "corrected_cells"));
  double m = m0;
  for (int q = 1; q <= 10; ++q) {
    run_until(*s, 0.01 * q);
    m = diagnostic(*s, "mixed_fraction");
    std::printf("  %.3f %.4f %.6g %g  (%lld steps)\n", s->time(), m, diagnostic(*s, "tracer_mass"),
                diagnostic(*s, "corrected_cells"), (long long)s->step());
  }
  EXPECT_NEAR(diagnostic(*s, "tracer_mass"), c0, 1e-4 * c0);  // outflow boundaries are far
  EXPECT_GT(m, 2 * m0);
  EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0);
}

TEST(FvCuda, FallbackAndFloorsOnTheDevice) {
  FLUXVIEW_NEED_CUDA();
  // Cold streams colliding in float (see FvRobustness.ColdCollidingStreamsUseTheFallback):
  // the device takes the correction path too. Which round-off-level cells need it can
  // differ between the backends, so the counts are compared loosely and the fields to
  // the float tolerance of the shocked state.
  const std::vector<std::string> o = {"grid.nx=200",    "fv.left_rho=1",   "fv.right_rho=1",
                                      "fv.left_p=1e-7", "fv.right_p=1e-7", "fv.left_u=10",
                                      "fv.right_u=-10", "fv.p_floor=1e-12"};
  auto cpu = make_solver("fv/sod", o, BackendKind::cpu, Precision::f32);
  auto gpu = make_solver("fv/sod", o, BackendKind::cuda, Precision::f32);
  run_until(*cpu, 0.02);
  run_until(*gpu, 0.02);
  const double cc = diagnostic(*cpu, "corrected_cells"), gc = diagnostic(*gpu, "corrected_cells");
  std::printf("cold streams float: corrected cells cpu %g, cuda %g\n", cc, gc);
  EXPECT_GT(gc, 100);
  EXPECT_NEAR(gc, cc, 0.2 * cc);
  const auto a = interior_values(*cpu, "rho"), b = interior_values(*gpu, "rho");
  double diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::fabs(a[i] - b[i]));
  EXPECT_LT(diff, 1e-4 * 6);
  const auto p = interior_values(*gpu, "p");
  EXPECT_GT(*std::min_element(p.begin(), p.end()), 0.0);
  EXPECT_EQ(diagnostic(*gpu, "nonfinite_cells"), 0);
}
