#include "render/ViewSettings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "render/GlResources.hpp"
#include "render/SliceSpec.hpp"

namespace fluxview::render {

int slice_index(float fraction, int n) {
  return std::clamp(int(std::floor(fraction * n)), 0, n - 1);
}

SlicePlan plan_slices(const std::array<int, 3>& n, const ViewSettings& vs) {
  SlicePlan p;
  for (int a = 0; a < 3; ++a) {
    const auto ax = slice_axes(a);
    // A slice is worth drawing when it is a plane: both of its axes have cells, or the
    // problem has fewer dimensions and this is its only plane.
    p.shown[a] = vs.mode == ViewMode::slice2d ? a == vs.axis : (n[ax[0]] > 1 && n[ax[1]] > 1);
    p.index[a] = slice_index(vs.position[a], n[a]);
  }
  if (vs.mode == ViewMode::slices3d && !(p.shown[0] || p.shown[1] || p.shown[2]))
    p.shown[2] = true;  // a 1D problem: its single row
  return p;
}

ViewMode parse_view_mode(const std::string& s) {
  if (s == "2d") return ViewMode::slice2d;
  if (s == "3d") return ViewMode::slices3d;
  throw std::invalid_argument("view '" + s + "'; allowed: 2d, 3d");
}

nlohmann::json to_json(const ViewSettings& v) {
  return {{"field", v.field},
          {"view", v.mode == ViewMode::slice2d ? "2d" : "3d"},
          {"axis", v.axis},
          {"position", v.position},
          {"colormap", v.colormap},
          {"auto_range", v.auto_range},
          {"range", {v.lo, v.hi}},
          {"log_scale", v.log_scale},
          {"colorbar", v.colorbar},
          {"camera", {{"yaw", v.yaw}, {"pitch", v.pitch}, {"distance", v.distance}}}};
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
    if (j.contains("camera")) {
      const auto& c = j.at("camera");
      v.yaw = c.value("yaw", v.yaw);
      v.pitch = c.value("pitch", v.pitch);
      v.distance = c.value("distance", v.distance);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("view state: ") + e.what());
  }
  return v;
}

}  // namespace fluxview::render
