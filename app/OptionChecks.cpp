// The options of `fluxview run` and `fluxview bench` that can be judged on their own,
// checked before a scenario is read or anything is written. Every count option says
// what it refuses in the same words.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "app/RunOptions.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parameter.hpp"

namespace fluxview::app {

void check_count(const std::string& option, std::int64_t value, std::int64_t min, std::int64_t max,
                 const std::string& meaning, const TypedOptions& typed) {
  if (value >= min && value <= max) return;
  const auto as_typed = typed.find(option);
  throw ConfigError(option + " " +
                    (as_typed != typed.end() ? as_typed->second : std::to_string(value)) +
                    " is out of range; allowed: an integer in [" + format_integer(min) + ", " +
                    format_integer(max) + "]" + (meaning.empty() ? "" : " (" + meaning + ")"));
}

void check_run_options(const RunOptions& o) {
  if (o.steps) check_count("--steps", *o.steps, 0, kMaxCount, "steps to run", o.typed);
  if (o.every)
    check_count("--every", *o.every, 0, kMaxCount, "0: the first and last step only", o.typed);
  if (o.diagnostics_every)
    check_count("--diagnostics-every", *o.diagnostics_every, 0, kMaxCount,
                "0: the first and last step only", o.typed);
  if (o.checkpoint_every)
    check_count("--checkpoint-every", *o.checkpoint_every, 0, kMaxCount, "0: no checkpoints",
                o.typed);
  check_count("--checkpoint-keep", o.checkpoint_keep, 1, 1000000,
              "how many of the newest checkpoints stay on disk", o.typed);
  check_count("--catalyst-every", o.catalyst_every, 1, kMaxCount,
              "offer the state to Catalyst every N steps", o.typed);
  check_count("--render-every", o.render_every, 0, kMaxCount, "0: no frames", o.typed);
  if (o.until && !(std::isfinite(*o.until) && *o.until > 0))
    throw ConfigError("--until " + format_value(*o.until) +
                      " is out of range; allowed: a simulated time > 0 s (leave --until out to "
                      "run the scenario's run.steps)");
}

void check_bench_options(const RunOptions& o) {
  if (o.bench_steps) check_count("--steps", *o.bench_steps, 1, kMaxCount, "timed steps", o.typed);
  check_count("--warmup", o.warmup, 0, kMaxCount, "untimed steps first", o.typed);
}

}  // namespace fluxview::app
