#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/Parameter.hpp"

namespace fluxview {

// A run as said by a scenario file plus --set overrides ("one way to say a run",
// docs/dev/architecture.md). The TOML has a [scenario] table (solver, description) and
// one table per key prefix ([grid], [run], [heat], ...); keys are flattened to dotted
// names.
struct Scenario {
  std::string name;         // "heat/hot-wall" or the file's path
  std::string solver;       // family name
  std::string description;  // one line
  ParamSet params;          // every key of the family, checked
};

struct BuiltinScenario {
  std::string name;  // "heat/hot-wall"
  std::string_view toml;
};
// The scenarios embedded in the executable from assets/scenarios/.
std::vector<BuiltinScenario> builtin_scenarios();
// The scenario `fluxview` and `fluxview run` use when none is named.
inline constexpr const char* kDefaultScenario = "heat/hot-spot";

// Parses TOML text into a scenario; `origin` names it in messages. Throws ConfigError.
Scenario parse_scenario(std::string_view toml_text, const std::string& origin);
// A built-in name or a path to a .toml file, with "key=value" overrides applied in
// order, then the family's cross-parameter checks. Throws ConfigError.
Scenario load_scenario(const std::string& name_or_path,
                       const std::vector<std::string>& overrides = {});
// Applies one "key=value" (from --set); `grid.n` sets nx, ny and nz. Throws ConfigError.
void apply_override(Scenario& s, const std::string& assignment);

}  // namespace fluxview
