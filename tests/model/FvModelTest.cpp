// The CPU fv solver against the model of the Godunov scheme (FvModel.hpp), per cell, in
// float and double: every Riemann solver with outflow, reflecting, periodic and mixed
// boundaries on 1D, 2D and 3D grids; the other reconstructions, gamma, the tracer and
// the other reduced axes; and the robustness path (first-order fallback and floors).
#include <gtest/gtest.h>
#include <functional>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/model/FvModelChecks.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

const std::vector<std::vector<std::string>> kBoundaries = {
    {"fv.bc=outflow"},
    {"fv.bc=reflecting"},
    {"fv.bc=periodic"},
    // A different condition on each axis and side.
    {"fv.bc=outflow", "fv.bc_xmin=reflecting", "fv.bc_y=periodic", "fv.bc_zmax=reflecting"}};

const std::vector<std::array<int, 3>> kGrids = {{24, 1, 1}, {12, 10, 1}, {10, 8, 6}};

// Each Riemann solver with every boundary set on every grid, in both precisions.
void check_riemann(const std::string& riemann) {
  for (Precision p : {Precision::f64, Precision::f32})
    for (const auto& bc : kBoundaries)
      for (const auto& n : kGrids) {
        FvCase c;
        c.riemann = riemann;
        c.bc = bc;
        c.n = n;
        const FvCorrections k =
            check_fv(BackendKind::cpu, p, c, riemann + " " + bc.back() + " " + grid_name(n));
        EXPECT_EQ(k.corrected, 0) << "this state should need no correction";
      }
}

TEST(FvModel, HllMatchesTheModel) {
  check_riemann("hll");
}

TEST(FvModel, HllcMatchesTheModel) {
  check_riemann("hllc");
}

TEST(FvModel, LlfMatchesTheModel) {
  check_riemann("llf");
}

TEST(FvModel, VariantsMatchTheModel) {
  check_fv_variants(BackendKind::cpu);
}

// Whole steps of the WENO schemes of the modal path (one active axis; FvModel.hpp says
// what is modelled): every WENO order with rk2, ssprk3, rk4 and ADER (predictor and
// corrector), each Riemann solver, periodic and reflecting walls, in conserved, primitive
// and (but rk4) characteristic variables (check_modal_steps). In double only: the nonlinear weights
// make the first-order rounding bound of a step large (the magnitude of the values involved reaches
// 1e4 to 4e6 times the values, Tracked.hpp), which in float is wider than the decisions' distance
// from their thresholds; in double the bound is 400 ulp of that magnitude and the solver stays
// within 0.06 of it.
TEST(FvModel, WenoStepsMatchTheModel) {
  for (const char* time : {"rk2", "ssprk3", "rk4"}) check_modal_steps(BackendKind::cpu, time);
}

TEST(FvModel, WenoZStepsMatchTheModel) {
  check_wenoz_steps(BackendKind::cpu);
}

TEST(FvModel, AderStepsMatchTheModel) {
  check_modal_steps(BackendKind::cpu, "ader");
}

// The same in 2D and 3D with rk2, SSP-RK3 and ADER (check_modal_steps_multi_d): the
// cross modes with their switch, the faces' Gauss points, the predictor's plane and
// corner points.
TEST(FvModel, WenoStepsIn2DAnd3DMatchTheModel) {
  check_modal_steps_multi_d(BackendKind::cpu);
}

// The robustness path. Gas flying apart from the middle of the box with a floor just
// below its pressure (or density): the cells in the middle expand and fall below the
// floor, so their stage updates are recomputed with first-order fluxes, and where that
// falls below the floor too, the floor is applied. The states were chosen with the model
// so that every such decision is far from its threshold in both precisions, and so that
// between them the cases take both layers with every Riemann solver.
const std::vector<Expansion> kExpansions = {
    {"1D, pressure floor", {16, 1, 1}, 1.0L, 0.16L, {"fv.p_floor=0.1", "fv.cfl=0.6"}},
    {"1D, density floor", {16, 1, 1}, 1.5L, 1.0L, {"fv.rho_floor=0.8", "fv.cfl=0.6"}},
    {"3D, pressure floor", {8, 8, 8}, 0.8L, 0.25L, {"fv.p_floor=0.1", "fv.cfl=0.9"}},
};

TEST(FvModel, FallbackAndFloorsMatchTheModel) {
  for (Precision p : {Precision::f64, Precision::f32})
    for (const char* riemann : {"hllc", "hll", "llf"}) {
      FvCorrections all;
      for (const Expansion& e : kExpansions) {
        FvCase c;
        c.n = e.n;
        c.riemann = riemann;
        c.more = e.more;
        c.given = expansion(e.n, e.u, e.p);
        const std::string name = e.name + " " + riemann;
        const FvCorrections k = check_fv(BackendKind::cpu, p, c, name);
        std::printf("%s %s: %d corrected cell-stages, %d of them floored\n", name.c_str(),
                    name_of(p), k.corrected, k.floored);
        EXPECT_GT(k.corrected, 0) << name << ": the fallback must occur";
        all.corrected += k.corrected;
        all.floored += k.floored;
      }
      EXPECT_GT(all.floored, 0) << riemann << ": some fallback must need the floors";
      EXPECT_GT(all.corrected, all.floored) << riemann << ": some fallback must succeed";
    }
}

}  // namespace
