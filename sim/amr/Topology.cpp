// Neighbour lists: the face neighbours of every local block looked up by LeafKey among
// the local and ghost leaves (same level, then the coarser leaf containing the region,
// then the finer leaves covering it), turned into ghost-filling and reflux tasks.
#include "sim/amr/Topology.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fluxview::amr {

namespace {

std::string describe(const LeafKey& k) {
  return "level " + std::to_string(k.level) + " block (" + std::to_string(k.idx[0]) + ", " +
         std::to_string(k.idx[1]) + ", " + std::to_string(k.idx[2]) + ")";
}

}  // namespace

MeshPlan build_plan(const MeshShape& shape, const std::vector<LeafKey>& local,
                    const std::vector<LeafKey>& ghosts) {
  const int B = shape.block, g = shape.ghost;
  std::unordered_map<LeafKey, int, LeafKeyHash> slot_of;
  slot_of.reserve(local.size() + ghosts.size());
  for (std::size_t i = 0; i < local.size(); ++i) slot_of.emplace(local[i], int(i));
  for (std::size_t i = 0; i < ghosts.size(); ++i) slot_of.emplace(ghosts[i], int(local.size() + i));
  auto find = [&](const LeafKey& k) {
    const auto it = slot_of.find(k);
    return it == slot_of.end() ? -1 : it->second;
  };

  // Tasks per group before they are concatenated: 0 for copy/restrict/boundary, l for
  // prolongation into level l.
  std::vector<std::vector<GhostTask>> groups(std::size_t(shape.max_level) + 1);
  MeshPlan plan;

  for (std::size_t li = 0; li < local.size(); ++li) {
    const LeafKey& me = local[li];
    const int dst = int(li);
    for (int a = 0; a < 3; ++a) {
      if (!shape.active[a]) continue;
      // Tangential active axes of this face, in physical order.
      int tang[2] = {-1, -1}, nt = 0;
      for (int b = 0; b < 3; ++b)
        if (b != a && shape.active[b]) tang[nt++] = b;
      for (int side = 0; side < 2; ++side) {
        GhostTask t;
        t.dst = dst;
        t.axis = a;
        t.side = side;
        for (int b = 0; b < 3; ++b) {
          t.lo[b] = 0;
          t.hi[b] = shape.active[b] ? B : 1;
        }
        t.lo[a] = side == 0 ? -g : B;
        t.hi[a] = side == 0 ? 0 : B + g;

        LeafKey nb = me;
        nb.idx[a] += side == 0 ? -1 : 1;
        const int extent = blocks_along(shape, a, me.level);
        if (nb.idx[a] < 0 || nb.idx[a] >= extent) {
          if (!shape.periodic[a]) {
            t.kind = int(Fill::boundary);
            t.src = dst;
            t.boundary = int(shape.boundary[a][side]);
            groups[0].push_back(t);
            continue;
          }
          nb.idx[a] = (nb.idx[a] + extent) % extent;
        }

        if (const int same = find(nb); same >= 0) {
          t.kind = int(Fill::copy);
          t.src = same;
          t.shift[a] = side == 0 ? B : -B;
          groups[0].push_back(t);
          continue;
        }
        if (me.level > 0) {
          if (const int coarse = find(nb.ancestor(1)); coarse >= 0) {
            t.kind = int(Fill::prolong);
            t.src = coarse;
            const LeafKey ck = nb.ancestor(1);
            for (int b = 0; b < 3; ++b)
              if (b != a && shape.active[b]) t.shift[b] = (me.idx[b] - 2 * ck.idx[b]) * B;
            t.shift[a] = side == 0 ? 2 * B : -B;
            groups[std::size_t(me.level)].push_back(t);
            continue;
          }
        }
        // Finer: the 2^(d-1) children of the neighbour region that touch this face.
        RefluxTask rt;
        rt.coarse = dst;
        rt.axis = a;
        rt.side = side;
        for (int sub = 0; sub < (1 << nt); ++sub) {
          std::array<int, 3> off{0, 0, 0};
          off[a] = side == 0 ? 1 : 0;
          for (int q = 0; q < nt; ++q) off[tang[q]] = (sub >> q) & 1;
          const LeafKey ck = nb.child(off);
          const int fine = find(ck);
          if (fine < 0)
            throw std::logic_error("AMR neighbour lists: " + describe(me) + " has no neighbour " +
                                   "across its " + "xyz"[a] + (side == 0 ? "-min" : "-max") +
                                   " face (looked for " + describe(nb) + ", its parent and " +
                                   describe(ck) + ")");
          rt.fine[sub] = fine;
          GhostTask r = t;
          r.kind = int(Fill::restrict_fine);
          r.src = fine;
          for (int q = 0; q < nt; ++q) {
            const int b = tang[q];
            r.lo[b] = off[b] * B / 2;
            r.hi[b] = r.lo[b] + B / 2;
            r.shift[b] = -off[b] * B;
          }
          r.shift[a] = side == 0 ? B : -2 * B;
          groups[0].push_back(r);
        }
        plan.reflux.push_back(rt);
      }
    }
  }

  std::stable_sort(plan.reflux.begin(), plan.reflux.end(),
                   [](const RefluxTask& x, const RefluxTask& y) {
                     return 2 * x.axis + x.side < 2 * y.axis + y.side;
                   });
  for (int f = 0; f <= 6; ++f)
    plan.reflux_begin[std::size_t(f)] =
        int(std::count_if(plan.reflux.begin(), plan.reflux.end(),
                          [f](const RefluxTask& r) { return 2 * r.axis + r.side < f; }));
  plan.group_begin.push_back(0);
  for (auto& grp : groups) {
    plan.ghost_tasks.insert(plan.ghost_tasks.end(), grp.begin(), grp.end());
    plan.group_begin.push_back(int(plan.ghost_tasks.size()));
  }
  return plan;
}

}  // namespace fluxview::amr
