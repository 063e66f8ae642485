// The fd family's host backend (the loops of FdLoops.hpp on the host), the choice of
// backend for a run, and the names of the methods.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/ExecHost.hpp"
#include "sim/fd/FdLoops.hpp"

namespace fluxview::fd {

template <class T>
void substep_on(const exec::Host& space, Method m, const SubstepArgs<T>& a) {
  substep_by_points(space, formulation_of(m), a);
}

template <class T>
std::unique_ptr<FdBackend<T>> make_host_backend() {
  return std::make_unique<FdBackendOn<exec::Host, T>>();
}

template <class T>
std::unique_ptr<FdBackend<T>> make_backend(BackendKind backend) {
  return backend_for(
      backend, [] { return make_host_backend<T>(); }, [] { return make_device_backend<T>(); });
}

template std::unique_ptr<FdBackend<float>> make_backend<float>(BackendKind);
template std::unique_ptr<FdBackend<double>> make_backend<double>(BackendKind);

const std::vector<std::string>& method_names() {
  static const std::vector<std::string> names = {"55point", "19point", "fast", "direct55"};
  return names;
}

Method parse_method(std::string_view name) {
  const auto& n = method_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return Method(i);
  return Method::fast;
}

std::string_view method_name(Method m) {
  return method_names()[std::size_t(m)];
}

// "fast" runs the two-pass formulation (its unblocked CUDA kernels measured fastest,
// docs/performance.md); the host computes the same formulation, so the backends agree.
Formulation formulation_of(Method m) {
  switch (m) {
    case Method::p55:
    case Method::direct55:
      return Formulation::m55;
    default:
      return Formulation::m19;
  }
}

}  // namespace fluxview::fd
