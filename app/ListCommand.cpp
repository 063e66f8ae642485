#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "app/Commands.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

int list_command(bool with_params, const std::string& scenario) {
  if (!scenario.empty()) {
    // Every key of the scenario's solver, with its value here, unit, range and meaning.
    const Scenario s = load_scenario(scenario);
    std::cout << s.name << " (" << s.solver << "): " << s.description << "\n";
    std::cout << "  grid.n sets grid.nx, grid.ny and grid.nz at once\n";
    for (const ParamSpec& p : s.params.specs())
      std::cout << "  " << std::left << std::setw(22) << p.key << " = " << std::setw(12)
                << format_value(s.params.get(p.key)) << " " << p.description << "; " << p.allowed()
                << "\n";
    return kExitOk;
  }
  for (const auto& b : builtin_scenarios()) {
    const Scenario s = parse_scenario(b.toml, b.name);
    std::cout << std::left << std::setw(26) << b.name << s.description << "\n";
  }
  if (with_params) {
    std::cout << "\nsolvers:\n";
    for (const auto& f : solver_families())
      std::cout << "  " << std::setw(8) << f.name << f.description << "\n";
  }
  std::cout << "\n`fluxview list SCENARIO` lists every parameter of a scenario.\n";
  return kExitOk;
}

}  // namespace fluxview::app
