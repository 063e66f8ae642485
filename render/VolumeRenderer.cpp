#include "render/VolumeRenderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>

#include "render/TransferFunction.hpp"

namespace fluxview::render {

ColourRange resolve_colour_range(double field_min, double field_max, bool automatic, double lo,
                                 double hi, bool log_scale) {
  ColourRange r;
  r.lo = automatic ? field_min : lo;
  r.hi = automatic ? field_max : hi;
  if (!(r.hi > r.lo)) r.hi = r.lo + std::max(1e-12, std::abs(r.lo) * 1e-6);  // a uniform field
  r.log = log_scale && r.hi > 0;
  if (r.log && r.lo <= 0) r.lo = r.hi * 1e-6;  // six decades below the top
  return r;
}

namespace {

// Opacities are given per hundredth of the box's longest side (TransferFunction), which
// is 1 in box coordinates.
constexpr float kUnitLength = 0.01f;

float to_unit(double v, const ColourRange& r) {
  double t =
      r.log ? (std::log(std::max(v, r.lo)) - std::log(r.lo)) / (std::log(r.hi) - std::log(r.lo))
            : (v - r.lo) / (r.hi - r.lo);
  return float(std::clamp(t, 0.0, 1.0));
}

}  // namespace

VolumeRenderer::VolumeRenderer()
    : field_(std::make_unique<VolumeTexture>()), colour_(std::make_unique<VolumeTexture>()) {
  glCreateVertexArrays(1, &vao_);
}

VolumeRenderer::~VolumeRenderer() {
  glDeleteTextures(1, &transfer_);
  glDeleteTextures(1, &max_opacity_);
  glDeleteTextures(1, &colormap_);
  glDeleteVertexArrays(1, &vao_);
}

ShaderProgram& VolumeRenderer::program(VolumeStorage s) {
  auto& p = s == VolumeStorage::buffer ? buffer_program_ : texture_program_;
  if (!p)
    p = std::make_unique<ShaderProgram>("volume.vert.glsl", "volume.frag.glsl",
                                        s == VolumeStorage::buffer ? "#define FROM_BUFFER\n" : "");
  return *p;
}

void VolumeRenderer::update(const FieldView& field, const FieldView* colour_field, UploadPath path,
                            bool host_into_buffer) {
  field_->update(field, path, host_into_buffer);
  has_colour_ = colour_field != nullptr;
  if (!colour_field) return;
  // The pass reads both fields the same way: the second follows the first's storage.
  const bool device = colour_field->where == Location::device;
  if (field_->storage() == VolumeStorage::buffer)
    colour_->update(*colour_field, device ? UploadPath::shared : UploadPath::host, true);
  else
    colour_->update(*colour_field,
                    device && field_->last_path() == UploadPath::interop ? UploadPath::interop
                                                                         : UploadPath::host,
                    false);
}

void VolumeRenderer::update_transfer(const ViewSettings& vs) {
  const std::string key = to_json(vs.volume.transfer).dump() + vs.colormap;
  if (key == transfer_key_) return;
  transfer_key_ = key;
  const auto table = transfer_table(vs.volume.transfer, vs.colormap);
  if (!transfer_) {
    glCreateTextures(GL_TEXTURE_2D, 1, &transfer_);
    glTextureStorage2D(transfer_, 1, GL_RGBA32F, 256, 1);
    glTextureParameteri(transfer_, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(transfer_, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(transfer_, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(transfer_, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glCreateTextures(GL_TEXTURE_2D, 1, &max_opacity_);
    glTextureStorage2D(max_opacity_, 1, GL_R32F, 256, 256);
    glTextureParameteri(max_opacity_, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(max_opacity_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glTextureSubImage2D(transfer_, 0, 0, 0, 256, 1, GL_RGBA, GL_FLOAT, table.data());
  const auto max_table = max_opacity_table(vs.volume.transfer);
  glTextureSubImage2D(max_opacity_, 0, 0, 0, 256, 256, GL_RED, GL_FLOAT, max_table.data());
  any_transparent_ = false;
  for (const auto& e : table) any_transparent_ |= e[3] <= 0.0f;
  glDeleteTextures(1, &colormap_);
  colormap_ = make_colormap_texture(vs.colormap);
}

void VolumeRenderer::draw(const SceneCamera& cam, const ViewSettings& vs, const ColourRange& range,
                          const ColourRange& colour, GLuint scene_depth) {
  update_transfer(vs);
  const VolumeStorage storage = field_->storage();
  ShaderProgram& p = program(storage);
  const auto& dims = field_->size();
  const auto& bricks = field_->bricks();

  // Isosurfaces: the view's values, or one at the middle of the colour range.
  iso_values_.clear();
  if (vs.layers.iso) {
    iso_values_ = vs.iso.values;
    if (iso_values_.empty())
      iso_values_.push_back(range.log ? std::sqrt(range.lo * range.hi)
                                      : 0.5 * (range.lo + range.hi));
    if (iso_values_.size() > std::size_t(kMaxIsoValues)) iso_values_.resize(kMaxIsoValues);
  }
  const auto colours = colormap_table(vs.colormap);
  float iso_values[kMaxIsoValues] = {}, iso_colours[kMaxIsoValues * 3] = {};
  for (std::size_t k = 0; k < iso_values_.size(); ++k) {
    iso_values[k] = float(iso_values_[k]);
    const auto& c = colours[std::size_t(std::lround(to_unit(iso_values_[k], range) * 255))];
    for (int i = 0; i < 3; ++i) iso_colours[k * 3 + i] = c[i] / 255.0f;
  }

  // The step: a fraction of the smallest cell.
  float cell = 1e30f;
  for (int a = 0; a < 3; ++a)
    if (dims[a] > 1) cell = std::min(cell, 2 * cam.half[a] / dims[a]);
  if (cell > 1e29f) cell = 2 * *std::max_element(cam.half.begin(), cam.half.end());

  // Skipping pays where bricks can be empty: a transfer function transparent over part of
  // the range (or no volume at all, only surfaces), and more than a few bricks a side.
  const int most_bricks = std::max({bricks[0], bricks[1], bricks[2]});
  skipped_ = vs.volume.skipping == Skipping::on ||
             (vs.volume.skipping == Skipping::automatic && most_bricks >= 4 &&
              (any_transparent_ || !vs.layers.volume));

  glUseProgram(p.id());
  glUniformMatrix4fv(p.uniform("mvp"), 1, GL_FALSE, cam.mvp.m.data());
  glUniformMatrix4fv(p.uniform("inverse_mvp"), 1, GL_FALSE, cam.inverse_mvp.m.data());
  glUniform2f(p.uniform("viewport"), float(cam.width), float(cam.height));
  glUniform3fv(p.uniform("half_extent"), 1, cam.half.data());
  glUniform3i(p.uniform("dims"), dims[0], dims[1], dims[2]);
  glUniform3i(p.uniform("brick_dims"), bricks[0], bricks[1], bricks[2]);
  glUniform1f(p.uniform("lo"), float(range.lo));
  glUniform1f(p.uniform("hi"), float(range.hi));
  glUniform1i(p.uniform("log_scale"), range.log);
  glUniform1f(p.uniform("step_length"), vs.volume.step * cell);
  glUniform1f(p.uniform("unit_length"), kUnitLength);
  glUniform1i(p.uniform("show_volume"), vs.layers.volume);
  glUniform1i(p.uniform("lighting"), vs.volume.lighting);
  glUniform1i(p.uniform("skipping"), skipped_);
  glUniform1i(p.uniform("iso_count"), int(iso_values_.size()));
  glUniform1fv(p.uniform("iso_values"), kMaxIsoValues, iso_values);
  glUniform3fv(p.uniform("iso_colours"), kMaxIsoValues, iso_colours);
  glUniform1f(p.uniform("iso_opacity"), vs.iso.opacity);
  const bool by_field = vs.layers.iso && has_colour_ && !vs.iso.color_field.empty();
  glUniform1i(p.uniform("iso_by_field"), by_field);
  glUniform1f(p.uniform("colour_lo"), float(colour.lo));
  glUniform1f(p.uniform("colour_hi"), float(colour.hi));
  glUniform1i(p.uniform("colour_log"), colour.log);
  glUniform1i(p.uniform("scene_depth"), 0);
  glUniform1i(p.uniform("transfer"), 1);
  glUniform1i(p.uniform("max_opacity"), 2);
  glUniform1i(p.uniform("colormap"), 3);
  glBindTextureUnit(0, scene_depth);
  glBindTextureUnit(1, transfer_);
  glBindTextureUnit(2, max_opacity_);
  glBindTextureUnit(3, colormap_);
  if (storage == VolumeStorage::buffer) {
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, field_->buffer(), 0,
                      GLsizeiptr(field_->volume_bytes()));
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, field_->buffer(),
                      GLintptr(field_->brick_offset()), GLsizeiptr(field_->brick_bytes()));
    const VolumeTexture& c = by_field ? *colour_ : *field_;
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, c.buffer(), 0, GLsizeiptr(c.volume_bytes()));
  } else {
    glUniform1i(p.uniform("volume"), 4);
    glUniform1i(p.uniform("bricks"), 5);
    glUniform1i(p.uniform("colour_volume"), 6);
    glBindTextureUnit(4, field_->texture());
    glBindTextureUnit(5, field_->brick_texture());
    glBindTextureUnit(6, by_field ? colour_->texture() : field_->texture());
  }
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied, over the opaque scene
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_ALWAYS);  // the shader writes the nearer of the scene and a surface
  glDepthMask(GL_TRUE);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  for (int unit = 0; unit < 7; ++unit) glBindTextureUnit(GLuint(unit), 0);
  field_->note_gl_read();
  if (by_field) colour_->note_gl_read();
}

}  // namespace fluxview::render
