// The GUI's run state steered without a window (app/gui/Session): a run pauses at its
// scenario's end (run.steps, or run.until landed on exactly) and says so, then goes on
// when asked; the pace holds simulated time to the wall clock; live changes and strokes
// made while the worker steps are recorded at the step they took effect, and that journal
// replayed headless ends bit-identical to the window's run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/Session.hpp"
#include "fileio/FolderLock.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/core/Steerer.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::app;
using namespace fluxview::test;
using namespace std::chrono_literals;

namespace {

// Waits (up to 60 s) until the worker has paused by itself.
bool wait_paused(Session& s) {
  for (int i = 0; i < 6000 && s.running(); ++i) std::this_thread::sleep_for(10ms);
  return !s.running();
}

Session::Status status_of(Session& s) {
  auto lock = s.access(-1);
  const Session::Status st = s.status;
  s.release(lock);
  return st;
}

}  // namespace

TEST(GuiSteering, ARunPausesAtRunStepsSaysSoAndGoesOnWhenAsked) {
  Session s(load_scenario("heat/hot-spot", {"grid.n=16", "run.steps=37"}), BackendKind::cpu,
            Precision::f64);
  s.set_running(true);
  ASSERT_TRUE(wait_paused(s));
  EXPECT_EQ(status_of(s).step, 37);
  EXPECT_NE(s.message.find("run.steps = 37"), std::string::npos) << s.message;
  // Run again: on past the end, until paused by hand.
  s.set_running(true);
  std::this_thread::sleep_for(200ms);
  s.set_running(false);
  EXPECT_GT(status_of(s).step, 37);
}

TEST(GuiSteering, ARunPausesExactlyAtRunUntil) {
  Session s(load_scenario("fv/sod", {"grid.nx=64", "run.until=0.05"}), BackendKind::cpu,
            Precision::f64);
  s.set_running(true);
  ASSERT_TRUE(wait_paused(s));
  EXPECT_EQ(status_of(s).time, 0.05);  // the last step shortened to land on it
  EXPECT_NE(s.message.find("run.until = 0.05"), std::string::npos) << s.message;
}

TEST(GuiSteering, ThePaceHoldsSimulatedTimeToTheWallClock) {
  Session s(load_scenario("fv/sod", {"grid.nx=64", "run.until=10"}), BackendKind::cpu,
            Precision::f64);
  const double dt = status_of(s).dt;
  // Ten steps' worth of simulated time a second: unpaced, this grid takes thousands.
  s.set_pace(10 * dt);
  const auto t0 = std::chrono::steady_clock::now();
  s.set_running(true);
  std::this_thread::sleep_for(500ms);
  s.set_running(false);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Session::Status st = status_of(s);
  EXPECT_GT(st.step, 0);
  // Never ahead of the pace by more than the step that crossed it.
  EXPECT_LE(st.time, 10 * dt * wall + 2 * dt) << st.step << " steps in " << wall << " s";
  // As fast as possible again: many more steps in the same time.
  s.set_pace(0);
  s.set_running(true);
  std::this_thread::sleep_for(500ms);
  s.set_running(false);
  EXPECT_GT(status_of(s).step, st.step + 40);
}

TEST(GuiSteering, ChangesWhileTheWorkerStepsAreRecordedAndReplayBitIdentical) {
  const std::vector<std::string> o = with(kFv2D, {"fv.init=uniform", "fv.ux=0.3", "fv.bc=periodic",
                                                  "run.until=0", "run.steps=1000000"});
  Session s(load_scenario("fv/sedov", o), BackendKind::cpu, Precision::f64);
  s.set_running(true);
  std::this_thread::sleep_for(30ms);
  const ToolReport blast =
      s.apply_tool(ToolCall{"blast", {{"x", 0.4}, {"y", 0.5}, {"radius", 0.1}, {"energy", 0.3}}});
  EXPECT_NEAR(blast.amount("energy_added"), 0.3, 1e-12);
  std::this_thread::sleep_for(30ms);
  s.set_live("fv.cfl", 0.25);
  EXPECT_EQ(s.scenario().params.get_real("fv.cfl"), 0.25);  // shown as the run's value
  std::this_thread::sleep_for(30ms);
  // A refused change records nothing and leaves the run as it was.
  EXPECT_THROW(s.set_live("fv.tracer", true), SteeringError);
  s.set_running(false);
  ASSERT_EQ(s.journal().entries.size(), 2u);
  ASSERT_EQ(s.markers.size(), 2u);
  EXPECT_EQ(s.markers[0].step, s.journal().entries[0].step);
  EXPECT_EQ(s.markers[1].what, "fv.cfl = 0.25");
  EXPECT_LE(s.journal().entries[0].step, s.journal().entries[1].step);

  // The journal played into a fresh solver (as `fluxview run --replay` does).
  auto lock = s.access(-1);
  const Solver& window = s.solver();
  const Scenario sc = load_scenario("fv/sedov", o);
  auto replayed = make_solver("fv/sedov", o);
  Steerer player(check_journal(parse_journal(s.journal().to_lines(), "journal"), sc.params,
                               find_family(sc.solver), replayed->tools(), "journal"));
  player.advance(*replayed, window.step());
  player.apply_due(*replayed);
  EXPECT_TRUE(same_state(window, *replayed));
  s.release(lock);
}

