#include <gtest/gtest.h>
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"

using namespace fluxview;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Scenario, BuiltinsParseAndIncludeTheHeatProblems) {
  std::vector<std::string> names;
  for (const auto& b : builtin_scenarios()) {
    names.push_back(b.name);
    EXPECT_NO_THROW(load_scenario(b.name)) << b.name;
  }
  for (const char* want : {"heat/hot-wall", "heat/sine-decay", "heat/hot-spot"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(Scenario, HotWallIsThePapersProblem) {
  const Scenario s = load_scenario("heat/hot-wall");
  EXPECT_EQ(s.solver, "heat");
  EXPECT_EQ(s.params.get_int("grid.nx"), 128);
  EXPECT_EQ(s.params.get_int("grid.nz"), 128);
  EXPECT_DOUBLE_EQ(s.params.get_real("heat.alpha"), 1.9e-5);
  EXPECT_DOUBLE_EQ(s.params.get_real("heat.T_ymax"), 100.0);
}

TEST(Scenario, OverridesApplyInOrderAndGridNSetsAllAxes) {
  const Scenario s =
      load_scenario("heat/hot-wall", {"grid.n=16", "grid.nz=8", "heat.alpha = 2e-5"});
  EXPECT_EQ(s.params.get_int("grid.nx"), 16);
  EXPECT_EQ(s.params.get_int("grid.ny"), 16);
  EXPECT_EQ(s.params.get_int("grid.nz"), 8);
  EXPECT_DOUBLE_EQ(s.params.get_real("heat.alpha"), 2e-5);
}

TEST(Scenario, BadInputGivesOneClearMessage) {
  EXPECT_NE(error_of([] { load_scenario("heat/nope"); }).find("unknown scenario 'heat/nope'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              load_scenario("heat/hot-wall", {"heat.alpah=1"});
            }).find("did you mean 'heat.alpha'"),
            std::string::npos);
  EXPECT_NE(error_of([] { load_scenario("heat/hot-wall", {"grid.n"}); }).find("key=value"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { load_scenario("heat/hot-wall", {"heat.alpha=-1"}); }).find("heat.alpha = -1"),
      std::string::npos);
  const std::string unstable = error_of([] { load_scenario("heat/hot-wall", {"heat.dt=1"}); });
  EXPECT_NE(unstable.find("heat.dt = 1 s is unstable"), std::string::npos) << unstable;
  EXPECT_NE(unstable.find("1/6"), std::string::npos) << unstable;
}

TEST(Scenario, TomlErrorsNameTheLine) {
  const std::string m = error_of(
      [] { parse_scenario("[scenario]\nsolver = \"heat\"\n[grid]\nn = = 3\n", "x.toml"); });
  EXPECT_NE(m.find("x.toml:4"), std::string::npos) << m;
  EXPECT_NE(
      error_of([] { parse_scenario("[grid]\nn = 3\n", "y.toml"); }).find("missing [scenario]"),
      std::string::npos);
  EXPECT_NE(error_of([] {
              parse_scenario("[scenario]\nsolver = \"heat\"\n[grid]\nn = \"big\"\n", "z.toml");
            }).find("wrong type"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_scenario("[scenario]\nsolver = \"plasma\"\n", "w.toml");
            }).find("unknown solver"),
            std::string::npos);
}

TEST(Scenario, NonAsciiIsRefusedOutsideWholeLineComments) {
  // Found by the fuzzer: Debian's toml++ 3.3 reaches an unreachable branch on these.
  EXPECT_NE(error_of([] {
              parse_scenario("gridn\n[\xd1\xa2\n", "u.toml");
            }).find("u.toml:2:2: non-ASCII"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_scenario("x = 88'8\xc8\xa2\n", "v.toml");
            }).find("v.toml:1:9: non-ASCII"),
            std::string::npos);
  const Scenario s = parse_scenario(
      "# Temp\xc3\xa9rature\n  # \xc2\xb0"
      "C\n[scenario]\nsolver = \"heat\"\n",
      "ok.toml");
  EXPECT_EQ(s.solver, "heat");
}
