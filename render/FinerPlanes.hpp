#pragma once
// Slices of the adaptive mesh at its finest: where a solver on the adaptive mesh holds
// finer cells than its view grid (Solver::view, kept small for 3D), each shown slice of one
// of its own fields is taken from Hierarchy::plane_view instead, so the 2D view and the
// slices of the 3D view show the finest block at every pixel. Derived fields of the
// renderer (vorticity, ...) keep the view grid's slices.
#include <array>
#include <optional>
#include <string>

#include "render/ViewSettings.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

using FinerPlanes = std::array<std::optional<FieldView>, 3>;

// The planes through the centres of the slices `plan` shows (n[axis] = 1); none where the
// solver is not on the adaptive mesh, `field` is not one of its fields, or its plane grid
// is no finer than its view grid `s.grid()`. Collective under MPI (every rank gets the
// whole planes).
FinerPlanes finer_planes(const Solver& s, const std::string& field, const SlicePlan& plan);

}  // namespace fluxview::render
