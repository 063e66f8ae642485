#include "sim/core/FieldView.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sim/core/CudaRuntime.hpp"

namespace fluxview {

HostArray gather_interior(const FieldView& v) {
  return gather_box(v, {0, 0, 0}, v.layout.n);
}

HostArray gather_box(const FieldView& v, std::array<int, 3> lo, std::array<int, 3> n) {
  HostArray out;
  out.precision = v.precision;
  out.n = n;
  out.bytes.resize(std::size_t(n[0]) * n[1] * n[2] * bytes_of(v.precision));
  copy_box(v, lo, n, out.bytes.data());
  return out;
}

void copy_box(const FieldView& v, std::array<int, 3> lo, std::array<int, 3> n, void* dst) {
  const std::size_t eb = bytes_of(v.precision);
  const std::size_t row = std::size_t(n[0]) * eb;
  const auto* base = static_cast<const unsigned char*>(v.data);
  auto* out = static_cast<unsigned char*>(dst);
  // One strided copy per plane: rows are contiguous, what lies between them is
  // skipped, and from the device only these bytes cross the bus.
  for (int k = 0; k < n[2]; ++k) {
    unsigned char* d = out + std::size_t(k) * n[1] * row;
    const unsigned char* src = base + v.layout.index(lo[0], lo[1], lo[2] + k) * eb;
    if (v.where == Location::host) {
      for (int j = 0; j < n[1]; ++j) std::memcpy(d + j * row, src + j * v.layout.sy * eb, row);
    } else {
      cuda::memcpy_2d(d, row, src, v.layout.sy * eb, row, n[1]);
    }
  }
}

void scatter_interior(const HostArray& a, void* data, const FieldLayout& layout, Location where) {
  const std::size_t eb = bytes_of(a.precision);
  if (a.n != layout.n || std::size_t(layout.elem_bytes) != eb)
    throw std::invalid_argument("scatter_interior: array and field differ in size or precision");
  const std::size_t row = std::size_t(layout.n[0]) * eb;
  auto* base = static_cast<unsigned char*>(data);
  for (int k = 0; k < layout.n[2]; ++k) {
    const unsigned char* src = a.bytes.data() + std::size_t(k) * layout.n[1] * row;
    unsigned char* dst = base + layout.index(0, 0, k) * eb;
    if (where == Location::host) {
      for (int j = 0; j < layout.n[1]; ++j)
        std::memcpy(dst + j * layout.sy * eb, src + j * row, row);
    } else {
      cuda::memcpy_2d(dst, layout.sy * eb, src, row, row, layout.n[1]);
    }
  }
}

}  // namespace fluxview
