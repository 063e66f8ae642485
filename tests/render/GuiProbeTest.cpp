// The window's probes from a probe file, as a script runs them: heat/sine-decay in 2D under
// Xvfb with a line through grid points and a pinned point at the centre; after the last
// frame the CSVs are in the probe folder. FTCS keeps the discrete sine mode's shape, so the
// profile must be the centre value times the sine's shape to round-off, and the pinned
// point's series must fall step after step.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "tests/render/GuiScript.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::vector<double>> read_numbers(const fs::path& path, std::string* header) {
  std::ifstream in(path);
  std::vector<std::vector<double>> rows;
  std::getline(in, *header);
  for (std::string line; std::getline(in, line);) {
    std::vector<double> r;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) r.push_back(std::strtod(c.c_str(), nullptr));
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST(GuiProbes, AProbeFileIsSampledLiveAndExportedAfterTheLastFrame) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_probe_test");
  // 255 points a side: spacing 1/256, so 0.25 ... 0.75 in 129 points are grid points.
  {
    std::ofstream f(dir / "probes.json");
    f << R"({"field": "T", "count": 129, "line": [[0.25, 0.5, 0.5], [0.75, 0.5, 0.5]],)"
      << R"( "points": [[0.5, 0.5, 0.5]], "folder": ")" << (dir / "probes").string() << "\"}";
  }
  const auto r = fluxview::test::run_gui(
      "gui heat/sine-decay --backend cpu --set grid.nx=255 --set grid.ny=255 --set grid.nz=1 "
      "--set heat.sine_amplitude=2 --set run.until=0.1 --exit-after-frames 60 --probe-file " +
      (dir / "probes.json").string());
  ASSERT_EQ(r.code, 0) << r.out;

  fs::path line_csv, points_csv;
  for (const auto& e : fs::directory_iterator(dir / "probes")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("probe_line_", 0) == 0) line_csv = e.path();
    if (name.rfind("probe_points_", 0) == 0) points_csv = e.path();
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << "a temporary left behind: " << name;
  }
  ASSERT_FALSE(line_csv.empty()) << r.out;
  ASSERT_FALSE(points_csv.empty()) << r.out;
  EXPECT_NE(r.out.find("wrote " + line_csv.string()), std::string::npos) << r.out;

  std::string head;
  const auto line = read_numbers(line_csv, &head);
  EXPECT_EQ(head, "distance,x,y,z,T");
  ASSERT_EQ(line.size(), 129u);
  const auto series = read_numbers(points_csv, &head);
  EXPECT_EQ(head, "time,T@(0.5 0.5 0.5)");
  // 60 frames of a run that takes seconds: one row a frame that showed a new step.
  ASSERT_GE(series.size(), 3u) << "one row a step shown; the run should span several frames";
  for (std::size_t k = 1; k < series.size(); ++k) {
    EXPECT_GT(series[k][0], series[k - 1][0]);
    EXPECT_LT(series[k][1], series[k - 1][1]) << "the centre cools";
  }
  // Both were sampled from the same state: the line's middle point is the pinned point.
  const double centre = series.back()[1];
  EXPECT_NEAR(line[64][4], centre, 1e-12);
  // And it has decayed as exp(-alpha |k|^2 t), |k|^2 = 2 pi^2 (the discrete mode's rate
  // differs by (k dx)^2 / 12, a few parts in 10^5 here).
  const double t = series.back()[0], pi = std::numbers::pi;
  EXPECT_NEAR(centre / (2 * std::exp(-2 * pi * pi * t)), 1.0, 1e-3);
  double worst = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    EXPECT_NEAR(line[i][0], i / 256.0, 1e-15);
    EXPECT_NEAR(line[i][1], 0.25 + i / 256.0, 1e-15);
    worst =
        std::max(worst, std::abs(line[i][4] - centre * std::sin(std::numbers::pi * line[i][1])));
  }
  std::printf(
      "%zu samples of the centre to t = %.4g (%.6f of the exact decay); the profile's "
      "largest departure from the sine shape: %.3g\n",
      series.size(), t, centre / (2 * std::exp(-2 * pi * pi * t)), worst);
  EXPECT_LE(worst, 1e-12 * 2);
}

TEST(GuiProbes, ABadProbeFileIsRefusedBeforeAWindowOpens) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const fs::path file = fs::temp_directory_path() / "fluxview_bad_probes.json";
  std::ofstream(file) << R"({"count": 1, "line": [[0, 0, 0], [1, 1, 0]]})";
  const auto r = fluxview::test::run_gui(
      "gui heat/sine-decay --backend cpu --set grid.nz=1 --exit-after-frames 2 --probe-file " +
      file.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--probe-file " + file.string() + ": count = 1; allowed: 2 to 100000"),
            std::string::npos)
      << r.out;
}
