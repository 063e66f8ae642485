// The window's probes without a window: a line along grid points of a known field and
// pinned points, sampled as the run steps and exported as CSV whose values are the
// field's to round-off; the probe file's JSON read back and its mistakes refused.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/Probes.hpp"
#include "fileio/FolderLock.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fs = std::filesystem;
using namespace fluxview;
using fluxview::app::Probes;

namespace {

// heat/sine-decay at t = 0: T = 2 sin(pi x / Lx) sin(pi y / Ly) at the grid points.
std::unique_ptr<Solver> sine_run() {
  return test::make_solver("heat/sine-decay",
                           {"grid.nx=40", "grid.ny=30", "grid.nz=1", "heat.sine_amplitude=2"});
}
double sine(const Grid& g, double x, double y) {
  const double pi = std::numbers::pi;
  const double lx = g.spacing[0] * (g.n[0] + 1), ly = g.spacing[1] * (g.n[1] + 1);
  return 2 * std::sin(pi * x / lx) * std::sin(pi * y / ly);
}

// The rows of a CSV file, each split at its commas.
std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST(Probes, LineAndPointsExportAsCsvEqualToTheField) {
  auto s = sine_run();
  const Grid& g = s->grid();
  Probes p;
  p.folder = fresh_dir("fluxview_probes_test").string();
  p.count = 40;  // the 40 grid points of row j = 15
  p.set_line({g.coord(0, 0), g.coord(1, 15), 0}, {g.coord(0, 39), g.coord(1, 15), 0});
  p.pin({g.coord(0, 7), g.coord(1, 12), 0});
  p.pin({g.coord(0, 20), g.coord(1, 3), 0});
  p.sample(*s, "T");
  const std::vector<std::string> files = p.export_csv();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(fs::path(files[0]).filename(), "probe_line_000000.csv");
  EXPECT_EQ(fs::path(files[1]).filename(), "probe_points_000000.csv");
  // The folder is held by this process while the window may write there.
  const auto holder = FolderLock::holder(p.folder);
  ASSERT_TRUE(holder);

  const auto line = read_csv(files[0]);
  ASSERT_EQ(line.size(), 41u);  // a header and one row a point
  EXPECT_EQ(line[0], (std::vector<std::string>{"distance", "x", "y", "z", "T"}));
  double worst = 0;
  for (int i = 0; i < 40; ++i) {
    const auto& r = line[std::size_t(i) + 1];
    ASSERT_EQ(r.size(), 5u);
    EXPECT_NEAR(std::strtod(r[0].c_str(), nullptr), i * g.spacing[0], 1e-15);
    EXPECT_NEAR(std::strtod(r[1].c_str(), nullptr), g.coord(0, i), 1e-15);
    const double err =
        std::abs(std::strtod(r[4].c_str(), nullptr) - sine(g, g.coord(0, i), g.coord(1, 15)));
    worst = std::max(worst, err);
  }
  std::printf("line of 40 points: largest |CSV - field| = %.3g\n", worst);
  EXPECT_LE(worst, 1e-12);

  const auto points = read_csv(files[1]);
  ASSERT_EQ(points.size(), 2u);
  ASSERT_EQ(points[1].size(), 3u);
  EXPECT_EQ(points[1][0], "0");
  EXPECT_NEAR(std::strtod(points[1][1].c_str(), nullptr), sine(g, g.coord(0, 7), g.coord(1, 12)),
              1e-12);
  EXPECT_NEAR(std::strtod(points[1][2].c_str(), nullptr), sine(g, g.coord(0, 20), g.coord(1, 3)),
              1e-12);

  // One sample a new step: three steps, three more rows, each the field at its time.
  for (int k = 0; k < 3; ++k) {
    s->advance(1);
    p.sample(*s, "T");
    p.sample(*s, "T");  // a second frame at the same step adds nothing
  }
  ASSERT_EQ(p.series().time.size(), 4u);
  EXPECT_DOUBLE_EQ(p.series().time.back(), s->time());
  const auto now = sample_points(s->view("T"), g, p.points());
  EXPECT_EQ(p.series().values.back(), now);
  EXPECT_EQ(p.profile()->value,
            sample_line(s->view("T"), g, p.line()->first, p.line()->second, 40).value);
  const auto later = p.export_csv();
  EXPECT_EQ(read_csv(later[1]).size(), 5u);
  EXPECT_EQ(fs::path(later[0]).filename(), "probe_line_000003.csv");

  // A run started again (time back to 0) starts the series afresh; so does a new pin.
  auto again = sine_run();
  p.sample(*again, "T");
  EXPECT_EQ(p.series().time.size(), 1u);
  p.pin({g.coord(0, 1), g.coord(1, 1), 0});
  EXPECT_TRUE(p.series().time.empty());
  p.sample(*again, "T");
  ASSERT_EQ(p.series().values.size(), 1u);
  EXPECT_EQ(p.series().values[0].size(), 3u);
}

TEST(Probes, TheProbeFileRoundTripsAndItsMistakesAreRefused) {
  Probes p;
  p.field = "rho";
  p.count = 64;
  p.folder = "out/probes";
  p.set_line({0.1, 0.2, 0.5}, {0.9, 0.8, 0.5});
  p.pin({0.25, 0.5, 0.5});
  Probes q;
  q.load_json(nlohmann::json::parse(p.to_json().dump()));
  EXPECT_EQ(q.to_json(), p.to_json());
  EXPECT_EQ(q.line()->second[1], 0.8);
  ASSERT_EQ(q.points().size(), 1u);

  const auto refused = [](const std::string& text, const std::string& says) {
    Probes r;
    try {
      r.load_json(nlohmann::json::parse(text));
      ADD_FAILURE() << text << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused(R"({"count": 1})", "allowed: 2 to");
  refused(R"({"line": [[0, 0, 0]]})", "line: two points");
  refused(R"({"points": [[0, 0]]})", "points: three numbers");
  refused(R"({"lines": []})", "unknown key 'lines'");

  Probes empty;
  empty.folder = fresh_dir("fluxview_probes_empty").string();
  EXPECT_THROW(empty.export_csv(), std::invalid_argument);
  EXPECT_FALSE(fs::exists(empty.folder)) << "nothing to export creates nothing";
}
