// Steering tools applied with the mouse (docs/gui.md "Tools that act on the field"), as a
// person does, under Xvfb with xdotool (tests/render/gui_mouse.sh): `fluxview gui --tool`
// starts with the tool armed, and the journal the window prints at its end says where each
// stroke went. In the 2D view a click strokes at the cell under it; in the 3D view a click
// on the centre slices strokes where they meet, a click inside the box but on no surface
// and a drag (which turns the box) stroke nothing; on the plot of a 1D run a click strokes
// at the coordinate under the cursor.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render/Image.hpp"
#include "tests/render/GuiScript.hpp"

namespace fs = std::filesystem;

namespace {

// An entry of the printed journal: "at step N apply TOOL k = v k = v ...  # what it did".
struct Stroke {
  std::string tool;
  std::map<std::string, double> args;
  double operator[](const std::string& k) const { return args.at(k); }
};

std::vector<Stroke> strokes(const std::string& out) {
  std::vector<Stroke> found;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(" apply ");
    if (line.rfind("at step ", 0) != 0 || at == std::string::npos) continue;
    std::stringstream words(line.substr(at + 7));
    Stroke s;
    words >> s.tool;
    std::string key, eq;
    double value = 0;
    while (words >> key && key != "#" && words >> eq >> value) s.args[key] = value;
    found.push_back(s);
  }
  return found;
}

bool have_xdotool() {
  const std::string x = XDOTOOL;
  return fluxview::test::have_xvfb() && !x.empty() && x.find("NOTFOUND") == std::string::npos;
}

struct MouseRun {
  int code = -1;
  std::string out;  // the window's output
};

// `fluxview gui ARGS` with the mouse doing ACTIONS (xdotool commands, WID: the window) on a
// 1600x1000 screen, in the folder `dir`.
MouseRun with_mouse(const fs::path& dir, const std::string& args, const std::string& actions) {
  const std::string cmd = fluxview::test::on_own_display("1600x1000x24") + "sh " +
                          GUI_MOUSE_SCRIPT + " " + FLUXVIEW_EXE + " " + dir.string() + " '" + args +
                          "' '" + actions + "'";
  MouseRun r;
  const int status = std::system(cmd.c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(dir / "log.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  r.out = ss.str();
  return r;
}

// The middle of the 3D scene in window pixels: ViewRenderer::draw lays the view right of
// the 420-pixel panel (980x860) out as a scene rectangle x 458..1110, y 82..822 beside the
// colour bar, under the title (the point tests/render/drag_probes.sh calls the view's
// middle).
constexpr int kSceneMidX = 784, kSceneMidY = 452;

// heat/hot-spot at 32^3: 32 grid points a side between walls at 0 and 0.1 m, so h = 0.1/33
// and point i at (i + 1) h; the 3D view's slices at 0.5 are drawn through point 16, 17 h.
constexpr double kH = 0.1 / 33, kSlice = 17 * kH;
const std::string kHotSpot = "heat/hot-spot --backend cpu --set grid.n=32 --tool heat-spot";

}  // namespace

// Seen along the box's diagonal at the centre's height (yaw 45 degrees, pitch 0), the box is
// symmetric left to right and top to bottom, so its centre is drawn at the scene's middle
// and the ray through it meets the x and y slices where they cross, beside the centre (the
// z slice is edge-on, half a spacing above the ray).
TEST(GuiTools, AClickOnTheCentreSlicesOfThe3dViewStrokesWhereTheyMeet) {
  if (!have_xdotool()) GTEST_SKIP() << "Xvfb or xdotool not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_tool_3d_test");
  std::ofstream(dir / "diagonal.json")
      << R"({"view": "3d", "camera": {"yaw": 0.7853981633974483, "pitch": 0.0, "distance": 2.2}})";
  const auto r = with_mouse(
      dir, kHotSpot + " --exit-after-frames 400 --view-file " + (dir / "diagonal.json").string(),
      "mousemove --window WID " + std::to_string(kSceneMidX) + " " + std::to_string(kSceneMidY) +
          " sleep 0.3 mousedown 1 sleep 0.2 mouseup 1 sleep 0.3");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = strokes(r.out);
  ASSERT_EQ(s.size(), 1u) << r.out;
  EXPECT_EQ(s[0].tool, "heat-spot");
  std::printf("stroke at (%.6f, %.6f, %.6f) m; the slices cross at x = y = %.6f m\n", s[0]["x"],
              s[0]["y"], s[0]["z"], kSlice);
  // On the x and y slices (a surface, not the middle of the ray's path through the box),
  // where they cross: within a quarter spacing; at the centre's height within one.
  EXPECT_NEAR(s[0]["x"], kSlice, 0.25 * kH);
  EXPECT_NEAR(s[0]["y"], kSlice, 0.25 * kH);
  EXPECT_NEAR(s[0]["z"], 0.05, kH);
  // The default brush: 5% of the box's side of 32 spacings.
  EXPECT_NEAR(s[0]["radius"], 0.05 * 32 * kH, 1e-12);
}

