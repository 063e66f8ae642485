#pragma once
// Steering a running solver (docs/gui.md): parameters that change while it runs, and
// tools that act on its fields. Both apply between two steps, so the next step sees them;
// the journal (Journal.hpp) records each with the step it took effect at, and the Steerer
// (Steerer.hpp) plays a journal back at exactly those steps.
//
// What a family allows is said where its parameters are (its ...Family.cpp: which keys are
// live, and why the others are not) and in its solver (the tools it offers, and what its
// state refuses). The types here are shared by every family, the GUI and the runner.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/Parameter.hpp"

namespace fluxview {

// A change the parameters or the state do not allow. The message says what was refused,
// why, and what is allowed; nothing has changed when it is thrown.
class SteeringError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- live parameters ---------------------------------------------------------------------

// One row of a family's table of which keys are live: a key, or a prefix ending in '*'
// ("fv.kh_*"), and the reason a fixed key is fixed.
struct LiveRule {
  std::string pattern;
  bool live = false;
  std::string fixed_because;
};
inline LiveRule live_key(std::string pattern) {
  return {std::move(pattern), true, ""};
}
inline LiveRule fixed_key(std::string pattern, std::string why) {
  return {std::move(pattern), false, std::move(why)};
}
// The reason shared by the keys of an initial condition.
inline constexpr const char* kInitialConditionReason =
    "it shapes the initial condition, which is built once: press Reset to start again with it";

// Marks each spec by the first rule that matches its key. A spec that no rule matches is a
// programming error (std::logic_error naming the key): a new key cannot be left unsaid.
void mark_live(std::vector<ParamSpec>& specs, const std::vector<LiveRule>& rules);

// The parameters after a live change of `key` to `value`, checked as a scenario would be
// (range, type) and by the family's cross-parameter check `validate`. Throws SteeringError
// for a key that is not live (naming why), an unknown key, or a value refused.
ParamSet live_change(const ParamSet& current, const std::string& key, const ParamValue& value,
                     const std::function<void(const ParamSet&)>& validate);

// ---- tools --------------------------------------------------------------------------------

// A tool a family offers: what the GUI lists and a steering file names. Every tool has the
// brush arguments x, y, z (the centre, in the box's coordinates) and radius; `strength`
// names the argument the GUI's strength slider sets ("" where there is none).
struct ToolSpec {
  std::string name;         // as a journal names it: "heat-spot"
  std::string label;        // as the GUI shows it: "Add or remove heat"
  std::string description;  // one line: what it does, conserves and reports
  std::vector<ParamSpec> args;
  std::string strength;
};

// A tool applied: its name and every argument (after resolve_tool_call, all of the spec's).
struct ToolCall {
  std::string tool;
  std::map<std::string, double> args;
  double arg(const std::string& name) const;  // throws std::out_of_range for a missing one
};

// What a tool did, in the units of the solver's diagnostics, so that a test (and a
// teacher) can check it against the totals: {"energy_added", "J", 1.0}, {"cells", "", 33}.
struct ToolAmount {
  std::string name;
  std::string unit;
  double value = 0;
};
struct ToolReport {
  std::string summary;  // one line, for the GUI and the journal
  std::vector<ToolAmount> amounts;
  double amount(const std::string& name) const;  // throws std::out_of_range
};

// The brush arguments of every tool: the centre x, y, z (defaults: the middle of the box)
// and radius (default: a tenth of the smallest side), in metres.
std::vector<ParamSpec> brush_args(const std::array<double, 3>& box_length);

// The call with every argument of its spec: those not given take their defaults; unknown
// names, values out of range and whole-number arguments given fractions are refused with a
// ConfigError naming the tool, the argument and what is allowed. `origin` prefixes it.
ToolCall resolve_tool_call(const std::vector<ToolSpec>& tools, const ToolCall& call,
                           const std::string& origin);
// The spec of a tool by name; ConfigError listing the family's tools otherwise.
const ToolSpec& find_tool(const std::vector<ToolSpec>& tools, const std::string& name,
                          const std::string& origin);

// A number as the journal writes it: the shortest text that reads back as the same double.
std::string exact_number(double v);
// A number as the tools' reports and refusals print it: four significant digits.
std::string short_number(double v);

}  // namespace fluxview
