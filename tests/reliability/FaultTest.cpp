// Faults a run meets on a real machine, injected without root or a full disk: writes that
// fail with ENOSPC or EIO part way through a checkpoint or a snapshot (an LD_PRELOAD
// library, FaultInjection.c), a SIGKILL in the middle of a checkpoint write, a second run
// into a folder another one is writing. Each must stop with the right exit code and a
// message naming the file and the operating system's error, keep every earlier good file,
// and leave a checkpoint that restarts bit-identically.
#include <gtest/gtest.h>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "fileio/FolderLock.hpp"
#include "insitu/snapshot/SnapshotSeries.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::FolderLock;
using fluxview::test::run_fluxview;

namespace {

// 40 steps of a small Sedov blast, a snapshot and a checkpoint every 10.
const std::string kRun =
    "run fv/sedov --backend cpu --set grid.n=16 --steps 40 --every 10 --checkpoint-every 10 "
    "--quiet ";

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_fault_" + name);
  fs::remove_all(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json run_json(const fs::path& d) {
  return nlohmann::json::parse(slurp(d / "run.json"));
}

// The environment that makes writes to files whose path holds `path` fail.
std::string fault_env(const std::string& path, long long after, const std::string& action) {
  return "env LD_PRELOAD=" FLUXVIEW_FAULT_LIB
         " ASAN_OPTIONS=verify_asan_link_order=0 FLUXVIEW_FAULT_PATH=" +
         path + " FLUXVIEW_FAULT_AFTER=" + std::to_string(after) +
         " FLUXVIEW_FAULT_ACTION=" + action + " ";
}

// Temporaries (NAME.tmp-PID) anywhere in the folder.
std::vector<std::string> temporaries(const fs::path& d) {
  std::vector<std::string> t;
  for (const auto& e : fs::recursive_directory_iterator(d))
    if (e.path().filename().string().find(".tmp-") != std::string::npos)
      t.push_back(e.path().filename().string());
  return t;
}

// The same run without faults, once per test process.
const fs::path& straight_run() {
  static const fs::path d = [] {
    const fs::path s = fresh("straight_" + std::to_string(getpid()));  // tests run side by side
    const auto r = run_fluxview(kRun + "--output " + s.string());
    EXPECT_EQ(r.code, 0) << r.out;
    return s;
  }();
  return d;
}

// A restart from `checkpoint` without --steps goes to the original run's end (step 40),
// and its last snapshot must be the straight run's, bit for bit.
void expect_restart_matches_straight(const fs::path& checkpoint, const fs::path& out) {
  const auto r = run_fluxview("run --restart " + checkpoint.string() +
                              " --backend cpu --quiet --output " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(out / "snapshot_000040.vti")) << r.out;
  EXPECT_EQ(slurp(out / "snapshot_000040.vti"), slurp(straight_run() / "snapshot_000040.vti"))
      << "the restart from " << checkpoint << " is not bit-identical";
}

std::vector<std::int64_t> series_steps(const fs::path& d) {
  std::vector<std::int64_t> steps;
  for (const auto& r : fluxview::SnapshotSeries::read_series(d)) steps.push_back(r.step);
  return steps;
}

struct CheckpointFault {
  std::string name;
  std::string action;    // enospc, eio, fsync (see FaultInjection.c)
  long long after;       // bytes that still go through
  bool from_file_size;   // `after` counts from the size of a whole checkpoint file
  std::string os_error;  // what the message must say
};

void PrintTo(const CheckpointFault& c, std::ostream* os) {
  *os << c.name;
}

class CheckpointFaults : public ::testing::TestWithParam<CheckpointFault> {};

}  // namespace

TEST_P(CheckpointFaults, StopTheRunWithExitOneNamingTheFileAndKeepThePreviousCheckpoint) {
  const CheckpointFault& c = GetParam();
  long long after = c.after;
  if (c.from_file_size)
    after += std::int64_t(fs::file_size(straight_run() / "checkpoint_000040.h5"));
  const fs::path d = fresh(c.name);
  const auto r = run_fluxview(kRun + "--output " + d.string(),
                              fault_env("checkpoint_000020", after, c.action));
  EXPECT_EQ(r.code, 1) << r.out;
  const std::string named = "'" + (d / "checkpoint_000020.h5").string() + "' failed";
  EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(c.os_error), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(d / "checkpoint_000020.h5"));
  EXPECT_TRUE(fs::exists(d / "checkpoint_000010.h5")) << "the previous checkpoint is gone";
  EXPECT_TRUE(temporaries(d).empty()) << temporaries(d).front();
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "failed");
  EXPECT_NE(j["message"].get<std::string>().find(c.os_error), std::string::npos);
  EXPECT_EQ(fs::path(j["last_checkpoint"].get<std::string>()).filename(), "checkpoint_000010.h5");
  EXPECT_EQ(series_steps(d), (std::vector<std::int64_t>{0, 10}));
  expect_restart_matches_straight(d / "checkpoint_000010.h5", fresh(c.name + "_restart"));
}

