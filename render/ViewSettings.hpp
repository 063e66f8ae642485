#pragma once
#include <algorithm>
#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "render/TransferFunction.hpp"

namespace fluxview::render {

// The 2D view (one slice) or the 3D view (a box seen by an orbit camera, holding the
// layers switched on in SceneLayers).
enum class ViewMode { slice2d, slices3d };

// What the 3D view draws, composed with correct depth (ViewRenderer).
struct SceneLayers {
  bool slices = true;   // three orthogonal slices
  bool volume = false;  // the field ray-marched through its transfer function
  bool iso = false;     // isosurfaces of the field
  bool lines = false;   // streamlines (or field lines) of a vector field
  bool operator==(const SceneLayers&) const = default;
};

// Empty-space skipping of the ray marcher: bricks of 8^3 cells whose values the transfer
// function makes transparent (and that no isosurface crosses) are stepped over whole.
enum class Skipping { automatic, on, off };

struct VolumeSettings {
  TransferFunction transfer;
  float step = 0.5f;      // ray-marching step in cells (of the smallest spacing), (0, 4]
  bool lighting = false;  // shade by the field's gradient (a headlight)
  Skipping skipping = Skipping::automatic;  // automatic: where it pays (docs/gui.md)
  bool operator==(const VolumeSettings&) const = default;
};

struct IsoSettings {
  // Iso-values in the field's unit, at most kMaxIsoValues; empty: one surface at the
  // middle of the colour range.
  std::vector<double> values;
  // Empty: each surface takes the colormap's colour at its iso-value; else the surface
  // is coloured by this second field (over that field's own range).
  std::string color_field;
  float opacity = 1.0f;  // of each surface, (0, 1]: below 1 nested surfaces show through
  bool operator==(const IsoSettings&) const = default;
};
inline constexpr int kMaxIsoValues = 4;

enum class SeedKind { plane, point };

// Streamlines of the vector field (field[0], field[1], field[2]), integrated by RK4 both
// ways from each seed along the normalised field, a fixed length in cells per step.
struct LineSettings {
  std::array<std::string, 3> field{"ux", "uy", "uz"};
  SeedKind seed = SeedKind::plane;
  // plane: a seeds x seeds grid on the plane normal to seed_axis at seed_position (a
  // fraction of the box); point: seeds^2 seeds in a ball of radius seed_radius (a
  // fraction of the box's longest side) around seed_point (fractions of the box).
  int seed_axis = 0;
  float seed_position = 0.5f;
  int seeds = 12;
  std::array<float, 3> seed_point{0.5f, 0.5f, 0.5f};
  float seed_radius = 0.1f;
  int steps = 200;    // RK4 steps each way from a seed
  float step = 0.5f;  // cells a step
  bool operator==(const LineSettings&) const = default;
};

// What a view shows and how: everything the GUI's view panel sets, saved and loaded as
// JSON (the "view file") and what `fluxview run --render-*` draws.
struct ViewSettings {
  std::string field;  // empty: the solver's first field; also "speed" and "vorticity"
  ViewMode mode = ViewMode::slice2d;
  int axis = 2;  // normal of the 2D slice: 0 x, 1 y, 2 z
  // Slice positions as fractions of the box along x, y, z (the 2D view uses position[axis]).
  std::array<float, 3> position{0.5f, 0.5f, 0.5f};
  std::string colormap = "viridis";
  bool auto_range = true;  // the field's current min and max
  double lo = 0, hi = 1;   // the fixed range
  bool log_scale = false;
  bool colorbar = true;
  // The 2D view of a run on the adaptive mesh: each block the slice cuts outlined in its
  // level's colour (render/BlockOutlines.hpp); nothing on a uniform grid.
  bool block_outlines = false;
  // Orbit camera of the 3D view: angles in radians, distance in box diagonals.
  float yaw = 0.7f, pitch = 0.5f, distance = 2.2f;
  SceneLayers layers;
  VolumeSettings volume;
  IsoSettings iso;
  LineSettings lines;
};

nlohmann::json to_json(const ViewSettings& v);
// Keys missing from `j` keep their defaults; throws std::invalid_argument for a bad value,
// naming the key and what is allowed.
ViewSettings view_settings_from_json(const nlohmann::json& j);
ViewMode parse_view_mode(const std::string& s);  // "2d" or "3d"; throws std::invalid_argument
// The views `--render-view` names: 2d, or the 3D view's layers joined by '+' from 3d
// (slices), volume, iso and lines, e.g. "volume+lines". Sets mode and layers; throws
// std::invalid_argument naming what is allowed.
void apply_view_name(ViewSettings& v, const std::string& name);
// The name apply_view_name takes for the view's mode and layers ("2d", "iso+lines", ...).
std::string view_name(const ViewSettings& v);

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
