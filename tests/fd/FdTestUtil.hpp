#pragma once
// Helpers shared by the fd tests: running a scenario on a backend and reading fields.
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::fd::test {

inline std::unique_ptr<Solver> make(const std::string& scenario,
                                    const std::vector<std::string>& set,
                                    BackendKind b = BackendKind::cpu,
                                    Precision p = Precision::f64) {
  const Scenario s = load_scenario(scenario, set);
  auto solver = find_family(s.solver).create(b, p);
  solver->reset(s.params);
  return solver;
}

// Interior of a field as doubles, x fastest.
inline std::vector<double> values(const Solver& s, const std::string& name) {
  const HostArray h = gather_interior(s.view(name));
  std::vector<double> v(h.count());
  for (std::int64_t i = 0; i < h.count(); ++i) v[i] = h.at(i);
  return v;
}

inline double diagnostic(Solver& s, const std::string& name) {
  for (const auto& d : s.diagnostics())
    if (d.name == name) return d.value;
  return NAN;
}

}  // namespace fluxview::fd::test
