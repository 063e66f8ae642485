// The command line as a user meets it: exit codes, one-line messages naming the key,
// value and what is allowed, and no files left behind by a run that was refused.
#include <gtest/gtest.h>
#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <cstdlib>
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

// A run's `fluxview run ARGS --quiet --output DIR` into a fresh folder, and the lines of its
// diagnostics.csv.
std::vector<std::string> diagnostics_rows(const fs::path& d, const std::string& args) {
  const Result r = run_fluxview("run " + args + " --quiet --output " + d.string());
  EXPECT_EQ(r.code, 0) << r.out;
  std::ifstream csv(d / "diagnostics.csv");
  std::vector<std::string> lines;
  for (std::string l; std::getline(csv, l);) lines.push_back(l);
  return lines;
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

// diagnostics.csv: a row a snapshot, step and time first, the last row the diagnostics
// run.json reports (RestartCli.DiagnosticsCsvContinuesAcrossARestart: with a restart).
TEST(Cli, DiagnosticsCsvHasARowForEachSnapshot) {
  const fs::path d = fresh_dir("diagcsv");
  const auto lines =
      diagnostics_rows(d, "fv/sod --backend cpu --set grid.nx=32 --every 5 --steps 20");
  ASSERT_EQ(lines.size(), 6u);  // the header and steps 0, 5, 10, 15, 20
  EXPECT_EQ(lines[0].rfind("step,time,mass [kg],", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("0,0,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[5].rfind("20,", 0), 0u) << lines[5];
  std::ifstream in(d / "run.json");
  const auto j = nlohmann::json::parse(in);
  const std::string& last = lines[5];
  const std::size_t c2 = last.find(',', last.find(',') + 1);
  EXPECT_EQ(std::stod(last.substr(c2 + 1)), j["diagnostics"]["mass"]["value"].get<double>())
      << last;
}

// --diagnostics-every: rows between the snapshots (here every 3 steps, snapshots first and
// last only), each at its own step and time, the last at run.json's.
TEST(Cli, DiagnosticsEveryAddsRowsBetweenSnapshots) {
  const fs::path d = fresh_dir("diagevery");
  const auto lines = diagnostics_rows(
      d, "fv/sod --backend cpu --set grid.nx=32 --every 0 --diagnostics-every 3 --steps 10");
  ASSERT_EQ(lines.size(), 6u);  // the header and steps 0, 3, 6, 9, 10
  const char* steps[] = {"0,", "3,", "6,", "9,", "10,"};
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(lines[i + 1].rfind(steps[i], 0), 0u) << lines[i + 1];
    times.push_back(std::stod(lines[i + 1].substr(lines[i + 1].find(',') + 1)));
  }
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()) && times[0] == 0 && times[4] > times[3]);
  std::ifstream in(d / "run.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_DOUBLE_EQ(times[4], j["time"].get<double>());
  EXPECT_EQ(j["snapshots"].size(), 2u);
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

// Every count option refuses what it cannot take in the same words, with a readable range,
// and so do --until, a listed range and the hint of an unknown key; all before anything is
// written (the fixture checks that the output folder was not made).
INSTANTIATE_TEST_SUITE_P(
    Counts, CliBadInput,
    ::testing::Values(
        BadInput{"heat/hot-spot --steps -1",
                 "--steps -1 is out of range; allowed: an integer in [0, 2^40]"},
        BadInput{"heat/hot-spot --every -1",
                 "--every -1 is out of range; allowed: an integer in [0, 2^40]"},
        BadInput{"heat/hot-spot --checkpoint-every -1",
                 "--checkpoint-every -1 is out of range; allowed: an integer in [0, 2^40]"},
        BadInput{"heat/hot-spot --diagnostics-every -3",
                 "--diagnostics-every -3 is out of range; allowed: an integer in [0, 2^40]"},
        // Too large for 64 bits: quoted as typed, not as the largest 64-bit number.
        BadInput{"heat/hot-spot --every 99999999999999999999999",
                 "--every 99999999999999999999999 is out of range; allowed: an integer in [0, "
                 "2^40]"},
        BadInput{"heat/hot-spot --checkpoint-keep 0",
                 "--checkpoint-keep 0 is out of range; allowed: an integer in [1, "},
        BadInput{"heat/hot-spot --render-every -2",
                 "--render-every -2 is out of range; allowed: an integer in [0, 2^40]"},
        BadInput{"heat/hot-spot --catalyst-every 0",
                 "--catalyst-every 0 is out of range; allowed: an integer in [1, 2^40]"},
        BadInput{"heat/hot-spot --until 0",
                 "--until 0 is out of range; allowed: a simulated time > 0 s"},
        BadInput{"heat/hot-spot --until -1",
                 "--until -1 is out of range; allowed: a simulated time > 0 s"},
        BadInput{"heat/hot-spot --set run.every=-1",
                 "run.every = -1 is out of range; allowed: an integer in [0, 2^40] steps"},
        BadInput{"fd/viscous-decay --set fd.courant=0.6",
                 "fd.courant = 0.6 is out of range; allowed: a number in (0, 0.5]"},
        BadInput{"heat/hot-wall --set heat.alpah=1", "; `fluxview list SCENARIO` lists the keys"},
        // Frames and Catalyst are set up before any folder is made (the message depends on
        // whether this build has headless rendering and ParaView).
        BadInput{"heat/hot-spot --render-every 1 --render-field rho", "--render-"},
        BadInput{"heat/hot-spot --catalyst /nonexistent/pipeline.py", "Catalyst"}));

TEST(Cli, FolderOptionsAreCheckedUnderTheirOwnNamesBeforeAnythingIsWritten) {
  const fs::path file = fresh_dir("a_file");
  std::ofstream(file) << "not a folder";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--checkpoint-every 1 --checkpoint-dir " + file.string(),
       "--checkpoint-dir " + file.string() + ": '" + file.string() +
           "' exists and is not a folder (Not a directory)"},
      // A build without headless rendering (the sanitizer build) refuses the frames first.
      {"--render-every 1 --render-dir " + (file / "frames").string(),
       run_fluxview("--version").out.find("headless EGL yes") != std::string::npos
           ? "--render-dir " + (file / "frames").string() + ": "
           : "--render-every: this fluxview was built without headless rendering"},
  };
  for (const Case& c : cases) {
    const fs::path d = fresh_dir("folders");
    const Result r = run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 1 " +
                                  c.args + " --output " + d.string());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("--output"), std::string::npos) << "names the wrong option: " << r.out;
    EXPECT_FALSE(fs::exists(d)) << c.args << ": the output folder was made";
  }
  fs::remove(file);
}

