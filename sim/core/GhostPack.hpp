#pragma once
// Packing a box of several fields into one contiguous device buffer and back: what the
// MPI ghost exchange sends, so that a slab costs one kernel and one copy instead of a
// strided copy per plane.
#include <array>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::cuda {

enum class PackDirection { to_buffer, from_buffer };

// The box [lo, hi) (interior indices, ghosts allowed) of each of `nfields` device
// fields sharing `layout`, field after field and x fastest within a field, to or from
// the device buffer `buf`. Queued on `stream`; at most 8 fields.
void pack_box(void* buf, void* const* fields, int nfields, const FieldLayout& layout,
              std::array<int, 3> lo, std::array<int, 3> hi, PackDirection dir, Stream stream);

}  // namespace fluxview::cuda
