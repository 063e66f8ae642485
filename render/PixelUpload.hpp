#pragma once
// The host path of the slice and volume textures: floats written straight into a pixel
// buffer's mapping, which the texture is then filled from.
#include <epoxy/gl.h>

#include <stdexcept>
#include <string>

namespace fluxview::render {

// Orphans `pbo` (so the previous upload is never waited for), lets `fill(float*)` write
// `bytes` into its mapping and leaves it bound as GL_PIXEL_UNPACK_BUFFER with an alignment
// of 4: the caller's glTextureSubImage*D(..., nullptr) then copies from it asynchronously,
// after which the caller unbinds it. `what` names the buffer in the error of a failed map.
template <class Fill>
void fill_pixel_buffer(GLuint pbo, GLsizeiptr bytes, const char* what, Fill&& fill) {
  glNamedBufferData(pbo, bytes, nullptr, GL_STREAM_DRAW);
  auto* dst = static_cast<float*>(
      glMapNamedBufferRange(pbo, 0, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
  if (!dst) throw std::runtime_error(std::string("could not map ") + what);
  try {
    fill(dst);
  } catch (...) {
    glUnmapNamedBuffer(pbo);
    throw;
  }
  glUnmapNamedBuffer(pbo);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

}  // namespace fluxview::render
