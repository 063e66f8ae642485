#include "render/SliceRenderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "render/SliceInterop.hpp"

namespace fluxview::render {

SliceRenderer::SliceRenderer() {
  program_ = std::make_unique<ShaderProgram>("slice.vert.glsl", "slice.frag.glsl");
  glCreateVertexArrays(1, &vao_);
  glCreateBuffers(1, &vbo_);
  // Interleaved position (3 floats) and texcoord (2 floats).
  glVertexArrayVertexBuffer(vao_, 0, vbo_, 0, 5 * sizeof(float));
  glEnableVertexArrayAttrib(vao_, 0);
  glVertexArrayAttribFormat(vao_, 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_, 0, 0);
  glEnableVertexArrayAttrib(vao_, 1);
  glVertexArrayAttribFormat(vao_, 1, 2, GL_FLOAT, GL_FALSE, 3 * sizeof(float));
  glVertexArrayAttribBinding(vao_, 1, 0);
  for (auto& s : slices_) s = std::make_unique<SliceTexture>();
}

SliceRenderer::~SliceRenderer() {
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

void SliceRenderer::update(const FieldView& v, const SlicePlan& plan, UploadPath path) {
  plan_ = plan;
  cells_ = v.layout.n;
  SliceSpec specs[3];
  int axes[3];
  UploadPath taken[3];
  int count = 0;
  if (v.where == Location::device && path != UploadPath::host) {
    for (int a = 0; a < 3; ++a) {
      if (!plan_.shown[a]) continue;
      specs[count] = {a, plan_.index[a]};
      axes[count] = a;
      taken[count] = slices_[a]->device_path(v, specs[count], path);
      ++count;
    }
  }
  const auto all = [&](UploadPath p) {
    for (int i = 0; i < count; ++i)
      if (taken[i] != p) return false;
    return count > 0;
  };
  if (all(UploadPath::shared)) {
    void* memory[3];
    for (int i = 0; i < count; ++i) memory[i] = slices_[axes[i]]->begin_shared_write();
    interop::write_slices_shared(memory, v, specs, count);
    for (int i = 0; i < count; ++i) slices_[axes[i]]->finish_shared_write();
  } else if (all(UploadPath::interop)) {
    void* regs[3];
    for (int i = 0; i < count; ++i) regs[i] = slices_[axes[i]]->registration();
    interop::write_slices(regs, v, specs, count);
    for (int i = 0; i < count; ++i) slices_[axes[i]]->note_interop_write();
  } else {
    for (int a = 0; a < 3; ++a)
      if (plan_.shown[a]) slices_[a]->update(v, {a, plan_.index[a]}, path);
  }
}

void SliceRenderer::update(const FieldView& v, const SlicePlan& plan, const FinerPlanes& planes,
                           UploadPath path) {
  bool finer = false;
  for (int a = 0; a < 3; ++a) finer = finer || (plan.shown[a] && planes[std::size_t(a)]);
  if (!finer) return update(v, plan, path);
  plan_ = plan;
  cells_ = v.layout.n;
  for (int a = 0; a < 3; ++a) {
    if (!plan_.shown[a]) continue;
    if (const auto& p = planes[std::size_t(a)])
      slices_[a]->update(*p, {a, 0}, path);
    else
      slices_[a]->update(v, {a, plan_.index[a]}, path);
  }
}

void SliceRenderer::update(const GatheredSlices& g) {
  plan_ = g.plan;
  cells_ = g.grid.n;
  for (int a = 0; a < 3; ++a) {
    if (!plan_.shown[a]) continue;
    const auto ax = slice_axes(a);
    const int w = g.size[a][0] ? g.size[a][0] : cells_[ax[0]];
    const int h = g.size[a][1] ? g.size[a][1] : cells_[ax[1]];
    if (g.values[a].size() != std::size_t(w) * h)
      throw std::invalid_argument("slice normal to axis " + std::to_string(a) + " holds " +
                                  std::to_string(g.values[a].size()) + " values, not " +
                                  std::to_string(w) + " x " + std::to_string(h) +
                                  " (slices are gathered on rank 0 only)");
    slices_[a]->upload(g.values[a].data(), w, h);
  }
}

void SliceRenderer::draw_quad(const std::array<std::array<float, 3>, 4>& c, const Mat4& mvp,
                              SliceTexture* values, const ColourRange& range, bool ramp) {
  // Corners in the order (0,0) (1,0) (1,1) (0,1) of the texture.
  const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const int order[6] = {0, 1, 2, 0, 2, 3};
  float data[6 * 5];
  for (int i = 0; i < 6; ++i) {
    const int k = order[i];
    data[i * 5 + 0] = c[k][0];
    data[i * 5 + 1] = c[k][1];
    data[i * 5 + 2] = c[k][2];
    data[i * 5 + 3] = uv[k][0];
    data[i * 5 + 4] = uv[k][1];
  }
  glNamedBufferData(vbo_, sizeof data, data, GL_STREAM_DRAW);
  const ShaderProgram& p = *program_;
  glUseProgram(p.id());
  glUniformMatrix4fv(p.uniform("mvp"), 1, GL_FALSE, mvp.m.data());
  glUniform1f(p.uniform("lo"), float(range.lo));
  glUniform1f(p.uniform("hi"), float(range.hi));
  glUniform1i(p.uniform("log_scale"), range.log);
  glUniform1i(p.uniform("ramp"), ramp);
  glUniform1i(p.uniform("values"), 0);
  glUniform1i(p.uniform("colormap"), 1);
  glUniform1i(p.uniform("values_buffer"), 2);
  // After a shared-memory update the values are read where CUDA wrote them.
  const GLuint buffer = values ? values->buffer_view() : 0;
  glUniform1i(p.uniform("from_buffer"), buffer != 0);
  if (values) {
    glUniform2i(p.uniform("size"), values->width(), values->height());
    glBindTextureUnit(0, values->texture());
  }
  glBindTextureUnit(2, buffer);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  if (values) values->note_gl_read();
}

void SliceRenderer::draw_2d(int axis, const Rect& r, const Mat4& pixels, const ColourRange& range,
                            GLuint colormap) {
  glDisable(GL_DEPTH_TEST);
  glBindTextureUnit(1, colormap);
  draw_quad({{{r.x, r.y, 0}, {r.x + r.w, r.y, 0}, {r.x + r.w, r.y + r.h, 0}, {r.x, r.y + r.h, 0}}},
            pixels, slices_[axis].get(), range, false);
}

void SliceRenderer::draw_ramp(const Rect& r, const Mat4& pixels, GLuint colormap) {
  glDisable(GL_DEPTH_TEST);
  glBindTextureUnit(1, colormap);
  draw_quad({{{r.x, r.y, 0}, {r.x + r.w, r.y, 0}, {r.x + r.w, r.y + r.h, 0}, {r.x, r.y + r.h, 0}}},
            pixels, nullptr, ColourRange{}, true);
}

void SliceRenderer::draw_3d(const SceneCamera& cam, const ColourRange& range, GLuint colormap) {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glBindTextureUnit(1, colormap);
  const auto& half = cam.half;
  for (int a = 0; a < 3; ++a) {
    if (!plan_.shown[a]) continue;
    const auto ax = slice_axes(a);
    // Cell-centre position of the slice along its normal, in box coordinates.
    const float c = -half[a] + 2 * half[a] * (plan_.index[a] + 0.5f) / std::max(1, cells_[a]);
    // A slice seen edge-on would be a line of its border cells' colours drawn across the
    // slices behind it (a dark seam where the slices cross, in a view along an axis):
    // one narrower than about a pixel is left out.
    const auto ax0 = slice_axes(a);
    const float dist =
        std::sqrt(cam.eye[0] * cam.eye[0] + cam.eye[1] * cam.eye[1] + cam.eye[2] * cam.eye[2]);
    const float across = 2 * std::max(half[ax0[0]], half[ax0[1]]);
    if (std::abs(cam.eye[a] - c) / dist * across / dist * cam.focal_px < 1.5f) continue;
    std::array<std::array<float, 3>, 4> q;
    const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int k = 0; k < 4; ++k) {
      q[k][a] = c;
      q[k][ax[0]] = -half[ax[0]] + 2 * half[ax[0]] * uv[k][0];
      q[k][ax[1]] = -half[ax[1]] + 2 * half[ax[1]] * uv[k][1];
    }
    draw_quad(q, cam.mvp, slices_[a].get(), range, false);
  }
}

const SliceTexture& SliceRenderer::shown_texture() const {
  for (int a = 0; a < 3; ++a)
    if (plan_.shown[a]) return *slices_[a];
  return *slices_[2];
}

}  // namespace fluxview::render
