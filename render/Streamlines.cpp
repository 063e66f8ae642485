#include "render/Streamlines.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "render/RenderKernels.hpp"
#include "render/SliceInterop.hpp"

namespace fluxview::render {

namespace {

template <class T>
void integrate_on_host(const FieldView u[3], const std::array<double, 3>& spacing,
                       const LineGeometry& g, float* out) {
  VectorField<T> f;
  for (int c = 0; c < 3; ++c) f.c[c] = static_cast<const T*>(u[c].data);
  f.layout = u[0].layout;
  for (int a = 0; a < 3; ++a) f.inv_h[a] = float(1.0 / spacing[a]);
  const int halves = 2 * g.seeds();
#pragma omp parallel for schedule(dynamic, 4)
  for (int t = 0; t < halves; ++t)
    integrate_half_line(f, g, t / 2, t % 2 ? 1 : -1,
                        out + std::int64_t(t / 2) * g.vertices_per_line() * 4);
}

}  // namespace

LineGeometry line_geometry(const LineSettings& ls, const Grid& grid,
                           const std::array<float, 3>& half) {
  LineGeometry g{};
  double longest = 0;
  for (int a = 0; a < 3; ++a) {
    g.n[a] = grid.n[a];
    g.half[a] = half[a];
    longest = std::max(longest, std::max(1, grid.n[a]) * grid.spacing[a]);
  }
  g.plane = ls.seed == SeedKind::plane;
  g.axis = ls.seed_axis;
  g.position = std::clamp(ls.seed_position, 0.0f, 1.0f);
  g.side = std::max(1, ls.seeds);
  for (int a = 0; a < 3; ++a) {
    g.centre[a] = std::clamp(ls.seed_point[a], 0.0f, 1.0f);
    g.radius[a] = grid.n[a] > 1 ? float(ls.seed_radius * longest / grid.spacing[a]) : 0.0f;
  }
  g.steps = std::max(1, ls.steps);
  g.step = ls.step;
  return g;
}

void integrate_streamlines(const FieldView u[3], const std::array<double, 3>& spacing,
                           const LineGeometry& g, float* out) {
  for (int c = 1; c < 3; ++c)
    if (u[c].layout.n != u[0].layout.n || u[c].layout.sy != u[0].layout.sy ||
        u[c].layout.sz != u[0].layout.sz || u[c].layout.origin != u[0].layout.origin ||
        u[c].precision != u[0].precision || u[c].where != u[0].where)
      throw std::invalid_argument("streamlines: the components " + u[0].name + " and " + u[c].name +
                                  " differ in layout, precision or location");
  if (u[0].where == Location::device)
    cuda_kernels::integrate_streamlines_device(u, spacing, g, out);
  else if (u[0].precision == Precision::f64)
    integrate_on_host<double>(u, spacing, g, out);
  else
    integrate_on_host<float>(u, spacing, g, out);
}

StreamlineRenderer::StreamlineRenderer() {
  program_ = std::make_unique<ShaderProgram>("line.vert.glsl", "line.frag.glsl");
  glCreateVertexArrays(1, &vao_);
  glEnableVertexArrayAttrib(vao_, 0);
  glVertexArrayAttribFormat(vao_, 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_, 0, 0);
  glCreateBuffers(1, &host_vbo_);
}

StreamlineRenderer::~StreamlineRenderer() {
  shared_.release();
  glDeleteBuffers(1, &host_vbo_);
  glDeleteVertexArrays(1, &vao_);
}

void StreamlineRenderer::update(const Solver& s, const LineSettings& ls,
                                const std::array<float, 3>& half, UploadPath path) {
  std::string names;
  for (const auto& f : s.fields()) names += (names.empty() ? "" : ", ") + f.name;
  for (const auto& name : ls.field) {
    bool found = false;
    for (const auto& f : s.fields()) found |= f.name == name;
    if (!found)
      throw std::out_of_range("streamlines need the vector field " + ls.field[0] + ", " +
                              ls.field[1] + ", " + ls.field[2] + "; this solver has " + names);
  }
  // fv derives its velocity into buffers on asking: the three views are taken once.
  const FieldView u[3] = {s.view(ls.field[0]), s.view(ls.field[1]), s.view(ls.field[2])};
  geometry_ = line_geometry(ls, s.grid(), half);
  const std::size_t bytes =
      std::size_t(geometry_.seeds()) * geometry_.vertices_per_line() * 4 * sizeof(float);
  has_lines_ = true;
  if (u[0].where == Location::device && path != UploadPath::host) {
    if (!shared_failed_ && (!shared_.valid() || shared_.bytes() != bytes)) {
      std::string why;
      if (!shared_.create(bytes, &why)) {
        shared_failed_ = true;
        std::cerr << "fluxview: streamlines go through the host: " << why << "\n";
      }
    }
    if (shared_.valid()) {
      shared_.begin_write();
      integrate_streamlines(u, s.grid().spacing, geometry_,
                            static_cast<float*>(shared_.device_pointer()));
      last_path_ = UploadPath::shared;
      return;
    }
  }
  std::vector<float> host(bytes / sizeof(float));
  if (u[0].where == Location::device) {
    if (device_.bytes() != bytes) device_ = Buffer(Location::device, bytes);
    integrate_streamlines(u, s.grid().spacing, geometry_, static_cast<float*>(device_.data()));
    copy_bytes(host.data(), Location::host, device_.data(), Location::device, bytes);
  } else {
    integrate_streamlines(u, s.grid().spacing, geometry_, host.data());
  }
  if (host_bytes_ != bytes) {
    glNamedBufferData(host_vbo_, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW);
    host_bytes_ = bytes;
  }
  glNamedBufferSubData(host_vbo_, 0, GLsizeiptr(bytes), host.data());
  last_path_ = UploadPath::host;
}

void StreamlineRenderer::draw(const SceneCamera& cam, std::array<float, 4> colour) {
  if (!has_lines_) return;
  const GLuint buffer = last_path_ == UploadPath::shared ? shared_.buffer() : host_vbo_;
  glVertexArrayVertexBuffer(vao_, 0, buffer, 0, 4 * sizeof(float));
  glUseProgram(program_->id());
  glUniformMatrix4fv(program_->uniform("mvp"), 1, GL_FALSE, cam.mvp.m.data());
  glUniform4fv(program_->uniform("tint"), 1, colour.data());
  glBindVertexArray(vao_);
  const int lines = geometry_.seeds(), per = geometry_.vertices_per_line();
  std::vector<GLint> first(lines);
  std::vector<GLsizei> count(lines, per);
  for (int l = 0; l < lines; ++l) first[l] = l * per;
  glMultiDrawArrays(GL_LINE_STRIP, first.data(), count.data(), lines);
  if (last_path_ == UploadPath::shared) shared_.note_gl_read();
}

std::vector<float> StreamlineRenderer::read_vertices() const {
  const std::size_t bytes =
      std::size_t(geometry_.seeds()) * geometry_.vertices_per_line() * 4 * sizeof(float);
  std::vector<float> out(bytes / sizeof(float));
  if (!has_lines_) return {};
  if (last_path_ == UploadPath::shared)
    interop::read_shared_memory(shared_.handle(), 0, bytes, out.data());
  else
    glGetNamedBufferSubData(host_vbo_, 0, GLsizeiptr(bytes), out.data());
  return out;
}

}  // namespace fluxview::render
