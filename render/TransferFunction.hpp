#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace fluxview::render {

// How the volume view turns a value into colour and opacity. The colour comes from the
// view's colormap (ViewSettings::colormap) at t, where t in [0, 1] is the value's place
// in the colour range (linear or log, as the colour bar); the opacity is a piecewise
// linear curve of t through control points. An opacity is what one cell of thickness
// absorbs: a ray through d cells at constant opacity a keeps (1 - a)^d of the light
// behind it, whatever the step the ray marcher takes.
struct OpacityPoint {
  float t = 0;        // place in the colour range, [0, 1]
  float opacity = 0;  // [0, 1]
  bool operator==(const OpacityPoint&) const = default;
};

struct TransferFunction {
  std::vector<OpacityPoint> points{{0.0f, 0.0f}, {1.0f, 0.25f}};  // sorted by t, at least one
  bool operator==(const TransferFunction&) const = default;

  // The curve at t (constant beyond the first and last points).
  float opacity_at(float t) const;
  // Adds a point (keeping the order), or replaces one at the same t.
  void add_point(float t, float opacity);
  // Removes point i unless it is the last one left.
  void remove_point(std::size_t i);
  // Sorts, clamps to [0, 1] and drops points with the same t.
  void normalise();
};

// Presets for the kinds of field people look at, each with the colormap that suits it.
struct TransferPreset {
  const char* name;
  const char* colormap;
  const char* description;
  TransferFunction function;
};
const std::vector<TransferPreset>& transfer_presets();
// Throws std::invalid_argument naming the presets for an unknown name.
const TransferPreset& transfer_preset(const std::string& name);
// The preset that suits a field by its name: temperature for T, vorticity for vorticity,
// density for rho, lnrho and p, ramp for anything else.
const TransferPreset& preset_for_field(const std::string& field);

// 256 RGBA entries (float, 0..1), t = i / 255: the colormap's colour and the opacity.
std::vector<std::array<float, 4>> transfer_table(const TransferFunction& f,
                                                 const std::string& colormap);
// For empty-space skipping: entry (i, j), i <= j, is the largest opacity over table
// entries i..j (256 x 256, row j, column i); what the ray marcher looks up for the value
// range of a brick of cells. Entries with i > j hold the same as (j, i).
std::vector<float> max_opacity_table(const TransferFunction& f);

nlohmann::json to_json(const TransferFunction& f);
// Throws std::invalid_argument for a malformed curve (not [[t, opacity], ...], values
// outside [0, 1], no points).
TransferFunction transfer_function_from_json(const nlohmann::json& j);

}  // namespace fluxview::render
