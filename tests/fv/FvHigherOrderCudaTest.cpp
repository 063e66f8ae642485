// The higher-order schemes on the GPU: every path (modal polynomials with and without the
// ADER predictor, WENO-Z faces, five-stage rk4) against the CPU backend, and the CPU's and
// the GPU's errors side by side on the paper's accuracy problems (the 3D vortices of its
// Tables XII and XIII at 48^3). The tables themselves: VortexTablesCudaTest.cpp.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <cmath>

#include "tests/fv/VortexTables.hpp"
#include "tests/support/NeedCuda.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// The largest difference of each field between the backends, relative to the largest
// magnitude of that field on the CPU; `only`, when not empty, names the fields compared.
double max_relative_difference(const Solver& cpu, const Solver& gpu,
                               const std::vector<std::string>& only = {}) {
  double worst = 0;
  std::size_t compared = 0;
  for (const auto& f : cpu.fields()) {
    if (!only.empty() && std::find(only.begin(), only.end(), f.name) == only.end()) continue;
    ++compared;
    const auto a = interior_values(cpu, f.name), b = interior_values(gpu, f.name);
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      scale = std::max(scale, std::fabs(a[i]));
      diff = std::max(diff, std::fabs(a[i] - b[i]));
    }
    worst = std::max(worst, scale > 0 ? diff / scale : diff);
  }
  EXPECT_EQ(compared, only.empty() ? cpu.fields().size() : only.size()) << "a field not found";
  return worst;
}

void compare(const std::string& scenario, const std::vector<std::string>& o, int steps, Precision p,
             double tol, const std::vector<std::string>& only = {}) {
  auto cpu = make_solver(scenario, o, BackendKind::cpu, p);
  auto gpu = make_solver(scenario, o, BackendKind::cuda, p);
  cpu->advance(steps);
  gpu->advance(steps);
  gpu->synchronize();
  const double rel = max_relative_difference(*cpu, *gpu, only);
  std::string what;
  for (const auto& s : o) what += " " + s;
  std::printf("%s %s%s: max relative difference after %d steps %.3g\n", scenario.c_str(),
              p == Precision::f64 ? "double" : "float", what.c_str(), steps, rel);
  EXPECT_LT(rel, tol) << scenario << what;
  EXPECT_NEAR(gpu->time(), cpu->time(), tol * cpu->time()) << what;
  EXPECT_EQ(diagnostic(*gpu, "corrected_cells"), diagnostic(*cpu, "corrected_cells")) << what;
  EXPECT_NEAR(diagnostic(*gpu, "mass"), diagnostic(*cpu, "mass"), tol * diagnostic(*cpu, "mass"));
}

const Scheme kSchemes[] = {{"plm", "ader"},     {"weno2", "ader"},    {"weno2", "rk2"},
                           {"weno3", "ssprk3"}, {"weno3", "ader"},    {"weno4", "rk4"},
                           {"weno4", "ader"},   {"wenoz5", "ssprk3"}, {"wenoz5", "rk4"},
                           {"constant", "rk2"}};

}  // namespace

TEST(FvHigherOrderCuda, EverySchemeMatchesCpu) {
  FLUXVIEW_NEED_CUDA();
  for (const Scheme& s : kSchemes) {
    // Sedov: a strong shock into p = 1e-5, so the face and cell fallbacks work too.
    compare("fv/sedov", with_scheme({"grid.n=24"}, s.reconstruction, s.time), 30, Precision::f64,
            1e-12);
    compare("fv/sedov", with_scheme({"grid.n=24"}, s.reconstruction, s.time), 30, Precision::f32,
            1e-5);
    // A 2D vortex on a grid no multiple of any block shape.
    compare("fv/isentropic-vortex",
            with_scheme({"grid.nx=45", "grid.ny=37"}, s.reconstruction, s.time), 20, Precision::f64,
            1e-12);
  }
  // The tracer (six variables) and characteristic variables with it; a 1D tube along z.
  compare("fv/cloud-disruption", with_scheme({"grid.n=32"}, "weno4", "ader"), 20, Precision::f64,
          1e-12);
  compare("fv/sod", with_scheme({"grid.nx=1", "grid.nz=200", "fv.axis=z"}, "weno3", "ader"), 100,
          Precision::f64, 1e-12);
}

// MHD's third order takes its own face pass on the device (layered_face_fluxes: the
// modes streamed one time layer at a time, FvModalLoops.hpp) and the polynomials on the
// host: the same sums in the same order. Orszag-Tang (2D, shocks by t = 0.1) and the 3D
// MHD vortex, with ADER and SSP-RK3. The state is compared, not div B and psi: in runs
// this short they are rounding-level, so their relative difference is noise. Seen on the
// H200 (2026-11-28) with every field compared: double within 1.1e-12 (Orszag-Tang) and
// 3.8e-10 (3D vortex, ADER; 2.2e-13 with SSP-RK3), float 0.12 and 0.44 from div B and psi;
// the float state of Orszag-Tang after 20 weno3 steps with rk2 agreed to 7e-7. The float
// bound here, 1e-4, rests on that rk2 run: the form below has not run on a GPU yet.
TEST(FvHigherOrderCuda, MhdThirdOrderMatchesCpu) {
  FLUXVIEW_NEED_CUDA();
  const std::vector<std::string> state = {"rho", "ux", "uy", "uz", "p", "bx", "by", "bz"};
  for (const char* time : {"ader", "ssprk3"}) {
    compare("fv/orszag-tang", with_scheme({"grid.nx=45", "grid.ny=37"}, "weno3", time), 20,
            Precision::f64, 1e-10, state);
    compare("fv/orszag-tang", with_scheme({"grid.nx=45", "grid.ny=37"}, "weno3", time), 20,
            Precision::f32, 1e-4, state);
    // In 3D, weno3 in primitive variables amplifies rounding (MhdVortexErrorsAgree... below):
    // every field, div B and psi too, agreed to 3.8e-10 after 10 ADER steps on the H200.
    compare("fv/mhd-vortex", with_scheme({"grid.nx=20", "grid.ny=18", "grid.nz=12"}, "weno3", time),
            10, Precision::f64, 1e-9, state);
  }
}

