// The GUI's run state without a window: the CPU worker thread steps while running,
// pauses on request, hands the state to readers between chunks, and stops cleanly;
// step and reset do what the buttons promise.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <chrono>
#include <thread>

#include "app/gui/Session.hpp"
#include "sim/core/Scenario.hpp"

using namespace fluxview;
using namespace fluxview::app;
using namespace std::chrono_literals;

TEST(GuiSession, WorkerStepsWhileRunningAndPausesOnRequest) {
  Session s(load_scenario("heat/hot-spot", {"grid.n=24"}), BackendKind::cpu, Precision::f64);
  ASSERT_TRUE(s.threaded());
  EXPECT_EQ(s.status.step, 0);
  s.set_running(true);
  std::this_thread::sleep_for(300ms);
  auto lock = s.access(1000);
  ASSERT_TRUE(lock.owns_lock());
  const std::int64_t at = s.status.step;
  EXPECT_GT(at, 0) << "the worker stepped";
  EXPECT_EQ(s.solver().step(), at);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(s.solver().step(), at) << "no step while a reader holds the state";
  s.release(lock);
  EXPECT_GE(s.frame_steps(), at) << "steps reported to the frame loop";
  s.set_running(false);
  std::this_thread::sleep_for(50ms);
  lock = s.access(-1);
  const std::int64_t paused_at = s.status.step;
  s.release(lock);
  std::this_thread::sleep_for(100ms);
  lock = s.access(-1);
  EXPECT_EQ(s.status.step, paused_at) << "paused";
  s.release(lock);
}

TEST(GuiSession, StepAndResetDoWhatTheButtonsSay) {
  Session s(load_scenario("heat/hot-wall", {"grid.n=16"}), BackendKind::cpu, Precision::f64);
  EXPECT_EQ(s.step_once(), 1);
  EXPECT_EQ(s.status.step, 1);
  EXPECT_FALSE(s.running());
  s.pending.params.assign("heat.alpha", 2e-5, "test");
  s.reset();
  EXPECT_EQ(s.status.step, 0);
  EXPECT_DOUBLE_EQ(s.scenario().params.get_real("heat.alpha"), 2e-5);
  // A refused reset keeps the old run.
  s.choose_scenario("heat/hot-wall", {"grid.n=16"});
  s.pending.solver = "no-such-family";
  EXPECT_ANY_THROW(s.reset());
  EXPECT_EQ(s.scenario().solver, "heat");
  // Destruction while running joins the worker (the test would hang otherwise).
  s.set_running(true);
  std::this_thread::sleep_for(20ms);
}

// The Diagnostics panel's line for the adaptive mesh: the latest blocks of each level and
// their sum, the solver's own counts; nothing on a uniform grid.
TEST(GuiSession, BlocksPerLevelAreTheAdaptiveMeshsOwnCounts) {
  Session s(load_scenario("fv/sedov-amr", {"grid.n=16", "fv.amr.max_level=2"}), BackendKind::cpu,
            Precision::f64);
  s.step_once();
  std::string want;
  double blocks = 0, total = -1;
  auto lock = s.access(-1);
  for (const Diagnostic& d : s.solver().diagnostics()) {
    if (d.name.rfind("blocks_level_", 0) == 0) {
      want += (want.empty() ? "" : " ") + std::to_string(std::llround(d.value));
      blocks += d.value;
    }
    if (d.name == "blocks") total = d.value;
  }
  s.release(lock);
  ASSERT_FALSE(want.empty()) << "the adaptive mesh reports blocks per level";
  EXPECT_EQ(blocks, total);
  EXPECT_EQ(s.blocks_per_level(), want + " (" + std::to_string(std::llround(total)) + ")");
  // Three levels (0 to 2), each with blocks.
  EXPECT_EQ(std::count(want.begin(), want.end(), ' '), 2) << want;

  Session uniform(load_scenario("fv/sedov", {"grid.n=16"}), BackendKind::cpu, Precision::f64);
  uniform.step_once();
  EXPECT_EQ(uniform.blocks_per_level(), "");
}
