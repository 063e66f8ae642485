// The field reductions of Reduce.hpp on the device: FieldReductions.hpp's loops in the
// device execution space.
#include "sim/core/FieldReductions.hpp"
#include "sim/core/cuda/ExecDevice.cuh"

namespace fluxview::reductions {

FieldStats stats_on_device(const FieldView& v) {
  return stats(exec::Device{}, v);
}

double max_abs_difference_on_device(const FieldView& a, const FieldView& b) {
  return max_abs_difference(exec::Device{}, a, b);
}

std::int64_t first_bad_cell_on_device(const FieldView& v, bool must_be_positive) {
  return first_bad_cell(exec::Device{}, v, must_be_positive);
}

}  // namespace fluxview::reductions
