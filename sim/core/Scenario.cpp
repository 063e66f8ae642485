#include "sim/core/Scenario.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/core/TomlText.hpp"

namespace fluxview {

// Defined in the source generated from assets/scenarios (cmake/FluxviewEmbed.cmake).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_scenarios();

namespace {

// Assigns one key, with `grid.n` standing for all three axes.
void assign_key(ParamSet& p, const std::string& key, const ParamValue& v,
                const std::string& origin) {
  if (key == "grid.n") {
    for (const char* k : {"grid.nx", "grid.ny", "grid.nz"}) p.assign(k, v, origin);
    return;
  }
  p.assign(key, v, origin);
}

void assign_key_text(ParamSet& p, const std::string& key, const std::string& text,
                     const std::string& origin) {
  if (key == "grid.n") {
    for (const char* k : {"grid.nx", "grid.ny", "grid.nz"}) p.assign_text(k, text, origin);
    return;
  }
  p.assign_text(key, text, origin);
}

ParamValue to_value(const toml::node& node, const std::string& key, const std::string& origin) {
  if (auto v = node.value_exact<std::int64_t>()) return *v;
  if (auto v = node.value_exact<double>()) return *v;
  if (auto v = node.value_exact<bool>()) return *v;
  if (auto v = node.value_exact<std::string>()) return *v;
  throw ConfigError(origin + ": " + key +
                    " must be a number, a boolean or a string (arrays and dates are not "
                    "parameters)");
}

// Flattens nested tables into dotted keys, in file order of tables.
void flatten(const toml::table& t, const std::string& prefix,
             std::vector<std::pair<std::string, const toml::node*>>& out) {
  for (const auto& [k, node] : t) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = node.as_table())
      flatten(*sub, key, out);
    else
      out.emplace_back(key, &node);
  }
}

}  // namespace

std::vector<BuiltinScenario> builtin_scenarios() {
  std::vector<BuiltinScenario> out;
  for (const auto& [path, text] : embedded_scenarios()) {
    std::string name(path);
    if (name.size() > 5 && name.ends_with(".toml")) name.resize(name.size() - 5);
    out.push_back({name, text});
  }
  return out;
}

Scenario parse_scenario(std::string_view toml_text, const std::string& origin) {
  const toml::table root = parse_toml_text(toml_text, origin, "scenario files");
  const toml::table* head = root["scenario"].as_table();
  if (!head)
    throw ConfigError(origin +
                      ": missing [scenario] table with solver = \"heat\", \"fd\" or \"fv\"");
  Scenario s;
  s.name = origin;
  auto solver = (*head)["solver"].value<std::string>();
  if (!solver) throw ConfigError(origin + ": [scenario] needs solver = \"heat\", \"fd\" or \"fv\"");
  s.solver = *solver;
  s.description = (*head)["description"].value_or(std::string());
  for (const auto& [k, node] : *head) {
    const std::string key(k.str());
    if (key != "solver" && key != "description" && key != "name")
      throw ConfigError(origin + ": unknown key 'scenario." + key +
                        "'; [scenario] takes solver, description and name");
  }
  const SolverFamily& fam = find_family(s.solver);
  std::vector<ParamSpec> specs = common_params(fam.default_n, fam.default_length);
  specs.insert(specs.end(), fam.params.begin(), fam.params.end());
  s.params = ParamSet(std::move(specs));

  std::vector<std::pair<std::string, const toml::node*>> entries;
  for (const auto& [k, node] : root) {
    if (k.str() == "scenario") continue;
    if (const toml::table* t = node.as_table())
      flatten(*t, std::string(k.str()), entries);
    else
      entries.emplace_back(std::string(k.str()), &node);
  }
  // grid.n first, so that grid.nx/ny/nz in the same file refine it.
  std::stable_partition(entries.begin(), entries.end(),
                        [](const auto& e) { return e.first == "grid.n"; });
  for (const auto& [key, node] : entries)
    assign_key(s.params, key, to_value(*node, key, origin), origin);
  return s;
}

void apply_override(Scenario& s, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set '" + assignment +
                      "' is not of the form key=value (for example --set grid.n=64)");
  std::string key = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  // Surrounding blanks and quotes are noise from shells and copy-paste.
  auto trim = [](std::string& t) {
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(t.begin());
  };
  trim(key);
  trim(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  assign_key_text(s.params, key, text, "--set " + key);
}

Scenario load_scenario(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  Scenario s;
  bool found = false;
  for (const auto& b : builtin_scenarios())
    if (b.name == name_or_path) {
      s = parse_scenario(b.toml, b.name);
      s.name = b.name;
      found = true;
      break;
    }
  if (!found) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_regular_file(name_or_path, ec)) {
      std::string names;
      for (const auto& b : builtin_scenarios()) names += (names.empty() ? "" : ", ") + b.name;
      throw ConfigError("unknown scenario '" + name_or_path + "': not a built-in (" + names +
                        ") and not a readable .toml file");
    }
    std::ifstream in(name_or_path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof())
      throw ConfigError("cannot read scenario file '" + name_or_path + "'");
    s = parse_scenario(text.str(), name_or_path);
  }
  for (const auto& o : overrides) apply_override(s, o);
  const SolverFamily& fam = find_family(s.solver);
  if (fam.validate) fam.validate(s.params);
  return s;
}

}  // namespace fluxview
