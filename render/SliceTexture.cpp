#include "render/SliceTexture.hpp"

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "render/PixelUpload.hpp"
#include "render/SliceInterop.hpp"

namespace fluxview::render {

namespace {

void check_slice(const FieldView& v, SliceSpec s) {
  if (s.axis < 0 || s.axis > 2)
    throw std::out_of_range("slice axis " + std::to_string(s.axis) + " not in [0, 2]");
  if (s.index < 0 || s.index >= v.layout.n[s.axis])
    throw std::out_of_range("slice index " + std::to_string(s.index) + " outside [0, " +
                            std::to_string(v.layout.n[s.axis]) + ") of " + v.name);
}

template <class T>
void copy_host_slice(const T* field, const FieldLayout& l, SliceSpec s, float* out) {
  const auto ax = slice_axes(s.axis);
  const int w = l.n[ax[0]], h = l.n[ax[1]];
#pragma omp parallel for schedule(static) if (std::int64_t(w) * h > 65536)
  for (int v = 0; v < h; ++v) {
    float* row = out + std::int64_t(v) * w;
    if (s.axis == 0) {
      for (int u = 0; u < w; ++u) row[u] = float(field[l.index(s.index, u, v)]);
    } else if (s.axis == 1) {
      const T* src = field + l.index(0, s.index, v);
      for (int u = 0; u < w; ++u) row[u] = float(src[u]);
    } else {
      const T* src = field + l.index(0, v, s.index);
      for (int u = 0; u < w; ++u) row[u] = float(src[u]);
    }
  }
}

}  // namespace

void copy_slice_to_host(const FieldView& v, SliceSpec s, float* out) {
  check_slice(v, s);
  if (v.where == Location::device) {
    interop::copy_slice_device_to_host(v, s, out);
  } else if (v.precision == Precision::f64) {
    copy_host_slice(static_cast<const double*>(v.data), v.layout, s, out);
  } else {
    copy_host_slice(static_cast<const float*>(v.data), v.layout, s, out);
  }
}

namespace {

// Each distinct message once per process: three textures meet the same failure.
void log_once(const std::string& message) {
  static std::string last;
  if (message == last) return;
  last = message;
  std::cerr << "fluxview: " << message << "\n";
}

std::string gl_error_text(GLenum e) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04X", unsigned(e));
  return std::string("GL error ") + buf;
}

void drain_gl_errors() {
  for (int i = 0; i < 32 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

}  // namespace

SliceTexture::SliceTexture() {
  glCreateBuffers(1, &pbo_);
}

SliceTexture::~SliceTexture() {
  release_shared();
  interop::unregister_texture(interop_);
  glDeleteTextures(1, &texture_);
  glDeleteBuffers(1, &pbo_);
}

void SliceTexture::ensure_size(int w, int h) {
  if (texture_ && size_[0] == w && size_[1] == h) return;
  release_shared();
  shared_failed_ = false;
  shared_note_.clear();
  interop::unregister_texture(interop_);
  interop_ = nullptr;
  interop_failed_ = false;
  map_note_.clear();
  update_note();
  glDeleteTextures(1, &texture_);
  // Immutable storage: the CUDA registration stays valid for the texture's lifetime.
  glCreateTextures(GL_TEXTURE_2D, 1, &texture_);
  glTextureStorage2D(texture_, 1, GL_R32F, w, h);
  // Nearest: one texel per cell, as the solver sees it, and the probe reads that cell.
  glTextureParameteri(texture_, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(texture_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(texture_, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(texture_, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glNamedBufferData(pbo_, GLsizeiptr(w) * h * sizeof(float), nullptr, GL_STREAM_DRAW);
  size_ = {w, h};
}

void SliceTexture::update_note() {
  note_.clear();
  if (shared_failed_) note_ = "shared memory: " + shared_note_;
  if (interop_failed_)
    note_ += (note_.empty() ? "" : "; ") + std::string("mapped texture: ") + map_note_;
}

bool SliceTexture::ensure_registered() {
  if (!interop_ && !interop_failed_) {
    interop_ = interop::register_texture(texture_, &map_note_);
    interop_failed_ = interop_ == nullptr;
    update_note();
  }
  return interop_ != nullptr;
}

bool SliceTexture::ensure_shared() {
  if (shared_.valid()) return true;
  if (shared_failed_) return false;
  std::string why;
  if (!import_shared(&why)) {
    shared_failed_ = true;
    shared_note_ = why;
    update_note();
    return false;
  }
  return true;
}

// The shared memory (SharedGlBuffer) and a buffer texture over it for the slice shader.
bool SliceTexture::import_shared(std::string* why) {
  const std::size_t bytes = std::size_t(size_[0]) * size_[1] * sizeof(float);
  if (!shared_.create(bytes, why)) return false;
  // The shader reads the slice in place through a buffer texture: a GL copy into the 2D
  // texture would cost more than the map it replaces (0.11 ms for 1024^2 floats on an
  // H100, from any buffer: docs/performance.md).
  drain_gl_errors();
  glCreateTextures(GL_TEXTURE_BUFFER, 1, &shared_view_);
  glTextureBufferRange(shared_view_, GL_R32F, shared_.buffer(), 0, GLsizeiptr(bytes));
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    release_shared();
    *why = "glTextureBufferRange: " + gl_error_text(e);
    return false;
  }
  return true;
}

// The view first, then the shared memory (which waits for GL's last read).
void SliceTexture::release_shared() {
  if (shared_view_) glDeleteTextures(1, &shared_view_);
  shared_view_ = 0;
  shared_.release();
}

void* SliceTexture::begin_shared_write() {
  if (!shared_.valid()) throw std::logic_error("begin_shared_write without shared memory");
  shared_.begin_write();
  return shared_.handle();
}

void SliceTexture::finish_shared_write() {
  // Nothing to copy: the slice is read where CUDA wrote it (buffer_view()). Draws that
  // read it are followed by note_gl_read(), whose fence the next write waits for.
  last_path_ = UploadPath::shared;
}

void SliceTexture::note_gl_read() {
  if (last_path_ == UploadPath::shared) shared_.note_gl_read();
}

std::vector<float> SliceTexture::read_values() const {
  std::vector<float> out(static_cast<std::size_t>(size_[0]) * size_[1]);
  if (last_path_ == UploadPath::shared) {
    interop::read_shared_memory(shared_.handle(), 0, out.size() * sizeof(float), out.data());
  } else {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(texture_, 0, GL_RED, GL_FLOAT, GLsizei(out.size() * sizeof(float)),
                      out.data());
  }
  return out;
}

UploadPath SliceTexture::device_path(const FieldView& v, SliceSpec s, UploadPath path) {
  check_slice(v, s);
  const auto ax = slice_axes(s.axis);
  ensure_size(v.layout.n[ax[0]], v.layout.n[ax[1]]);
  if (v.where != Location::device || path == UploadPath::host) return UploadPath::host;
  // Shared memory first: no map per update (0.015 against 0.333 ms for 1024^2 on an
  // H100, docs/performance.md). Its import is checked (the GPU must read what CUDA
  // wrote); where the check fails the mapped texture takes over, and the reason is kept.
  const bool automatic = path == UploadPath::automatic;
  if (automatic || path == UploadPath::shared) {
    if (ensure_shared()) return UploadPath::shared;
    if (automatic) log_once("slices use the mapped texture; shared memory: " + shared_note_);
  }
  if (automatic || path == UploadPath::interop) {
    if (ensure_registered()) return UploadPath::interop;
    if (automatic) log_once("slices go through the host: " + note_);
  }
  return UploadPath::host;
}

void SliceTexture::update(const FieldView& v, SliceSpec s, UploadPath path) {
  // A pinned path is for device fields (docs/gui.md): a host field (a CPU run) has only
  // the host's way, whatever --upload-path says, and is not an error.
  const bool strict =
      v.where == Location::device && (path == UploadPath::interop || path == UploadPath::shared);
  switch (device_path(v, s, path)) {
    case UploadPath::shared: {
      void* memory = begin_shared_write();
      interop::write_slices_shared(&memory, v, &s, 1);
      finish_shared_write();
      return;
    }
    case UploadPath::interop:
      interop::write_slice(interop_, v, s);
      last_path_ = UploadPath::interop;
      return;
    default:
      break;
  }
  if (strict)
    throw std::runtime_error(std::string(upload_path_name(path)) + " unavailable: " + note_);
  upload_host(v, s);
  last_path_ = UploadPath::host;
}

// `fill` writes the texture's w x h floats into the mapped pixel buffer.
template <class Fill>
void SliceTexture::upload_through_pbo(Fill&& fill) {
  const GLsizeiptr bytes = GLsizeiptr(size_[0]) * size_[1] * sizeof(float);
  fill_pixel_buffer(pbo_, bytes, "the slice pixel buffer", fill);
  glTextureSubImage2D(texture_, 0, 0, 0, size_[0], size_[1], GL_RED, GL_FLOAT, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void SliceTexture::upload_host(const FieldView& v, SliceSpec s) {
  upload_through_pbo([&](float* dst) { copy_slice_to_host(v, s, dst); });
}

void SliceTexture::upload(const float* values, int w, int h) {
  ensure_size(w, h);
  upload_through_pbo(
      [&](float* dst) { std::memcpy(dst, values, std::size_t(w) * h * sizeof(float)); });
  last_path_ = UploadPath::host;
}

float SliceTexture::value_at(int u, int v) const {
  if (!texture_ || u < 0 || v < 0 || u >= size_[0] || v >= size_[1]) return 0.0f;
  float value = 0;
  if (last_path_ == UploadPath::shared) {
    interop::read_shared_memory(shared_.handle(), (std::size_t(v) * size_[0] + u) * sizeof value,
                                sizeof value, &value);
    return value;
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glGetTextureSubImage(texture_, 0, u, v, 0, 1, 1, 1, GL_RED, GL_FLOAT, sizeof value, &value);
  return value;
}

}  // namespace fluxview::render
