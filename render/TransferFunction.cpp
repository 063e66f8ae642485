#include "render/TransferFunction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "render/GlResources.hpp"

namespace fluxview::render {

float TransferFunction::opacity_at(float t) const {
  if (points.empty()) return 0;
  if (t <= points.front().t) return points.front().opacity;
  if (t >= points.back().t) return points.back().opacity;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const OpacityPoint &a = points[i - 1], &b = points[i];
    if (t > b.t) continue;
    const float w = b.t > a.t ? (t - a.t) / (b.t - a.t) : 1.0f;
    return a.opacity + w * (b.opacity - a.opacity);
  }
  return points.back().opacity;
}

void TransferFunction::normalise() {
  for (auto& p : points) {
    p.t = std::clamp(p.t, 0.0f, 1.0f);
    p.opacity = std::clamp(p.opacity, 0.0f, 1.0f);
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const OpacityPoint& a, const OpacityPoint& b) { return a.t < b.t; });
  points.erase(std::unique(points.begin(), points.end(),
                           [](const OpacityPoint& a, const OpacityPoint& b) { return a.t == b.t; }),
               points.end());
}

void TransferFunction::add_point(float t, float opacity) {
  for (auto& p : points)
    if (p.t == t) {
      p.opacity = std::clamp(opacity, 0.0f, 1.0f);
      return;
    }
  points.push_back({t, opacity});
  normalise();
}

void TransferFunction::remove_point(std::size_t i) {
  if (points.size() > 1 && i < points.size()) points.erase(points.begin() + std::ptrdiff_t(i));
}

const std::vector<TransferPreset>& transfer_presets() {
  // Opacities are per hundredth of the box (TransferFunction): 0.3 at the top makes a
  // box full of the largest value opaque within a tenth of its depth, while values in the
  // transparent lower part of the range leave the inside visible.
  static const std::vector<TransferPreset> p = {
      {"ramp", "viridis", "opacity rising evenly with the value", {{{0.0f, 0.0f}, {1.0f, 0.25f}}}},
      {"density",
       "viridis",
       "dense gas shows, the thin background is clear: shocks, shells, clouds",
       {{{0.0f, 0.0f}, {0.36f, 0.0f}, {0.6f, 0.05f}, {1.0f, 0.35f}}}},
      {"temperature",
       "inferno",
       "hot regions glow, the cold bulk is clear",
       {{{0.0f, 0.0f}, {0.15f, 0.0f}, {0.5f, 0.05f}, {1.0f, 0.3f}}}},
      {"vorticity",
       "magma",
       "only the strongest vortex tubes: the bulk of weak vorticity is clear",
       {{{0.0f, 0.0f}, {0.2f, 0.0f}, {0.45f, 0.04f}, {1.0f, 0.6f}}}},
      {"flat",
       "viridis",
       "the same small opacity everywhere: the whole field as a haze",
       {{{0.0f, 0.03f}, {1.0f, 0.03f}}}},
  };
  return p;
}

const TransferPreset& transfer_preset(const std::string& name) {
  std::string allowed;
  for (const auto& p : transfer_presets()) {
    if (p.name == name) return p;
    allowed += (allowed.empty() ? "" : ", ") + std::string(p.name);
  }
  throw std::invalid_argument("unknown transfer-function preset '" + name +
                              "'; allowed: " + allowed);
}

const TransferPreset& preset_for_field(const std::string& field) {
  if (field == "T") return transfer_preset("temperature");
  if (field == "vorticity") return transfer_preset("vorticity");
  if (field == "rho" || field == "lnrho" || field == "p") return transfer_preset("density");
  return transfer_preset("ramp");
}

std::vector<std::array<float, 4>> transfer_table(const TransferFunction& f,
                                                 const std::string& colormap) {
  const auto colours = colormap_table(colormap);
  std::vector<std::array<float, 4>> table(256);
  for (int i = 0; i < 256; ++i)
    table[i] = {colours[i][0] / 255.0f, colours[i][1] / 255.0f, colours[i][2] / 255.0f,
                f.opacity_at(float(i) / 255.0f)};
  return table;
}

std::vector<float> max_opacity_table(const TransferFunction& f) {
  std::vector<float> a(256);
  for (int i = 0; i < 256; ++i) a[i] = f.opacity_at(float(i) / 255.0f);
  std::vector<float> out(256 * 256);
  for (int i = 0; i < 256; ++i) {
    float m = 0;
    for (int j = i; j < 256; ++j) {
      m = std::max(m, a[j]);
      out[std::size_t(j) * 256 + i] = m;
      out[std::size_t(i) * 256 + j] = m;
    }
  }
  return out;
}

nlohmann::json to_json(const TransferFunction& f) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : f.points) points.push_back({p.t, p.opacity});
  return {{"opacity", points}};
}

TransferFunction transfer_function_from_json(const nlohmann::json& j) {
  TransferFunction f;
  if (!j.contains("opacity")) return f;
  const auto& pts = j.at("opacity");
  if (!pts.is_array() || pts.empty())
    throw std::invalid_argument("transfer_function.opacity: expected [[t, opacity], ...]");
  f.points.clear();
  for (const auto& p : pts) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      throw std::invalid_argument("transfer_function.opacity: " + p.dump() +
                                  " is not a pair [t, opacity]");
    const float t = p[0].get<float>(), a = p[1].get<float>();
    if (!(t >= 0 && t <= 1) || !(a >= 0 && a <= 1))
      throw std::invalid_argument("transfer_function.opacity: " + p.dump() +
                                  "; t and opacity must lie in [0, 1]");
    f.points.push_back({t, a});
  }
  f.normalise();
  return f;
}

}  // namespace fluxview::render
