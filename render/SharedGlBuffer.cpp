#include "render/SharedGlBuffer.hpp"

#include <unistd.h>
#include <array>
#include <exception>

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "render/SliceInterop.hpp"

namespace fluxview::render {

namespace {

std::string gl_error_text(GLenum e) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04X", unsigned(e));
  return std::string("GL error ") + buf;
}

std::string hex_uuid(const unsigned char* id) {
  std::string out;
  char buf[3];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", id[i]);
    out += buf;
  }
  return out;
}

void drain_gl_errors() {
  for (int i = 0; i < 32 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

}  // namespace

bool SharedGlBuffer::create(std::size_t bytes, std::string* why) {
  release();
  import_notes_.clear();
  std::vector<std::unique_ptr<SharedGlBuffer>> held;  // imports GL did not read, freed at the end
  for (int attempt = 1;; ++attempt) {
    const Import r = try_import(bytes, why);
    if (r == Import::made) return true;
    if (r == Import::failed || attempt == kImportTries) {
      release();
      if (attempt > 1) *why += " (" + std::to_string(attempt) + " imports tried)";
      return false;
    }
    import_notes_ += (import_notes_.empty() ? "" : "; ") + std::string("import ") +
                     std::to_string(attempt) + ": " + *why;
    auto failed = std::make_unique<SharedGlBuffer>();
    std::swap(failed->handle_, handle_);
    std::swap(failed->memory_, memory_);
    std::swap(failed->buffer_, buffer_);
    std::swap(failed->bytes_, bytes_);
    held.push_back(std::move(failed));
  }
}

// CUDA allocates and exports, GL imports: the other direction (GL allocating) has no GL
// export. Every step checks and undoes what was made, so a failure leaves nothing, except
// that an import GL does not read is left held for create().
SharedGlBuffer::Import SharedGlBuffer::try_import(std::size_t bytes, std::string* why) {
  const bool has_object = epoxy_has_gl_extension("GL_EXT_memory_object");
  const bool has_fd = epoxy_has_gl_extension("GL_EXT_memory_object_fd");
  if (!has_object || !has_fd) {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    *why = std::string(!has_object ? "GL_EXT_memory_object" : "GL_EXT_memory_object_fd") +
           " is not offered by " + (renderer ? renderer : "this GL");
    return Import::failed;
  }
  // The GL context must be on the CUDA device: find its UUID among GL's devices.
  unsigned char cuda_uuid[16];
  if (!interop::cuda_device_uuid(cuda_uuid, why)) return Import::failed;
  drain_gl_errors();
  GLint devices = 0;
  glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &devices);
  if (glGetError() == GL_NO_ERROR && devices > 0) {
    bool found = false;
    std::string gl_ids;
    for (GLint i = 0; i < devices && !found; ++i) {
      GLubyte id[GL_UUID_SIZE_EXT] = {};
      glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, GLuint(i), id);
      found = std::memcmp(id, cuda_uuid, 16) == 0;
      gl_ids += (gl_ids.empty() ? "" : ", ") + hex_uuid(id);
    }
    if (!found) {
      *why = "the GL context is not on the CUDA device (GL device UUID " + gl_ids + ", CUDA " +
             hex_uuid(cuda_uuid) + ")";
      return Import::failed;
    }
  }
  drain_gl_errors();

  // A little more memory than the buffer: a driver may want some beyond a buffer's end
  // (Mesa's llvmpipe refuses a buffer that fills its memory object exactly). The
  // allocation is rounded up to CUDA's granularity (2 MiB) anyway.
  const std::size_t slack = 64 * 1024;
  const interop::SharedMemory m = interop::create_shared_memory(bytes + slack, why);
  if (!m.handle) return Import::failed;
  glCreateMemoryObjectsEXT(1, &memory_);
  // cuMemCreate makes a dedicated allocation (one object, not a piece of a larger heap),
  // and GL must be told so before it imports it (EXT_memory_object's
  // DEDICATED_MEMORY_OBJECT_EXT). Without this, on an H100 (driver 580.159.04) some
  // imports aliased other memory: GL read zeros however often CUDA wrote the pattern,
  // while CUDA read its own bytes back (issue 18; docs/performance.md).
  const GLint dedicated = GL_TRUE;
  glMemoryObjectParameterivEXT(memory_, GL_DEDICATED_MEMORY_OBJECT_EXT, &dedicated);
  glImportMemoryFdEXT(memory_, GLuint64(m.size), GL_HANDLE_TYPE_OPAQUE_FD_EXT, m.fd);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    close(m.fd);  // a failed import leaves the descriptor with us; a successful one gives it to GL
    glDeleteMemoryObjectsEXT(1, &memory_);
    memory_ = 0;
    interop::destroy_shared_memory(m.handle);
    *why = "glImportMemoryFdEXT of " + std::to_string(m.size) + " bytes: " + gl_error_text(e);
    return Import::failed;
  }
  handle_ = m.handle;  // from here release() undoes everything
  bytes_ = bytes;
  glCreateBuffers(1, &buffer_);
  glNamedBufferStorageMemEXT(buffer_, GLsizeiptr(bytes), memory_, 0);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    release();
    *why = "glNamedBufferStorageMemEXT of " + std::to_string(bytes) + " bytes: " + gl_error_text(e);
    return Import::failed;
  }
  // Once: does GL read what CUDA writes? A byte pattern set by CUDA, read back by GL at
  // both ends of the buffer. (An import can succeed and still not alias the memory, for
  // example on a driver that does not support CUDA's descriptors.)
  const unsigned char pattern = 0x5a;
  try {
    interop::fill_shared_memory(handle_, pattern);
  } catch (const std::exception& e) {
    release();
    *why = e.what();
    return Import::failed;
  }
  // Read by the GPU, as the shaders will.
  const std::array<unsigned char, 8> ends = gl_read_ends(buffer_, bytes);
  const GLenum e = glGetError();
  bool same = true;
  for (unsigned char c : ends) same = same && c == pattern;
  if (e != GL_NO_ERROR) {
    release();
    *why = "reading the imported buffer: " + gl_error_text(e);
    return Import::failed;
  }
  if (!same) {
    *why = "GL does not read what CUDA wrote to the shared memory" +
           unread_details(pattern, ends[0], ends[7]);
    return Import::unread;
  }
  return Import::made;
}

