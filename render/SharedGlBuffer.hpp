#pragma once
#include <epoxy/gl.h>

#include <array>
#include <cstddef>
#include <string>

namespace fluxview::render {

// Device memory that CUDA writes and GL reads in place, with no map per use: CUDA
// allocates it exportable as a file descriptor (cuMemCreate, SliceInterop.hpp), GL
// imports the descriptor as a memory object (GL_EXT_memory_object_fd) and makes a buffer
// on it. Serves the slices (a buffer texture over it), the volume (a shader storage
// buffer) and the streamlines (a vertex buffer).
//
// Order between the two APIs: CUDA's writes end with a host wait (GL cannot wait for a
// CUDA event: it imports only Vulkan-style semaphores, and CUDA exports none); GL's reads
// end with a fence (note_gl_read) that the next write waits for (begin_write).
// Needs a current GL context on every call, the destructor included.
class SharedGlBuffer {
 public:
  SharedGlBuffer() = default;
  ~SharedGlBuffer() { release(); }
  SharedGlBuffer(const SharedGlBuffer&) = delete;
  SharedGlBuffer& operator=(const SharedGlBuffer&) = delete;

  // Makes a buffer of `bytes` on shared memory of the current CUDA device, checking once
  // that GL reads what CUDA writes. False, with nothing left allocated and the reason in
  // `why`, where that cannot be had (no extension, the GL context on another GPU, ...).
  // The memory object is imported as dedicated, as CUDA made it: imported as a
  // sub-allocation, some imports read other memory (zeros) on an H100. An import that GL
  // still does not read is tried again (kImportTries in all), the failed ones held until
  // the end, and why each failed kept in import_notes().
  static constexpr int kImportTries = 4;
  bool create(std::size_t bytes, std::string* why);
  // GL first (waits for its last read, deletes the buffer and memory object), then CUDA.
  void release();
  bool valid() const { return handle_ != nullptr; }
  // Why the imports before the one made were not read (empty when the first one was).
  const std::string& import_notes() const { return import_notes_; }

  GLuint buffer() const { return buffer_; }
  std::size_t bytes() const { return bytes_; }
  // The allocation, for interop:: calls, and its device address for kernels.
  void* handle() const { return handle_; }
  void* device_pointer() const;

  // Before CUDA writes: waits until GL has finished the reads noted since the last
  // write. Throws std::runtime_error when the wait fails (a GPU that hangs).
  void begin_write();
  // After GL commands that read the buffer.
  void note_gl_read();

 private:
  // One import: `unread` when it was made but GL did not read what CUDA wrote (the object
  // then still holds it, for create() to keep while it tries again).
  enum class Import { made, unread, failed };
  Import try_import(std::size_t bytes, std::string* why);
  bool wait_gl_read();
  std::string unread_details(unsigned char pattern, unsigned char gl_start, unsigned char gl_end);
  std::string import_notes_;
  void* handle_ = nullptr;  // interop shared memory
  GLuint memory_ = 0, buffer_ = 0;
  std::size_t bytes_ = 0;
  GLsync read_ = nullptr;  // signalled when the last draw that read the buffer is done
};

// What GL reads in the first and the last 4 bytes of a buffer of `bytes` (>= 4), through a
// GPU copy into a small buffer, as the shaders read (GL's read-back of an imported buffer
// itself was seen to return stale contents). Bytes 0-3: the start; 4-7: the end.
std::array<unsigned char, 8> gl_read_ends(GLuint buffer, std::size_t bytes);

}  // namespace fluxview::render
