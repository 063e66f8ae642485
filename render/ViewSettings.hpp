#pragma once
#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace fluxview::render {

enum class ViewMode { slice2d, slices3d };

// What a view shows and how: everything the GUI's view panel sets, saved and loaded as
// JSON ("view state") and what `fluxview run --render-*` draws.
struct ViewSettings {
  std::string field;  // empty: the solver's first field
  ViewMode mode = ViewMode::slice2d;
  int axis = 2;  // normal of the 2D slice: 0 x, 1 y, 2 z
  // Slice positions as fractions of the box along x, y, z (the 2D view uses position[axis]).
  std::array<float, 3> position{0.5f, 0.5f, 0.5f};
  std::string colormap = "viridis";
  bool auto_range = true;  // the field's current min and max
  double lo = 0, hi = 1;   // the fixed range
  bool log_scale = false;
  bool colorbar = true;
  // Orbit camera of the 3D view: angles in radians, distance in box diagonals.
  float yaw = 0.7f, pitch = 0.5f, distance = 2.2f;
};

nlohmann::json to_json(const ViewSettings& v);
// Keys missing from `j` keep their defaults; throws std::invalid_argument for a bad value.
ViewSettings view_settings_from_json(const nlohmann::json& j);
ViewMode parse_view_mode(const std::string& s);  // "2d" or "3d"; throws std::invalid_argument

// The interior index a slice position (a fraction of the box) falls on.
int slice_index(float fraction, int n);

// The slices a view shows of a grid of `n` cells per axis (the whole grid, also under
// MPI): the plane normal to axis a through interior index index[a], where shown[a].
struct SlicePlan {
  std::array<bool, 3> shown{false, false, false};
  std::array<int, 3> index{0, 0, 0};
};
SlicePlan plan_slices(const std::array<int, 3>& n, const ViewSettings& vs);

}  // namespace fluxview::render
