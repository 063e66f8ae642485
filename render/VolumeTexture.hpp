#pragma once
#include <epoxy/gl.h>
#include <cstddef>

#include <array>
#include <string>
#include <vector>

#include "render/SharedGlBuffer.hpp"
#include "render/SliceSpec.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render {

// Where the volume view's shader finds the values: a 3D texture (hardware trilinear
// filtering) or a storage buffer read in place (the shader interpolates itself).
enum class VolumeStorage { texture, buffer };

// Every interior cell of a field as a float, for the ray marcher (VolumeRenderer), with
// the value range of each brick of 8^3 cells for empty-space skipping (VolumeBricks.hpp).
//
// From a CUDA solver, in order of preference (docs/gui.md, "How the volume gets to the GPU"; no
// host round trip on either):
//  - shared memory (UploadPath::shared): a kernel writes the floats into memory CUDA
//    exported and GL imported (SharedGlBuffer), which the shader reads in place as a
//    storage buffer. A refresh is one kernel and a host wait: nothing is mapped or
//    copied. This is the first choice because the refresh must stay far below a frame
//    (target 0.1 ms for 256^3 floats): a map alone costs about 0.33 ms on an H100
//    (docs/performance.md), and a GL copy of the buffer into a 3D texture would cost
//    more than the map (0.11 ms per 4 MB measured for slices). The price is the shader's
//    own trilinear interpolation (eight loads a sample instead of one filtered fetch);
//    render_bench measures both paths' frames.
//  - the mapped texture (UploadPath::interop): the 3D texture registered with CUDA
//    (cudaGraphicsGLRegisterImage), mapped per refresh and written through a surface.
// From a CPU solver the floats are uploaded into the storage buffer (host_into_buffer:
// ViewRenderer's default, so that both backends draw through the same interpolation) or
// through a pixel buffer into the 3D texture.
// Needs a current GL context on every call, the destructor included.
class VolumeTexture {
 public:
  VolumeTexture();
  ~VolumeTexture();
  VolumeTexture(const VolumeTexture&) = delete;
  VolumeTexture& operator=(const VolumeTexture&) = delete;

  // `path`: automatic (shared, else interop, else host) or the one named (--upload-path).
  // Throws std::runtime_error when `interop` or
  // `shared` is asked for and cannot be had, and for a grid beyond GL's limits.
  // `host_into_buffer`: the host path fills the storage buffer instead of the texture
  // (the buffer sampler of the shader, tested where there is no CUDA).
  void update(const FieldView& v, UploadPath path = UploadPath::automatic,
              bool host_into_buffer = false);

  VolumeStorage storage() const { return storage_; }
  GLuint texture() const { return texture_; }              // R32F 3D, linear filtering
  GLuint brick_texture() const { return brick_texture_; }  // RG32F 3D, one texel a brick
  // The storage buffer: nx * ny * nz floats (x fastest), then at brick_offset() bytes
  // two floats (min, max) a brick.
  GLuint buffer() const;
  std::size_t volume_bytes() const;
  std::size_t brick_offset() const;
  std::size_t brick_bytes() const;
  const std::array<int, 3>& size() const { return size_; }
  const std::array<int, 3>& bricks() const { return bricks_; }

  // After GL commands that read the shared memory: the next refresh waits for them.
  void note_gl_read();
  UploadPath last_path() const { return last_path_; }
  // Why the preferred device paths were not taken (empty when nothing failed).
  const std::string& note() const { return note_; }

  // Every value (x fastest) and every brick's (min, max), read back (tests).
  std::vector<float> read_values() const;
  std::vector<float> read_bricks() const;

 private:
  void ensure_size(const std::array<int, 3>& n);
  bool ensure_shared();
  bool ensure_registered();
  void upload_host(const FieldView& v, bool into_buffer);
  void update_note();

  std::array<int, 3> size_{0, 0, 0}, bricks_{0, 0, 0};
  GLuint texture_ = 0, brick_texture_ = 0;
  GLuint pbo_ = 0;
  GLuint host_buffer_ = 0;  // the storage buffer of host_into_buffer
  SharedGlBuffer shared_;
  bool shared_failed_ = false;
  std::string shared_note_;
  void* registration_ = nullptr;  // the mapped-texture path
  bool interop_failed_ = false;
  std::string map_note_;
  std::string note_;
  Buffer raw_bricks_;  // device scratch: each brick's own range before widening
  VolumeStorage storage_ = VolumeStorage::texture;
  UploadPath last_path_ = UploadPath::host;
};

}  // namespace fluxview::render
