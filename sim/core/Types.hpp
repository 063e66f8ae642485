#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace fluxview {

// Where a run computes. `cuda` needs a build with CUDA and a device at run time.
enum class BackendKind { cpu, cuda };
// The real type of a run, chosen at run time; solvers are templates on it.
enum class Precision { f32, f64 };
// Where a buffer lives.
enum class Location { host, device };
// Whether values sit at cell centres (finite volume, finite difference) or at grid
// points (the heat solver's nodes, whose Dirichlet walls are points too).
enum class Centering { cell, point };

std::string_view to_string(BackendKind b);
std::string_view to_string(Precision p);
std::string_view to_string(Location l);
std::optional<BackendKind> parse_backend(std::string_view s);
std::optional<Precision> parse_precision(std::string_view s);

constexpr int bytes_of(Precision p) {
  return p == Precision::f32 ? 4 : 8;
}

template <class T>
constexpr Precision precision_of() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  return sizeof(T) == 4 ? Precision::f32 : Precision::f64;
}

}  // namespace fluxview
