// The forest: 2:1 balance across faces after refinement, adapt (refine, coarsen), and a
// forest rebuilt from its list of leaves (what a checkpoint stores), in 1D, 2D and 3D.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/amr/Forest.hpp"

namespace fluxview::amr {
namespace {

struct Case {
  const char* name;
  std::array<int, 3> trees;
  std::array<bool, 3> active;
  int max_level;
};

// Whether leaf k contains the point x (fractions of the unit box).
bool contains(const LeafKey& k, const std::array<int, 3>& trees, const std::array<bool, 3>& active,
              const std::array<double, 3>& x) {
  for (int a = 0; a < 3; ++a) {
    if (!active[a]) continue;
    const double n = double(trees[a]) * double(1 << k.level);
    if (x[a] < k.idx[a] / n || x[a] >= (k.idx[a] + 1) / n) return false;
  }
  return true;
}

// Extent of a leaf along an axis in units of the finest level's blocks.
std::array<std::int64_t, 2> extent(const LeafKey& k, int a, int finest) {
  const int s = finest - k.level;
  return {std::int64_t(k.idx[a]) << s, std::int64_t(k.idx[a] + 1) << s};
}

// For every pair of leaves sharing a face: the largest level difference, and the number
// of pairs; also the total volume as a fraction of the domain.
struct Survey {
  int worst_jump = 0;
  int face_pairs = 0;
  double volume = 0;
  int deepest = 0;
};

Survey survey(const std::vector<LeafKey>& leaves, const std::array<int, 3>& trees,
              const std::array<bool, 3>& active, int finest) {
  Survey s;
  for (const LeafKey& k : leaves) {
    double v = 1;
    for (int a = 0; a < 3; ++a)
      if (active[a]) v /= double(trees[a]) * double(1 << k.level);
    s.volume += v;
    s.deepest = std::max(s.deepest, k.level);
  }
  for (const LeafKey& p : leaves)
    for (const LeafKey& q : leaves)
      for (int a = 0; a < 3; ++a) {
        if (!active[a]) continue;
        const auto pa = extent(p, a, finest), qa = extent(q, a, finest);
        if (pa[1] != qa[0]) continue;  // q just above p along a
        bool overlap = true;
        for (int b = 0; b < 3; ++b) {
          if (b == a || !active[b]) continue;
          const auto pb = extent(p, b, finest), qb = extent(q, b, finest);
          if (!(pb[0] < qb[1] && qb[0] < pb[1])) overlap = false;
        }
        if (!overlap) continue;
        ++s.face_pairs;
        s.worst_jump = std::max(s.worst_jump, std::abs(p.level - q.level));
      }
  return s;
}

const Case kCases[] = {
    {"3D", {2, 2, 2}, {true, true, true}, 4},
    {"2D x-z", {3, 1, 2}, {true, false, true}, 6},
    {"1D y", {1, 4, 1}, {false, true, false}, 7},
};

TEST(AmrForest, RefiningAroundAPointKeepsFacesTwoToOneBalanced) {
  const std::array<double, 3> point{0.3, 0.61, 0.45};
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    Forest f(c.trees, c.active, {false, false, false}, c.max_level);
    f.refine_where([&](const LeafKey& k) { return contains(k, c.trees, c.active, point); });
    const Survey s = survey(f.all_leaves(), c.trees, c.active, c.max_level);
    EXPECT_EQ(s.deepest, c.max_level);
    EXPECT_LE(s.worst_jump, 1);
    EXPECT_GT(s.face_pairs, 0);
    EXPECT_NEAR(s.volume, 1.0, 1e-12);  // the leaves tile the domain once
    // Balance had work to do: more leaves than refining only the chain to the point gives
    // (2^d - 1 new ones per level).
    int dims = 0;
    for (bool a : c.active) dims += a;
    int trees = c.trees[0] * c.trees[1] * c.trees[2];
    EXPECT_GT(int(f.leaves().size()), trees + c.max_level * ((1 << dims) - 1));
  }
}

TEST(AmrForest, AdaptRefinesThenCoarsensBackAndRebuildsFromItsLeaves) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    Forest f(c.trees, c.active, {true, false, true}, c.max_level);
    const std::vector<LeafKey> top = f.all_leaves();
    int dims = 0;
    for (bool a : c.active) dims += a;
    // Refine every leaf twice, then one leaf a third time.
    for (int round = 0; round < 2; ++round)
      EXPECT_TRUE(f.adapt(std::vector<std::int8_t>(f.leaves().size(), 1)));
    EXPECT_EQ(f.global_count(), std::int64_t(top.size()) << (2 * dims));
    std::vector<std::int8_t> one(f.leaves().size(), 0);
    one[one.size() / 3] = 1;
    EXPECT_TRUE(f.adapt(one));
    EXPECT_EQ(f.global_count(), (std::int64_t(top.size()) << (2 * dims)) + (1 << dims) - 1);
    // A checkpoint's forest: rebuilt from the list of leaves, it is the same forest.
    const std::vector<LeafKey> leaves = f.all_leaves();
    Forest g(c.trees, c.active, {true, false, true}, c.max_level, leaves);
    EXPECT_EQ(g.all_leaves(), leaves);
    // Nothing asks: nothing changes.
    EXPECT_FALSE(f.adapt(std::vector<std::int8_t>(f.leaves().size(), 0)));
    // Every leaf asks to coarsen: one level per adapt, back to the top grid in three.
    for (int round = 0; round < 3; ++round)
      f.adapt(std::vector<std::int8_t>(f.leaves().size(), -1));
    EXPECT_EQ(f.all_leaves(), top);
    EXPECT_FALSE(f.adapt(std::vector<std::int8_t>(f.leaves().size(), -1)));
  }
}

TEST(AmrForest, RefinementStopsAtMaxLevelAndGhostsAreEmptyOnOneRank) {
  Forest f({1, 1, 1}, {true, true, true}, {false, false, false}, 2);
  for (int round = 0; round < 4; ++round) f.adapt(std::vector<std::int8_t>(f.leaves().size(), 1));
  EXPECT_EQ(f.global_count(), 64);
  for (const LeafKey& k : f.leaves()) EXPECT_EQ(k.level, 2);
  EXPECT_TRUE(f.ghosts().empty());
  EXPECT_TRUE(f.mirrors().empty());
  EXPECT_EQ(f.offsets(), (std::vector<std::int64_t>{0, 64}));
}

}  // namespace
}  // namespace fluxview::amr
