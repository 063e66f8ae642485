#pragma once
// The device twins of the renderer's loops over a field (render/cuda/*.cu), declared
// without CUDA or GL headers; a build without CUDA links RenderKernelsAbsent.cpp, whose
// versions throw (there are no device fields there).
#include <array>

#include "render/DerivedFieldMath.hpp"
#include "render/StreamlineMath.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render::cuda_kernels {

// compute_derived (DerivedFields.hpp) for a velocity on the device.
void compute_derived_device(DerivedKind kind, const FieldView u[3],
                            const std::array<double, 3>& spacing, float* out,
                            const FieldLayout& out_layout);
// integrate_streamlines (Streamlines.hpp) for a vector field on the device; returns once
// the vertices are written.
void integrate_streamlines_device(const FieldView u[3], const std::array<double, 3>& spacing,
                                  const LineGeometry& g, float* out);

}  // namespace fluxview::render::cuda_kernels
