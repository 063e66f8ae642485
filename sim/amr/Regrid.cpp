// Regridding: flags from the indicator, and the remap tasks between two forests.
#include "sim/amr/Regrid.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fluxview::amr {

bool in_region(const LeafKey& k, const RefineCriteria& c, const std::array<int, 3>& trees,
               const std::array<bool, 3>& active) {
  for (int a = 0; a < 3; ++a) {
    if (!active[a]) continue;
    const double n = double(trees[a]) * double(1 << k.level);
    const double lo = k.idx[a] / n, hi = (k.idx[a] + 1) / n;
    if (hi <= c.region_lo[a] || lo >= c.region_hi[a]) return false;
  }
  return true;
}

int level_limit(const LeafKey& k, const RefineCriteria& c, const std::array<int, 3>& trees,
                const std::array<bool, 3>& active) {
  const int outside = std::max(c.min_level, std::min(c.outside_level, c.max_level));
  return in_region(k, c, trees, active) ? c.max_level : outside;
}

std::vector<std::int8_t> refine_flags(const std::vector<LeafKey>& leaves,
                                      const std::vector<double>& indicator, const RefineCriteria& c,
                                      const std::array<int, 3>& trees,
                                      const std::array<bool, 3>& active,
                                      std::int64_t max_new_blocks) {
  const std::size_t n = leaves.size();
  std::vector<std::int8_t> flags(n, 0);
  std::vector<std::size_t> want;
  for (std::size_t i = 0; i < n; ++i) {
    const int limit = level_limit(leaves[i], c, trees, active);
    const int level = leaves[i].level;
    if (level < c.min_level || (indicator[i] > c.refine && level < limit))
      want.push_back(i);
    else if (level > limit || (indicator[i] < c.derefine && level > c.min_level))
      flags[i] = -1;
  }
  int dims = 0;
  for (bool a : active) dims += a;
  const std::int64_t per = (std::int64_t(1) << dims) - 1;
  const std::int64_t allowed = max_new_blocks / per;
  std::vector<double> values;
  for (std::size_t i : want) values.push_back(indicator[i]);
  const std::vector<char> keep = strongest(values, allowed);
  for (std::size_t w = 0; w < want.size(); ++w)
    if (keep[w]) flags[want[w]] = 1;
  return flags;
}

std::vector<char> strongest(const std::vector<double>& values, std::int64_t allowed) {
  if (std::int64_t(values.size()) <= allowed) return std::vector<char>(values.size(), 1);
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  std::vector<char> keep(values.size(), 0);
  for (std::size_t i = 0; i < std::size_t(std::max<std::int64_t>(allowed, 0)); ++i)
    keep[order[i]] = 1;
  return keep;
}

std::vector<RemapTask> remap_tasks(const std::vector<LeafKey>& old_leaves,
                                   const std::vector<LeafKey>& new_leaves,
                                   const std::array<bool, 3>& active) {
  std::unordered_map<LeafKey, int, LeafKeyHash> old_slot;
  old_slot.reserve(old_leaves.size());
  for (std::size_t i = 0; i < old_leaves.size(); ++i) old_slot.emplace(old_leaves[i], int(i));
  auto find = [&](const LeafKey& k) {
    const auto it = old_slot.find(k);
    return it == old_slot.end() ? -1 : it->second;
  };
  std::vector<RemapTask> tasks(new_leaves.size());
  for (std::size_t i = 0; i < new_leaves.size(); ++i) {
    const LeafKey& nk = new_leaves[i];
    RemapTask& t = tasks[i];
    t.dst = int(i);
    if (const int s = find(nk); s >= 0) {
      t.kind = int(Remap::copy);
      t.src[0] = s;
      continue;
    }
    bool found = false;
    for (int up = 1; up <= nk.level && !found; ++up) {
      const LeafKey anc = nk.ancestor(up);
      if (const int s = find(anc); s >= 0) {
        t.kind = int(Remap::prolong);
        t.up = up;
        t.src[0] = s;
        for (int a = 0; a < 3; ++a) t.offset[a] = active[a] ? nk.idx[a] - (anc.idx[a] << up) : 0;
        found = true;
      }
    }
    if (found) continue;
    t.kind = int(Remap::restrict_children);
    for (int c = 0; c < 8; ++c) {
      const std::array<int, 3> off{c & 1, (c >> 1) & 1, (c >> 2) & 1};
      bool used = true;
      for (int a = 0; a < 3; ++a)
        if (off[a] && !active[a]) used = false;
      if (!used) continue;
      const int s = find(nk.child(off));
      if (s < 0)
        throw std::logic_error("AMR regrid: new level " + std::to_string(nk.level) + " block (" +
                               std::to_string(nk.idx[0]) + ", " + std::to_string(nk.idx[1]) + ", " +
                               std::to_string(nk.idx[2]) +
                               ") is neither an old block, inside one, nor the parent of old ones");
      t.src[c] = s;
    }
  }
  return tasks;
}

}  // namespace fluxview::amr
