#include "sim/core/Parameter.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <system_error>
#include <type_traits>
#include <utility>

#include "sim/core/ConfigError.hpp"

namespace fluxview {

namespace {

std::string fmt_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream o;
  o.precision(12);
  o << v;
  return o.str();
}

// A bound of a range: integers (of integer keys) as format_integer writes them.
std::string fmt_bound(double v, bool integer) {
  if (integer && std::isfinite(v) && std::fabs(v) < 9.2e18) return format_integer(std::int64_t(v));
  return fmt_number(v);
}

std::string with_unit(const ParamSpec& s) {
  return s.unit.empty() ? "" : " " + s.unit;
}

// Levenshtein distance, for "did you mean" suggestions on unknown keys.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string ParamSpec::allowed() const {
  switch (type) {
    case ParamType::boolean:
      return "true or false";
    case ParamType::text:
      return "any text";
    case ParamType::choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
      return s;
    }
    case ParamType::integer:
    case ParamType::real: {
      const bool integer = type == ParamType::integer;
      std::string s = integer ? "an integer" : "a number";
      const bool lo = std::isfinite(min), hi = std::isfinite(max);
      if (lo && hi)
        s += std::string(" in ") + (min_exclusive ? "(" : "[") + fmt_bound(min, integer) + ", " +
             fmt_bound(max, integer) + "]";
      else if (lo)
        s += (min_exclusive ? " > " : " >= ") + fmt_bound(min, integer);
      else if (hi)
        s += " <= " + fmt_bound(max, integer);
      return s + with_unit(*this);
    }
  }
  return "";
}

ParamSpec real_param(std::string key, double def, std::string unit, double min, double max,
                     std::string description, bool min_exclusive) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::real;
  s.default_value = def;
  s.unit = std::move(unit);
  s.min = min;
  s.max = max;
  s.min_exclusive = min_exclusive;
  s.description = std::move(description);
  return s;
}

ParamSpec int_param(std::string key, std::int64_t def, std::string unit, std::int64_t min,
                    std::int64_t max, std::string description) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::integer;
  s.default_value = def;
  s.unit = std::move(unit);
  s.min = double(min);
  s.max = double(max);
  s.description = std::move(description);
  return s;
}

ParamSpec bool_param(std::string key, bool def, std::string description) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::boolean;
  s.default_value = def;
  s.description = std::move(description);
  return s;
}

ParamSpec choice_param(std::string key, std::string def, std::vector<std::string> choices,
                       std::string description) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::choice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.description = std::move(description);
  return s;
}

ParamSpec text_param(std::string key, std::string def, std::string description) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::text;
  s.default_value = std::move(def);
  s.description = std::move(description);
  return s;
}

std::string format_integer(std::int64_t v) {
  if (v >= (std::int64_t(1) << 20) && (v & (v - 1)) == 0) {
    int e = 0;
    while ((std::int64_t(1) << e) != v) ++e;
    return "2^" + std::to_string(e);
  }
  return std::to_string(v);
}

std::string format_value(const ParamValue& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) return fmt_number(*d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

ParamSet::ParamSet(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) values_[s.key] = s.default_value;
}

const ParamSpec* ParamSet::find(const std::string& key) const {
  for (const auto& s : specs_)
    if (s.key == key) return &s;
  return nullptr;
}

const ParamSpec& ParamSet::spec(const std::string& key) const {
  if (const ParamSpec* s = find(key)) return *s;
  unknown_key(key, "");
}

void ParamSet::unknown_key(const std::string& key, const std::string& origin) const {
  std::string best;
  std::size_t best_d = 4;  // suggest only close matches
  for (const auto& s : specs_) {
    const std::size_t d = edit_distance(key, s.key);
    if (d < best_d) best_d = d, best = s.key;
  }
  std::string msg = (origin.empty() ? "" : origin + ": ") + "unknown key '" + key + "'";
  if (!best.empty()) msg += " (did you mean '" + best + "'?)";
  msg += "; `fluxview list SCENARIO` lists the keys";
  throw ConfigError(msg);
}

