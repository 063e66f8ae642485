// The command line as a user meets it: exit codes, one-line messages naming the key,
// value and what is allowed, and no files left behind by a run that was refused.
#include <gtest/gtest.h>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/core/CudaRuntime.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;

namespace {

using Result = fluxview::test::CommandResult;
using fluxview::test::run_fluxview;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_cli_" + name);
  fs::remove_all(d);
  return d;
}

}  // namespace

TEST(Cli, ListShowsTheBuiltinScenarios) {
  const Result r = run_fluxview("list");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("heat/hot-wall"), std::string::npos);
  EXPECT_NE(r.out.find("heat/sine-decay"), std::string::npos);
  const Result p = run_fluxview("list heat/hot-wall");
  EXPECT_EQ(p.code, 0);
  EXPECT_NE(p.out.find("heat.alpha"), std::string::npos);
  EXPECT_NE(p.out.find("m^2/s"), std::string::npos);
}

TEST(Cli, RunWritesSeriesSnapshotsAndRunJson) {
  const fs::path d = fresh_dir("run");
  const Result r = run_fluxview(
      "run heat/hot-spot --backend cpu --set grid.n=12 --steps 6 --every 2 --output " + d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(d.string()), std::string::npos) << "says where the output went: " << r.out;
  for (const char* f : {"series.pvd", "run.json", "snapshot_000000.vti", "snapshot_000002.vti",
                        "snapshot_000004.vti", "snapshot_000006.vti"})
    EXPECT_TRUE(fs::exists(d / f)) << f;
  std::ifstream in(d / "run.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["solver"], "heat");
  EXPECT_EQ(j["scenario"], "heat/hot-spot");
  EXPECT_EQ(j["steps"], 6);
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["precision"], "double");
  EXPECT_EQ(j["status"], "completed");
  EXPECT_EQ(j["parameters"]["grid.nx"], 12);
  EXPECT_EQ(j["snapshots"].size(), 4u);
  EXPECT_GT(j["snapshots"][3]["time"].get<double>(), 0.0);
  EXPECT_GT(j["throughput"]["cell_updates_per_second"].get<double>(), 0.0);
  const double tmax = j["diagnostics"]["T_max"]["value"];
  EXPECT_GT(tmax, 20.0);  // the hot spot is still hotter than the walls
  EXPECT_LE(tmax, 100.0);
  EXPECT_EQ(j["diagnostics"]["T_max"]["unit"], "degC");
  for (const auto& e : fs::directory_iterator(d))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos)
        << "temporary file left: " << e.path();
}

TEST(Cli, UntilStopsExactlyAtTheRequestedTime) {
  const fs::path d = fresh_dir("until");
  const Result r = run_fluxview(
      "run heat/sine-decay --backend cpu --set grid.n=8 --until 0.001 --quiet --output " +
      d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(d / "run.json");
  EXPECT_NEAR(nlohmann::json::parse(in)["time"].get<double>(), 0.001, 1e-15);
}

struct BadInput {
  std::string args;
  std::string message;
};

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsTwoWithOneClearLineAndWritesNothing) {
  const fs::path d = fresh_dir("bad");
  const Result r = run_fluxview("run " + GetParam().args + " --backend cpu --output " + d.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(GetParam().message), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(d)) << "a refused run created its output directory";
}

INSTANTIATE_TEST_SUITE_P(
    Messages, CliBadInput,
    ::testing::Values(
        BadInput{"heat/nowhere", "unknown scenario 'heat/nowhere'"},
        BadInput{"heat/hot-wall --set heat.alpah=1",
                 "unknown key 'heat.alpah' (did you mean 'heat.alpha'?)"},
        BadInput{"heat/hot-wall --set grid.nx=ten", "grid.nx = 'ten' is not an integer"},
        BadInput{"heat/hot-wall --set grid.nx=0",
                 "grid.nx = 0 is out of range; allowed: an integer in [1, 16384]"},
        BadInput{"heat/hot-wall --set heat.init=cold",
                 "heat.init = cold is not a known choice; allowed: one of uniform, sine, hot-spot"},
        BadInput{"heat/hot-wall --set heat.dt=10", "heat.dt = 10 s is unstable"},
        BadInput{"heat/hot-wall --set heat.alpha", "is not of the form key=value"},
        BadInput{"heat/hot-wall --precision half",
                 "--precision half: unknown precision; allowed: float, double"},
        BadInput{"heat/hot-wall --mpi-dims 2,x,1",
                 "--mpi-dims 2,x,1: expected three positive rank counts X,Y,Z"},
        BadInput{"heat/hot-wall --mpi-dims 2,1,1",
                 "--mpi-dims 2,1,1 makes 2 ranks but the run has 1"}));

TEST(Cli, UnwritableOutputIsRefusedBeforeRunning) {
  const fs::path file = fresh_dir("file");
  std::ofstream(file) << "not a directory";
  const Result r =
      run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 1 --output " +
                   (file / "sub").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--output"), std::string::npos) << r.out;
  fs::remove(file);
}

TEST(Cli, CudaBackendWithoutDeviceIsAnError) {
  if (fluxview::cuda::device_count() > 0)
    GTEST_SKIP() << "a CUDA device is present; this checks the no-device message";
  const Result r =
      run_fluxview("run heat/hot-spot --backend cuda --steps 1 --output /tmp/fluxview_cli_nocuda");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend cuda: no CUDA device"), std::string::npos) << r.out;
}

TEST(Cli, BenchPrintsOneJsonObjectWithTheCopyRatio) {
  const Result r =
      run_fluxview("bench heat/hot-wall --backend cpu --set grid.n=32 --steps 5 --warmup 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["steps"], 5);
  EXPECT_EQ(j["bytes_per_cell_update"], 16.0);
  EXPECT_GT(j["copy_bytes_per_second"].get<double>(), 1e8);
  EXPECT_NEAR(
      j["ratio_to_copy"].get<double>(),
      j["effective_bytes_per_second"].get<double>() / j["copy_bytes_per_second"].get<double>(),
      1e-9);
}

TEST(Cli, ForcedTurbulenceWritesASpectrumWithEachSnapshot) {
  const fs::path d = fresh_dir("spectrum");
  const Result r = run_fluxview(
      "run fd/forced-turbulence --backend cpu --set grid.n=12 --steps 4 --every 2 --quiet "
      "--output " +
      d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f : {"spectrum_000000.csv", "spectrum_000002.csv", "spectrum_000004.csv"}) {
    ASSERT_TRUE(fs::exists(d / f)) << f;
    std::ifstream in(d / f);
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header.rfind("k", 0), 0u) << header;
    int rows = 0;
    for (std::string line; std::getline(in, line);) rows += !line.empty();
    EXPECT_GE(rows, 11) << f;  // every shell out to the corner of the 12^3 box, at rest too
  }
}