// In the default view: a click inside the box's picture where no slice is drawn strokes
// nothing (the ray's middle is no point a person saw); a drag turns the box and strokes
// nothing; the click after them strokes once, on one of the slices.
TEST(GuiTools, InThe3dViewADragOrAClickOffTheSlicesStrokesNothing) {
  if (!have_xdotool()) GTEST_SKIP() << "Xvfb or xdotool not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_tool_drag_test");
  const std::string mid = std::to_string(kSceneMidX) + " " + std::to_string(kSceneMidY);
  const auto r = with_mouse(
      dir, kHotSpot + " --exit-after-frames 600",
      // (600, 330): inside the box's outline, above the slices' left corners.
      "mousemove --window WID 600 330 sleep 0.3 click 1 sleep 0.3 "
      "mousemove --window WID " +
          mid +
          " sleep 0.3 mousedown 1 sleep 0.2 "
          "mousemove --window WID " +
          std::to_string(kSceneMidX + 50) + " " + std::to_string(kSceneMidY) +
          " sleep 0.2 mousemove --window WID " + std::to_string(kSceneMidX + 100) + " " +
          std::to_string(kSceneMidY) + " sleep 0.2 mouseup 1 sleep 0.3 mousemove --window WID " +
          mid + " sleep 0.3 click 1 sleep 0.3");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = strokes(r.out);
  ASSERT_EQ(s.size(), 1u) << "only the last click strokes:\n" << r.out;
  // On a slice: one coordinate is a slice's, to the depth buffer's precision.
  double off_slice = 1e300;
  for (const char* a : {"x", "y", "z"}) {
    off_slice = std::min(off_slice, std::abs(s[0][a] - kSlice));
    EXPECT_GT(s[0][a], 0.5 * kH);
    EXPECT_LT(s[0][a], 32.5 * kH);
  }
  std::printf("stroke at (%.6f, %.6f, %.6f) m, %.3g spacings off the nearest slice's plane\n",
              s[0]["x"], s[0]["y"], s[0]["z"], off_slice / kH);
  EXPECT_LT(off_slice, 1e-3 * kH);
}

// The 2D view as before the 3D and 1D views had tools: a click at the view's middle strokes
// at the cell there. heat/sine-decay on 63 x 63 points, spacing 1/64: the middle is point
// 31, at 0.5.
TEST(GuiTools, AClickOnThe2dViewStrokesAtTheCellUnderIt) {
  if (!have_xdotool()) GTEST_SKIP() << "Xvfb or xdotool not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_tool_2d_test");
  const auto r = with_mouse(dir,
                            "heat/sine-decay --backend cpu --set grid.nx=63 --set grid.ny=63 "
                            "--set grid.nz=1 --tool heat-obstacle --exit-after-frames 400",
                            "mousemove --window WID " + std::to_string(kSceneMidX) + " " +
                                std::to_string(kSceneMidY) + " sleep 0.3 click 1 sleep 0.3");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = strokes(r.out);
  ASSERT_EQ(s.size(), 1u) << r.out;
  EXPECT_EQ(s[0].tool, "heat-obstacle");
  std::printf("stroke at (%.6f, %.6f) m\n", s[0]["x"], s[0]["y"]);
  EXPECT_NEAR(s[0]["x"], 0.5, 1.0 / 64 + 1e-12);
  EXPECT_NEAR(s[0]["y"], 0.5, 1.0 / 64 + 1e-12);
}

