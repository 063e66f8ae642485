// The solvers' fields do not depend on how many threads step them: each cell's update is
// its own (sim/core/ExecHost.hpp) and the time step comes from a maximum, which no order
// of joining changes, so one thread and three give the same bits. (Sums, the diagnostics,
// may round differently and are not compared.) scripts/test.sh runs every other test on one
// thread, so this is where the threaded paths of the families meet a second thread in CI.
#include <gtest/gtest.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Solver.hpp"
#include "tests/support/SameBits.hpp"
#include "tests/support/SolverTestUtil.hpp"
#include "tests/support/ThreadCount.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

struct Case {
  const char* scenario;
  std::vector<std::string> overrides;
  int steps;
};

// Every field of the solver after `steps` steps on `threads` threads.
std::vector<std::vector<double>> fields_after(const Case& c, int threads) {
  const ThreadCount count(threads);
  const std::unique_ptr<Solver> s = make_solver(c.scenario, c.overrides);
  s->advance(c.steps);
  std::vector<std::vector<double>> out;
  for (const FieldInfo& f : s->fields()) out.push_back(interior_values(*s, f.name));
  return out;
}

}  // namespace

TEST(ThreadCount, UniformGridsStepBitIdenticallyOnOneAndThreeThreads) {
  // Grids above exec::kParallelCells, below which loops run on one thread.
  const Case cases[] = {
      {"heat/hot-spot", {"grid.n=32"}, 10},
      {"fd/forced-turbulence", {"grid.n=32", "fd.spectrum=false"}, 3},
      {"fv/sedov", {"grid.n=32"}, 4},  // PLM and HLLC
      {"fv/sedov", {"grid.n=32", "fv.reconstruction=weno4", "fv.time=ader"}, 2},
      {"fv/sedov", {"grid.n=32", "fv.reconstruction=wenoz5", "fv.time=ssprk3"}, 2},
      {"fv/orszag-tang", {"grid.nx=160", "grid.ny=128"}, 4},  // MHD, HLLD
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.scenario) + " " + c.overrides.back());
    const auto one = fields_after(c, 1), three = fields_after(c, 3);
    ASSERT_EQ(one.size(), three.size());
    ASSERT_FALSE(one.empty());
    for (std::size_t f = 0; f < one.size(); ++f) {
      ASSERT_EQ(one[f].size(), three[f].size());
      std::int64_t differ = 0;
      for (std::size_t i = 0; i < one[f].size(); ++i) differ += !same_bits(one[f][i], three[f][i]);
      EXPECT_EQ(differ, 0) << "field " << f << ": cells that differ on three threads";
    }
  }
}
