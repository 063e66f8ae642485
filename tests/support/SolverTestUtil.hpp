#pragma once
// Helpers shared by the solver tests: a solver made from a built-in scenario with
// overrides, a field's interior as doubles, a diagnostic by name.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::test {

inline std::unique_ptr<Solver> make_solver(const std::string& scenario,
                                           const std::vector<std::string>& overrides,
                                           BackendKind backend = BackendKind::cpu,
                                           Precision precision = Precision::f64) {
  const Scenario s = load_scenario(scenario, overrides);
  auto solver = find_family(s.solver).create(backend, precision);
  solver->reset(s.params);
  return solver;
}

// The interior of a field as doubles, x fastest.
inline std::vector<double> interior_values(const Solver& s, const std::string& field) {
  const HostArray h = gather_interior(s.view(field));
  std::vector<double> v(h.count());
  for (std::int64_t i = 0; i < h.count(); ++i) v[i] = h.at(i);
  return v;
}

// max |a - b| over max |b| for one field of two solvers on the same grid.
inline double max_relative_difference(const Solver& a, const Solver& b, const std::string& field) {
  const auto x = interior_values(a, field), y = interior_values(b, field);
  double d = 0, m = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d = std::max(d, std::fabs(x[i] - y[i]));
    m = std::max(m, std::fabs(y[i]));
  }
  // Equal fields differ by 0 even where both are 0 everywhere (a velocity component at
  // rest); a field of zeros against one that is not gives infinity.
  return d == 0 ? 0.0 : d / m;
}

inline double diagnostic(Solver& s, const std::string& name) {
  for (const auto& d : s.diagnostics())
    if (d.name == name) return d.value;
  throw std::out_of_range("no diagnostic " + name);
}

}  // namespace fluxview::test
