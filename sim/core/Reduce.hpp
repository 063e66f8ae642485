#pragma once
#include <cstdint>

#include "sim/core/FieldView.hpp"

namespace fluxview {

// Interior statistics of one field, computed where the field lives (reduce_cells of the
// execution layer, sim/core/Exec.hpp): only these numbers cross the bus.
struct FieldStats {
  double min = 0, max = 0, sum = 0, sum_sq = 0;
  std::int64_t count = 0;
  std::int64_t nonfinite = 0;  // NaN or Inf cells
};
FieldStats field_stats(const FieldView& v);
// max |a - b| over the interior of two fields of the same layout and location.
double max_abs_difference(const FieldView& a, const FieldView& b);

// The first cell (in memory order: x fastest, then y, then z) holding NaN or Inf, or a
// value <= 0 where `must_be_positive`; -1 when there is none. Returns the interior
// linear index i + nx (j + ny k).
std::int64_t first_bad_cell(const FieldView& v, bool must_be_positive);

}  // namespace fluxview
