#pragma once
#include <array>

namespace fluxview::render {

// How a slice reaches its texture.
enum class UploadPath {
  automatic,  // interop for device fields where it works, else host
  host,       // values copied on the host, uploaded through a pixel buffer object
  interop,    // a CUDA kernel writes the texture through a registered surface
};

// The cells of a slice: the plane normal to `axis` through interior index `index`.
// Texture axes (u, v) are (y, z) for axis 0, (x, z) for axis 1 and (x, y) for axis 2.
struct SliceSpec {
  int axis = 2;
  int index = 0;
};
inline std::array<int, 2> slice_axes(int axis) {
  return axis == 0 ? std::array{1, 2} : axis == 1 ? std::array{0, 2} : std::array{0, 1};
}

}  // namespace fluxview::render
