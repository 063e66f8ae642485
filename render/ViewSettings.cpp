#include "render/ViewSettings.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "render/GlResources.hpp"
#include "render/SliceSpec.hpp"

namespace fluxview::render {

int slice_index(float fraction, int n) {
  return std::clamp(int(std::floor(fraction * n)), 0, n - 1);
}

SlicePlan plan_slices(const std::array<int, 3>& n, const ViewSettings& vs) {
  SlicePlan p;
  const bool three_d = vs.mode == ViewMode::slices3d;
  for (int a = 0; a < 3; ++a) {
    const auto ax = slice_axes(a);
    // A slice is worth drawing when it is a plane: both of its axes have cells, or the
    // problem has fewer dimensions and this is its only plane.
    p.shown[a] = !three_d ? a == vs.axis : vs.layers.slices && n[ax[0]] > 1 && n[ax[1]] > 1;
    p.index[a] = slice_index(vs.position[a], n[a]);
  }
  if (three_d && vs.layers.slices && !(p.shown[0] || p.shown[1] || p.shown[2]))
    p.shown[2] = true;  // a 1D problem: its single row
  return p;
}

ViewMode parse_view_mode(const std::string& s) {
  if (s == "2d") return ViewMode::slice2d;
  if (s == "3d") return ViewMode::slices3d;
  throw std::invalid_argument("view '" + s + "'; allowed: 2d, 3d");
}

void apply_view_name(ViewSettings& v, const std::string& name) {
  const std::string allowed =
      "2d, or any of 3d (slices), volume, iso, lines joined by '+' (e.g. volume+lines)";
  if (name == "2d") {
    v.mode = ViewMode::slice2d;
    return;
  }
  SceneLayers layers{false, false, false, false};
  std::stringstream in(name);
  std::string part;
  int parts = 0;
  while (std::getline(in, part, '+')) {
    ++parts;
    if (part == "3d" || part == "slices")
      layers.slices = true;
    else if (part == "volume")
      layers.volume = true;
    else if (part == "iso")
      layers.iso = true;
    else if (part == "lines")
      layers.lines = true;
    else
      throw std::invalid_argument("view '" + name + "'; allowed: " + allowed);
  }
  if (parts == 0) throw std::invalid_argument("view '" + name + "'; allowed: " + allowed);
  v.mode = ViewMode::slices3d;
  v.layers = layers;
}

std::string view_name(const ViewSettings& v) {
  if (v.mode == ViewMode::slice2d) return "2d";
  std::string s;
  const auto add = [&s](bool on, const char* n) {
    if (!on) return;
    if (!s.empty()) s += '+';
    s += n;
  };
  add(v.layers.slices, "3d");
  add(v.layers.volume, "volume");
  add(v.layers.iso, "iso");
  add(v.layers.lines, "lines");
  return s.empty() ? "3d" : s;
}

namespace {

const char* skipping_name(Skipping s) {
  return s == Skipping::on ? "on" : s == Skipping::off ? "off" : "auto";
}

Skipping parse_skipping(const std::string& s) {
  if (s == "auto") return Skipping::automatic;
  if (s == "on") return Skipping::on;
  if (s == "off") return Skipping::off;
  throw std::invalid_argument("volume.skipping '" + s + "'; allowed: auto, on, off");
}

void require(bool ok, const std::string& key, const std::string& value,
             const std::string& allowed) {
  if (!ok) throw std::invalid_argument(key + " " + value + "; allowed: " + allowed);
}

}  // namespace

nlohmann::json to_json(const ViewSettings& v) {
  return {
      {"field", v.field},
      {"view", v.mode == ViewMode::slice2d ? "2d" : "3d"},
      {"axis", v.axis},
      {"position", v.position},
      {"colormap", v.colormap},
      {"auto_range", v.auto_range},
      {"range", {v.lo, v.hi}},
      {"log_scale", v.log_scale},
      {"colorbar", v.colorbar},
      {"block_outlines", v.block_outlines},
      {"camera", {{"yaw", v.yaw}, {"pitch", v.pitch}, {"distance", v.distance}}},
      {"layers",
       {{"slices", v.layers.slices},
        {"volume", v.layers.volume},
        {"iso", v.layers.iso},
        {"lines", v.layers.lines}}},
      {"volume",
       {{"transfer_function", to_json(v.volume.transfer)},
        {"step", v.volume.step},
        {"lighting", v.volume.lighting},
        {"skipping", skipping_name(v.volume.skipping)}}},
      {"iso",
       {{"values", v.iso.values}, {"color_field", v.iso.color_field}, {"opacity", v.iso.opacity}}},
      {"lines",
       {{"field", v.lines.field},
        {"seed", v.lines.seed == SeedKind::plane ? "plane" : "point"},
        {"seed_axis", v.lines.seed_axis},
        {"seed_position", v.lines.seed_position},
        {"seeds", v.lines.seeds},
        {"seed_point", v.lines.seed_point},
        {"seed_radius", v.lines.seed_radius},
        {"steps", v.lines.steps},
        {"step", v.lines.step}}}};
}

ViewSettings view_settings_from_json(const nlohmann::json& j) {
  ViewSettings v;
  try {
    v.field = j.value("field", v.field);
    v.mode = parse_view_mode(j.value("view", std::string("2d")));
    v.axis = j.value("axis", v.axis);
    if (v.axis < 0 || v.axis > 2)
      throw std::invalid_argument("axis " + std::to_string(v.axis) + "; allowed: 0, 1, 2");
    if (j.contains("position")) v.position = j.at("position").get<std::array<float, 3>>();
    v.colormap = j.value("colormap", v.colormap);
    colormap_table(v.colormap);  // throws naming the allowed maps
    v.auto_range = j.value("auto_range", v.auto_range);
    if (j.contains("range")) {
      v.lo = j.at("range").at(0).get<double>();
      v.hi = j.at("range").at(1).get<double>();
    }
    v.log_scale = j.value("log_scale", v.log_scale);
    v.colorbar = j.value("colorbar", v.colorbar);
    v.block_outlines = j.value("block_outlines", v.block_outlines);
    if (j.contains("camera")) {
      const auto& c = j.at("camera");
      v.yaw = c.value("yaw", v.yaw);
      v.pitch = c.value("pitch", v.pitch);
      v.distance = c.value("distance", v.distance);
    }
    if (j.contains("layers")) {
      const auto& l = j.at("layers");
      v.layers.slices = l.value("slices", v.layers.slices);
      v.layers.volume = l.value("volume", v.layers.volume);
      v.layers.iso = l.value("iso", v.layers.iso);
      v.layers.lines = l.value("lines", v.layers.lines);
    }
    if (j.contains("volume")) {
      const auto& o = j.at("volume");
      if (o.contains("transfer_function"))
        v.volume.transfer = transfer_function_from_json(o.at("transfer_function"));
      v.volume.step = o.value("step", v.volume.step);
      require(v.volume.step > 0 && v.volume.step <= 4, "volume.step", std::to_string(v.volume.step),
              "(0, 4] cells");
      v.volume.lighting = o.value("lighting", v.volume.lighting);
      v.volume.skipping = parse_skipping(o.value("skipping", std::string("auto")));
    }
    if (j.contains("iso")) {
      const auto& o = j.at("iso");
      if (o.contains("values")) v.iso.values = o.at("values").get<std::vector<double>>();
      require(v.iso.values.size() <= std::size_t(kMaxIsoValues), "iso.values",
              std::to_string(v.iso.values.size()) + " values",
              "at most " + std::to_string(kMaxIsoValues));
      v.iso.color_field = o.value("color_field", v.iso.color_field);
      v.iso.opacity = o.value("opacity", v.iso.opacity);
      require(v.iso.opacity > 0 && v.iso.opacity <= 1, "iso.opacity", std::to_string(v.iso.opacity),
              "(0, 1]");
    }
    if (j.contains("lines")) {
      const auto& o = j.at("lines");
      if (o.contains("field")) v.lines.field = o.at("field").get<std::array<std::string, 3>>();
      const std::string seed = o.value("seed", std::string("plane"));
      require(seed == "plane" || seed == "point", "lines.seed", seed, "plane, point");
      v.lines.seed = seed == "plane" ? SeedKind::plane : SeedKind::point;
      v.lines.seed_axis = o.value("seed_axis", v.lines.seed_axis);
      require(v.lines.seed_axis >= 0 && v.lines.seed_axis <= 2, "lines.seed_axis",
              std::to_string(v.lines.seed_axis), "0, 1, 2");
      v.lines.seed_position = o.value("seed_position", v.lines.seed_position);
      v.lines.seeds = o.value("seeds", v.lines.seeds);
      require(v.lines.seeds >= 1 && v.lines.seeds <= 64, "lines.seeds",
              std::to_string(v.lines.seeds), "1 to 64 (per side of the seed grid)");
      if (o.contains("seed_point"))
        v.lines.seed_point = o.at("seed_point").get<std::array<float, 3>>();
      v.lines.seed_radius = o.value("seed_radius", v.lines.seed_radius);
      v.lines.steps = o.value("steps", v.lines.steps);
      require(v.lines.steps >= 1 && v.lines.steps <= 4096, "lines.steps",
              std::to_string(v.lines.steps), "1 to 4096");
      v.lines.step = o.value("step", v.lines.step);
      require(v.lines.step > 0 && v.lines.step <= 4, "lines.step", std::to_string(v.lines.step),
              "(0, 4] cells");
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("view state: ") + e.what());
  }
  return v;
}

}  // namespace fluxview::render
