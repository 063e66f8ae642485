#pragma once
// Fields a view shows beyond a solver's own: "speed" |u| and "vorticity" |curl u|, from
// the velocity fields ux, uy, uz (fd and fv), computed where the velocity lives (a CUDA
// kernel on the device, an OpenMP loop on the host: DerivedFieldMath.hpp) into a float
// field that slices, volume and isosurfaces then read like any other.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "render/DerivedFieldMath.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

// speed and vorticity where the solver has ux, uy and uz; none otherwise.
std::vector<FieldInfo> derived_fields(const Solver& s);
// The kind a name asks for, if it names a derived field.
std::optional<DerivedKind> derived_kind(const std::string& name);

// Writes the derived field of the velocity `u` (three views of one layout and location,
// either precision) into `out`, floats laid out by `out_layout`, on the velocity's side.
void compute_derived(DerivedKind kind, const FieldView u[3], const std::array<double, 3>& spacing,
                     float* out, const FieldLayout& out_layout);

// Owns the storage of one derived field and hands out views of it.
class DerivedField {
 public:
  // The derived field `name` of the solver's current state. Throws std::out_of_range
  // when the solver has no velocity to derive it from.
  FieldView compute(const Solver& s, const std::string& name);

 private:
  Buffer buffer_;
};

// A field a view can show by name: the solver's own, else a derived one computed into
// `derived`. Throws std::out_of_range naming the fields there are.
FieldView resolve_view_field(const Solver& s, const std::string& name, DerivedField& derived);

}  // namespace fluxview::render
