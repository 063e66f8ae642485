// libFuzzer harness over the scenario TOML parser and `--set` parsing: any input may be
// refused with ConfigError, nothing may crash, hang or read out of bounds.
// The first line of an input is a --set assignment, the rest a scenario file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto nl = text.find('\n');
  const std::string assignment(text.substr(0, nl == std::string_view::npos ? text.size() : nl));
  const std::string_view toml =
      nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  try {
    fluxview::Scenario s = fluxview::parse_scenario(toml, "fuzz.toml");
    fluxview::apply_override(s, assignment);
    const auto& fam = fluxview::find_family(s.solver);
    if (fam.validate) fam.validate(s.params);
  } catch (const fluxview::ConfigError&) {
  }
  return 0;
}
