// The journal: its two spellings read back what was written (numbers to the last bit), its
// mistakes are named with the entry and what is allowed, and check_journal finds before a
// run what a steering file gets wrong. The Steerer applies each entry at exactly its step.
#include <gtest/gtest.h>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Journal.hpp"
#include "sim/core/Steerer.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

Journal sample_journal() {
  Journal j;
  JournalEntry a;
  a.kind = JournalEntry::Kind::set;
  a.step = 12;
  a.key = "fv.cfl";
  a.value = 0.1 + 0.2;  // 0.30000000000000004: must come back to the last bit
  j.entries.push_back(a);
  JournalEntry r;
  r.kind = JournalEntry::Kind::set;
  r.step = 12;
  r.key = "fv.riemann";
  r.value = std::string("hll");
  j.entries.push_back(r);
  JournalEntry t;
  t.kind = JournalEntry::Kind::tool;
  t.step = 40;
  t.tool = {"blast", {{"x", 1.0 / 3.0}, {"y", 0.5}, {"z", 0.5}, {"radius", 0.05}, {"energy", 2}}};
  t.note = "blast: 2 J added in 9 cells";
  j.entries.push_back(t);
  JournalEntry w;
  w.kind = JournalEntry::Kind::set;
  w.time = 0.125;
  w.key = "fv.theta";
  w.value = 1.0;
  j.entries.push_back(w);
  return j;
}

void expect_same(const Journal& a, const Journal& b) {
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const JournalEntry &x = a.entries[i], &y = b.entries[i];
    EXPECT_EQ(int(x.kind), int(y.kind)) << i;
    EXPECT_EQ(x.step, y.step) << i;
    EXPECT_EQ(x.time, y.time) << i;
    EXPECT_EQ(x.key, y.key) << i;
    if (x.kind == JournalEntry::Kind::set) {
      EXPECT_EQ(format_value(x.value), format_value(y.value)) << i;
      if (std::holds_alternative<double>(x.value))
        EXPECT_EQ(std::get<double>(x.value), std::get<double>(y.value)) << i;
    }
    EXPECT_EQ(x.tool.tool, y.tool.tool) << i;
    EXPECT_EQ(x.tool.args, y.tool.args) << i;  // doubles compared exactly
  }
}

