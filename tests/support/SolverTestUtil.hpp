#pragma once
// Helpers shared by the solver tests: a solver made from a built-in scenario with
// overrides, a field's interior as doubles, a diagnostic by name.
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

inline double diagnostic(Solver& s, const std::string& name) {
  for (const auto& d : s.diagnostics())
    if (d.name == name) return d.value;
  throw std::out_of_range("no diagnostic " + name);
}

}  // namespace fluxview::test
