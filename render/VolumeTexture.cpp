#include "render/VolumeTexture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "render/PixelUpload.hpp"
#include "render/SliceInterop.hpp"
#include "render/VolumeBricks.hpp"
#include "render/VolumeInterop.hpp"

namespace fluxview::render {

namespace {

// Brick data starts at a multiple of 256 bytes: every GL's storage-buffer offset
// alignment divides it.
constexpr std::size_t kBrickAlign = 256;

void log_once(const std::string& message) {
  static std::string last;
  if (message == last) return;
  last = message;
  std::cerr << "fluxview: " << message << "\n";
}

GLint gl_integer(GLenum what) {
  GLint v = 0;
  glGetIntegerv(what, &v);
  return v;
}

// Converts the interior to floats (x fastest) and finds each brick's own range, a row
// of bricks per thread so that no two threads touch a brick.
template <class T>
void fill_host(const T* field, const FieldLayout& l, const std::array<int, 3>& nb, float* out,
               float* raw) {
  const auto& n = l.n;
#pragma omp parallel for collapse(2) schedule(static)
  for (int bz = 0; bz < nb[2]; ++bz)
    for (int by = 0; by < nb[1]; ++by) {
      for (int bx = 0; bx < nb[0]; ++bx) {
        const std::int64_t b = bx + std::int64_t(nb[0]) * (by + std::int64_t(nb[1]) * bz);
        raw[2 * b] = INFINITY;
        raw[2 * b + 1] = -INFINITY;
      }
      for (int z = bz * kBrickCells; z < std::min(n[2], (bz + 1) * kBrickCells); ++z)
        for (int y = by * kBrickCells; y < std::min(n[1], (by + 1) * kBrickCells); ++y) {
          const T* src = field + l.index(0, y, z);
          float* dst = out + std::int64_t(n[0]) * (y + std::int64_t(n[1]) * z);
          for (int x = 0; x < n[0]; ++x) {
            const float v = static_cast<float>(src[x]);
            dst[x] = v;
            const std::int64_t b =
                x / kBrickCells + std::int64_t(nb[0]) * (by + std::int64_t(nb[1]) * bz);
            include_value(raw[2 * b], raw[2 * b + 1], v);
          }
        }
    }
}

void widen_host(const std::vector<float>& raw, const std::array<int, 3>& nb, float* out) {
  const int nbs[3] = {nb[0], nb[1], nb[2]};
#pragma omp parallel for collapse(2) schedule(static)
  for (int z = 0; z < nb[2]; ++z)
    for (int y = 0; y < nb[1]; ++y)
      for (int x = 0; x < nb[0]; ++x) {
        const std::int64_t b = x + std::int64_t(nb[0]) * (y + std::int64_t(nb[1]) * z);
        dilated_range(raw.data(), nbs, x, y, z, out[2 * b], out[2 * b + 1]);
      }
}

}  // namespace

VolumeTexture::VolumeTexture() {
  glCreateBuffers(1, &pbo_);
}

VolumeTexture::~VolumeTexture() {
  interop::unregister_volume(registration_);
  shared_.release();
  glDeleteTextures(1, &texture_);
  glDeleteTextures(1, &brick_texture_);
  glDeleteBuffers(1, &pbo_);
  glDeleteBuffers(1, &host_buffer_);
}

std::size_t VolumeTexture::volume_bytes() const {
  return std::size_t(size_[0]) * size_[1] * size_[2] * sizeof(float);
}
std::size_t VolumeTexture::brick_offset() const {
  return (volume_bytes() + kBrickAlign - 1) / kBrickAlign * kBrickAlign;
}
std::size_t VolumeTexture::brick_bytes() const {
  return std::size_t(bricks_[0]) * bricks_[1] * bricks_[2] * 2 * sizeof(float);
}
GLuint VolumeTexture::buffer() const {
  return last_path_ == UploadPath::shared ? shared_.buffer() : host_buffer_;
}

void VolumeTexture::ensure_size(const std::array<int, 3>& n) {
  if (texture_ && size_ == n) return;
  const GLint max3d = gl_integer(GL_MAX_3D_TEXTURE_SIZE);
  for (int a = 0; a < 3; ++a)
    if (n[a] > max3d)
      throw std::runtime_error("the volume view needs a 3D texture of " + std::to_string(n[0]) +
                               "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]) +
                               "; this GL allows at most " + std::to_string(max3d) + " a side");
  interop::unregister_volume(registration_);
  registration_ = nullptr;
  interop_failed_ = false;
  map_note_.clear();
  shared_.release();
  shared_failed_ = false;
  shared_note_.clear();
  update_note();
  glDeleteTextures(1, &texture_);
  glDeleteTextures(1, &brick_texture_);
  glDeleteBuffers(1, &host_buffer_);
  host_buffer_ = 0;
  size_ = n;
  for (int a = 0; a < 3; ++a) bricks_[a] = bricks_along(n[a]);
  // Immutable storage: a CUDA registration stays valid for the texture's lifetime.
  glCreateTextures(GL_TEXTURE_3D, 1, &texture_);
  glTextureStorage3D(texture_, 1, GL_R32F, n[0], n[1], n[2]);
  glTextureParameteri(texture_, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(texture_, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
    glTextureParameteri(texture_, wrap, GL_CLAMP_TO_EDGE);
  glCreateTextures(GL_TEXTURE_3D, 1, &brick_texture_);
  glTextureStorage3D(brick_texture_, 1, GL_RG32F, bricks_[0], bricks_[1], bricks_[2]);
  glTextureParameteri(brick_texture_, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(brick_texture_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
    glTextureParameteri(brick_texture_, wrap, GL_CLAMP_TO_EDGE);
}

void VolumeTexture::update_note() {
  note_.clear();
  if (shared_failed_) note_ = "shared memory: " + shared_note_;
  if (interop_failed_)
    note_ += (note_.empty() ? "" : "; ") + std::string("mapped texture: ") + map_note_;
}

bool VolumeTexture::ensure_shared() {
  if (shared_.valid()) return true;
  if (shared_failed_) return false;
  std::string why;
  const std::size_t bytes = brick_offset() + brick_bytes();
  const GLint64 max_block = [] {
    GLint64 v = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v);
    return v;
  }();
  if (GLint64(bytes) > max_block)
    why = "the volume (" + std::to_string(bytes >> 20) +
          " MiB) exceeds this GL's largest storage " + "buffer (" +
          std::to_string(max_block >> 20) + " MiB)";
  else
    shared_.create(bytes, &why);
  if (!shared_.valid()) {
    shared_failed_ = true;
    shared_note_ = why;
    update_note();
    return false;
  }
  return true;
}

bool VolumeTexture::ensure_registered() {
  if (!registration_ && !interop_failed_) {
    registration_ = interop::register_volume(texture_, brick_texture_, &map_note_);
    interop_failed_ = registration_ == nullptr;
    update_note();
  }
  return registration_ != nullptr;
}

void VolumeTexture::update(const FieldView& v, UploadPath path, bool host_into_buffer) {
  // A pinned path is for device fields (docs/gui.md): a host field (a CPU run) has only
  // the host's way, whatever --upload-path says, and is not an error.
  const bool strict =
      v.where == Location::device && (path == UploadPath::interop || path == UploadPath::shared);
  ensure_size(v.layout.n);
  if (v.where == Location::device && path != UploadPath::host) {
    const std::size_t raw_bytes = brick_bytes();
    if (raw_bytes != raw_bricks_.bytes()) raw_bricks_ = Buffer(Location::device, raw_bytes);
    auto* raw = static_cast<float*>(raw_bricks_.data());
    const bool automatic = path == UploadPath::automatic;
    if (automatic || path == UploadPath::shared) {
      if (ensure_shared()) {
        shared_.begin_write();
        auto* base = static_cast<char*>(shared_.device_pointer());
        interop::write_volume_linear(v, reinterpret_cast<float*>(base),
                                     reinterpret_cast<float*>(base + brick_offset()), raw);
        storage_ = VolumeStorage::buffer;
        last_path_ = UploadPath::shared;
        return;
      }
      if (automatic) log_once("the volume uses the mapped texture; shared memory: " + shared_note_);
    }
    if (automatic || path == UploadPath::interop) {
      if (ensure_registered()) {
        interop::write_volume_mapped(registration_, v, raw);
        storage_ = VolumeStorage::texture;
        last_path_ = UploadPath::interop;
        return;
      }
      if (automatic) log_once("the volume goes through the host: " + note_);
    }
    if (strict)
      throw std::runtime_error(std::string(upload_path_name(path)) + " unavailable: " + note_);
  }
  upload_host(v, host_into_buffer);
  storage_ = host_into_buffer ? VolumeStorage::buffer : VolumeStorage::texture;
  last_path_ = UploadPath::host;
}

// A device field on the host path crosses the bus once (gather_interior, interior only).
void VolumeTexture::upload_host(const FieldView& v, bool into_buffer) {
  HostArray gathered;
  const void* data = v.data;
  FieldLayout layout = v.layout;
  if (v.where == Location::device) {
    gathered = gather_interior(v);
    data = gathered.bytes.data();
    layout = FieldLayout{};
    layout.n = v.layout.n;
    layout.sy = layout.n[0];
    layout.sz = std::int64_t(layout.n[0]) * layout.n[1];
    layout.origin = 0;
    layout.elem_bytes = bytes_of(v.precision);
    layout.size = layout.interior_cells();
  }
  const std::size_t bytes = volume_bytes();
  std::vector<float> raw(brick_bytes() / sizeof(float)), widened(raw.size());
  const auto fill = [&](float* dst) {
    if (v.precision == Precision::f64)
      fill_host(static_cast<const double*>(data), layout, bricks_, dst, raw.data());
    else
      fill_host(static_cast<const float*>(data), layout, bricks_, dst, raw.data());
    widen_host(raw, bricks_, widened.data());
  };
  if (into_buffer) {
    if (!host_buffer_) {
      glCreateBuffers(1, &host_buffer_);
      glNamedBufferStorage(host_buffer_, GLsizeiptr(brick_offset() + brick_bytes()), nullptr,
                           GL_DYNAMIC_STORAGE_BIT);
    }
    std::vector<float> values(bytes / sizeof(float));
    fill(values.data());
    glNamedBufferSubData(host_buffer_, 0, GLsizeiptr(bytes), values.data());
    glNamedBufferSubData(host_buffer_, GLintptr(brick_offset()), GLsizeiptr(brick_bytes()),
                         widened.data());
    return;
  }
  fill_pixel_buffer(pbo_, GLsizeiptr(bytes), "the volume's pixel buffer", fill);
  glTextureSubImage3D(texture_, 0, 0, 0, 0, size_[0], size_[1], size_[2], GL_RED, GL_FLOAT,
                      nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glTextureSubImage3D(brick_texture_, 0, 0, 0, 0, bricks_[0], bricks_[1], bricks_[2], GL_RG,
                      GL_FLOAT, widened.data());
}

void VolumeTexture::note_gl_read() {
  if (last_path_ == UploadPath::shared) shared_.note_gl_read();
}

std::vector<float> VolumeTexture::read_values() const {
  std::vector<float> out(volume_bytes() / sizeof(float));
  if (last_path_ == UploadPath::shared) {
    interop::read_shared_memory(shared_.handle(), 0, volume_bytes(), out.data());
  } else if (storage_ == VolumeStorage::buffer) {
    glGetNamedBufferSubData(host_buffer_, 0, GLsizeiptr(volume_bytes()), out.data());
  } else {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(texture_, 0, GL_RED, GL_FLOAT, GLsizei(volume_bytes()), out.data());
  }
  return out;
}

std::vector<float> VolumeTexture::read_bricks() const {
  std::vector<float> out(brick_bytes() / sizeof(float));
  if (last_path_ == UploadPath::shared) {
    interop::read_shared_memory(shared_.handle(), brick_offset(), brick_bytes(), out.data());
  } else if (storage_ == VolumeStorage::buffer) {
    glGetNamedBufferSubData(host_buffer_, GLintptr(brick_offset()), GLsizeiptr(brick_bytes()),
                            out.data());
  } else {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(brick_texture_, 0, GL_RG, GL_FLOAT, GLsizei(brick_bytes()), out.data());
  }
  return out;
}

}  // namespace fluxview::render
