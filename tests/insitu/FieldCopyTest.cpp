// The copy the Catalyst adaptor makes of a needed field (insitu/catalyst/FieldCopy.hpp),
// on the host and from the GPU: the same values, in the same order, as the snapshot
// writer's gather_interior, and only the interior's bytes counted.
#include <gtest/gtest.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <cstring>
#include <vector>

#include "insitu/catalyst/FieldCopy.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

namespace {

// An odd-sized grid, so that rows are padded and planes are not multiples of anything.
const std::vector<std::string> kGrid = {"grid.nx=13", "grid.ny=10", "grid.nz=7"};

void expect_copy_matches_gather(const Solver& solver) {
  const FieldView v = solver.view("T");
  const HostArray expected = gather_interior(v);
  std::vector<unsigned char> got(expected.bytes.size());
  const std::uint64_t bytes = copy_field_box(v, v.layout.n, got.data());
  EXPECT_EQ(bytes, std::uint64_t(13 * 10 * 7 * 8));
  EXPECT_EQ(std::memcmp(got.data(), expected.bytes.data(), got.size()), 0);
  EXPECT_FALSE(interior_is_contiguous(v.layout, v.layout.n));  // ghosts and padded rows
}

}  // namespace

TEST(FieldCopy, HostBoxEqualsGatherInterior) {
  Scenario sc = load_scenario("heat/hot-spot", kGrid);
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(sc.params);
  solver->advance(3);
  expect_copy_matches_gather(*solver);
}

TEST(FieldCopy, OneDimensionalInteriorIsContiguous) {
  FieldLayout l = FieldLayout::make({64, 1, 1}, 2, 8);
  EXPECT_TRUE(interior_is_contiguous(l, l.n));
  EXPECT_FALSE(interior_is_contiguous(l, {65, 1, 1}));  // a box past the interior
}

TEST(FieldCopy, DeviceBoxEqualsGatherInterior) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  Scenario sc = load_scenario("heat/hot-spot", kGrid);
  auto solver = find_family("heat").create(BackendKind::cuda, Precision::f64);
  solver->reset(sc.params);
  solver->advance(3);
  solver->synchronize();
  ASSERT_EQ(solver->view("T").where, Location::device);
  expect_copy_matches_gather(*solver);
}
