#include "insitu/catalyst/FieldCopy.hpp"

#include <cstddef>

namespace fluxview {

std::uint64_t copy_field_box(const FieldView& v, std::array<int, 3> n, void* dst) {
  copy_box(v, {0, 0, 0}, n, dst);  // sim/core/FieldView.cpp: the one strided box copy
  return std::uint64_t(n[0]) * n[1] * n[2] * bytes_of(v.precision);
}

bool interior_is_contiguous(const FieldLayout& L, std::array<int, 3> n) {
  return n == L.n && (n[1] == 1 || L.sy == n[0]) &&
         (n[2] == 1 || L.sz == std::int64_t(n[0]) * n[1]);
}

}  // namespace fluxview
