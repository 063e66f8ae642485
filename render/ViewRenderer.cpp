#include "render/ViewRenderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "render/ColorbarTicks.hpp"
#include "render/FinerPlanes.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Reduce.hpp"

namespace fluxview::render {

namespace {

constexpr std::array<float, 4> kBackground{0.13f, 0.13f, 0.15f, 1.0f};
constexpr std::array<float, 4> kInk{0.92f, 0.92f, 0.92f, 1.0f};
constexpr std::array<float, 4> kLineColour{1.0f, 1.0f, 1.0f, 1.0f};
// The axes: the three edges of the box from its lowest corner, labelled at their ends.
constexpr std::array<std::array<float, 4>, 3> kAxisColours{
    {{0.95f, 0.4f, 0.35f, 1.0f}, {0.45f, 0.85f, 0.4f, 1.0f}, {0.4f, 0.6f, 1.0f, 1.0f}}};

std::string format_time(double t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", t);
  return buf;
}

}  // namespace

// The 3D scene's own framebuffer: colour, depth, and a copy of the depth that the ray
// caster samples while the depth attachment is written (a texture may not be read and
// written by one draw).
struct ViewRenderer::SceneTarget {
  int width = 0, height = 0;
  GLuint fbo = 0, colour = 0, depth = 0, copy_fbo = 0, depth_copy = 0;

