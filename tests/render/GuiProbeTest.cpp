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
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
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
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
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

// A person's hand: the mouse drags a line across the 2D view and shift-clicks its middle
// (xdotool, tests/render/drag_probes.sh); the exported line is horizontal across the view,
// on the sine mode's shape, and the pinned point is the view's middle.
TEST(GuiProbes, DragALineAndShiftClickAPointWithTheMouse) {
  const std::string xdotool = XDOTOOL;
  if (!fluxview::test::have_xvfb() || xdotool.empty() ||
      xdotool.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "Xvfb or xdotool not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_drag_probe_test");
  const std::string cmd = fluxview::test::on_own_display("1600x1000x24") + "sh " +
                          DRAG_PROBES_SCRIPT + " " + FLUXVIEW_EXE + " " + dir.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << " (see " << (dir / "log.txt") << ")";

  fs::path line_csv, points_csv;
  for (const auto& e : fs::directory_iterator(dir / "probes")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("probe_line_", 0) == 0) line_csv = e.path();
    if (name.rfind("probe_points_", 0) == 0) points_csv = e.path();
  }
  ASSERT_FALSE(line_csv.empty() || points_csv.empty()) << "see " << (dir / "log.txt");
  std::string head;
  const auto line = read_numbers(line_csv, &head);
  ASSERT_EQ(line.size(), 200u);  // the default count
  // Across the view at one height (the drag's), from near the left wall to near the right.
  EXPECT_LT(line.front()[1], 0.15);
  EXPECT_GT(line.back()[1], 0.85);
  EXPECT_NEAR(line.front()[2], 0.5, 0.02);
  for (const auto& r : line) {
    EXPECT_EQ(r[2], line.front()[2]);
    EXPECT_EQ(r[3], 0.5);
  }
  // T = C sin(pi x) along it, to the linear interpolation's dx^2 pi^2 / 8 (2e-5 of C).
  const double pi = std::numbers::pi;
  const double c = line[100][4] / std::sin(pi * line[100][1]);
  double worst = 0;
  for (const auto& r : line) worst = std::max(worst, std::abs(r[4] - c * std::sin(pi * r[1])));
  const auto points = read_numbers(points_csv, &head);
  ASSERT_GE(points.size(), 1u);
  double px = 0, py = 0, pz = 0;
  ASSERT_EQ(std::sscanf(head.c_str(), "time,T@(%lf %lf %lf)", &px, &py, &pz), 3) << head;
  std::printf(
      "line from x = %.4f to %.4f at y = %.4f, |T - C sin(pi x)| <= %.3g C; point "
      "(%.4f, %.4f, %.4f)\n",
      line.front()[1], line.back()[1], line.front()[2], worst / c, px, py, pz);
  EXPECT_LE(worst, 1e-4 * c);
  EXPECT_NEAR(px, 0.5, 0.02);
  EXPECT_NEAR(py, 0.5, 0.02);
  // The point and the line from the same state: T at the point is C' sin(pi px) with C'
  // the line's C scaled by the sine of the heights.
  EXPECT_NEAR(points.back()[1],
              c * std::sin(pi * px) * std::sin(pi * py) / std::sin(pi * line.front()[2]), 1e-4 * c);
}
