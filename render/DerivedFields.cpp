#include "render/DerivedFields.hpp"

#include "render/RenderKernels.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace fluxview::render {

namespace {

bool has_velocity(const Solver& s) {
  int found = 0;
  for (const auto& f : s.fields()) found += f.name == "ux" || f.name == "uy" || f.name == "uz";
  return found == 3;
}

template <class T>
VelocityField<T> velocity_of(const FieldView u[3], const std::array<double, 3>& spacing) {
  VelocityField<T> f;
  for (int c = 0; c < 3; ++c) f.u[c] = static_cast<const T*>(u[c].data);
  f.layout = u[0].layout;
  for (int a = 0; a < 3; ++a) f.inv_h[a] = float(1.0 / spacing[a]);
  return f;
}

template <class T>
void derive_on_host(DerivedKind kind, const FieldView u[3], const std::array<double, 3>& spacing,
                    float* out, const FieldLayout& ol) {
  const VelocityField<T> f = velocity_of<T>(u, spacing);
  const auto& n = f.layout.n;
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) out[ol.index(i, j, k)] = derived_value(kind, f, i, j, k);
}

}  // namespace

std::vector<FieldInfo> derived_fields(const Solver& s) {
  if (!has_velocity(s)) return {};
  std::string u;
  for (const auto& f : s.fields())
    if (f.name == "ux") u = f.unit;
  const std::string per_time = u == "m/s" ? "1/s" : u.empty() ? "" : u + "/m";
  return {{"speed", u, "speed |u| (derived from ux, uy, uz)"},
          {"vorticity", per_time, "vorticity magnitude |curl u| (derived from ux, uy, uz)"}};
}

std::optional<DerivedKind> derived_kind(const std::string& name) {
  if (name == "speed") return DerivedKind::speed;
  if (name == "vorticity") return DerivedKind::vorticity;
  return std::nullopt;
}

void compute_derived(DerivedKind kind, const FieldView u[3], const std::array<double, 3>& spacing,
                     float* out, const FieldLayout& out_layout) {
  for (int c = 1; c < 3; ++c)
    if (u[c].layout.n != u[0].layout.n || u[c].layout.sy != u[0].layout.sy ||
        u[c].layout.sz != u[0].layout.sz || u[c].layout.origin != u[0].layout.origin ||
        u[c].precision != u[0].precision || u[c].where != u[0].where)
      throw std::invalid_argument("derived field: the velocity components " + u[0].name + " and " +
                                  u[c].name + " differ in layout, precision or location");
  if (u[0].where == Location::device) {
    cuda_kernels::compute_derived_device(kind, u, spacing, out, out_layout);
  } else if (u[0].precision == Precision::f64) {
    derive_on_host<double>(kind, u, spacing, out, out_layout);
  } else {
    derive_on_host<float>(kind, u, spacing, out, out_layout);
  }
}

FieldView DerivedField::compute(const Solver& s, const std::string& name) {
  const auto kind = derived_kind(name);
  if (!kind || !has_velocity(s))
    throw std::out_of_range("no field '" + name + "': " +
                            (kind ? "it is derived from ux, uy, uz, which this solver lacks"
                                  : "not a derived field (speed, vorticity)"));
  // fv computes its velocity into buffers when asked: take the three views once.
  const FieldView u[3] = {s.view("ux"), s.view("uy"), s.view("uz")};
  const FieldLayout layout = FieldLayout::make(u[0].layout.n, 0, sizeof(float));
  const std::size_t bytes = std::size_t(layout.bytes());
  if (buffer_.bytes() != bytes || buffer_.where() != u[0].where)
    buffer_ = Buffer(u[0].where, bytes);
  auto* out = static_cast<float*>(buffer_.data());
  compute_derived(*kind, u, s.grid().spacing, out, layout);
  std::string unit;
  for (const auto& f : derived_fields(s))
    if (f.name == name) unit = f.unit;
  return FieldView{name, unit, out, Precision::f32, u[0].where, layout, u[0].centering};
}

FieldView resolve_view_field(const Solver& s, const std::string& name, DerivedField& derived) {
  for (const auto& f : s.fields())
    if (f.name == name) return s.view(name);
  for (const auto& f : derived_fields(s))
    if (f.name == name) return derived.compute(s, name);
  std::string names;
  for (const auto& f : s.fields()) names += (names.empty() ? "" : ", ") + f.name;
  for (const auto& f : derived_fields(s)) names += ", " + f.name;
  throw std::out_of_range("no field '" + name + "'; this solver has " + names);
}

}  // namespace fluxview::render