namespace {

// CPU and GPU side by side on the 48^3 vortex (run on its 48 x 48 x 4 slab, which gives the
// cube's errors, VortexTablesCuda.SlabGivesTheCubesErrors, on a twelfth of its cells), each
// scheme to its time t (t = 1 is about 70 steps): the errors agree to nine significant
// digits, as the paper's do.
struct TimedScheme {
  Scheme scheme;
  double until;
};
void vortex_cpu_gpu(const VortexTable& table, std::initializer_list<TimedScheme> schemes) {
  for (const TimedScheme& ts : schemes) {
    const Scheme& s = ts.scheme;
    const VortexErrors c = vortex_errors(table, s, vortex_slab(48), ts.until, BackendKind::cpu),
                       g = vortex_errors(table, s, vortex_slab(48), ts.until, BackendKind::cuda);
    std::printf(
        "%s | %s %s | 48^3 t=%g | CPU L1 %.12e | GPU L1 %.12e | diff %.2e | CPU Linf %.12e | "
        "GPU Linf %.12e | diff %.2e |\n",
        table.name, s.reconstruction, s.time, ts.until, c.l1, g.l1, std::fabs(c.l1 - g.l1), c.linf,
        g.linf, std::fabs(c.linf - g.linf));
    EXPECT_NEAR(g.l1, c.l1, 1e-9 * c.l1) << s.reconstruction << " " << s.time;
    EXPECT_NEAR(g.linf, c.linf, 1e-9 * c.linf) << s.reconstruction << " " << s.time;
  }
}

}  // namespace

TEST(FvHigherOrderCuda, VortexErrorsAgreeWithCpuToNineDigits) {
  FLUXVIEW_NEED_CUDA();
  vortex_cpu_gpu(kTableXII, {{{"plm", "ader"}, 1.0},
                             {{"weno2", "ader"}, 1.0},
                             {{"weno3", "ader"}, 1.0},
                             {{"weno4", "ader"}, 1.0},
                             {{"wenoz5", "rk4"}, 1.0}});
}
// MHD reconstructs in primitive variables by default (docs/mhd.md), and at
// weno3 and weno4 those amplify rounding: on the CPU alone a 1-ulp change of kappa moves
// the 2D vortex's L1(B_x) at t = 1 by 4% (hydro's isentropic vortex likewise: 1e-5 apart
// in primitive variables, 9e-9 in conserved, 6e-14 in characteristic; docs/mhd.md), and the
// CPU's and the GPU's roundings differ by as much. Those two are compared at t = 0.1.
TEST(FvHigherOrderCuda, MhdVortexErrorsAgreeWithCpuToNineDigits) {
  FLUXVIEW_NEED_CUDA();
  vortex_cpu_gpu(kTableXIII, {{{"plm", "ader"}, 1.0},
                              {{"weno2", "ader"}, 1.0},
                              {{"weno3", "ader"}, 0.1},
                              {{"weno4", "ader"}, 0.1},
                              {{"wenoz5", "rk4"}, 1.0}});
}

TEST(FvHigherOrderCuda, Sedov128AtEveryOrder) {
  // FvCuda.Sedov128ShockRadiusWithinThreePercent's bound (3% of the similarity radius at
  // t = 0.1, 128^3, double) at every scheme, and nothing non-finite.
  FLUXVIEW_NEED_CUDA();
  const double t = 0.1, c[3] = {0.5, 0.5, 0.5};
  for (const Scheme& sc : kSchemes) {
    if (std::string(sc.reconstruction) == "constant") continue;
    auto s = make_solver("fv/sedov", with_scheme({"grid.n=128"}, sc.reconstruction, sc.time),
                         BackendKind::cuda, Precision::f64);
    run_until(*s, t);
    const double r = shock_radius(*s, c, 1.0), want = sedov_radius(1.0, t, 1.0);
    std::printf("Sedov 128^3 %s %s: R = %.4f, similarity %.4f, error %.2f%%, corrected %g\n",
                sc.reconstruction, sc.time, r, want, 100 * (r / want - 1),
                diagnostic(*s, "corrected_cells"));
    EXPECT_NEAR(r / want, 1.0, 0.03) << sc.reconstruction << " " << sc.time;
    EXPECT_EQ(diagnostic(*s, "nonfinite_cells"), 0) << sc.reconstruction << " " << sc.time;
  }
}
