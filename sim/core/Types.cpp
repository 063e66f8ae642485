#include <string>

#include "sim/core/Types.hpp"

namespace fluxview {

std::string_view to_string(BackendKind b) {
  return b == BackendKind::cpu ? "cpu" : "cuda";
}
std::string_view to_string(Precision p) {
  return p == Precision::f32 ? "float" : "double";
}
std::string_view to_string(Location l) {
  return l == Location::host ? "host" : "device";
}

std::optional<BackendKind> parse_backend(std::string_view s) {
  if (s == "cpu") return BackendKind::cpu;
  if (s == "cuda") return BackendKind::cuda;
  return std::nullopt;
}

std::optional<Precision> parse_precision(std::string_view s) {
  if (s == "float" || s == "f32" || s == "single") return Precision::f32;
  if (s == "double" || s == "f64") return Precision::f64;
  return std::nullopt;
}

}  // namespace fluxview
