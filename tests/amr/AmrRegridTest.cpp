// Regrid: mass, momentum and energy are conserved to round-off over many regrids of an
// arbitrary field (random refinement and coarsening, blocks refined twice by balance);
// the pool stays dense and in curve order; the indicator and the flags it gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "tests/amr/AmrTestUtil.hpp"

namespace fluxview::amr {
namespace {

TEST(AmrRegrid, ConservesEveryVariableToRoundOffOverRandomRegrids) {
  struct Case {
    std::array<int, 3> trees;
    std::array<bool, 3> active;
  };
  for (const Case& c : {Case{{2, 2, 2}, {true, true, true}}, Case{{3, 1, 2}, {true, false, true}},
                        Case{{1, 5, 1}, {false, true, false}}}) {
    AmrMesh<double> m(test::shape(c.trees, c.active, 8, 4), 5, Location::host,
                      fv::Physics<double>{}, test::euler_flips());
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> r(0.0, 1.0);
    test::set_field(m, [&](const std::array<double, 3>&) {
      return State<double, 5>{
          {0.5 + r(rng), r(rng) - 0.5, r(rng) - 0.5, r(rng) - 0.5, 5 + 5 * r(rng)}};
    });
    const auto start = test::totals(m);
    int changes = 0;
    for (int round = 0; round < 16; ++round) {
      // Refinement only while the mesh is small (balance makes it grow fast).
      const double refine = m.blocks() < 300 ? 0.15 : 0.0;
      std::vector<std::int8_t> flags(std::size_t(m.blocks()));
      for (auto& f : flags) {
        const double x = r(rng);
        f = x < refine ? 1 : (x < 0.6 ? -1 : 0);
      }
      changes += m.regrid(flags);
    }
    EXPECT_GE(changes, 8);  // the mesh changed in at least half of the 16 regrids
    const auto end = test::totals(m);
    for (int v = 0; v < 5; ++v)
      EXPECT_LT(std::fabs(end[std::size_t(v)] - start[std::size_t(v)]),
                1e-14 * std::max(1.0, std::fabs(start[std::size_t(v)])))
          << "variable " << v;
    // Dense, in curve order: slot i is leaf i.
    ASSERT_EQ(int(m.info().size()), m.blocks());
    for (int b = 0; b < m.blocks(); ++b)
      EXPECT_EQ(m.info()[std::size_t(b)].level, m.forest().leaves()[std::size_t(b)].level);
  }
}

TEST(AmrRegrid, LohnerIndicatorIsZeroOnLinearDataAndHighAtAJump) {
  AmrMesh<double> m(test::shape({4, 1, 1}, {true, true, true}, 8, 2), 5, Location::host,
                    fv::Physics<double>{}, test::euler_flips());
  // A density jump at x = 0.6 (inside the third block) on a linear background.
  test::set_field(m, [](const std::array<double, 3>& x) {
    State<double, 5> u = test::linear_state(x);
    if (x[0] > 0.6) u.v[0] += 1.0;
    return u;
  });
  m.fill_ghosts(m.state().view());
  const std::vector<double> e = m.indicators(0.01);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_LT(e[0], 0.05);
  EXPECT_GT(e[2], 0.8);
  RefineCriteria c;
  c.max_level = 2;
  const auto flags =
      refine_flags(m.forest().leaves(), e, c, m.shape().trees, m.shape().active, 1000);
  EXPECT_EQ(flags[2], 1);
  EXPECT_EQ(flags[0], 0);  // quiet, but at the top level: nothing to coarsen to
  // One level down, the quiet block asks to coarsen and the jump's block to refine further.
  std::vector<LeafKey> deeper = m.forest().leaves();
  for (auto& k : deeper) k = k.child({0, 0, 0});
  const auto flags1 = refine_flags(deeper, e, c, m.shape().trees, m.shape().active, 1000);
  EXPECT_EQ(flags1[0], -1);
  EXPECT_EQ(flags1[2], 1);
  // Outside a refinement region a block is held at the outside level.
  c.region_lo = {0.0, 0, 0};
  c.region_hi = {0.2, 1, 1};
  c.outside_level = 0;
  EXPECT_EQ(refine_flags(m.forest().leaves(), e, c, m.shape().trees, m.shape().active, 1000)[2], 0);
  // A cap on new blocks keeps the strongest: room for one refinement (7 blocks) only.
  c.region_hi = {1, 1, 1};
  std::vector<double> two = e;
  two[1] = 0.9;
  const auto capped =
      refine_flags(m.forest().leaves(), two, c, m.shape().trees, m.shape().active, 7);
  EXPECT_EQ(capped[2], two[2] > 0.9 ? 1 : 0);
  EXPECT_EQ(capped[1] + capped[2], 1);
}

}  // namespace
}  // namespace fluxview::amr
