#pragma once
#include <epoxy/gl.h>

#include <array>
#include <string>
#include <vector>

#include "render/SliceSpec.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render {

// An R32F texture holding one slice of a field (DESIGN.md "zero-copy drawing"): from a
// CUDA solver a kernel stores the slice into the texture's array through a surface
// (cudaGraphicsGLRegisterImage, registered once per texture size and mapped per
// update); from a CPU solver the slice goes through a pixel buffer object. Needs a
// current GL context on every call.
class SliceTexture {
 public:
  SliceTexture();
  ~SliceTexture();
  SliceTexture(const SliceTexture&) = delete;
  SliceTexture& operator=(const SliceTexture&) = delete;

  // Throws std::out_of_range for an axis or index outside the field, and
  // std::runtime_error when `interop` is asked for and cannot be had.
  void update(const FieldView& v, SliceSpec slice, UploadPath path = UploadPath::automatic);

  // For writing several slices with one map (SliceRenderer): sizes the texture for
  // the slice and returns its interop registration, or nullptr where interop cannot
  // be had (then update() takes the host path). Call note_interop_write() after.
  // Uploads a slice already on the host: `values` holds w x h floats, u fastest (what
  // rank 0 of an MPI run gathered). Sizes the texture as needed.
  void upload(const float* values, int w, int h);

  void* interop_registration(const FieldView& v, SliceSpec slice, UploadPath path);
  void note_interop_write() { last_path_ = UploadPath::interop; }

  GLuint texture() const { return texture_; }
  int width() const { return size_[0]; }
  int height() const { return size_[1]; }
  // The path the last update took, and why interop was not used where it was not.
  UploadPath last_path() const { return last_path_; }
  const std::string& interop_note() const { return interop_note_; }
  // The value of texel (u, v), read back from the texture (one texel crosses the bus).
  float value_at(int u, int v) const;

 private:
  void ensure_size(int w, int h);
  void upload_host(const FieldView& v, SliceSpec slice);
  template <class Fill>
  void upload_through_pbo(Fill&& fill);
  GLuint texture_ = 0;
  GLuint pbo_ = 0;
  std::array<int, 2> size_{0, 0};
  void* interop_ = nullptr;  // cudaGraphicsResource_t of texture_, when registered
  bool interop_failed_ = false;
  std::string interop_note_;
  UploadPath last_path_ = UploadPath::host;
  std::vector<unsigned char> staging_;  // host copy of a device slice (host path)
};

// Copies a slice of any field to floats on the host (u fastest); from the device only
// the slice crosses the bus.
void copy_slice_to_host(const FieldView& v, SliceSpec slice, float* out);

}  // namespace fluxview::render
