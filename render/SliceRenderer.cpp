#include "render/SliceRenderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "render/SliceInterop.hpp"
#include "sim/core/Reduce.hpp"

namespace fluxview::render {

namespace {

// A 3x5 pixel font for the colour-bar labels of headless images: each glyph is five
// rows of three bits, top row first.
struct Glyph {
  char c;
  std::array<unsigned char, 5> rows;
};
constexpr Glyph kGlyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'-', {0, 0, 7, 0, 0}},
    {'+', {0, 2, 7, 2, 0}}, {'e', {0, 7, 7, 4, 7}},
};

constexpr std::array<float, 4> kBackground{0.13f, 0.13f, 0.15f, 1.0f};
constexpr std::array<float, 4> kInk{0.92f, 0.92f, 0.92f, 1.0f};

std::string label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

SliceRenderer::SliceRenderer() {
  slice_program_ = std::make_unique<ShaderProgram>("slice.vert.glsl", "slice.frag.glsl");
  line_program_ = std::make_unique<ShaderProgram>("line.vert.glsl", "line.frag.glsl");
  glCreateVertexArrays(1, &vao_);
  glCreateBuffers(1, &vbo_);
  // Interleaved position (3 floats) and texcoord (2 floats); the line program reads
  // only the positions.
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
  for (auto& [name, tex] : colormaps_) glDeleteTextures(1, &tex);
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

GLuint SliceRenderer::colormap_texture(const std::string& name) {
  auto it = colormaps_.find(name);
  if (it == colormaps_.end()) it = colormaps_.emplace(name, make_colormap_texture(name)).first;
  return it->second;
}

void SliceRenderer::update(const Solver& s, const ViewSettings& vs, UploadPath path) {
  const auto fields = s.fields();
  field_ = vs.field.empty() ? fields.at(0).name : vs.field;
  FieldView v;
  try {
    v = s.view(field_);
  } catch (const std::out_of_range&) {
    std::string names;
    for (const auto& f : fields) names += (names.empty() ? "" : ", ") + f.name;
    throw std::out_of_range("no field '" + field_ + "'; this solver has " + names);
  }
  unit_ = v.unit;
  grid_ = s.grid();
  const SlicePlan plan = plan_slices(v.layout.n, vs);
  shown_ = plan.shown;
  index_ = plan.index;
  // From the device, all shown slices at once: written by one batch of kernels with one
  // host wait into shared memory, or with one map of their textures. Otherwise (a host
  // field, or textures whose paths differ) one slice at a time.
  path = resolve_upload_path(path, v);
  SliceSpec specs[3];
  int axes[3];
  UploadPath taken[3];
  int count = 0;
  if (v.where == Location::device && path != UploadPath::host) {
    for (int a = 0; a < 3; ++a) {
      if (!shown_[a]) continue;
      specs[count] = {a, index_[a]};
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
      if (shown_[a]) slices_[a]->update(v, {a, index_[a]}, path);
  }
  axis_2d_ = vs.axis;
  const FieldStats st = vs.auto_range ? field_stats(v) : FieldStats{};
  resolve_range(st.min, st.max, vs);
}

void SliceRenderer::update(const GatheredSlices& g, const ViewSettings& vs) {
  field_ = g.field;
  unit_ = g.unit;
  grid_ = g.grid;
  shown_ = g.plan.shown;
  index_ = g.plan.index;
  for (int a = 0; a < 3; ++a) {
    if (!shown_[a]) continue;
    const auto ax = slice_axes(a);
    const int w = grid_.n[ax[0]], h = grid_.n[ax[1]];
    if (g.values[a].size() != std::size_t(w) * h)
      throw std::invalid_argument("slice normal to axis " + std::to_string(a) + " holds " +
                                  std::to_string(g.values[a].size()) + " values, not " +
                                  std::to_string(w) + " x " + std::to_string(h) +
                                  " (slices are gathered on rank 0 only)");
    slices_[a]->upload(g.values[a].data(), w, h);
  }
  axis_2d_ = vs.axis;
  resolve_range(g.min, g.max, vs);
}

// The colour range: the field's min and max where the range is automatic, else the
// view's own, widened where it is empty and clamped for a log scale.
void SliceRenderer::resolve_range(double field_min, double field_max, const ViewSettings& vs) {
  if (vs.auto_range) {
    lo_ = field_min;
    hi_ = field_max;
  } else {
    lo_ = vs.lo;
    hi_ = vs.hi;
  }
  if (!(hi_ > lo_)) hi_ = lo_ + std::max(1e-12, std::abs(lo_) * 1e-6);  // a uniform field
  log_ = vs.log_scale && hi_ > 0;
  if (log_ && lo_ <= 0) lo_ = hi_ * 1e-6;  // six decades below the top
}

void SliceRenderer::draw_quad(const std::array<std::array<float, 3>, 4>& c, const Mat4& mvp,
                              SliceTexture* values, bool ramp) {
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
  const GLuint p = slice_program_->id();
  glUseProgram(p);
  glUniformMatrix4fv(slice_program_->uniform("mvp"), 1, GL_FALSE, mvp.m.data());
  glUniform1f(slice_program_->uniform("lo"), float(lo_));
  glUniform1f(slice_program_->uniform("hi"), float(hi_));
  glUniform1i(slice_program_->uniform("log_scale"), log_);
  glUniform1i(slice_program_->uniform("ramp"), ramp);
  glUniform1i(slice_program_->uniform("values"), 0);
  glUniform1i(slice_program_->uniform("colormap"), 1);
  glUniform1i(slice_program_->uniform("values_buffer"), 2);
  // After a shared-memory update the values are read where CUDA wrote them.
  const GLuint buffer = values ? values->buffer_view() : 0;
  glUniform1i(slice_program_->uniform("from_buffer"), buffer != 0);
  if (values) {
    glUniform2i(slice_program_->uniform("size"), values->width(), values->height());
    glBindTextureUnit(0, values->texture());
  }
  glBindTextureUnit(2, buffer);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  if (values) values->note_gl_read();
}

void SliceRenderer::draw_rects(const std::vector<Rect>& rects, const Mat4& mvp,
                               std::array<float, 4> tint) {
  if (rects.empty()) return;
  std::vector<float> data;
  data.reserve(rects.size() * 30);
  for (const Rect& r : rects) {
    const float xs[6] = {r.x, r.x + r.w, r.x + r.w, r.x, r.x + r.w, r.x};
    const float ys[6] = {r.y, r.y, r.y + r.h, r.y, r.y + r.h, r.y + r.h};
    for (int i = 0; i < 6; ++i) data.insert(data.end(), {xs[i], ys[i], 0.0f, 0.0f, 0.0f});
  }
  glNamedBufferData(vbo_, GLsizeiptr(data.size() * sizeof(float)), data.data(), GL_STREAM_DRAW);
  glUseProgram(line_program_->id());
  glUniformMatrix4fv(line_program_->uniform("mvp"), 1, GL_FALSE, mvp.m.data());
  glUniform4fv(line_program_->uniform("tint"), 1, tint.data());
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(rects.size() * 6));
}

void SliceRenderer::draw_text(const std::string& text, float x, float y, float scale,
                              const Mat4& mvp, std::array<float, 4> tint) {
  std::vector<Rect> px;
  for (char c : text) {
    for (const Glyph& g : kGlyphs) {
      if (g.c != c) continue;
      for (int row = 0; row < 5; ++row)
        for (int col = 0; col < 3; ++col)
          if (g.rows[row] & (4 >> col))
            px.push_back({x + col * scale, y + (4 - row) * scale, scale, scale});
    }
    x += 4 * scale;
  }
  draw_rects(px, mvp, tint);
}

void SliceRenderer::draw_colorbar(int w, int h, const Rect& bar) {
  const Mat4 pixels = Mat4::ortho(0, float(w), 0, float(h));
  const float frame = std::max(1.0f, bar.w * 0.08f);
  draw_rects({{bar.x - frame, bar.y - frame, bar.w + 2 * frame, bar.h + 2 * frame}}, pixels, kInk);
  draw_quad({{{bar.x, bar.y, 0},
              {bar.x + bar.w, bar.y, 0},
              {bar.x + bar.w, bar.y + bar.h, 0},
              {bar.x, bar.y + bar.h, 0}}},
            pixels, nullptr, true);
  // Ticks and labels at the bottom, middle and top of the range.
  const float scale = std::max(2.0f, std::round(h / 240.0f));
  const double mid = log_ ? std::sqrt(lo_ * hi_) : 0.5 * (lo_ + hi_);
  const double values[3] = {lo_, mid, hi_};
  std::vector<Rect> ticks;
  for (int i = 0; i < 3; ++i) {
    const float y = bar.y + bar.h * 0.5f * i;
    ticks.push_back({bar.x + bar.w + frame, y - frame * 0.5f, bar.w * 0.4f, frame});
    draw_text(label(values[i]), bar.x + bar.w * 1.6f, y - 2.5f * scale, scale, pixels, kInk);
  }
  draw_rects(ticks, pixels, kInk);
}

void SliceRenderer::draw(const ViewSettings& vs, int x, int y, int w, int h) {
  glViewport(x, y, w, h);
  glEnable(GL_SCISSOR_TEST);
  glScissor(x, y, w, h);
  glClearColor(kBackground[0], kBackground[1], kBackground[2], kBackground[3]);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glBindTextureUnit(1, colormap_texture(vs.colormap));

  // Layout: the picture on the left, the colour bar and its labels on the right.
  const float margin = std::round(0.04f * std::min(w, h)) + 4;
  const float bar_w = std::max(12.0f, std::round(0.035f * w));
  const float label_w = vs.colorbar ? 10 * 4 * std::max(2.0f, std::round(h / 240.0f)) : 0;
  const float right = vs.colorbar ? bar_w * 1.6f + label_w + margin : 0;
  const Rect area{margin, margin, std::max(1.0f, w - 2 * margin - right),
                  std::max(1.0f, h - 2 * margin)};
  bar_rect_ = {area.x + area.w + margin, area.y + area.h * 0.1f, bar_w, area.h * 0.8f};
  const Mat4 pixels = Mat4::ortho(0, float(w), 0, float(h));

  std::array<double, 3> extent;
  for (int a = 0; a < 3; ++a) extent[a] = std::max(1, grid_.n[a]) * grid_.spacing[a];

  if (vs.mode == ViewMode::slice2d) {
    glDisable(GL_DEPTH_TEST);
    const auto ax = slice_axes(axis_2d_);
    // Cells are drawn with their physical aspect; a reduced axis gets one cell's width.
    double eu = extent[ax[0]], ev = extent[ax[1]];
    if (grid_.n[ax[0]] <= 1) eu = ev / std::max(1, grid_.n[ax[1]]);
    if (grid_.n[ax[1]] <= 1) ev = eu / std::max(1, grid_.n[ax[0]]);
    const float s = float(std::min(area.w / eu, area.h / ev));
    const float sw = float(eu) * s, sh = float(ev) * s;
    slice_rect_ = {area.x + (area.w - sw) / 2, area.y + (area.h - sh) / 2, sw, sh};
    const Rect& r = slice_rect_;
    draw_quad(
        {{{r.x, r.y, 0}, {r.x + r.w, r.y, 0}, {r.x + r.w, r.y + r.h, 0}, {r.x, r.y + r.h, 0}}},
        pixels, slices_[axis_2d_].get(), false);
  } else {
    slice_rect_ = {};
    // The box scaled so that its longest side is 1, centred at the origin; z is up.
    const double longest = std::max({extent[0], extent[1], extent[2]});
    std::array<float, 3> half;
    for (int a = 0; a < 3; ++a) half[a] = float(0.5 * extent[a] / longest);
    const float d = vs.distance * 1.7320508f;
    const std::array<float, 3> eye{d * std::cos(vs.pitch) * std::cos(vs.yaw),
                                   d * std::cos(vs.pitch) * std::sin(vs.yaw),
                                   d * std::sin(vs.pitch)};
    glViewport(x + int(area.x), y + int(area.y), int(area.w), int(area.h));
    const Mat4 mvp = Mat4::perspective(0.6f, area.w / area.h, 0.05f, 50.0f) *
                     Mat4::look_at(eye, {0, 0, 0}, {0, 0, 1});
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    for (int a = 0; a < 3; ++a) {
      if (!shown_[a]) continue;
      const auto ax = slice_axes(a);
      // Cell-centre position of the slice along its normal, in box coordinates.
      const float c = -half[a] + 2 * half[a] * (index_[a] + 0.5f) / std::max(1, grid_.n[a]);
      std::array<std::array<float, 3>, 4> q;
      const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
      for (int k = 0; k < 4; ++k) {
        q[k][a] = c;
        q[k][ax[0]] = -half[ax[0]] + 2 * half[ax[0]] * uv[k][0];
        q[k][ax[1]] = -half[ax[1]] + 2 * half[ax[1]] * uv[k][1];
      }
      draw_quad(q, mvp, slices_[a].get(), false);
    }
    // The box's twelve edges.
    std::vector<float> edges;
    for (int a = 0; a < 3; ++a) {
      const auto ax = slice_axes(a);
      for (int s0 = -1; s0 <= 1; s0 += 2)
        for (int s1 = -1; s1 <= 1; s1 += 2)
          for (int end = -1; end <= 1; end += 2) {
            std::array<float, 3> p;
            p[a] = end * half[a];
            p[ax[0]] = s0 * half[ax[0]];
            p[ax[1]] = s1 * half[ax[1]];
            edges.insert(edges.end(), {p[0], p[1], p[2], 0.0f, 0.0f});
          }
    }
    glNamedBufferData(vbo_, GLsizeiptr(edges.size() * sizeof(float)), edges.data(), GL_STREAM_DRAW);
    glUseProgram(line_program_->id());
    glUniformMatrix4fv(line_program_->uniform("mvp"), 1, GL_FALSE, mvp.m.data());
    glUniform4fv(line_program_->uniform("tint"), 1, kInk.data());
    glBindVertexArray(vao_);
    glDrawArrays(GL_LINES, 0, GLsizei(edges.size() / 5));
    glDisable(GL_DEPTH_TEST);
    glViewport(x, y, w, h);
  }
  if (vs.colorbar) draw_colorbar(w, h, bar_rect_);
  // Rectangles in GL pixels of the whole framebuffer.
  slice_rect_.x += x;
  slice_rect_.y += y;
  bar_rect_.x += x;
  bar_rect_.y += y;
}

const SliceTexture& SliceRenderer::shown_texture() const {
  for (int a = 0; a < 3; ++a)
    if (shown_[a]) return *slices_[a];
  return *slices_[2];
}

std::optional<SliceRenderer::Probe> SliceRenderer::probe(double px, double py) const {
  if (slice_rect_.w <= 0 || !slice_rect_.contains(px, py)) return std::nullopt;
  const auto ax = slice_axes(axis_2d_);
  const SliceTexture& t = *slices_[axis_2d_];
  const int u = std::clamp(int((px - slice_rect_.x) / slice_rect_.w * t.width()), 0, t.width() - 1);
  const int v =
      std::clamp(int((py - slice_rect_.y) / slice_rect_.h * t.height()), 0, t.height() - 1);
  Probe p;
  p.cell[axis_2d_] = index_[axis_2d_];
  p.cell[ax[0]] = u;
  p.cell[ax[1]] = v;
  for (int a = 0; a < 3; ++a) p.position[a] = grid_.coord(a, p.cell[a]);
  p.value = t.value_at(u, v);
  return p;
}

}  // namespace fluxview::render
