// Every solver family compiled into fluxview. A new family adds one line here.
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/fd/FdSolver.hpp"
#include "sim/fv/FvSolver.hpp"
#include "sim/heat/HeatSolver.hpp"

namespace fluxview {

const std::vector<SolverFamily>& solver_families() {
  static const std::vector<SolverFamily> families = {
      heat::family(),
      fd::family(),
      fv::family(),
  };
  return families;
}

const SolverFamily& find_family(const std::string& name) {
  std::string names;
  for (const auto& f : solver_families()) {
    if (f.name == name) return f;
    names += (names.empty() ? "" : ", ") + f.name;
  }
  throw ConfigError("unknown solver '" + name + "'; allowed: " + names);
}

}  // namespace fluxview
