// Device reductions in a build without CUDA: a device field cannot exist there.
#include <stdexcept>

#include "sim/core/Reduce.hpp"

namespace fluxview::cuda {
FieldStats field_stats_device(const FieldView&) {
  throw std::logic_error("device field in a build without CUDA");
}
double max_abs_difference_device(const FieldView&, const FieldView&) {
  throw std::logic_error("device field in a build without CUDA");
}
std::int64_t first_bad_cell_device(const FieldView&, bool) {
  throw std::logic_error("device field in a build without CUDA");
}
}  // namespace fluxview::cuda
