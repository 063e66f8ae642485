#include "sim/core/Steering.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <system_error>
#include <utility>
#include <variant>

#include "sim/core/ConfigError.hpp"

namespace fluxview {

namespace {

bool matches(const std::string& pattern, const std::string& key) {
  if (!pattern.empty() && pattern.back() == '*')
    return key.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return pattern == key;
}

}  // namespace

void mark_live(std::vector<ParamSpec>& specs, const std::vector<LiveRule>& rules) {
  for (ParamSpec& s : specs) {
    const auto rule = std::find_if(rules.begin(), rules.end(),
                                   [&](const LiveRule& r) { return matches(r.pattern, s.key); });
    if (rule == rules.end())
      throw std::logic_error("steering: no live rule says whether '" + s.key +
                             "' may change while the solver runs");
    s.live = rule->live;
    s.fixed_because = rule->live ? "" : rule->fixed_because;
  }
}

ParamSet live_change(const ParamSet& current, const std::string& key, const ParamValue& value,
                     const std::function<void(const ParamSet&)>& validate) {
  ParamSet next = current;
  try {
    const ParamSpec& spec = current.spec(key);
    if (!spec.live)
      throw SteeringError(key + " cannot change while the run goes: " + spec.fixed_because);
    next.assign(key, value, "live change");
    if (validate) validate(next);
  } catch (const ConfigError& e) {
    throw SteeringError(e.what());
  }
  return next;
}

double ToolCall::arg(const std::string& name) const {
  const auto it = args.find(name);
  if (it == args.end()) throw std::out_of_range("tool " + tool + " has no argument '" + name + "'");
  return it->second;
}

double ToolReport::amount(const std::string& name) const {
  for (const ToolAmount& a : amounts)
    if (a.name == name) return a.value;
  throw std::out_of_range("tool report has no amount '" + name + "'");
}

std::vector<ParamSpec> brush_args(const std::array<double, 3>& box) {
  const double smallest = std::min({box[0], box[1], box[2]});
  const double inf = INFINITY;
  return {
      real_param("x", 0.5 * box[0], "m", -inf, inf, "centre x"),
      real_param("y", 0.5 * box[1], "m", -inf, inf, "centre y"),
      real_param("z", 0.5 * box[2], "m", -inf, inf, "centre z (ignored in a 2D run)"),
      real_param("radius", 0.1 * smallest, "m", 0, inf, "radius of the brush", true),
  };
}

const ToolSpec& find_tool(const std::vector<ToolSpec>& tools, const std::string& name,
                          const std::string& origin) {
  for (const ToolSpec& t : tools)
    if (t.name == name) return t;
  std::string names;
  for (const ToolSpec& t : tools) names += (names.empty() ? "" : ", ") + t.name;
  throw ConfigError((origin.empty() ? "" : origin + ": ") + "unknown tool '" + name +
                    "'; allowed: " + (names.empty() ? "none (this solver has no tools)" : names));
}

ToolCall resolve_tool_call(const std::vector<ToolSpec>& tools, const ToolCall& call,
                           const std::string& origin) {
  const ToolSpec& spec = find_tool(tools, call.tool, origin);
  // A ParamSet checks each argument as it checks a scenario's keys, with the same messages.
  ParamSet args(spec.args);
  const std::string where = (origin.empty() ? "" : origin + ": ") + "tool " + spec.name;
  for (const auto& [name, value] : call.args) {
    bool known = false;
    for (const ParamSpec& a : spec.args) known = known || a.key == name;
    if (!known) {
      std::string names;
      for (const ParamSpec& a : spec.args) names += (names.empty() ? "" : ", ") + a.key;
      throw ConfigError(where + ": unknown argument '" + name + "'; allowed: " + names);
    }
    args.assign(name, value, where);
  }
  ToolCall full;
  full.tool = spec.name;
  for (const ParamSpec& a : spec.args) {
    const ParamValue& v = args.get(a.key);
    if (const auto* i = std::get_if<std::int64_t>(&v))
      full.args[a.key] = double(*i);
    else if (const auto* d = std::get_if<double>(&v))
      full.args[a.key] = *d;
    else
      throw std::logic_error("tool " + spec.name + ": argument " + a.key + " is not a number");
  }
  return full;
}

std::string exact_number(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string short_number(double v) {
  std::ostringstream o;
  o.precision(4);
  o << v;
  return o.str();
}

}  // namespace fluxview
