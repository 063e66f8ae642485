// What a new user meets first: `--version`, the line saying which processor runs the job,
// the size a run will write, and the forecast (with a warning and a grid to try) of a run
// sized for a GPU that would take long on the CPU.
#include <gtest/gtest.h>
#include <memory>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "app/RunProgress.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "tests/support/RunFluxview.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

TEST(FirstHour, VersionNamesTheBuild) {
  const auto r = run_fluxview("--version");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fluxview 0."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("components: GUI "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU here: "), std::string::npos) << r.out;
  if (fluxview::cuda::built_with_cuda())
    EXPECT_NE(r.out.find("architectures "), std::string::npos) << r.out;
  else
    EXPECT_NE(r.out.find("CUDA: not built"), std::string::npos) << r.out;
}

TEST(FirstHour, SaysWhichProcessorRunsTheJob) {
  const fs::path d = fs::temp_directory_path() / "fluxview_first_hour_device";
  fs::remove_all(d);
  const auto r = run_fluxview("run heat/hot-spot --set grid.n=8 --steps 2 --output " + d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  if (fluxview::cuda::device_count() > 0) {
    EXPECT_NE(r.out.find("fluxview: using the GPU: "), std::string::npos) << r.out;
  } else {
    // Never a driver-version error where there is simply no GPU.
    EXPECT_EQ(r.out.find("insufficient"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(fluxview::cuda::built_with_cuda() ? "no NVIDIA GPU found"
                                                           : "built without CUDA"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(": running on the CPU with "), std::string::npos) << r.out;
  }
  fs::remove_all(d);
}

TEST(FirstHour, BannerSaysHowMuchTheRunWillWrite) {
  const fs::path d = fs::temp_directory_path() / "fluxview_first_hour_size";
  fs::remove_all(d);
  // heat, one field of 12^3 doubles = 13824 B + a header: 18 kB a snapshot; steps 0, 2, 4,
  // 6 and the last (7): 5 snapshots.
  const auto r = run_fluxview(
      "run heat/hot-spot --backend cpu --set grid.n=12 --steps 7 --every 2 "
      "--output " +
      d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("5 snapshots of 18 kB, about 90 kB in all"), std::string::npos) << r.out;
  int written = 0;
  for (const auto& e : fs::directory_iterator(d)) written += e.path().extension() == ".vti";
  EXPECT_EQ(written, 5);
  fs::remove_all(d);
}

TEST(FirstHour, FormatsDurationsAndSizesForPeople) {
  using fluxview::app::format_bytes;
  using fluxview::app::format_duration;
  EXPECT_EQ(format_duration(0.2), "1 s");
  EXPECT_EQ(format_duration(42.4), "42 s");
  EXPECT_EQ(format_duration(200), "3 min 20 s");
  EXPECT_EQ(format_duration(3 * 3600 + 7 * 60 + 30), "3 h 07 min");
  EXPECT_EQ(format_duration(10 * 86400), "10.0 days");
  EXPECT_EQ(format_bytes(800), "800 B");
  EXPECT_EQ(format_bytes(5.6e9), "5.6 GB");
  EXPECT_EQ(format_bytes(537e6), "537 MB");
}

TEST(FirstHour, LongCpuRunIsForecastWithAGridToTry) {
  auto solver = fluxview::test::make_solver("heat/hot-spot", {"grid.n=64"});
  ASSERT_EQ(solver->backend(), fluxview::BackendKind::cpu);
  fluxview::app::RunProgress p(*solver, {.max_steps = 4000, .snapshot_every = 1000}, false);
  EXPECT_EQ(p.snapshots(), 5);
  // 1 s for the first step of 4000: 4000 s in all. The work scales with the cells for a
  // run bounded by steps: grid.n=32 would take 500 s, 16 about 62 s.
  testing::internal::CaptureStderr();
  p.after_steps(1, 1.0);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("estimated run time 1 h 06 min"), std::string::npos) << said;
  EXPECT_NE(said.find("warning: this run will take about 1 h 06 min on the CPU"), std::string::npos)
      << said;
  EXPECT_NE(said.find("try --set grid.n=16 (about 1 min 02 s)"), std::string::npos) << said;
}

TEST(FirstHour, ProgressSaysHowFarAndHowLong) {
  auto solver = fluxview::test::make_solver("heat/hot-spot", {"grid.n=8"});
  fluxview::app::RunProgress p(*solver, {.max_steps = 100}, false);
  testing::internal::CaptureStderr();
  p.after_steps(1, 0.6);  // the forecast: 60 s
  solver->advance(25);
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  p.after_steps(25, 15.0);  // a progress line: a quarter done, 45 s left
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("estimated run time 1 min 00 s"), std::string::npos) << said;
  EXPECT_NE(said.find("(25 of 100, 25.0%)"), std::string::npos) << said;
  EXPECT_NE(said.find("45 s left"), std::string::npos) << said;
}
