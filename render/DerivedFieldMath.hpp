#pragma once
// Pointwise formulas of the fields a view derives from the velocity (DerivedFields.hpp),
// written once for the host loop and the CUDA kernel.
#include <cmath>
#include <cstdint>

#include "sim/core/FieldLayout.hpp"
#include "sim/core/HostDevice.hpp"

namespace fluxview::render {

enum class DerivedKind { speed, vorticity };

// The three velocity components sharing one layout, and 1 / spacing per axis.
template <class T>
struct VelocityField {
  const T* u[3];
  FieldLayout layout;
  float inv_h[3];
};

// d(component c) / d(axis a) at interior cell (i, j, k): central differences inside,
// one-sided at the interior's faces (ghost cells are not read: their contents depend on
// the solver and on when it last filled them), 0 along a reduced (single-cell) axis.
template <class T>
FLUXVIEW_HD float velocity_derivative(const VelocityField<T>& f, int c, int a, int i, int j,
                                      int k) {
  const int n = f.layout.n[a];
  if (n <= 1) return 0.0f;
  int p[3] = {i, j, k}, m[3] = {i, j, k};
  p[a] = p[a] + 1 < n ? p[a] + 1 : n - 1;
  m[a] = m[a] > 0 ? m[a] - 1 : 0;
  const float up = float(f.u[c][f.layout.index(p[0], p[1], p[2])]);
  const float um = float(f.u[c][f.layout.index(m[0], m[1], m[2])]);
  return (up - um) * f.inv_h[a] / float(p[a] - m[a]);
}

template <class T>
FLUXVIEW_HD float derived_value(DerivedKind kind, const VelocityField<T>& f, int i, int j, int k) {
  if (kind == DerivedKind::speed) {
    const std::int64_t c = f.layout.index(i, j, k);
    const float ux = float(f.u[0][c]), uy = float(f.u[1][c]), uz = float(f.u[2][c]);
    return sqrtf(ux * ux + uy * uy + uz * uz);
  }
  // |curl u| = |(duz/dy - duy/dz, dux/dz - duz/dx, duy/dx - dux/dy)|
  const float wx = velocity_derivative(f, 2, 1, i, j, k) - velocity_derivative(f, 1, 2, i, j, k);
  const float wy = velocity_derivative(f, 0, 2, i, j, k) - velocity_derivative(f, 2, 0, i, j, k);
  const float wz = velocity_derivative(f, 1, 0, i, j, k) - velocity_derivative(f, 0, 1, i, j, k);
  return sqrtf(wx * wx + wy * wy + wz * wz);
}

}  // namespace fluxview::render
