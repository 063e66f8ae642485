#pragma once
#include <array>
#include <stdexcept>
#include <string>

namespace fluxview::render {

// How a slice reaches its texture.
enum class UploadPath {
  automatic,  // device fields: shared, else interop, else host (--upload-path can pin one)
  host,       // values copied on the host, uploaded through a pixel buffer object
  interop,    // a CUDA kernel writes the texture through a registered surface, mapped per update
  shared,     // a CUDA kernel writes memory that GL imported (GL_EXT_memory_object_fd); GL
              // copies it into the texture: no per-update map
};

// The name shown where paths are reported: "host", "interop (mapped texture)", ...
inline const char* upload_path_name(UploadPath p) {
  switch (p) {
    case UploadPath::automatic:
      return "automatic";
    case UploadPath::host:
      return "host";
    case UploadPath::interop:
      return "interop (mapped texture)";
    case UploadPath::shared:
      return "interop (shared memory)";
  }
  return "?";
}

// The names --upload-path takes (auto, shared, map, host), and their meaning: a path named
// for device fields fails loudly where it cannot be had, so that timings compare the path
// named; host fields always take the host path.
inline const char* upload_path_option(UploadPath p) {
  switch (p) {
    case UploadPath::automatic:
      return "auto";
    case UploadPath::host:
      return "host";
    case UploadPath::interop:
      return "map";
    case UploadPath::shared:
      return "shared";
  }
  return "?";
}
// Throws std::invalid_argument naming what is allowed.
inline UploadPath parse_upload_path(const std::string& name) {
  for (UploadPath p :
       {UploadPath::automatic, UploadPath::shared, UploadPath::interop, UploadPath::host})
    if (name == upload_path_option(p)) return p;
  throw std::invalid_argument("upload path " + name + ": expected auto, shared, map or host");
}

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
