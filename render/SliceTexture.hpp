#pragma once
#include <epoxy/gl.h>

#include <array>
#include <string>
#include <vector>

#include "render/SharedGlBuffer.hpp"
#include "render/SliceSpec.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render {

// An R32F texture holding one slice of a field (docs/gui.md, "Stepping and frame rate";
// docs/performance.md). From a CUDA solver, in order of preference:
//  - shared memory (UploadPath::shared): CUDA allocates device memory exportable as a
//    file descriptor, GL imports it as a buffer (GL_EXT_memory_object_fd); per update a
//    kernel writes the slice there and the host waits for it; the slice shader reads
//    the buffer in place (buffer_view()). Nothing is mapped or copied per update.
//  - the mapped texture (UploadPath::interop): the texture registered with
//    cudaGraphicsGLRegisterImage once per size, mapped per update, and written by a
//    kernel through a surface.
// From a CPU solver (or where neither works) the slice goes through a pixel buffer
// object. Needs a current GL context on every call, the destructor included.
class SliceTexture {
 public:
  SliceTexture();
  ~SliceTexture();
  SliceTexture(const SliceTexture&) = delete;
  SliceTexture& operator=(const SliceTexture&) = delete;

  // Throws std::out_of_range for an axis or index outside the field, and
  // std::runtime_error when `interop` or `shared` is asked for and cannot be had.
  void update(const FieldView& v, SliceSpec slice, UploadPath path = UploadPath::automatic);

  // Uploads a slice already on the host: `values` holds w x h floats, u fastest (what
  // rank 0 of an MPI run gathered). Sizes the texture as needed.
  void upload(const float* values, int w, int h);

  // For writing several slices at once (SliceRenderer): sizes the texture for the slice,
  // makes what the device path needs and says which path a device slice takes: shared,
  // interop, or host (a host field, or no device path to be had).
  UploadPath device_path(const FieldView& v, SliceSpec slice, UploadPath path);
  // interop: the registration for interop::write_slices; call note_interop_write() after.
  void* registration() const { return interop_; }
  void note_interop_write() { last_path_ = UploadPath::interop; }
  // shared: waits until GL has finished reading the shared memory (the draws since the
  // previous update, note_gl_read()) and returns it for interop::write_slices_shared;
  // finish_shared_write() after the slice is written.
  void* begin_shared_write();
  void finish_shared_write();

  GLuint texture() const { return texture_; }
  // Where the slice's values are to be read: the 2D texture, or, after a shared-memory
  // update, a buffer texture (GL_R32F texels, u fastest) over the memory CUDA wrote,
  // read in place by the slice shader. 0 when the 2D texture holds them.
  GLuint buffer_view() const { return last_path_ == UploadPath::shared ? shared_view_ : 0; }
  // After GL commands that read buffer_view(): the next shared-memory write waits until
  // they are done.
  void note_gl_read();
  // Every texel, u fastest, from wherever the values are.
  std::vector<float> read_values() const;
  int width() const { return size_[0]; }
  int height() const { return size_[1]; }
  // The path the last update took, and why the preferred device paths were not used
  // where they were not (empty when nothing failed).
  UploadPath last_path() const { return last_path_; }
  const std::string& interop_note() const { return note_; }
  // Imports of the shared memory GL did not read before the one in use (SharedGlBuffer).
  const std::string& shared_import_notes() const { return shared_.import_notes(); }
  // The value of texel (u, v), read back from the texture (one texel crosses the bus).
  float value_at(int u, int v) const;

 private:
  void ensure_size(int w, int h);
  void upload_host(const FieldView& v, SliceSpec slice);
  template <class Fill>
  void upload_through_pbo(Fill&& fill);
  bool ensure_registered();
  bool ensure_shared();
  bool import_shared(std::string* why);
  void release_shared();
  void update_note();

  GLuint texture_ = 0;
  GLuint pbo_ = 0;
  std::array<int, 2> size_{0, 0};
  void* interop_ = nullptr;  // the texture's registration (mapped-texture path)
  bool interop_failed_ = false;
  std::string map_note_;  // why the texture could not be registered
  // The shared-memory path: the memory CUDA writes and GL reads (one buffer and its
  // fence, not two buffers used in turn: the draws that read it are done long before the
  // next update, a frame later, so the wait for their fence normally finds it signalled
  // already, while a second buffer would double the memory and still need a fence of
  // its own) and the buffer texture over it that the shader reads.
  SharedGlBuffer shared_;
  GLuint shared_view_ = 0;
  bool shared_failed_ = false;
  std::string shared_note_;  // why shared memory could not be had
  std::string note_;         // the notes above, for interop_note()
  UploadPath last_path_ = UploadPath::host;
  std::vector<unsigned char> staging_;  // host copy of a device slice (host path)
};

// Copies a slice of any field to floats on the host (u fastest); from the device only
// the slice crosses the bus.
void copy_slice_to_host(const FieldView& v, SliceSpec slice, float* out);

}  // namespace fluxview::render
