// The CPU fv solver with fv.physics = mhd against the model of its second-order step
// (MhdModel.hpp), per cell, in float and double: HLLD, HLL and LLF with outflow,
// reflecting, periodic and mixed boundaries on 1D, 2D and 3D grids; without cleaning, a
// stronger damping, constant reconstruction and the tracer; near-degenerate HLLD states
// (its 0/0 guard's branch); and the robustness path (first-order fallback and floors).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sim/core/Types.hpp"
#include "tests/model/FvModelChecks.hpp"
#include "tests/model/MhdModelChecks.hpp"
#include "tests/model/ModelTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

const std::vector<std::vector<std::string>> kBoundaries = {
    {"fv.bc=outflow"},
    {"fv.bc=reflecting"},
    {"fv.bc=periodic"},
    // A different condition on each axis and side.
    {"fv.bc=outflow", "fv.bc_xmin=reflecting", "fv.bc_y=periodic", "fv.bc_zmax=reflecting"}};

const std::vector<std::array<int, 3>> kGrids = {{24, 1, 1}, {12, 10, 1}, {8, 6, 5}};

// Each Riemann solver with every boundary set on every grid, in both precisions.
void check_riemann(const std::string& riemann) {
  int chain = 0;
  for (Precision p : {Precision::f64, Precision::f32})
    for (const auto& bc : kBoundaries)
      for (const auto& n : kGrids) {
        MhdCase c;
        c.riemann = riemann;
        c.bc = bc;
        c.n = n;
        const MhdCorrections k =
            check_mhd(BackendKind::cpu, p, c, riemann + " " + bc.back() + " " + grid_name(n));
        EXPECT_EQ(k.corrected, 0) << "this state should need no correction";
        chain = std::max(chain, k.longest_chain);
      }
  std::printf("mhd %s: longest chain of roundings %d\n", riemann.c_str(), chain);
}

TEST(MhdModel, HlldMatchesTheModel) {
  check_riemann("hlld");
}

TEST(MhdModel, HllMatchesTheModel) {
  check_riemann("hll");
}

TEST(MhdModel, LlfMatchesTheModel) {
  check_riemann("llf");
}

TEST(MhdModel, VariantsMatchTheModel) {
  struct Variant {
    std::array<int, 3> n;
    std::vector<std::string> more;
  };
  const std::vector<Variant> variants = {
      {{12, 10, 1}, {"fv.mhd_divergence=none"}},  // c_h = 0: B_n* the mean, psi's flux 0
      {{12, 10, 1}, {"fv.glm_alpha=1"}},          // ten times the default damping
      {{12, 10, 1}, {"fv.reconstruction=constant"}},
      {{12, 10, 1}, {"fv.theta=1"}},
      {{12, 10, 1}, {"fv.theta=2"}},
      {{12, 10, 1}, {"fv.gamma=1.6666666666666667", "fv.cfl=0.8"}},
      {{8, 6, 5}, {"fv.tracer=true"}},
      {{1, 20, 1}, {}},                  // 1D along y
      {{1, 1, 20}, {}},                  // 1D along z
      {{12, 1, 9}, {}},                  // 2D x-z
      {{1, 10, 9}, {"fv.tracer=true"}},  // 2D y-z: reduced x
  };
  for (Precision p : {Precision::f64, Precision::f32})
    for (const char* riemann : {"hlld", "hll"})
      for (const auto& v : variants) {
        MhdCase c;
        c.n = v.n;
        c.riemann = riemann;
        c.bc = {"fv.bc=reflecting", "fv.bc_x=periodic"};
        c.more = v.more;
        // Without cleaning psi stays 0 (docs/mhd.md); a state with psi would not be one
        // the solver can reach.
        if (v.more.size() == 1 && v.more[0] == "fv.mhd_divergence=none") c.psi_max = 0;
        std::string name = std::string(riemann) + " " + grid_name(v.n);
        for (const auto& m : v.more) name += " " + m;
        const MhdCorrections k = check_mhd(BackendKind::cpu, p, c, name);
        EXPECT_EQ(k.corrected, 0) << "this state should need no correction";
      }
}

