#pragma once
// A uniform 64^2 run and the adaptive mesh that holds the same cells (a 32^2 top grid in
// blocks of 8, every block at level 1), for the tests that the mesh steps as the uniform
// grid of its cells.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/core/Solver.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fluxview::amr::test {

struct FullyRefinedPair {
  std::unique_ptr<Solver> uniform, amr;
};

// `set`: the scenario's settings for both runs (the grid's are the pair's own).
inline FullyRefinedPair fully_refined_pair(const std::string& scenario,
                                           const std::vector<std::string>& set) {
  std::vector<std::string> o = {"grid.nx=64", "grid.ny=64", "grid.nz=1"};
  o.insert(o.end(), set.begin(), set.end());
  FullyRefinedPair p;
  p.uniform = fluxview::test::make_solver(scenario, o);
  o.insert(o.end(), {"fv.mesh=amr", "fv.amr.block=8", "fv.amr.min_level=1", "fv.amr.max_level=1",
                     "fv.amr.regrid_every=5"});
  o[0] = "grid.nx=32";
  o[1] = "grid.ny=32";
  p.amr = fluxview::test::make_solver(scenario, o);
  EXPECT_EQ(fluxview::test::diagnostic(*p.amr, "blocks_level_1"), 64);
  return p;
}

}  // namespace fluxview::amr::test