INSTANTIATE_TEST_SUITE_P(
    Faults, CheckpointFaults,
    ::testing::Values(
        CheckpointFault{"at_creation", "enospc", 0, false, "No space left on device"},
        CheckpointFault{"in_the_arrays", "enospc", 50000, false, "No space left on device"},
        CheckpointFault{"io_error", "eio", 50000, false, "Input/output error"},
        // HDF5 writes its metadata last, at the flush and the close.
        CheckpointFault{"at_the_flush", "enospc", -100, true, "No space left on device"},
        CheckpointFault{"at_the_close", "enospc", 100, true, "No space left on device"},
        CheckpointFault{"at_the_fsync", "fsync", 0, false, "Input/output error"}),
    [](const auto& info) { return info.param.name; });

TEST(Faults, AFullDiskAtASnapshotStopsTheRunNamingTheFileAndKeepsTheSeries) {
  const fs::path d = fresh("snapshot");
  const auto r =
      run_fluxview(kRun + "--output " + d.string(), fault_env("snapshot_000020", 2000, "enospc"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("writing '" + (d / "snapshot_000020.vti").string() +
                       "' failed: No space left on device"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(d / "snapshot_000020.vti"));
  EXPECT_TRUE(temporaries(d).empty());
  EXPECT_EQ(series_steps(d), (std::vector<std::int64_t>{0, 10}));
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["last_snapshot"], "snapshot_000010.vti");
  // The checkpoint of step 20 was written (and read back) before the snapshot failed.
  EXPECT_EQ(fs::path(j["last_checkpoint"].get<std::string>()).filename(), "checkpoint_000020.h5");
  expect_restart_matches_straight(d / "checkpoint_000020.h5", fresh("snapshot_restart"));
}

TEST(Faults, AKillDuringACheckpointWriteLeavesARunThatRestartsFromTheNewestGoodCheckpoint) {
  const fs::path d = fresh("kill");
  const auto r =
      run_fluxview(kRun + "--output " + d.string(), fault_env("checkpoint_000020", 50000, "kill"));
  ASSERT_EQ(r.signal, SIGKILL) << "exit " << r.code << ": " << r.out;
  // What the killed run left: run.json still says running, but no process holds the
  // folder's lock, so a reader knows it died; half a checkpoint in its temporary.
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "running");
  EXPECT_GT(j["process"]["pid"].get<long>(), 0);
  EXPECT_FALSE(FolderLock::holder(d).has_value());
  EXPECT_EQ(temporaries(d).size(), 1u);
  const fs::path newest = j["last_checkpoint"].get<std::string>();
  ASSERT_EQ(newest.filename(), "checkpoint_000010.h5");
  // Restarted into the same folder, to the end the run was going to.
  expect_restart_matches_straight(newest, d);
  EXPECT_TRUE(temporaries(d).empty()) << "the dead run's temporary was not removed";
  EXPECT_EQ(series_steps(d), (std::vector<std::int64_t>{0, 10, 20, 30, 40}));
  const auto k = run_json(d);
  EXPECT_EQ(k["status"], "completed");
  EXPECT_EQ(k["restarted_from"]["step"], 10);
  EXPECT_EQ(k["steps"], 40);
  EXPECT_EQ(k["snapshots"].size(), 5u);
}

TEST(Faults, ASecondRunIntoAFolderAnotherRunIsWritingIsRefusedNamingIt) {
  const fs::path d = fresh("two_runs");
  const fs::path log = fresh("two_runs.log");
  // A run far longer than the test.
  const pid_t first = fluxview::test::spawn_fluxview(
      "run heat/hot-wall --backend cpu --set grid.n=24 --set heat.steady_tol=0 --steps 100000000 "
      "--quiet --output " +
          d.string(),
      log.string());
  ASSERT_GT(first, 0);
  std::optional<fluxview::LockHolder> holder;
  for (int i = 0; i < 600 && !(holder && fs::exists(d / "run.json")); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    holder = FolderLock::holder(d);
  }
  ASSERT_TRUE(holder.has_value()) << slurp(log);
  EXPECT_EQ(holder->pid, long(first));
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "running");
  EXPECT_EQ(j["process"]["pid"], long(first));

  const auto r =
      run_fluxview("run fv/sedov --backend cpu --set grid.n=8 --steps 2 --output " + d.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--output " + d.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("another fluxview run (process " + std::to_string(first)), std::string::npos)
      << r.out;
  EXPECT_EQ(run_json(d)["scenario"], "heat/hot-wall") << "the refused run wrote run.json";
  EXPECT_FALSE(fs::exists(d / "snapshot_000002.vti"));

  kill(first, SIGTERM);
  EXPECT_EQ(fluxview::test::wait_for_exit(first), 130) << slurp(log);
  EXPECT_FALSE(FolderLock::holder(d).has_value());
  EXPECT_EQ(run_json(d)["status"], "interrupted");
  // Once it has ended, the folder is free.
  const auto again = run_fluxview(
      "run fv/sedov --backend cpu --set grid.n=8 --steps 2 --quiet "
      "--output " +
      d.string());
  EXPECT_EQ(again.code, 0) << again.out;
  fs::remove(log);
}
