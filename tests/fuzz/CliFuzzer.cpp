// libFuzzer harness over the command line: any arguments may be refused (CLI11's parse
// error or ConfigError naming the option), nothing may crash, hang or read out of bounds.
// An input is the arguments after `fluxview`, one a line. The parsed options are checked
// as main() checks them, and a built-in scenario with its --set overrides is resolved as
// `run` and `bench` resolve it; nothing runs and nothing is written.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/CommandLine.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace {

// Only built-in scenarios: a path would make the fuzzer read whatever file it names.
bool is_builtin(const std::string& name) {
  for (const auto& b : fluxview::builtin_scenarios())
    if (b.name == name) return true;
  return false;
}

void resolve(const fluxview::app::RunOptions& o) {
  if (!o.restart.empty() || !is_builtin(o.scenario)) return;
  fluxview::Scenario s = fluxview::load_scenario(o.scenario, o.overrides);
  if (o.every) s.params.assign("run.every", *o.every, "--every");
  if (o.steps) s.params.assign("run.steps", *o.steps, "--steps");
  if (o.until) s.params.assign("run.until", *o.until, "--until");
  fluxview::app::choose_precision(o.precision);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args{"fluxview"};
  for (std::size_t start = 0; start <= text.size() && args.size() < 64;) {
    const std::size_t nl = std::min(text.find('\n', start), text.size());
    args.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    fluxview::app::CommandLineParser parser;
    const fluxview::app::CommandLine& line = parser.parse(int(argv.size()), argv.data());
    fluxview::app::check_command_line(line);
    if (line.command == fluxview::app::Command::run) resolve(line.run);
    if (line.command == fluxview::app::Command::bench) resolve(line.bench);
  } catch (const CLI::Error&) {
  } catch (const fluxview::ConfigError&) {
  }
  return 0;
}
