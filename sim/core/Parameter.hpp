#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace fluxview {

enum class ParamType { integer, real, boolean, choice, text };

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

// What a parameter is: its dotted key, type, unit, allowed range (inclusive, or
// exclusive at the lower end where `min_exclusive`), default and the one-line
// description that the GUI's tooltips and `fluxview list SCENARIO` show.
struct ParamSpec {
  std::string key;
  ParamType type = ParamType::real;
  ParamValue default_value;
  std::string unit;  // "" for dimensionless
  std::string description;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  std::vector<std::string> choices;  // for ParamType::choice
  // Steering (sim/core/Steering.hpp): whether a running solver takes a new value at its
  // next step (Solver::set_live); where it does not, `fixed_because` says why (the GUI
  // shows it on hover). Each family marks its keys (its ...Family.cpp).
  bool live = false;
  std::string fixed_because;

  std::string allowed() const;  // "an integer in [1, 4096]", "one of hll, hllc", ...
};

// Shorthands for building spec tables that read like a table.
ParamSpec real_param(std::string key, double def, std::string unit, double min, double max,
                     std::string description, bool min_exclusive = false);
ParamSpec int_param(std::string key, std::int64_t def, std::string unit, std::int64_t min,
                    std::int64_t max, std::string description);
ParamSpec bool_param(std::string key, bool def, std::string description);
ParamSpec choice_param(std::string key, std::string def, std::vector<std::string> choices,
                       std::string description);
ParamSpec text_param(std::string key, std::string def, std::string description);

std::string format_value(const ParamValue& v);
// An integer bound as people read it: "16384", and powers of two from 2^20 on as "2^40".
std::string format_integer(std::int64_t v);

// The resolved parameters of a run: every key of the solver's spec with a checked
// value. Assignment parses and checks; getters never fail for a known key.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(std::vector<ParamSpec> specs);

  // Parses `text` (from --set) for `key` and assigns it; throws ConfigError.
  void assign_text(const std::string& key, const std::string& text, const std::string& origin);
  // Assigns a typed value (from TOML); throws ConfigError.
  void assign(const std::string& key, const ParamValue& value, const std::string& origin);

  std::int64_t get_int(const std::string& key) const;
  double get_real(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;
  const ParamValue& get(const std::string& key) const;
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  // Whether the user (scenario or --set) gave the key, rather than the default.
  bool is_set(const std::string& key) const { return explicit_.count(key) != 0; }

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec& spec(const std::string& key) const;
  const std::map<std::string, ParamValue>& values() const { return values_; }

 private:
  const ParamSpec* find(const std::string& key) const;
  [[noreturn]] void unknown_key(const std::string& key, const std::string& origin) const;
  std::vector<ParamSpec> specs_;
  std::map<std::string, ParamValue> values_;
  std::map<std::string, bool> explicit_;
};

}  // namespace fluxview