// fv/sod on 200 cells: clicks at two columns of its plot stroke at the coordinates under
// them. The plot's scale comes from the screenshot (the mouse on the panel by then): the
// field's curve runs from the first cell's centre (0.0025) to the last's (0.9975). The blast
// leaves the plotted density as it was (the run has paused at its end), so the plot keeps
// its scale between the clicks.
TEST(GuiTools, ClicksOnThePlotOfA1dRunStrokeAtTheCoordinateUnderThem) {
  if (!have_xdotool()) GTEST_SKIP() << "Xvfb or xdotool not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_tool_1d_test");
  const fs::path shot = dir / "sod.png";
  const std::array<int, 2> columns{700, 1100};
  const auto r = with_mouse(dir,
                            "fv/sod --backend cpu --set grid.nx=200 --tool blast "
                            "--exit-after-frames 400 --screenshot " +
                                shot.string(),
                            "sleep 0.5 mousemove --window WID " + std::to_string(columns[0]) +
                                " 500 sleep 0.3 click 1 sleep 0.3 mousemove --window WID " +
                                std::to_string(columns[1]) +
                                " 500 sleep 0.3 click 1 sleep 0.3 mousemove --window WID 200 840");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = strokes(r.out);
  ASSERT_EQ(s.size(), 2u) << r.out;

  const fluxview::render::Image im = fluxview::render::read_png(shot);
  const std::array<int, 3> field{255, 160, 40};  // app/gui/ProfileView.hpp kFieldCurveColour
  int c0 = im.width, c1 = -1;
  for (int y = 0; y < im.height; ++y)
    for (int x = 430; x < im.width; ++x) {
      const auto* p = im.pixel(x, y);
      if (std::abs(p[0] - field[0]) <= 1 && std::abs(p[1] - field[1]) <= 1 &&
          std::abs(p[2] - field[2]) <= 1) {
        c0 = std::min(c0, x);
        c1 = std::max(c1, x);
      }
    }
  ASSERT_GT(c1 - c0, 600) << "no curve across the view";
  const double per_pixel = 0.995 / (c1 - c0);
  for (std::size_t k = 0; k < 2; ++k) {
    const double expected = 0.0025 + (columns[k] - c0) * per_pixel;
    std::printf("click at column %d: stroke at x = %.5f, the plot says %.5f (a pixel: %.5f)\n",
                columns[k], s[k]["x"], expected, per_pixel);
    EXPECT_EQ(s[k].tool, "blast");
    // To the curve's thickness and the pixel grid: 3 pixels.
    EXPECT_NEAR(s[k]["x"], expected, 3 * per_pixel);
    // The run's one cell across y and z: its centre.
    EXPECT_EQ(s[k]["y"], 0.5);
    EXPECT_EQ(s[k]["z"], 0.5);
  }
  EXPECT_LT(s[0]["x"], s[1]["x"]);
}

// --tool with a name the run's family does not have: exit code 2 before a frame, naming
// the family's tools; `fluxview gui --help` names the same.
TEST(GuiTools, AnUnknownToolIsRefusedNamingTheFamilysTools) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
  const auto help = fluxview::test::run_fluxview("gui --help");
  struct Family {
    std::string run, tools;
  };
  for (const Family& f :
       {Family{"heat/hot-spot --set grid.n=8", "heat-spot, heat-obstacle, heat-free"},
        Family{"fd/viscous-decay --set grid.n=8", "vortex, kick, density-bump"},
        Family{"fv/sod --set grid.nx=16", "blast, cloud, obstacle, obstacle-clear"}}) {
    const auto r = fluxview::test::run_gui("gui " + f.run +
                                           " --backend cpu --exit-after-frames 3 --tool nonsense");
    EXPECT_EQ(r.code, 2) << r.out;
    const std::string family = f.run.substr(0, f.run.find('/'));
    EXPECT_NE(r.out.find("--tool nonsense (a " + family +
                         " run): unknown tool 'nonsense'; allowed: " + f.tools),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("journal"), std::string::npos) << "no frame, no journal:\n" << r.out;
    EXPECT_NE(help.out.find(family + ": " + f.tools), std::string::npos) << help.out;
  }
}

// A steering file played by the window (`fluxview gui --steer`, the CPU worker stepping in
// chunks of its own) gives the journal `fluxview run --steer` of the same file writes into
// run.json, line for line: the same steps, the same arguments and the same amounts each
// stroke reports (so the same state before each stroke).
TEST(GuiTools, ASteeringFileInTheWindowGivesTheHeadlessRunsJournal) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_steer_file_test");
  std::ofstream(dir / "lesson.txt") << "at step 5 apply heat-spot x = 0.03 y = 0.05 z = 0.05 "
                                       "radius = 0.01 amplitude = 40\n"
                                       "at step 12 set heat.alpha = 2e-5\n"
                                       "at step 30 apply heat-spot x = 0.07 y = 0.04 z = 0.06 "
                                       "radius = 0.008 amplitude = -25\n";
  const std::string run = "heat/hot-spot --backend cpu --set grid.n=20 --set run.steps=60 ";
  const auto gui = fluxview::test::run_gui("gui " + run + "--exit-after-frames 150 --steer " +
                                           (dir / "lesson.txt").string());
  ASSERT_EQ(gui.code, 0) << gui.out;
  const std::string head = "journal of this session (3 entries):\n";
  const auto at = gui.out.find(head);
  ASSERT_NE(at, std::string::npos) << gui.out;
  const auto headless = fluxview::test::run_fluxview("run " + run + "--quiet --steer " +
                                                     (dir / "lesson.txt").string() + " --output " +
                                                     (dir / "out").string());
  ASSERT_EQ(headless.code, 0) << headless.out;
  std::ifstream in(dir / "out" / "run.json");
  const nlohmann::json record = nlohmann::json::parse(in);
  const std::string lines = record.at("journal").at("lines");
  EXPECT_EQ(gui.out.substr(at + head.size(), lines.size()), lines);
  EXPECT_EQ(strokes(lines).size(), 2u) << lines;
}