  void ensure(int w, int h) {
    if (fbo && w == width && h == height) return;
    release();
    width = w;
    height = h;
    glCreateTextures(GL_TEXTURE_2D, 1, &colour);
    glTextureStorage2D(colour, 1, GL_RGBA8, w, h);
    glCreateTextures(GL_TEXTURE_2D, 1, &depth);
    glTextureStorage2D(depth, 1, GL_DEPTH_COMPONENT32F, w, h);
    glCreateTextures(GL_TEXTURE_2D, 1, &depth_copy);
    glTextureStorage2D(depth_copy, 1, GL_DEPTH_COMPONENT32F, w, h);
    for (GLuint t : {colour, depth, depth_copy}) {
      glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glCreateFramebuffers(1, &fbo);
    glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, colour, 0);
    glNamedFramebufferTexture(fbo, GL_DEPTH_ATTACHMENT, depth, 0);
    glCreateFramebuffers(1, &copy_fbo);
    glNamedFramebufferTexture(copy_fbo, GL_DEPTH_ATTACHMENT, depth_copy, 0);
    glNamedFramebufferDrawBuffer(copy_fbo, GL_NONE);
    glNamedFramebufferReadBuffer(copy_fbo, GL_NONE);
    if (glCheckNamedFramebufferStatus(fbo, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE ||
        glCheckNamedFramebufferStatus(copy_fbo, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("the 3D view's framebuffer " + std::to_string(w) + "x" +
                               std::to_string(h) + " is incomplete");
  }
  void release() {
    glDeleteFramebuffers(1, &fbo);
    glDeleteFramebuffers(1, &copy_fbo);
    glDeleteTextures(1, &colour);
    glDeleteTextures(1, &depth);
    glDeleteTextures(1, &depth_copy);
    fbo = copy_fbo = colour = depth = depth_copy = 0;
  }
  ~SceneTarget() { release(); }
};

ViewRenderer::ViewRenderer()
    : slices_(std::make_unique<SliceRenderer>()),
      text_(std::make_unique<TextRenderer>()),
      target_(std::make_unique<SceneTarget>()) {
  line_program_ = std::make_unique<ShaderProgram>("line.vert.glsl", "line.frag.glsl");
  glCreateVertexArrays(1, &vao_);
  glCreateBuffers(1, &vbo_);
  glVertexArrayVertexBuffer(vao_, 0, vbo_, 0, 3 * sizeof(float));
  glEnableVertexArrayAttrib(vao_, 0);
  glVertexArrayAttribFormat(vao_, 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_, 0, 0);
}

ViewRenderer::~ViewRenderer() {
  for (auto& [name, tex] : colormaps_) glDeleteTextures(1, &tex);
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

GLuint ViewRenderer::colormap_texture(const std::string& name) {
  for (const auto& [n, tex] : colormaps_)
    if (n == name) return tex;
  colormaps_.emplace_back(name, make_colormap_texture(name));
  return colormaps_.back().second;
}

std::vector<FieldInfo> ViewRenderer::viewable_fields(const Solver& s) {
  auto fields = s.fields();
  for (auto& d : derived_fields(s)) fields.push_back(std::move(d));
  return fields;
}

FieldView ViewRenderer::resolve_field(const Solver& s, const std::string& name,
                                      DerivedField& derived) const {
  return resolve_view_field(s, name, derived);
}

void ViewRenderer::update(const Solver& s, const ViewSettings& vs, UploadPath path) {
  field_ = vs.field.empty() ? s.fields().at(0).name : vs.field;
  grid_ = s.grid();
  axis_2d_ = vs.axis;
  const SlicePlan plan = plan_slices(grid_.n, vs);
  const FinerPlanes planes = finer_planes(s, field_, plan);
  // The 2D view of a finer plane needs nothing of the view grid (on the adaptive mesh a
  // resampling of up to 256^3 cells); otherwise the field on the view grid. Its colours
  // span what it shows.
  const auto& shown_plane = planes[std::size_t(vs.axis)];
  const bool plane_only = vs.mode == ViewMode::slice2d && shown_plane.has_value();
  const FieldView v = plane_only ? *shown_plane : resolve_field(s, field_, derived_);
  // A path pinned by the user (--upload-path) is for device fields; a host field has only
  // the host path.
  if (v.where != Location::device) path = UploadPath::automatic;
  unit_ = v.unit;
  if (plan.shown[0] || plan.shown[1] || plan.shown[2]) slices_->update(v, plan, planes, path);
  const FieldStats st = vs.auto_range ? field_stats(v) : FieldStats{};
  range_ = resolve_colour_range(st.min, st.max, vs.auto_range, vs.lo, vs.hi, vs.log_scale);

  const bool three_d = vs.mode == ViewMode::slices3d;
  drew_volume_ = three_d && (vs.layers.volume || vs.layers.iso);
  if (drew_volume_) {
    if (!volume_) volume_ = std::make_unique<VolumeRenderer>();
    std::optional<FieldView> colour;
    if (vs.layers.iso && !vs.iso.color_field.empty()) {
      colour = resolve_field(s, vs.iso.color_field, colour_derived_);
      const FieldStats cs = field_stats(*colour);
      colour_range_ = resolve_colour_range(cs.min, cs.max, true, 0, 1, false);
    }
    volume_->update(v, colour ? &*colour : nullptr, path, volume_host_buffer_);
  }
  outlines_.clear();
  if (const amr::Hierarchy* h = amr::hierarchy_of(s))
    outlines_ = view_block_outlines(*h, grid_, vs, h->local_blocks());
  drew_lines_ = three_d && vs.layers.lines;
  if (drew_lines_) {
    if (!lines_) lines_ = std::make_unique<StreamlineRenderer>();
    lines_->update(s, vs.lines, SceneCamera::make(grid_, vs, 1, 1).half, path);
  }
}

void ViewRenderer::update(const GatheredSlices& g, const ViewSettings& vs) {
  field_ = g.field;
  unit_ = g.unit;
  grid_ = g.grid;
  axis_2d_ = vs.axis;
  slices_->update(g);
  range_ = resolve_colour_range(g.min, g.max, vs.auto_range, vs.lo, vs.hi, vs.log_scale);
  drew_volume_ = drew_lines_ = false;
  outlines_ = g.outlines;
}

void ViewRenderer::draw_outlines(const Rect& slice, const Mat4& pixels, float width) {
  // Each block's four edges as thin rectangles, one draw per level (finer over coarser:
  // outlines_ is sorted by level); an edge straddles the block's border.
  const float half = width / 2;
  std::vector<Rect> edges;
  for (std::size_t i = 0; i < outlines_.size(); ++i) {
    const BlockOutline& o = outlines_[i];
    const float x0 = slice.x + o.u0 * slice.w, x1 = slice.x + o.u1 * slice.w;
    const float y0 = slice.y + o.v0 * slice.h, y1 = slice.y + o.v1 * slice.h;
    edges.push_back({x0 - half, y0 - half, x1 - x0 + width, width});
    edges.push_back({x0 - half, y1 - half, x1 - x0 + width, width});
    edges.push_back({x0 - half, y0 - half, width, y1 - y0 + width});
    edges.push_back({x1 - half, y0 - half, width, y1 - y0 + width});
    if (i + 1 == outlines_.size() || outlines_[i + 1].level != o.level) {
      draw_rects(edges, pixels, level_colour(o.level));
      edges.clear();
    }
  }
}

void ViewRenderer::draw_rects(const std::vector<Rect>& rects, const Mat4& mvp,
                              std::array<float, 4> tint) {
  if (rects.empty()) return;
  std::vector<float> data;
  data.reserve(rects.size() * 18);
  for (const Rect& r : rects) {
    const float xs[6] = {r.x, r.x + r.w, r.x + r.w, r.x, r.x + r.w, r.x};
    const float ys[6] = {r.y, r.y, r.y + r.h, r.y, r.y + r.h, r.y + r.h};
    for (int i = 0; i < 6; ++i) data.insert(data.end(), {xs[i], ys[i], 0.0f});
  }
  glNamedBufferData(vbo_, GLsizeiptr(data.size() * sizeof(float)), data.data(), GL_STREAM_DRAW);
  glUseProgram(line_program_->id());
  glUniformMatrix4fv(line_program_->uniform("mvp"), 1, GL_FALSE, mvp.m.data());
  glUniform4fv(line_program_->uniform("tint"), 1, tint.data());
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(rects.size() * 6));
}

void ViewRenderer::draw_box(const SceneCamera& cam) {
  const auto& half = cam.half;
  std::vector<float> edges, axes;
  for (int a = 0; a < 3; ++a) {
    const auto ax = slice_axes(a);
    for (int s0 = -1; s0 <= 1; s0 += 2)
      for (int s1 = -1; s1 <= 1; s1 += 2) {
        std::vector<float>& out = s0 < 0 && s1 < 0 ? axes : edges;
        for (int end = -1; end <= 1; end += 2) {
          std::array<float, 3> p;
          p[a] = end * half[a];
          p[ax[0]] = s0 * half[ax[0]];
          p[ax[1]] = s1 * half[ax[1]];
          out.insert(out.end(), {p[0], p[1], p[2]});
        }
      }
  }
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glUseProgram(line_program_->id());
  glUniformMatrix4fv(line_program_->uniform("mvp"), 1, GL_FALSE, cam.mvp.m.data());
  glBindVertexArray(vao_);
  glNamedBufferData(vbo_, GLsizeiptr(edges.size() * sizeof(float)), edges.data(), GL_STREAM_DRAW);
  glUniform4fv(line_program_->uniform("tint"), 1, kInk.data());
  glDrawArrays(GL_LINES, 0, GLsizei(edges.size() / 3));
  glNamedBufferData(vbo_, GLsizeiptr(axes.size() * sizeof(float)), axes.data(), GL_STREAM_DRAW);
  for (int a = 0; a < 3; ++a) {
    glUniform4fv(line_program_->uniform("tint"), 1, kAxisColours[a].data());
    glDrawArrays(GL_LINES, 2 * a, 2);
  }
  // Labels just beyond each axis's far end, drawn after the scene is in place.
  axis_labels_.clear();
  const char* names[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    std::array<float, 3> p{-half[0], -half[1], -half[2]};
    p[a] = half[a] * 1.12f;
    axis_labels_.emplace_back(names[a], cam.project(p));
  }
}

void ViewRenderer::draw_scene(const ViewSettings& vs, const Rect& area, GLuint outer, int x,
                              int y) {
  const int aw = std::max(1, int(area.w)), ah = std::max(1, int(area.h));
  target_->ensure(aw, ah);
  glBindFramebuffer(GL_FRAMEBUFFER, target_->fbo);
  glViewport(0, 0, aw, ah);
  glDisable(GL_SCISSOR_TEST);
  glDepthMask(GL_TRUE);
  glClearColor(kBackground[0], kBackground[1], kBackground[2], kBackground[3]);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  camera_ = SceneCamera::make(grid_, vs, aw, ah);
  // Opaque first (slices, box and axes, lines), then the ray caster over them.
  if (vs.layers.slices) slices_->draw_3d(camera_, range_, colormap_texture(vs.colormap));
  draw_box(camera_);
  if (drew_lines_ && lines_) lines_->draw(camera_, kLineColour);
  if (drew_volume_ && volume_) {
    glBlitNamedFramebuffer(target_->fbo, target_->copy_fbo, 0, 0, aw, ah, 0, 0, aw, ah,
                           GL_DEPTH_BUFFER_BIT, GL_NEAREST);
    volume_->draw(camera_, vs, range_, colour_range_, target_->depth_copy);
  }
  const int ox = x + int(area.x), oy = y + int(area.y);
  glBlitNamedFramebuffer(target_->fbo, outer, 0, 0, aw, ah, ox, oy, ox + aw, oy + ah,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, outer);
  glDisable(GL_DEPTH_TEST);
}

void ViewRenderer::draw_colorbar(const Rect& bar, float text_px, const Mat4& pixels) {
  const float frame = std::max(1.0f, bar.w * 0.08f);
  draw_rects({{bar.x - frame, bar.y - frame, bar.w + 2 * frame, bar.h + 2 * frame}}, pixels, kInk);
  slices_->draw_ramp(bar, pixels, colormap_texture(current_colormap_));
  // Round values, one label format (ColorbarTicks); as many as fit without crowding.
  const int fit = std::clamp(int(bar.h / (text_px * 2.2f)), 2, 7);
  const auto ticks = colorbar_ticks(range_.lo, range_.hi, range_.log, fit);
  std::vector<Rect> marks;
  for (const auto& t : ticks) {
    const float y = bar.y + bar.h * t.t;
    marks.push_back({bar.x + bar.w + frame, y - frame * 0.5f, bar.w * 0.35f, frame});
    text_->draw(t.label, bar.x + bar.w * 1.45f + frame, y - text_px * 0.5f, text_px, pixels, kInk);
  }
  draw_rects(marks, pixels, kInk);
}

void ViewRenderer::draw(const ViewSettings& vs, int x, int y, int w, int h,
                        const FrameTitle* title) {
  GLint outer = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &outer);
  current_colormap_ = vs.colormap;
  glViewport(x, y, w, h);
  glEnable(GL_SCISSOR_TEST);
  glScissor(x, y, w, h);
  glClearColor(kBackground[0], kBackground[1], kBackground[2], kBackground[3]);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);

  // Layout: the title along the top, the picture on the left, the colour bar and its
  // labels on the right (a fixed share of the width, so that frames of a film keep
  // their layout whatever the labels say).
  const float text_px = std::max(10.0f, std::round(h / 42.0f));
  const float margin = std::round(0.04f * std::min(w, h)) + 4;
  const float bar_w = std::max(12.0f, std::round(0.035f * w));
  const float label_w =
      vs.colorbar ? std::min(10 * 4 * std::max(2.0f, std::round(h / 240.0f)), 0.22f * w) : 0;
  const float right = vs.colorbar ? bar_w * 1.6f + label_w + margin : 0;
  const float title_h = title ? std::round(text_px * 2.2f) : 0;
  const Rect area{std::round(margin), std::round(margin),
                  std::max(1.0f, std::round(w - 2 * margin - right)),
                  std::max(1.0f, std::round(h - 2 * margin - title_h))};
  bar_rect_ = {area.x + area.w + margin, area.y + area.h * 0.1f, bar_w, area.h * 0.8f};
  const Mat4 pixels = Mat4::ortho(0, float(w), 0, float(h));

  if (vs.mode == ViewMode::slice2d) {
    scene_rect_ = {};
    const auto ax = slice_axes(axis_2d_);
    std::array<double, 3> extent;
    for (int a = 0; a < 3; ++a) extent[a] = std::max(1, grid_.n[a]) * grid_.spacing[a];
    // Cells are drawn with their physical aspect; a reduced axis gets one cell's width.
    double eu = extent[ax[0]], ev = extent[ax[1]];
    if (grid_.n[ax[0]] <= 1) eu = ev / std::max(1, grid_.n[ax[1]]);
    if (grid_.n[ax[1]] <= 1) ev = eu / std::max(1, grid_.n[ax[0]]);
    const float s = float(std::min(area.w / eu, area.h / ev));
    const float sw = float(eu) * s, sh = float(ev) * s;
    slice_rect_ = {area.x + (area.w - sw) / 2, area.y + (area.h - sh) / 2, sw, sh};
    slices_->draw_2d(axis_2d_, slice_rect_, pixels, range_, colormap_texture(vs.colormap));
    if (vs.block_outlines && !outlines_.empty()) {
      // Clipped to the slice, so that edges on the domain's border stay inside it.
      glEnable(GL_SCISSOR_TEST);
      glScissor(x + int(slice_rect_.x), y + int(slice_rect_.y), int(std::ceil(slice_rect_.w)),
                int(std::ceil(slice_rect_.h)));
      draw_outlines(slice_rect_, pixels, std::max(1.0f, std::round(h / 500.0f)));
      glDisable(GL_SCISSOR_TEST);
    }
  } else {
    slice_rect_ = {};
    scene_rect_ = area;
    draw_scene(vs, area, GLuint(outer), x, y);
    glViewport(x, y, w, h);
    for (std::size_t a = 0; a < axis_labels_.size(); ++a) {
      const auto& [name, p] = axis_labels_[a];
      if (p[2] < 0 || p[2] > 1) continue;
      const float lw = text_->width(name, text_px);
      text_->draw(name, area.x + p[0] - lw / 2, area.y + p[1] - text_px / 2, text_px, pixels,
                  kAxisColours[a]);
    }
  }
  if (vs.colorbar) draw_colorbar(bar_rect_, std::round(text_px * 0.9f), pixels);
  if (title) {
    const std::string field = field_ + (unit_.empty() ? "" : " [" + unit_ + "]");
    const std::string text = title->scenario + "    " + field +
                             "    t = " + format_time(title->time) + " s    step " +
                             std::to_string(title->step);
    text_->draw(text, margin, h - margin - text_px, text_px, pixels, kInk);
  }
  // Rectangles in GL pixels of the whole framebuffer.
  for (Rect* r : {&slice_rect_, &scene_rect_, &bar_rect_}) {
    r->x += x;
    r->y += y;
  }
}

std::optional<ViewRenderer::Probe> ViewRenderer::probe(double px, double py) const {
  if (slice_rect_.w <= 0 || !slice_rect_.contains(px, py)) return std::nullopt;
  const auto ax = slice_axes(axis_2d_);
  const SliceTexture& t = slices_->texture(axis_2d_);
  const int u = std::clamp(int((px - slice_rect_.x) / slice_rect_.w * t.width()), 0, t.width() - 1);
  const int v =
      std::clamp(int((py - slice_rect_.y) / slice_rect_.h * t.height()), 0, t.height() - 1);
  Probe p;
  // The texture may be finer than the view grid (FinerPlanes): place the pixel by its
  // fraction of the slice, and name the view-grid cell holding it.
  p.cell[axis_2d_] = slices_->plan().index[axis_2d_];
  p.position[axis_2d_] = grid_.coord(axis_2d_, p.cell[axis_2d_]);
  const int texel[2] = {u, v}, texels[2] = {t.width(), t.height()};
  for (int k = 0; k < 2; ++k) {
    const int a = ax[std::size_t(k)];
    const double f = (texel[k] + 0.5) / texels[k];
    p.cell[a] = std::min(int(f * grid_.n[a]), grid_.n[a] - 1);
    p.position[a] = grid_.coord(a, 0) + (f * grid_.n[a] - 0.5) * grid_.spacing[a];
  }
  p.value = t.value_at(u, v);
  return p;
}

std::optional<ViewRenderer::ScenePixel> ViewRenderer::scene_pixel(double px, double py) const {
  if (scene_rect_.w <= 0 || !scene_rect_.contains(px, py) || !target_->fbo) return std::nullopt;
  const int ix = std::clamp(int(px - scene_rect_.x), 0, target_->width - 1);
  const int iy = std::clamp(int(py - scene_rect_.y), 0, target_->height - 1);
  ScenePixel p;
  glGetTextureSubImage(target_->depth, 0, ix, iy, 0, 1, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT,
                       sizeof p.depth, &p.depth);
  p.nx = (ix + 0.5f) / target_->width * 2 - 1;
  p.ny = (iy + 0.5f) / target_->height * 2 - 1;
  return p;
}

std::array<float, 3> ViewRenderer::unproject(float nx, float ny, float z) const {
  const auto q = camera_.inverse_mvp.apply({nx, ny, z});
  return {q[0] / q[3], q[1] / q[3], q[2] / q[3]};
}

std::array<float, 3> ViewRenderer::box_fractions(const std::array<float, 3>& p) const {
  const auto& half = camera_.half;
  std::array<float, 3> f;
  for (int k = 0; k < 3; ++k) f[k] = std::clamp((p[k] + half[k]) / (2 * half[k]), 0.0f, 1.0f);
  return f;
}

std::optional<std::array<float, 3>> ViewRenderer::pick_surface(double px, double py) const {
  const auto s = scene_pixel(px, py);
  if (!s || s->depth >= 1.0f) return std::nullopt;
  return box_fractions(unproject(s->nx, s->ny, s->depth * 2 - 1));
}

std::optional<std::array<float, 3>> ViewRenderer::pick(double px, double py) const {
  const auto s = scene_pixel(px, py);
  if (!s) return std::nullopt;
  if (s->depth < 1.0f) return box_fractions(unproject(s->nx, s->ny, s->depth * 2 - 1));
  // Nothing opaque: the middle of the ray's path through the box.
  const auto a = unproject(s->nx, s->ny, -1), b = unproject(s->nx, s->ny, 1);
  const auto& half = camera_.half;
  float t0 = 0, t1 = 1;
  for (int k = 0; k < 3; ++k) {
    const float d = b[k] - a[k];
    if (std::abs(d) < 1e-12f) {
      if (a[k] < -half[k] || a[k] > half[k]) return std::nullopt;
      continue;
    }
    float ta = (-half[k] - a[k]) / d, tb = (half[k] - a[k]) / d;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  if (t1 <= t0) return std::nullopt;
  const float t = 0.5f * (t0 + t1);
  std::array<float, 3> p;
  for (int k = 0; k < 3; ++k) p[k] = a[k] + t * (b[k] - a[k]);
  return box_fractions(p);
}

}  // namespace fluxview::render
