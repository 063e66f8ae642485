#include "sim/core/Reduce.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/core/ExecHost.hpp"
#include "sim/core/FieldReductions.hpp"

namespace fluxview {

// A device field exists only in a build with CUDA, so only such a build asks for the
// device instantiations.

std::int64_t first_bad_cell(const FieldView& v, bool must_be_positive) {
#if FLUXVIEW_HAVE_CUDA
  if (v.where == Location::device) return reductions::first_bad_cell_on_device(v, must_be_positive);
#endif
  return reductions::first_bad_cell(exec::Host{}, v, must_be_positive);
}

FieldStats field_stats(const FieldView& v) {
#if FLUXVIEW_HAVE_CUDA
  if (v.where == Location::device) return reductions::stats_on_device(v);
#endif
  return reductions::stats(exec::Host{}, v);
}

double max_abs_difference(const FieldView& a, const FieldView& b) {
  if (a.where != b.where || a.precision != b.precision || a.layout.size != b.layout.size)
    throw std::invalid_argument("max_abs_difference: fields of different layout or location");
#if FLUXVIEW_HAVE_CUDA
  if (a.where == Location::device) return reductions::max_abs_difference_on_device(a, b);
#endif
  return reductions::max_abs_difference(exec::Host{}, a, b);
}

}  // namespace fluxview