TEST(Journal, LinesReadBackExactly) {
  const Journal j = sample_journal();
  const std::string text = j.to_lines();
  EXPECT_NE(text.find("at step 12 set fv.cfl = 0.30000000000000004"), std::string::npos) << text;
  EXPECT_NE(text.find("at step 40 apply blast energy = 2.0 radius = 0.05 x = "
                      "0.3333333333333333 y = 0.5 z = 0.5  # blast: 2 J added in 9 cells"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("at time 0.125 set fv.theta = 1.0"), std::string::npos) << text;
  expect_same(j, parse_journal(text, "lines"));
}

TEST(Journal, TomlReadsBackExactly) {
  const Journal j = sample_journal();
  const std::string toml = j.to_toml();
  EXPECT_NE(toml.find("[[at]]\nstep = 12\nset = { \"fv.cfl\" = 0.30000000000000004 }"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("set = { \"fv.riemann\" = \"hll\" }"), std::string::npos) << toml;
  expect_same(j, parse_journal(toml, "toml"));
}

TEST(Journal, HandWrittenTomlWithSeveralKeysAndDefaults) {
  const Journal j = parse_journal(R"(# a lesson
[[at]]
step = 0
set = { "fv.riemann" = "hll", "fv.cfl" = 0.3 }

[[at]]
time = 0.05
tool = "blast"
energy = 2
)",
                                  "lesson.toml");
  ASSERT_EQ(j.entries.size(), 3u);
  EXPECT_EQ(j.entries[0].key, "fv.cfl");  // a table's keys in the order of their names
  EXPECT_EQ(j.entries[1].key, "fv.riemann");
  EXPECT_TRUE(j.entries[2].at_time());
  EXPECT_EQ(j.entries[2].time, 0.05);
  EXPECT_EQ(j.entries[2].tool.args.at("energy"), 2.0);
  // Resolved against the solver's tools: the brush takes its defaults.
  auto s = make_solver("fv/sedov", kFv2D);
  const Scenario sc = load_scenario("fv/sedov", kFv2D);
  const Journal checked = check_journal(j, sc.params, find_family("fv"), s->tools(), "lesson.toml");
  EXPECT_EQ(checked.entries[2].tool.args.at("x"), 0.5);
  EXPECT_EQ(checked.entries[2].tool.args.at("radius"), 0.1);
}

void expect_error(const std::string& text, const std::string& part) {
  try {
    parse_journal(text, "f");
    FAIL() << "accepted: " << text;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Journal, MistakesAreNamedWithTheirLine) {
  expect_error("at step 3 set fv.cfl 0.3\n",
               "f:1: 'at step 3 set fv.cfl 0.3'; expected 'set KEY = VALUE'");
  expect_error("\nat step -2 set fv.cfl = 0.3\n", "f:2: step '-2' is not a step");
  expect_error("at step 3 paint blast\n", "'paint' is neither set nor apply");
  expect_error("at step 3 apply blast energy = lots\n", "'energy = lots' is not NAME = NUMBER");
  expect_error("[[at]]\nstep = 1\ntime = 2\nset = { \"fv.cfl\" = 0.3 }\n",
               "give exactly one of step = N or time = T");
  expect_error("[[at]]\nstep = 1\n", "give exactly one of set");
  expect_error("[[at]]\nstep = 1\ntool = \"blast\"\nenergy = true\n",
               "argument energy must be a number");
  expect_error("speed = 3\n[[at]]\nstep = 1\ntool = \"blast\"\n", "unknown key 'speed'");
  expect_error("[[at]\n", "TOML syntax error");
}

void expect_check_error(const std::string& text, const std::string& part) {
  const Scenario sc = load_scenario("fv/sedov", kFv2D);
  auto s = make_solver("fv/sedov", kFv2D);
  try {
    check_journal(parse_journal(text, "f"), sc.params, find_family("fv"), s->tools(), "f");
    FAIL() << "accepted: " << text;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Journal, CheckFindsWhatARunWouldRefuse) {
  expect_check_error("at step 5 set fv.tracer = true\n",
                     "entry 1 (at step 5 set fv.tracer = true): fv.tracer cannot change while the "
                     "run goes: the number of conserved fields is set at Reset");
  expect_check_error("at step 5 set fv.cfl = 3\n", "fv.cfl = 3 is out of range");
  expect_check_error("at step 5 apply fireworks\n",
                     "unknown tool 'fireworks'; allowed: blast, cloud, obstacle, obstacle-clear");
  expect_check_error("at step 5 apply blast energy = -1\n", "energy = -1 is out of range");
  expect_check_error("at step 5 apply blast power = 1\n", "unknown argument 'power'");
  expect_check_error("at step 9 apply blast\nat step 5 apply blast\n",
                     "step 5 comes after an entry at step 9");
}

TEST(Steerer, AppliesEachEntryAtExactlyItsStep) {
  // The change made by hand at step 5 ...
  auto by_hand = make_solver("heat/hot-spot", kHeat2D);
  by_hand->advance(5);
  by_hand->set_live("heat.alpha", ParamValue(4e-5));
  by_hand->advance(7);
  // ... and the same from a plan, in one call that must stop at step 5 to apply it.
  auto planned = make_solver("heat/hot-spot", kHeat2D);
  Steerer st(parse_journal("at step 5 set heat.alpha = 4e-5\n", "plan"));
  EXPECT_EQ(st.advance(*planned, 12), 12);
  EXPECT_TRUE(same_state(*by_hand, *planned));
  ASSERT_EQ(st.record().entries.size(), 1u);
  EXPECT_EQ(st.record().entries[0].step, 5);
  // One step later is another run.
  auto late = make_solver("heat/hot-spot", kHeat2D);
  Steerer st6(parse_journal("at step 6 set heat.alpha = 4e-5\n", "plan"));
  st6.advance(*late, 12);
  EXPECT_FALSE(same_state(*by_hand, *late));
}

TEST(Steerer, ATimeEntryAppliesAtTheFirstStepFromThatTimeAndIsRecordedWithIt) {
  auto s = make_solver("heat/hot-spot", kHeat2D);
  const double dt = s->dt();
  Steerer st(parse_journal("at time " + exact_number(4.5 * dt) + " set heat.alpha = 4e-5\n", "p"));
  st.advance(*s, 10);
  ASSERT_EQ(st.record().entries.size(), 1u);
  EXPECT_EQ(st.record().entries[0].step, 5);  // t = 5 dt is the first step boundary at 4.5 dt
  EXPECT_FALSE(st.record().entries[0].at_time());
}

TEST(Steerer, ARefusedEntryNamesItselfAndTheStep) {
  auto s = make_solver("heat/hot-spot", kHeat2D);
  Steerer st(parse_journal("at step 2 apply heat-spot x = 0.05 y = 0.05 amplitude = -1000\n", "p"));
  try {
    st.advance(*s, 5);
    FAIL() << "a spot below absolute zero was applied";
  } catch (const SteeringError& e) {
    EXPECT_NE(std::string(e.what()).find("steering entry 'at step 2 apply heat-spot"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("below absolute zero"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s->step(), 2);
  EXPECT_TRUE(st.record().empty());
}

}  // namespace