TEST(GuiSteering, ASteeringFileDrivesTheWorkerToTheSameJournalAndState) {
  // `fluxview gui --steer FILE` without the window: the worker steps in chunks of its own
  // choosing, and still applies each entry at exactly its step, the last at the end step.
  const std::vector<std::string> o =
      with(kFv2D, {"fv.init=uniform", "fv.bc=periodic", "run.until=0", "run.steps=30"});
  const std::string file =
      "at step 0 apply obstacle x = 0.5 y = 0.5 radius = 0.1\n"
      "at step 7 apply blast x = 0.2 y = 0.3 radius = 0.06 energy = 0.4\n"
      "at step 19 set fv.riemann = hll\n"
      "at step 30 apply cloud x = 0.8 y = 0.8 radius = 0.08\n";
  Session s(load_scenario("fv/sedov", o), BackendKind::cpu, Precision::f64);
  s.plan(parse_journal(file, "file"), "--steer file");
  s.set_running(true);
  ASSERT_TRUE(wait_paused(s));
  auto lock = s.access(-1);  // brings `message` up to date
  EXPECT_NE(s.message.find("run.steps = 30"), std::string::npos) << s.message;
  EXPECT_EQ(s.solver().step(), 30);
  ASSERT_EQ(s.journal().entries.size(), 4u);
  const std::int64_t steps[] = {0, 7, 19, 30};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(s.journal().entries[i].step, steps[i]);
  EXPECT_EQ(s.markers.size(), 4u);
  // The same file through the headless runner's Steerer: the same state.
  const Scenario sc = load_scenario("fv/sedov", o);
  auto headless = make_solver("fv/sedov", o);
  Steerer st(check_journal(parse_journal(file, "file"), sc.params, find_family(sc.solver),
                           headless->tools(), "file"));
  st.advance(*headless, 30);
  st.apply_due(*headless);
  EXPECT_TRUE(same_state(s.solver(), *headless));
  EXPECT_EQ(st.record().to_lines(), s.journal().to_lines());
  s.release(lock);
  // A file the run cannot take is refused before anything runs.
  Session t(load_scenario("fv/sedov", o), BackendKind::cpu, Precision::f64);
  EXPECT_THROW(t.plan(parse_journal("at step 2 set fv.tracer = true\n", "bad"), "--steer bad"),
               ConfigError);
  EXPECT_TRUE(t.journal().empty());
}

TEST(GuiSnapshots, AFolderAnotherProcessWritesIntoIsRefusedNamingItAndNothingIsWritten) {
  // One writer per folder, as for `fluxview run`: the window's snapshot button refuses a
  // folder whose lock another process holds (a child here, as a run would), and writes into
  // it once that process has ended.
  namespace fs = std::filesystem;
  const fs::path d = fs::temp_directory_path() / "fluxview_gui_snapshot_lock";
  fs::remove_all(d);
  fs::create_directories(d);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    FolderLock held(d);
    const char c = 'x';
    if (::write(ready[1], &c, 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  Session s(load_scenario("heat/hot-spot", {"grid.n=8"}), BackendKind::cpu, Precision::f64);
  std::string refusal;
  try {
    s.write_snapshot(d.string());
  } catch (const FolderBusy& e) {
    refusal = e.what();
  }
  EXPECT_NE(refusal.find("process " + std::to_string(child)), std::string::npos) << refusal;
  EXPECT_FALSE(fs::exists(d / "series.pvd"));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(s.write_snapshot(d.string()), (d / "snapshot_000000.vti").string());
  EXPECT_TRUE(fs::exists(d / "series.pvd"));
}
