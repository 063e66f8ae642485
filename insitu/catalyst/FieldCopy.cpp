#include "insitu/catalyst/FieldCopy.hpp"

#include <cstring>

#include "sim/core/CudaRuntime.hpp"

namespace fluxview {

std::uint64_t copy_field_box(const FieldView& v, std::array<int, 3> n, void* dst) {
  const FieldLayout& L = v.layout;
  const std::size_t eb = bytes_of(v.precision);
  const std::size_t row = std::size_t(n[0]) * eb;
  const auto* base = static_cast<const unsigned char*>(v.data);
  auto* out = static_cast<unsigned char*>(dst);
  for (int k = 0; k < n[2]; ++k) {
    unsigned char* d = out + std::size_t(k) * n[1] * row;
    const unsigned char* s = base + L.index(0, 0, k) * eb;
    if (v.where == Location::host) {
      for (int j = 0; j < n[1]; ++j) std::memcpy(d + j * row, s + j * L.sy * eb, row);
    } else {
      cuda::memcpy_2d(d, row, s, L.sy * eb, row, n[1]);
    }
  }
  return std::uint64_t(row) * n[1] * n[2];
}

bool interior_is_contiguous(const FieldLayout& L, std::array<int, 3> n) {
  return n == L.n && (n[1] == 1 || L.sy == n[0]) &&
         (n[2] == 1 || L.sz == std::int64_t(n[0]) * n[1]);
}

}  // namespace fluxview