// HLLD's guard (docs/mhd.md, "Equations"): where the transverse field is (nearly) zero on
// both sides of a face and the normal field is strong enough that the fast speed is the
// Alfven speed (B_n^2 > gamma p), rho (S - u)(S - S_M) - B_n^2 in eqs. 44-47 vanishes up to
// rounding on the side whose fast speed bounds the fan, and so does their numerator: the
// outer state keeps that side's v_t and B_t. The state: a contact and shear wave along one
// axis (rho and v_t vary, u_n, p and B_n = 2 do not) with B_t = 1e-7, so that the
// denominator is of order B_t^2 (1e-14), inside the guard's tolerance (1e-12 of the total
// pressure), at the lighter side of every face, and each face's states differ: the
// near-degenerate HLLD states, where its divisions cancel most, and the guard's branch of
// the model compared with the solver. The model's bound on the solver's rounding of the
// denominator (its chain times u times the magnitude of its terms) is wider than the
// tolerance, so it cannot say which branch the solver takes (guard_by_result); here both
// give results within the bound (taking the guard out of the solver, 2026-11-28, was not
// caught: what it skips, B_t (S_M - u_n) B_n / den, is of order B_t here; only an exactly
// zero denominator, 0/0, would show, and no state tried reached one). Double only: in float
// the tolerance is 1e-6 and the other decisions' margins are within float's bound.
std::function<std::array<long double, 10>(int, int, int)> contact_along(int axis,
                                                                        std::array<int, 3> n) {
  return [axis, n](int i, int j, int k) -> std::array<long double, 10> {
    const int idx[3] = {i, j, k};
    const long double x = 2 * std::acos(-1.0L) * (idx[axis] + 0.5L) / n[axis];
    std::array<long double, 10> q = {1 + 0.3L * std::sin(x),   0, 0, 0, 0.5L, 0, 0, 0, 0,
                                     0.5L + 0.4L * std::cos(x)};
    q[1 + axis] = 0.1L;
    for (int t = 0; t < 3; ++t)
      if (t != axis) {
        q[1 + t] = 0.3L * std::cos(x + t);
        q[5 + t] = 1e-7L * (t + 1);
      }
    q[5 + axis] = 2;  // B_n^2 = 4 > gamma p
    return q;
  };
}

TEST(MhdModel, HlldNearDegenerateStatesMatchTheModel) {
  const std::vector<std::array<int, 3>> grids = {{24, 1, 1}, {1, 20, 1}, {1, 1, 20}};
  for (int axis = 0; axis < 3; ++axis) {
    MhdCase c;
    c.n = grids[axis];
    c.riemann = "hlld";
    c.bc = {"fv.bc=periodic"};
    c.more = {"fv.tracer=true"};
    c.given = contact_along(axis, c.n);
    c.guard_by_result = true;
    const std::string name = "hlld guard, 1D along " + std::string(1, "xyz"[axis]);
    const MhdCorrections k = check_mhd(BackendKind::cpu, Precision::f64, c, name);
    std::printf("mhd %s: %d outer states took the guard\n", name.c_str(), k.guarded);
    // Two steps of two stages, both sides of every face inside the blocks.
    EXPECT_GT(k.guarded, 0) << name << ": no face took the guard";
    EXPECT_EQ(k.corrected, 0) << "this state should need no correction";
  }
}

// The robustness path: gas in a field flying apart from the middle of the box with a
// floor just below its pressure (or density), so that the cells in the middle fall below
// it: their stage updates are recomputed with first-order HLL fluxes (fast speeds, the GLM
// pair), and where that is not enough the floors are applied. The states were chosen with
// the model so that every decision is far from its threshold in double. Double only: the
// expansion's near-vacuum middle makes the magnitude of the values involved in the cells
// beside it 10^3 to 10^6 times their values (HLLD's star states divide by sqrt(rho*) and by
// rho (S - u)(S - S_M) - B_n^2, and p is the small difference of E and the kinetic and
// magnetic energies), and in float the bound around a decision (a pressure against its
// floor) was then wider than its distance from the threshold in every state tried (1D and
// 3D, speeds 0.8 to 1.5, pressures 0.13 to 1, fields 0.3 and 1 times the one below).
// hydro's expansion (FvModelChecks.hpp) in an oblique field that varies along x too.
std::function<std::array<long double, 10>(int, int, int)> expansion_in_a_field(std::array<int, 3> n,
                                                                               long double u,
                                                                               long double p) {
  const auto gas = expansion(n, u, p);
  return [n, gas](int i, int j, int k) -> std::array<long double, 10> {
    const std::array<long double, 6> q = gas(i, j, k);
    const long double x = 2 * (i + 0.5L) / n[0] - 1;
    return {q[0], q[1], q[2], q[3], q[4], 0.3L + 0.05L * x, 0.2L, -0.15L, 0.02L * x, 0};
  };
}

const std::vector<Expansion> kExpansions = {
    {"1D, pressure floor", {16, 1, 1}, 1.0L, 0.13L, {"fv.p_floor=0.1", "fv.cfl=0.6"}},
    {"1D, density floor", {16, 1, 1}, 1.5L, 1.0L, {"fv.rho_floor=0.8", "fv.cfl=0.6"}},
    {"3D, pressure floor", {8, 8, 8}, 1.0L, 0.16L, {"fv.p_floor=0.1", "fv.cfl=0.9"}},
};

TEST(MhdModel, FallbackAndFloorsMatchTheModel) {
  for (Precision p : {Precision::f64})
    for (const char* riemann : {"hlld", "hll", "llf"}) {
      MhdCorrections all;
      for (const Expansion& e : kExpansions) {
        MhdCase c;
        c.n = e.n;
        c.riemann = riemann;
        c.more = e.more;
        c.given = expansion_in_a_field(e.n, e.u, e.p);
        const std::string name = e.name + " " + riemann;
        const MhdCorrections k = check_mhd(BackendKind::cpu, p, c, name);
        std::printf("mhd %s %s: %d corrected cell-stages, %d of them floored\n", name.c_str(),
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