void ParamSet::assign_text(const std::string& key, const std::string& text,
                           const std::string& origin) {
  const ParamSpec* s = find(key);
  if (!s) unknown_key(key, origin);
  auto bad = [&]() -> ConfigError {
    return ConfigError(origin + ": " + key + " = '" + text + "' is not " + s->allowed());
  };
  switch (s->type) {
    case ParamType::integer: {
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || p != text.data() + text.size()) throw bad();
      return assign(key, v, origin);
    }
    case ParamType::real: {
      // std::from_chars for double is in GCC 11+; accept what strtod accepts, wholly.
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) throw bad();
      return assign(key, v, origin);
    }
    case ParamType::boolean:
      if (text == "true" || text == "1" || text == "on" || text == "yes")
        return assign(key, true, origin);
      if (text == "false" || text == "0" || text == "off" || text == "no")
        return assign(key, false, origin);
      throw bad();
    case ParamType::choice:
    case ParamType::text:
      return assign(key, text, origin);
  }
}

void ParamSet::assign(const std::string& key, const ParamValue& value, const std::string& origin) {
  const ParamSpec* s = find(key);
  if (!s) unknown_key(key, origin);
  const std::string where = origin.empty() ? "" : origin + ": ";
  auto reject = [&](const std::string& why) -> ConfigError {
    return ConfigError(where + key + " = " + format_value(value) + " " + why +
                       "; allowed: " + s->allowed() + " (" + s->description + ")");
  };
  ParamValue v = value;
  switch (s->type) {
    case ParamType::integer: {
      if (std::holds_alternative<double>(v)) {
        const double d = std::get<double>(v);
        if (!std::isfinite(d) || d != std::floor(d)) throw reject("is not an integer");
        // Range first: converting a double beyond int64 is undefined (found by tests/fuzz).
        if (d < s->min || d > s->max) throw reject("is out of range");
        v = std::int64_t(d);
      }
      if (!std::holds_alternative<std::int64_t>(v)) throw reject("has the wrong type");
      const double d = double(std::get<std::int64_t>(v));
      if (d < s->min || d > s->max) throw reject("is out of range");
      break;
    }
    case ParamType::real: {
      if (std::holds_alternative<std::int64_t>(v)) v = double(std::get<std::int64_t>(v));
      if (!std::holds_alternative<double>(v)) throw reject("has the wrong type");
      const double d = std::get<double>(v);
      if (!std::isfinite(d)) throw reject("is not a finite number");
      if (d < s->min || d > s->max || (s->min_exclusive && d == s->min))
        throw reject("is out of range");
      break;
    }
    case ParamType::boolean:
      if (!std::holds_alternative<bool>(v)) throw reject("has the wrong type");
      break;
    case ParamType::choice:
      if (!std::holds_alternative<std::string>(v)) throw reject("has the wrong type");
      if (std::find(s->choices.begin(), s->choices.end(), std::get<std::string>(v)) ==
          s->choices.end())
        throw reject("is not a known choice");
      break;
    case ParamType::text:
      if (!std::holds_alternative<std::string>(v)) throw reject("has the wrong type");
      break;
  }
  values_[key] = v;
  explicit_[key] = true;
}

const ParamValue& ParamSet::get(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) unknown_key(key, "internal");
  return it->second;
}
std::int64_t ParamSet::get_int(const std::string& key) const {
  return std::get<std::int64_t>(get(key));
}
double ParamSet::get_real(const std::string& key) const {
  return std::get<double>(get(key));
}
bool ParamSet::get_bool(const std::string& key) const {
  return std::get<bool>(get(key));
}
const std::string& ParamSet::get_string(const std::string& key) const {
  return std::get<std::string>(get(key));
}

}  // namespace fluxview
