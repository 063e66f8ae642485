#pragma once
// Where a leaf of the forest sits, independent of p4est's trees and coordinates: its
// level and its integer position among the blocks of that level over the whole domain,
// per physical axis (x, y, z). A level-l block spans cells [idx * B, (idx + 1) * B) of the
// level-l grid, whose cells are 2^-l the size of the top grid's. A reduced axis (one cell)
// has idx 0 at every level and is never split.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace fluxview::amr {

struct LeafKey {
  int level = 0;
  std::array<int, 3> idx{0, 0, 0};

  friend bool operator==(const LeafKey& a, const LeafKey& b) {
    return a.level == b.level && a.idx == b.idx;
  }
  friend bool operator!=(const LeafKey& a, const LeafKey& b) { return !(a == b); }

  // The ancestor `up` levels above (up <= level).
  LeafKey ancestor(int up) const {
    return {level - up, {idx[0] >> up, idx[1] >> up, idx[2] >> up}};
  }
  // The child at `offset` (0 or 1 per axis; 0 along a reduced axis).
  LeafKey child(std::array<int, 3> offset) const {
    return {level + 1, {2 * idx[0] + offset[0], 2 * idx[1] + offset[1], 2 * idx[2] + offset[2]}};
  }
};

struct LeafKeyHash {
  std::size_t operator()(const LeafKey& k) const {
    std::uint64_t h = std::uint64_t(k.level) * 0x9E3779B97F4A7C15ull;
    for (int a = 0; a < 3; ++a) h = (h ^ std::uint64_t(std::uint32_t(k.idx[a]))) * 0x100000001B3ull;
    return std::size_t(h ^ (h >> 29));
  }
};

}  // namespace fluxview::amr
