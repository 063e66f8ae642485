// Checkpoint, restart and signals through the command line: N steps, restart, N steps
// gives the same files as 2N steps straight; SIGTERM ends a run cleanly.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
fs::path fresh(const std::string& n) {
  const auto d = fs::temp_directory_path() / ("fluxview_restart_" + n);
  fs::remove_all(d);
  return d;
}
nlohmann::json run_json(const fs::path& d) {
  return nlohmann::json::parse(slurp(d / "run.json"));
}
}  // namespace

TEST(RestartCli, RestartedRunWritesTheSameSnapshotAsTheStraightRun) {
  const fs::path a = fresh("a"), b = fresh("b");
  const std::string common =
      "heat/hot-spot --backend cpu --set grid.nx=20 --set grid.ny=14 --set grid.nz=9 ";
  auto r = run_fluxview("run " + common + "--steps 40 --checkpoint-every 20 --quiet --output " +
                        a.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(a / "checkpoint_000020.h5"));
  ASSERT_TRUE(fs::exists(a / "checkpoint_000040.h5"));
  r = run_fluxview("run --restart " + (a / "checkpoint_000020.h5").string() +
                   " --backend cpu --steps 20 --quiet --output " + b.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(b / "snapshot_000040.vti"));
  EXPECT_EQ(slurp(a / "snapshot_000040.vti"), slurp(b / "snapshot_000040.vti"))
      << "restart is not bit-identical";
  EXPECT_EQ(run_json(b)["steps"], 40);
  EXPECT_EQ(run_json(b)["steps_run"], 20);
}

TEST(RestartCli, RestartRefusesChangesBeyondRunKeysAndBadFiles) {
  const fs::path a = fresh("c");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 2 "
                         "--checkpoint-every 2 --quiet --output " +
                         a.string())
                .code,
            0);
  auto r = run_fluxview("run --restart " + (a / "checkpoint_000002.h5").string() +
                        " --set heat.alpha=1 --output " + fresh("d").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("only run.* keys can change on --restart"), std::string::npos) << r.out;
  std::ofstream(a / "junk.h5") << "junk";
  const fs::path e = fresh("e");
  r = run_fluxview("run --restart " + (a / "junk.h5").string() + " --output " + e.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not an HDF5 file"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(e)) << "a refused restart created its output folder";
}

TEST(RestartCli, SigtermFinishesTheStepWritesACheckpointAndRunJson) {
  const fs::path d = fresh("sig");
  // A run far longer than the 2 s after which `timeout` sends SIGTERM.
  const auto r = run_fluxview(
      "run heat/hot-wall --backend cpu --set grid.n=48 --set heat.steady_tol=0 --steps 100000000 "
      "--checkpoint-every 100000000 --quiet --output " +
          d.string(),
      "timeout --preserve-status -s TERM 2 ");
  EXPECT_EQ(r.code, 130) << r.out;
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_NE(j["message"].get<std::string>().find("SIGTERM"), std::string::npos);
  const std::int64_t step = j["steps"];
  EXPECT_GT(step, 0);
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(step));
  EXPECT_TRUE(fs::exists(d / name)) << name;
  EXPECT_TRUE(fs::exists(d / "series.pvd"));
}
