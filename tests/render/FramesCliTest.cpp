// `fluxview run` drawing frames the way users ask for them: the volume, isosurface and
// streamline views, a view file, a frame at the end of every run, a movie that ffprobe
// reads with the right frame count and size, and bad options refused before anything
// is written.
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <vector>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "render/BlockOutlines.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using namespace fluxview;
using namespace fluxview::render;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_frames_" + name);
  fs::remove_all(d);
  return d;
}

std::set<std::string> pngs_in(const fs::path& dir) {
  std::set<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".png") names.insert(e.path().filename().string());
  return names;
}

// Pixels of the picture that are neither background nor grey text or box edges.
int coloured_pixels(const Image& im) {
  int n = 0;
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) {
      const auto* p = im.pixel(x, y);
      const int spread = std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]});
      n += spread > 25;
    }
  return n;
}

}  // namespace

TEST(FramesCli, VolumeViewWritesAFrameAtTheEndOfTheRun) {
  const fs::path d = fresh_dir("volume");
  // 7 steps, a frame every 5: frames 0 and 5, and the final state at 7.
  const auto r = test::run_fluxview(
      "run heat/hot-spot --backend cpu --set grid.n=20 --steps 7 --render-every 5 "
      "--render-view volume --render-size 160x120 --quiet --output " +
      d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(pngs_in(d / "frames"),
            (std::set<std::string>{"frame_000000.png", "frame_000005.png", "frame_000007.png"}));
  const Image im = read_png(d / "frames" / "frame_000007.png");
  EXPECT_EQ(im.width, 160);
  EXPECT_EQ(im.height, 120);
  EXPECT_GT(coloured_pixels(im), 300) << "no volume in the picture";
  // The title along the top: light text in the top rows.
  int ink = 0;
  for (int y = 0; y < im.height / 6; ++y)
    for (int x = 0; x < im.width / 2; ++x) ink += im.pixel(x, y)[0] > 150;
  EXPECT_GT(ink, 20) << "no title";
}

TEST(FramesCli, IsoAndLinesFromAViewFile) {
  const fs::path d = fresh_dir("viewfile");
  fs::create_directories(d);
  std::ofstream(d / "view.json") << R"({"view": "3d", "field": "rho",
      "layers": {"slices": false, "iso": true, "lines": true},
      "iso": {"values": [1.2], "color_field": "p"},
      "lines": {"seeds": 3, "steps": 30}})";
  const auto r = test::run_fluxview(
      "run fv/sedov --backend cpu --set grid.n=20 --steps 4 --render-every 4 --render-size "
      "160x120 --quiet --view-file " +
      (d / "view.json").string() + " --output " + (d / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(pngs_in(d / "out" / "frames"),
            (std::set<std::string>{"frame_000000.png", "frame_000004.png"}));
  EXPECT_GT(coloured_pixels(read_png(d / "out" / "frames" / "frame_000004.png")), 100);
}

// MHD's field lines: the 3D view's streamlines traced through (bx, by, bz). A uniform field
// along x and one along z draw different lines; with the layer off the box is empty.
TEST(FramesCli, MagneticFieldLinesAreDrawnAlongTheField) {
  const fs::path d = fresh_dir("fieldlines");
  fs::create_directories(d);
  const auto frame = [&](const std::string& name, const std::string& field, bool lines) {
    std::ofstream(d / (name + ".json"))
        << R"({"view": "3d", "field": "b_magnitude", "layers": {"slices": false, "lines": )"
        << (lines ? "true" : "false")
        << R"(}, "lines": {"field": ["bx", "by", "bz"], "seeds": 5, "steps": 60}})";
    const auto r = test::run_fluxview(
        "run fv/sedov --backend cpu --set grid.n=16 --set fv.physics=mhd --set fv.ambient_p=0.1 "
        "--set " +
        field + " --steps 2 --render-every 2 --render-size 240x180 --quiet --view-file " +
        (d / (name + ".json")).string() + " --output " + (d / name).string());
    EXPECT_EQ(r.code, 0) << r.out;
    return read_png(d / name / "frames" / "frame_000002.png");
  };
  // Light pixels of the box's area (not the title, not the colour bar).
  const auto light = [](const Image& im) {
    int n = 0;
    for (int y = im.height / 6; y < im.height; ++y)
      for (int x = 0; x < im.width * 2 / 3; ++x) {
        const auto* p = im.pixel(x, y);
        n += std::min({p[0], p[1], p[2]}) > 180;
      }
    return n;
  };
  const Image along_x = frame("x", "fv.bx=1", true), along_z = frame("z", "fv.bz=1", true);
  const Image off = frame("off", "fv.bx=1", false);
  EXPECT_GT(light(along_x), light(off) + 100);
  EXPECT_GT(light(along_z), light(off) + 100);
  int differ = 0;
  for (int y = 0; y < along_x.height; ++y)
    for (int x = 0; x < along_x.width; ++x)
      differ += std::abs(along_x.pixel(x, y)[0] - along_z.pixel(x, y)[0]) > 60;
  EXPECT_GT(differ, 100) << "lines along x and along z drew the same picture";
}

// The adaptive mesh's blocks outlined in the 2D view, each level in its colour: a 2D blast
// on blocks of 8 with two levels; the same frame without outlines has none of those
// colours. (Built where the adaptive mesh is, FLUXVIEW_HAVE_AMR.)
TEST(FramesCli, AdaptiveMeshBlockOutlinesInTheirLevelsColours) {
#ifndef FLUXVIEW_HAVE_AMR
  GTEST_SKIP() << "built without the adaptive mesh (p4est)";
#else
  const fs::path d = fresh_dir("outlines");
  fs::create_directories(d);
  std::ofstream(d / "on.json") << R"({"view": "2d", "block_outlines": true, "colorbar": false})";
  std::ofstream(d / "off.json") << R"({"view": "2d", "block_outlines": false, "colorbar": false})";
  const auto count = [](const Image& im, std::array<float, 4> c) {
    int n = 0;
    for (int y = 0; y < im.height; ++y)
      for (int x = 0; x < im.width; ++x) {
        const auto* p = im.pixel(x, y);
        bool same = true;
        for (int k = 0; k < 3; ++k) same = same && std::abs(int(p[k]) - int(c[k] * 255.0f)) <= 2;
        n += same;
      }
    return n;
  };
  std::array<int, 3> with{}, without{};
  for (const char* v : {"on", "off"}) {
    const auto r = test::run_fluxview(
        "run fv/sedov --backend cpu --set grid.nx=32 --set grid.ny=32 --set grid.nz=1 --set "
        "fv.mesh=amr --set fv.amr.block=8 --set fv.amr.max_level=2 --steps 0 --render-every 1 "
        "--render-size 256x256 --quiet --view-file " +
        (d / (std::string(v) + ".json")).string() + " --output " + (d / v).string());
    ASSERT_EQ(r.code, 0) << r.out;
    const Image im = read_png(d / v / "frames" / "frame_000000.png");
    for (int l = 0; l < 3; ++l)
      (std::string(v) == "on" ? with : without)[std::size_t(l)] = count(im, level_colour(l));
  }
  // Level 0 (white) at the domain's edges, 1 and 2 around the blast in the middle.
  for (int l = 0; l < 3; ++l) {
    EXPECT_GT(with[std::size_t(l)], 60) << "level " << l;
    EXPECT_LT(without[std::size_t(l)], with[std::size_t(l)] / 4) << "level " << l;
  }
#endif
}

TEST(FramesCli, MovieHasTheFramesAndSizeFfprobeReports) {
  if (std::system("ffprobe -version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no ffprobe";
  const fs::path d = fresh_dir("movie");
  // Frames at 0, 3, 6, 9 and the final 10: five, in a film only (no PNG folder).
  const auto r = test::run_fluxview(
      "run heat/hot-wall --backend cpu --set grid.n=16 --steps 10 --render-every 3 "
      "--render-size 192x144 --quiet --movie " +
      (d / "film.mp4").string() + " --output " + d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(d / "film.mp4"));
  EXPECT_FALSE(fs::exists(d / "frames")) << "a movie needs no PNG folder";
  const fs::path probe = d / "probe.txt";
  const std::string cmd =
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,width,height -of csv=p=0 " +
      (d / "film.mp4").string() + " > " + probe.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string line;
  std::getline(std::ifstream(probe), line);
  EXPECT_EQ(line, "192,144,5") << "width,height,frames";
  for (const auto& e : fs::directory_iterator(d))
    EXPECT_EQ(e.path().filename().string().find(".part"), std::string::npos)
        << "a partial file was left: " << e.path();
}

TEST(FramesCli, BadOptionsAreRefusedBeforeAnythingIsWritten) {
  const std::string base = "run heat/hot-spot --backend cpu --set grid.n=8 --steps 2 ";
  struct Case {
    std::string args, message;
  };
  const fs::path d = fresh_dir("bad");
  fs::create_directories(d);
  std::ofstream(d / "bad.json") << R"({"colormap": "jet"})";
  const std::vector<Case> cases = {
      {"--render-every 1 --render-view bogus", "--render-view"},
      {"--render-every 1 --render-view 2d+iso", "allowed: 2d, or any of"},
      {"--render-every 1 --render-view lines", "ux"},
      {"--render-every 1 --render-field vorticity", "allowed: T"},
      {"--render-every 1 --view-file " + (d / "missing.json").string(), "cannot be read"},
      {"--render-every 1 --view-file " + (d / "bad.json").string(), "jet"},
      {"--render-every 1 --movie film.gif", ".mp4"},
      {"--movie film.mp4", "--render-every"},
      {"--render-every 1 --render-size 10x10", "--render-size"},
      {"--render-every 1 --render-size big", "WxH"},
  };
  for (const auto& c : cases) {
    const fs::path out = d / "out";
    fs::remove_all(out);
    const auto r = test::run_fluxview(base + c.args + " --output " + out.string());
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_FALSE(fs::exists(out)) << c.args << ": output written for bad input";
  }
}

// --upload-path pins how device fields reach GL; a CPU run's fields are on the host and
// take the host's way whatever is pinned: the same pictures as with the automatic
// choice, and run.json records what was asked for.
TEST(FramesCli, APinnedUploadPathLeavesACpuRunsFramesAsTheyAreAndIsRecorded) {
  std::vector<Image> frames;
  for (const std::string path : {"auto", "map"}) {
    const fs::path d = fresh_dir("upload_" + path);
    const auto r = test::run_fluxview(
        "run heat/hot-spot --backend cpu --set grid.n=12 --steps 2 --render-every 2 "
        "--render-size 96x72 --quiet --upload-path " +
        path + " --output " + d.string());
    ASSERT_EQ(r.code, 0) << path << ": " << r.out;
    ASSERT_EQ(pngs_in(d / "frames"),
              (std::set<std::string>{"frame_000000.png", "frame_000002.png"}))
        << path;
    frames.push_back(read_png(d / "frames" / "frame_000002.png"));
    std::ifstream in(d / "run.json");
    const auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j.at("frames").at("upload_path"), path) << j.dump();
  }
  ASSERT_EQ(frames[0].width, 96);
  EXPECT_EQ(frames[0].rgba, frames[1].rgba) << "the pinned path changed a CPU run's picture";
}
