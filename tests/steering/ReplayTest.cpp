// A steered run replayed from its journal ends bit-identical, for each family: the
// "interactive" run changes parameters and strokes tools between steps through a Steerer
// (as the GUI does), its record is written out as text, read back, checked, and played
// into a fresh solver. A run restarted from a checkpoint in the middle of the journal
// ends the same too.
#include <gtest/gtest.h>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/Journal.hpp"
#include "sim/core/Steerer.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

// One moment of a steered session: at `step`, do `act` through the Steerer.
struct Act {
  std::int64_t step;
  std::function<void(Solver&, Steerer&)> act;
};

std::unique_ptr<Solver> steer(const std::string& scenario, const std::vector<std::string>& o,
                              const std::vector<Act>& acts, std::int64_t steps, Steerer& st,
                              BackendKind backend = BackendKind::cpu) {
  auto s = make_solver(scenario, o, backend);
  for (const Act& a : acts) {
    s->advance(a.step - s->step());
    a.act(*s, st);
  }
  s->advance(steps - s->step());
  s->synchronize();
  return s;
}

// Replays the record of `st` (written as lines or TOML and read back) and compares.
void expect_replay(const std::string& scenario, const std::vector<std::string>& o,
                   const Steerer& st, const Solver& steered, bool toml,
                   BackendKind backend = BackendKind::cpu) {
  const Journal& record = st.record();
  const std::string text = toml ? record.to_toml() : record.to_lines();
  SCOPED_TRACE(text);
  auto replayed = make_solver(scenario, o, backend);
  const Scenario sc = load_scenario(scenario, o);
  Steerer player(check_journal(parse_journal(text, "journal"), sc.params, find_family(sc.solver),
                               replayed->tools(), "journal"));
  player.advance(*replayed, steered.step());
  player.apply_due(*replayed);  // what was done at the last step
  replayed->synchronize();
  EXPECT_FALSE(player.pending());
  EXPECT_TRUE(same_state(steered, *replayed));
  // The replay's own record is the journal it played.
  EXPECT_EQ(player.record().to_lines(), record.to_lines());
}

void expect_replays(const std::string& scenario, const std::vector<std::string>& o,
                    const std::vector<Act>& acts, std::int64_t steps,
                    BackendKind backend = BackendKind::cpu) {
  Steerer st;
  auto steered = steer(scenario, o, acts, steps, st, backend);
  ASSERT_EQ(st.record().entries.size(), acts.size());
  expect_replay(scenario, o, st, *steered, false, backend);
  expect_replay(scenario, o, st, *steered, true, backend);
  // And the same run left alone is another run: the steering did something.
  auto alone = make_solver(scenario, o, backend);
  alone->advance(steps);
  EXPECT_FALSE(same_state(*steered, *alone));
}

Act set(std::int64_t step, const std::string& key, ParamValue v) {
  return {step, [=](Solver& s, Steerer& st) { st.set_now(s, key, v); }};
}
Act tool(std::int64_t step, const std::string& name, std::map<std::string, double> args) {
  return {step, [=](Solver& s, Steerer& st) { st.apply_now(s, ToolCall{name, args}); }};
}

std::vector<Act> heat_session() {
  return {
      set(3, "heat.alpha", 2.7e-5),
      tool(3, "heat-spot", {{"x", 0.031}, {"y", 0.062}, {"radius", 0.011}, {"amplitude", 35}}),
      tool(8, "heat-obstacle", {{"x", 0.07}, {"y", 0.03}, {"radius", 0.009}, {"temperature", -5}}),
      set(11, "heat.T_ymax", 61.5),
      tool(17, "heat-free", {{"x", 0.07}, {"y", 0.03}, {"radius", 0.004}}),
      tool(20, "heat-spot", {{"x", 0.05}, {"y", 0.05}, {"amplitude", -12.25}})};
}

std::vector<Act> fd_session() {
  return {tool(0, "vortex", {{"x", 2.1}, {"y", 3.3}, {"radius", 0.7}, {"speed", 0.3}}),
          set(4, "fd.nu", 0.013),
          tool(6, "kick", {{"x", 4.4}, {"y", 1.0}, {"radius", 0.5}, {"ux", -0.2}, {"uy", 0.1}}),
          set(9, "fd.courant", 0.31),
          tool(9, "density-bump", {{"x", 0.2}, {"y", 6.1}, {"radius", 0.6}, {"amplitude", -0.3}})};
}

std::vector<Act> fv_session() {
  return {tool(2, "obstacle", {{"x", 0.62}, {"y", 0.41}, {"radius", 0.07}}),
          tool(5, "blast", {{"x", 0.3}, {"y", 0.33}, {"radius", 0.05}, {"energy", 0.2}}),
          set(9, "fv.riemann", std::string("hll")),
          tool(12, "cloud", {{"x", 0.5}, {"y", 0.75}, {"radius", 0.08}, {"density_ratio", 7.5}}),
          set(15, "fv.cfl", 0.33),
          tool(18, "obstacle-clear", {{"x", 0.6}, {"y", 0.4}, {"radius", 0.05}}),
          set(18, "fv.gamma", 1.6)};
}

const std::vector<std::string> kFvSteered =
    with(kFv2D, {"fv.init=uniform", "fv.ux=0.4", "fv.bc_x=periodic", "fv.tracer=true"});

TEST(Replay, HeatEndsBitIdentical) {
  expect_replays("heat/hot-spot", kHeat2D, heat_session(), 30);
}

TEST(Replay, FdEndsBitIdentical) {
  expect_replays("fd/viscous-decay", kFd2D, fd_session(), 14);
}

TEST(Replay, ForcedFdEndsBitIdentical) {
  // The forcing draws random numbers every step: the replay must draw the same ones.
  expect_replays(
      "fd/forced-turbulence", {"grid.n=12"},
      {set(2, "fd.f0", 0.04), tool(3, "kick", {{"x", 3}, {"y", 3}, {"z", 3}, {"uz", 0.2}}),
       set(5, "fd.kmin", 2.0), set(5, "fd.kmax", 3.0)},
      8);
}

TEST(Replay, FvEndsBitIdentical) {
  expect_replays("fv/sedov", kFvSteered, fv_session(), 24);
}

TEST(Replay, ARestartInTheMiddleOfTheJournalEndsTheSame) {
  Steerer st;
  auto steered = steer("fv/sedov", kFvSteered, fv_session(), 24, st);
  // The replay stopped at step 10 and checkpointed there ...
  auto first = make_solver("fv/sedov", kFvSteered);
  Steerer p1(st.record());
  p1.advance(*first, 10);
  const SolverState at10 = first->save_state();
  // ... and a new process goes on from the checkpoint with the same journal: the settings
  // before step 10 come back from the journal, the strokes from the checkpoint.
  auto second = make_solver("fv/sedov", kFvSteered);
  second->load_state(at10);
  Steerer p2(st.record());
  p2.resume(*second);
  p2.advance(*second, 24 - 10);
  p2.apply_due(*second);
  EXPECT_TRUE(same_state(*steered, *second));
  EXPECT_EQ(p2.record().to_lines(), st.record().to_lines());
}

}  // namespace
