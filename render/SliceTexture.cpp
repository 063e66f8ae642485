#include "render/SliceTexture.hpp"

#include <cstring>
#include <iostream>
#include <stdexcept>

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

SliceTexture::SliceTexture() {
  glCreateBuffers(1, &pbo_);
}

SliceTexture::~SliceTexture() {
  interop::unregister_texture(interop_);
  glDeleteTextures(1, &texture_);
  glDeleteBuffers(1, &pbo_);
}

void SliceTexture::ensure_size(int w, int h) {
  if (texture_ && size_[0] == w && size_[1] == h) return;
  interop::unregister_texture(interop_);
  interop_ = nullptr;
  interop_failed_ = false;
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

void* SliceTexture::interop_registration(const FieldView& v, SliceSpec s, UploadPath path) {
  check_slice(v, s);
  const auto ax = slice_axes(s.axis);
  ensure_size(v.layout.n[ax[0]], v.layout.n[ax[1]]);
  if (v.where != Location::device || path == UploadPath::host) return nullptr;
  if (!interop_ && !interop_failed_) {
    interop_ = interop::register_texture(texture_, &interop_note_);
    interop_failed_ = interop_ == nullptr;
    if (interop_failed_ && path == UploadPath::automatic)
      std::cerr << "fluxview: slices go through the host: " << interop_note_ << "\n";
  }
  return interop_;
}

void SliceTexture::update(const FieldView& v, SliceSpec s, UploadPath path) {
  if (path == UploadPath::interop && v.where != Location::device)
    throw std::runtime_error("interop upload asked for a host field (" + v.name + ")");
  if (void* reg = interop_registration(v, s, path)) {
    interop::write_slice(reg, v, s);
    last_path_ = UploadPath::interop;
    return;
  }
  if (path == UploadPath::interop)
    throw std::runtime_error("CUDA-GL interop unavailable: " + interop_note_);
  upload_host(v, s);
  last_path_ = UploadPath::host;
}

// `fill` writes the texture's w x h floats into the mapped pixel buffer.
template <class Fill>
void SliceTexture::upload_through_pbo(Fill&& fill) {
  const GLsizeiptr bytes = GLsizeiptr(size_[0]) * size_[1] * sizeof(float);
  // Orphan the buffer and write the slice straight into the mapping: the driver copies
  // to the texture asynchronously, and the previous upload is never waited for.
  glNamedBufferData(pbo_, bytes, nullptr, GL_STREAM_DRAW);
  auto* dst = static_cast<float*>(
      glMapNamedBufferRange(pbo_, 0, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
  if (!dst) throw std::runtime_error("could not map the slice pixel buffer");
  try {
    fill(dst);
  } catch (...) {
    glUnmapNamedBuffer(pbo_);
    throw;
  }
  glUnmapNamedBuffer(pbo_);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
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
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glGetTextureSubImage(texture_, 0, u, v, 0, 1, 1, 1, GL_RED, GL_FLOAT, sizeof value, &value);
  return value;
}

}  // namespace fluxview::render