// What an import GL did not read looks like from both sides, for the message (issue 18:
// the cause of such imports is sought): what CUDA reads now (zeros: GL's first use
// cleared the memory after CUDA wrote it; the pattern: GL reads other memory), what GL
// reads after a glFinish, and after CUDA writes the pattern a second time.
std::string SharedGlBuffer::unread_details(unsigned char pattern, unsigned char gl_start,
                                           unsigned char gl_end) {
  unsigned char cuda_now[4] = {};
  std::string cuda_text = "?";
  try {
    interop::read_shared_memory(handle_, 0, 4, cuda_now);
    char b[8];
    std::snprintf(b, sizeof b, "0x%02x", cuda_now[0]);
    cuda_text = b;
  } catch (const std::exception&) {
  }
  glFinish();
  const std::array<unsigned char, 8> again = gl_read_ends(buffer_, bytes_);
  std::string refill_text = "?";
  try {
    interop::fill_shared_memory(handle_, pattern);
    const std::array<unsigned char, 8> refilled = gl_read_ends(buffer_, bytes_);
    char b[40];
    std::snprintf(b, sizeof b, "0x%02x/0x%02x", refilled[0], refilled[7]);
    refill_text = b;
  } catch (const std::exception&) {
  }
  char text[240];
  std::snprintf(text, sizeof text,
                " (wrote 0x%02x, GL read 0x%02x at the start, 0x%02x at the end; then CUDA "
                "read %s, GL after glFinish 0x%02x/0x%02x, GL after a second write %s)",
                pattern, gl_start, gl_end, cuda_text.c_str(), again[0], again[7],
                refill_text.c_str());
  return text;
}

std::array<unsigned char, 8> gl_read_ends(GLuint buffer, std::size_t bytes) {
  GLuint probe = 0;
  glCreateBuffers(1, &probe);
  glNamedBufferStorage(probe, 8, nullptr, 0);
  glCopyNamedBufferSubData(buffer, probe, 0, 0, 4);
  glCopyNamedBufferSubData(buffer, probe, GLintptr(bytes - 4), 4, 4);
  std::array<unsigned char, 8> out{};
  glGetNamedBufferSubData(probe, 0, 8, out.data());
  glDeleteBuffers(1, &probe);
  return out;
}

bool SharedGlBuffer::wait_gl_read() {
  if (!read_) return true;
  GLenum r = GL_WAIT_FAILED;
  for (int tries = 0; tries < 100; ++tries) {  // 100 x 100 ms: a GPU that hangs, not a slow one
    r = glClientWaitSync(read_, GL_SYNC_FLUSH_COMMANDS_BIT, 100'000'000);
    if (r != GL_TIMEOUT_EXPIRED) break;
  }
  glDeleteSync(read_);
  read_ = nullptr;
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

void SharedGlBuffer::release() {
  if (!handle_ && !memory_ && !buffer_) return;
  wait_gl_read();  // even if it failed: the memory outlives GL's use (GL holds the import)
  if (buffer_) glDeleteBuffers(1, &buffer_);
  if (memory_) glDeleteMemoryObjectsEXT(1, &memory_);
  buffer_ = memory_ = 0;
  interop::destroy_shared_memory(handle_);
  handle_ = nullptr;
  bytes_ = 0;
}

void* SharedGlBuffer::device_pointer() const {
  return handle_ ? interop::shared_memory_pointer(handle_) : nullptr;
}

void SharedGlBuffer::begin_write() {
  if (!handle_) throw std::logic_error("SharedGlBuffer::begin_write without shared memory");
  if (!wait_gl_read())
    throw std::runtime_error("waiting for GL to finish reading the shared memory failed");
}

void SharedGlBuffer::note_gl_read() {
  if (!handle_) return;
  if (read_) glDeleteSync(read_);  // the newer fence covers the older read
  read_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

}  // namespace fluxview::render