TEST(Cli, AFolderWithoutWritePermissionIsRefusedWithTheOperatingSystemsReason) {
  // Root may write anywhere; the check then runs as nobody (setpriv, util-linux).
  std::string as_user;
  if (geteuid() == 0) {
    if (std::system("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null") != 0)
      GTEST_SKIP() << "running as root without setpriv: no user to lack the permission";
    as_user = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  }
  const fs::path locked = fresh_dir("read_only");
  fs::create_directories(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read |
                              fs::perms::others_exec);
  const Result r = run_fluxview(
      "run heat/hot-spot --backend cpu --set grid.n=8 --steps 1 "
      "--output " +
          (locked / "out").string(),
      as_user);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--output " + (locked / "out").string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Permission denied"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(locked / "out"));
  fs::permissions(locked, fs::perms::owner_all);
  fs::remove_all(locked);
}

TEST(Cli, WhatTheGuiIsAskedAtItsEndIsCheckedBeforeAWindowOpens) {
  const fs::path folder = fresh_dir("screenshot_folder");
  fs::create_directories(folder);
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--exit-after-frames 0",
       "--exit-after-frames 0 is out of range; allowed: an integer in [1,"},
      {"--exit-after-frames -3", "--exit-after-frames -3 is out of range"},
      {"--screenshot " + folder.string(),
       "--screenshot " + folder.string() + ": '" + folder.string() + "' is a folder"},
      {"--screenshot /nonexistent-folder/shot.png",
       "its folder '/nonexistent-folder' cannot be used (No such file or directory)"},
  };
  for (const Case& c : cases) {
    const Result r = run_fluxview("gui heat/hot-wall --backend cpu " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << ": " << r.out;
  }
  fs::remove_all(folder);
}

TEST(Cli, BenchCountsAreCheckedLikeRunCounts) {
  Result r = run_fluxview("bench heat/hot-wall --backend cpu --set grid.n=8 --warmup -1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--warmup -1 is out of range; allowed: an integer in [0, 2^40]"),
            std::string::npos)
      << r.out;
  r = run_fluxview("bench heat/hot-wall --backend cpu --set grid.n=8 --steps 0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--steps 0 is out of range; allowed: an integer in [1, 2^40]"),
            std::string::npos)
      << r.out;
}

TEST(Cli, ListedRangesAreWhatIsAccepted) {
  const Result list = run_fluxview("list fd/viscous-decay");
  ASSERT_EQ(list.code, 0);
  const std::size_t at = list.out.find("fd.courant");
  ASSERT_NE(at, std::string::npos);
  const std::string line = list.out.substr(at, list.out.find('\n', at) - at);
  EXPECT_NE(line.find("a number in (0, 0.5]"), std::string::npos) << line;
  // Its upper bound runs; just past it is refused with the same range.
  const fs::path d = fresh_dir("courant");
  const Result edge = run_fluxview(
      "run fd/viscous-decay --backend cpu --set grid.n=8 --set fd.courant=0.5 --steps 1 --quiet "
      "--output " +
      d.string());
  EXPECT_EQ(edge.code, 0) << edge.out;
  const Result past = run_fluxview(
      "run fd/viscous-decay --backend cpu --set grid.n=8 --set fd.courant=0.5001 --steps 1 "
      "--output " +
      fresh_dir("courant_past").string());
  EXPECT_EQ(past.code, 2) << past.out;
  EXPECT_NE(past.out.find("allowed: a number in (0, 0.5]"), std::string::npos) << past.out;
  fs::remove_all(d);
}

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
  // Issue 12: the message says there is no GPU (or no CUDA in the build), not that a driver
  // is too old, and names the way on.
  EXPECT_NE(r.out.find(fluxview::cuda::built_with_cuda()
                           ? "--backend cuda: no NVIDIA GPU found"
                           : "--backend cuda: this fluxview was built without CUDA"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("allowed here: --backend cpu"), std::string::npos) << r.out;
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

// What used to be environment variables are options: a value outside their choices is
// refused with exit code 2, naming the option and what it takes, before anything is
// written; the gui checks its own the same way.
TEST(Cli, UploadPathAndCatalystLogTakeOnlyTheirChoices) {
  const fs::path d = fresh_dir("knob_options");
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"run heat/hot-wall --backend cpu --upload-path fast --output " + d.string(),
       "--upload-path: fast not in {auto,shared,map,host}"},
      {"run heat/hot-wall --backend cpu --catalyst-log loud --output " + d.string(),
       "--catalyst-log: loud not in {normal,quiet,verbose}"},
      {"gui heat/hot-wall --backend cpu --upload-path texture",
       "--upload-path: texture not in {auto,shared,map,host}"},
  };
  for (const Case& c : cases) {
    const Result r = run_fluxview(c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << ": " << r.out;
    EXPECT_FALSE(fs::exists(d)) << c.args;
  }
}
