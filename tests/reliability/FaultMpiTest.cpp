// Faults under MPI: a failed write on one rank stops every rank with the same message and
// exit code (no rank is left waiting in a collective: a hang fails through CTest's
// timeout), no rank's piece replaces an older file, and only rank 0 takes the folder's
// lock, so a second run into a folder in use is refused on every rank.
#include <gtest/gtest.h>
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
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_fault_mpi_" + name);
  fs::remove_all(d);
  return d;
}

std::string mpirun(int ranks, const std::string& env = "") {
  return "env OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + env +
         std::string(MPIEXEC) + " --oversubscribe -np " + std::to_string(ranks) + " ";
}

std::string fault_env(const std::string& path, long long after) {
  return "LD_PRELOAD=" FLUXVIEW_FAULT_LIB " FLUXVIEW_FAULT_PATH=" + path +
         " FLUXVIEW_FAULT_AFTER=" + std::to_string(after) + " ";
}

const std::string kRun =
    "run fv/sedov --backend cpu --set grid.n=16 --steps 30 --every 10 --checkpoint-every 10 "
    "--quiet ";

}  // namespace

TEST(FaultsMpi, AFullDiskUnderOneRanksCheckpointPieceStopsEveryRankAndKeepsTheLastSet) {
  const fs::path d = fresh("checkpoint");
  const auto r = run_fluxview(kRun + "--output " + d.string(),
                              mpirun(2, fault_env("checkpoint_000020.rank0001of0002", 20000)));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("checkpoint_000020.rank0001of0002.h5' failed: No space left on device"),
            std::string::npos)
      << r.out;
  for (const char* f :
       {"checkpoint_000010.rank0000of0002.h5", "checkpoint_000010.rank0001of0002.h5"})
    EXPECT_TRUE(fs::exists(d / f)) << f;
  // Rank 0's piece of step 20 was fine, but it does not replace anything on its own.
  for (const char* f :
       {"checkpoint_000020.rank0000of0002.h5", "checkpoint_000020.rank0001of0002.h5"})
    EXPECT_FALSE(fs::exists(d / f)) << f;
  for (const auto& e : fs::recursive_directory_iterator(d))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  std::ifstream in(d / "run.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(fs::path(j["last_checkpoint"].get<std::string>()).filename(), "checkpoint_000010.h5");
}

TEST(FaultsMpi, AFullDiskUnderOneRanksSnapshotPieceStopsEveryRank) {
  const fs::path d = fresh("snapshot");
  const auto r = run_fluxview(kRun + "--output " + d.string(),
                              mpirun(2, fault_env("snapshot_000020/piece_0001", 1000)));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("piece_0001.vti' failed: No space left on device"), std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(d / "snapshot_000020.pvti"));
  EXPECT_TRUE(fs::exists(d / "snapshot_000010.pvti"));
}

TEST(FaultsMpi, AnMpiRunIntoAFolderInUseIsRefusedOnEveryRank) {
  const fs::path d = fresh("locked");
  const fs::path log = fresh("locked.log");
  const pid_t first = fluxview::test::spawn_fluxview(
      "run heat/hot-wall --backend cpu --set grid.n=24 --set heat.steady_tol=0 --steps 100000000 "
      "--quiet --output " +
          d.string(),
      log.string());
  for (int i = 0; i < 600 && !fluxview::FolderLock::holder(d); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fluxview::FolderLock::holder(d).has_value());
  const auto r = run_fluxview(
      "run heat/hot-spot --backend cpu --set grid.n=12 --steps 2 --output " + d.string(),
      mpirun(2));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("another fluxview run (process " + std::to_string(first)), std::string::npos)
      << r.out;
  kill(first, SIGTERM);
  EXPECT_EQ(fluxview::test::wait_for_exit(first), 130);
  fs::remove(log);
}
