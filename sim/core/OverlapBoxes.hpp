#pragma once
// How a solver overlaps its ghost exchange with work: the rank's box cut into the
// interior box, whose cells read no ghost of a face shared with another rank (updated
// while the ghosts travel), and disjoint slabs covering the rest (updated once they have
// arrived). Every cell is in exactly one box, so the result does not depend on the cut.
#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "sim/core/CommonConfig.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::parallel {

struct CellBox {
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};  // interior indices, [lo, hi)
};

struct OverlapBoxes {
  CellBox interior;
  std::vector<CellBox> faces;  // z slabs over everything, y slabs inside, x slabs inside both
};

// Whether a family overlaps: its measured default (docs/performance.md), unless
// run.mpi_overlap = on or off says otherwise (to compare the two).
inline bool overlap_wanted(bool family_default, OverlapChoice choice) {
  if (choice == OverlapChoice::automatic) return family_default;
  return choice == OverlapChoice::on;
}

// `lo` and `hi` bound the interior box along the axes split over ranks (box.dims > 1);
// the other axes are taken whole. Empty (no overlap) where a split axis leaves no
// interior or no axis is split.
inline std::optional<OverlapBoxes> overlap_boxes(const LocalBox& box, std::array<int, 3> n,
                                                 std::array<int, 3> lo, std::array<int, 3> hi) {
  OverlapBoxes o;
  o.interior.hi = n;
  bool split = false;
  for (int a = 0; a < 3; ++a) {
    if (box.dims[a] == 1) continue;
    if (lo[a] < 1 || hi[a] > n[a] - 1 || hi[a] <= lo[a]) return std::nullopt;
    o.interior.lo[a] = lo[a];
    o.interior.hi[a] = hi[a];
    split = true;
  }
  if (!split) return std::nullopt;
  CellBox rest{{0, 0, 0}, n};
  for (int a = 2; a >= 0; --a) {
    if (box.dims[a] == 1) continue;
    CellBox low = rest, high = rest;
    low.hi[a] = lo[a];
    high.lo[a] = hi[a];
    o.faces.push_back(low);
    o.faces.push_back(high);
    rest.lo[a] = lo[a];
    rest.hi[a] = hi[a];
  }
  return o;
}

}  // namespace fluxview::parallel
