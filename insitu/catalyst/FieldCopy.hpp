#pragma once
// The copy the Catalyst adaptor makes of one field: the box [0, n) of a field's interior
// (n is the interior, or one more layer on inner high faces under MPI), rows gathered
// into a contiguous x-fastest array, from host memory by memcpy or from the GPU by one
// cudaMemcpy2D per z plane (ghosts and row padding never cross the bus). Kept free of
// VTK so that it is tested on the GPU machine, where ParaView is not installed.
#include <array>
#include <cstdint>

#include "sim/core/FieldView.hpp"

namespace fluxview {

// Copies the box into `dst` (n[0] * n[1] * n[2] values of the field's precision);
// returns the bytes copied.
std::uint64_t copy_field_box(const FieldView& v, std::array<int, 3> n, void* dst);

// True when the interior (n == layout.n) is one contiguous run of memory (no ghosts or
// padding along the axes in use), so that it can be handed over without a copy.
bool interior_is_contiguous(const FieldLayout& layout, std::array<int, 3> n);

}  // namespace fluxview
