#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/FieldLayout.hpp"
#include "sim/core/Types.hpp"

namespace fluxview {

// A read-only look at one scalar field: all that render and insitu ever see of a
// solver's state (docs/dev/architecture.md). The pointer may be a device pointer: check
// `where`.
struct FieldView {
  std::string name;  // as in snapshots: "T", "lnrho", "ux", "rho", "p", ...
  std::string unit;
  const void* data = nullptr;
  Precision precision = Precision::f64;
  Location where = Location::host;
  FieldLayout layout;
  Centering centering = Centering::cell;
};

// The interior of a field copied to a contiguous host array (x fastest), in the
// field's own precision: what snapshot writers and the CPU render path consume.
// Copies from the device only this field and only its interior rows.
struct HostArray {
  std::vector<unsigned char> bytes;
  Precision precision = Precision::f64;
  std::array<int, 3> n{1, 1, 1};
  double at(std::int64_t idx) const {
    return precision == Precision::f64 ? reinterpret_cast<const double*>(bytes.data())[idx]
                                       : reinterpret_cast<const float*>(bytes.data())[idx];
  }
  std::int64_t count() const { return std::int64_t(n[0]) * n[1] * n[2]; }
};
HostArray gather_interior(const FieldView& v);
// The box of `n` cells starting at local index `lo` (ghosts included where the box
// reaches into them), as gather_interior does for the interior.
HostArray gather_box(const FieldView& v, std::array<int, 3> lo, std::array<int, 3> n);
// The same copy into memory the caller owns (`dst`: n[0] * n[1] * n[2] values of the
// field's precision, x fastest), e.g. a VTK array the Catalyst adaptor hands over.
void copy_box(const FieldView& v, std::array<int, 3> lo, std::array<int, 3> n, void* dst);
// The inverse: writes a host array into the interior of a field's storage (host or
// device) laid out by `layout`; ghosts are left alone. Sizes and precision must match.
void scatter_interior(const HostArray& a, void* data, const FieldLayout& layout, Location where);

}  // namespace fluxview
