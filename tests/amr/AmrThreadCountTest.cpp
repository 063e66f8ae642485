// The adaptive mesh's fields and leaves do not depend on how many threads step it: each
// thread takes whole blocks with a backend of its own (sim/amr/AmrCpu.cpp), and what the
// threads share (the time step's maximum, the refinement flags) joins the same way in any
// order. scripts/test.sh runs every other test on one thread, so this is where the mesh's
// threaded tasks meet a second thread in CI.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Solver.hpp"
#include "tests/amr/AmrTestUtil.hpp"
#include "tests/support/SameBits.hpp"
#include "tests/support/SolverTestUtil.hpp"
#include "tests/support/ThreadCount.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

std::unique_ptr<Solver> blast_after(const std::vector<std::string>& extra, int threads) {
  const ThreadCount count(threads);
  std::vector<std::string> o = {
      "fv.mesh=amr",    "fv.amr.block=8",      "fv.amr.max_level=3", "fv.amr.regrid_every=2",
      "grid.nx=64",     "grid.ny=32",          "grid.nz=1",          "fv.blast_x=0.3",
      "fv.blast_y=0.6", "fv.blast_radius=0.2", "fv.ambient_p=0.1",   "fv.ux=0.7",
      "fv.uy=-0.4",     "fv.tracer=true",      "fv.bc=periodic"};
  o.insert(o.end(), extra.begin(), extra.end());
  std::unique_ptr<Solver> s = make_solver("fv/sedov", o);
  s->advance(8);
  return s;
}

}  // namespace

TEST(AmrThreadCount, TheMeshStepsAndRegridsBitIdenticallyOnOneAndThreeThreads) {
  const std::vector<std::string> cases[] = {
      {"fv.reconstruction=plm"},
      {"fv.physics=mhd", "fv.bx=0.5", "fv.by=0.3", "fv.reconstruction=wenoz5", "fv.time=rk4"}};
  for (const auto& extra : cases) {
    SCOPED_TRACE(extra.back());
    const auto one = blast_after(extra, 1), three = blast_after(extra, 3);
    EXPECT_GE(diagnostic(*one, "regrids"), 2);
    const amr::Hierarchy &a = *amr::hierarchy_of(*one), &b = *amr::hierarchy_of(*three);
    ASSERT_TRUE(amr::test::same_blocks(a, b));
    for (const FieldInfo& f : one->fields()) {
      const HostArray x = a.block_values(f.name), y = b.block_values(f.name);
      ASSERT_EQ(x.count(), y.count()) << f.name;
      std::int64_t differ = 0;
      for (std::int64_t i = 0; i < x.count(); ++i) differ += !same_bits(x.at(i), y.at(i));
      EXPECT_EQ(differ, 0) << f.name << ": cells that differ on three threads";
    }
  }
}
