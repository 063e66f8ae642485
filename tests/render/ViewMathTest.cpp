// What the views compute without drawing: colour-bar ticks, transfer functions, the view
// file, the 3D camera's scale, derived fields and streamlines (the host side of the code the
// GPU runs too), and films through the ffmpeg program.
#include <gtest/gtest.h>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "render/BlockOutlines.hpp"
#include "render/ColorbarTicks.hpp"
#include "render/DerivedFields.hpp"
#include "render/MovieWriter.hpp"
#include "render/SceneCamera.hpp"
#include "render/Streamlines.hpp"
#include "render/TransferFunction.hpp"
#include "render/ViewSettings.hpp"
#include "tests/render/FieldSolver.hpp"

using namespace fluxview;
using namespace fluxview::render;

namespace {

std::vector<double> values_of(const std::vector<ColorbarTick>& t) {
  std::vector<double> v;
  for (const auto& x : t) v.push_back(x.value);
  return v;
}
std::vector<std::string> labels_of(const std::vector<ColorbarTick>& t) {
  std::vector<std::string> v;
  for (const auto& x : t) v.push_back(x.label);
  return v;
}

}  // namespace

TEST(ColorbarTicks, RoundValuesInsideTheRangeInOneFormat) {
  // The hot spot's range: round steps of 5, not 20, 28.51, 37.01.
  auto t = colorbar_ticks(20, 37.01, false, 6);
  EXPECT_EQ(values_of(t), (std::vector<double>{20, 25, 30, 35}));
  EXPECT_EQ(labels_of(t), (std::vector<std::string>{"20", "25", "30", "35"}));
  EXPECT_FLOAT_EQ(t[0].t, 0.0f);
  EXPECT_NEAR(t[3].t, 15 / 17.01, 1e-6);
  // A round value just outside the range marks the bar's end.
  t = colorbar_ticks(0.004, 99.7, false, 6);
  EXPECT_EQ(values_of(t), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_FLOAT_EQ(t.front().t, 0.0f);
  EXPECT_FLOAT_EQ(t.back().t, 1.0f);
  // A step of 2.5 gets one decimal on every label, never "5.4e+01" beside "40".
  t = colorbar_ticks(0, 10, false, 5);
  EXPECT_EQ(labels_of(t), (std::vector<std::string>{"0.0", "2.5", "5.0", "7.5", "10.0"}));
  // A round-off zero is written 0.
  t = colorbar_ticks(-4.62e-19 - 1, 1, false, 5);
  const auto labels = labels_of(t);
  EXPECT_NE(std::find(labels.begin(), labels.end(), "0.0"), labels.end());
  for (const auto& l : labels) EXPECT_EQ(l.find("e-19"), std::string::npos) << l;
  // Tiny values: one scientific form with the same mantissa digits.
  t = colorbar_ticks(1e-6, 5e-6, false, 5);
  EXPECT_EQ(labels_of(t), (std::vector<std::string>{"1e-6", "2e-6", "3e-6", "4e-6", "5e-6"}));
  t = colorbar_ticks(1.5e-6, 2.6e-6, false, 5);
  for (const auto& l : labels_of(t)) EXPECT_EQ(l.size(), std::string("1.5e-6").size()) << l;
  // Negative ranges keep their signs and one format.
  t = colorbar_ticks(-0.0084, 0.0127, false, 6);
  EXPECT_EQ(labels_of(t), (std::vector<std::string>{"-0.005", "0.000", "0.005", "0.010"}));
}

// A nearly constant field (a state at rest, a hot spot's first steps in double) gets a
// few ticks, none further out than the rounding tolerance, not one tick for every step
// within that tolerance (millions, which took seconds a frame to draw).
TEST(ColorbarTicks, ANearlyConstantRangeGetsAFewTicks) {
  for (const auto& [lo, hi] : {std::pair{20.0, 20.0 + 1e-12}, std::pair{1e20, 1e20 * (1 + 1e-14)},
                               std::pair{-3.0, -3.0 + 1e-15}}) {
    const auto t = colorbar_ticks(lo, hi, false, 7);
    EXPECT_GE(t.size(), 2u) << lo;
    EXPECT_LE(t.size(), 8u) << lo;
    const double tolerance = 1e-9 * std::max(std::abs(lo), std::abs(hi));
    for (const auto& tick : t) {
      EXPECT_GE(tick.value, lo - tolerance) << lo;
      EXPECT_LE(tick.value, hi + tolerance) << lo;
    }
  }
}

TEST(ColorbarTicks, LogScaleTicksAreDecadesOr125) {
  auto t = colorbar_ticks(1e-4, 1.0, true, 6);
  EXPECT_EQ(values_of(t), (std::vector<double>{1e-4, 1e-3, 1e-2, 1e-1, 1}));
  EXPECT_NEAR(t[2].t, 0.5, 1e-6);  // 1e-2 sits half way up a log bar from 1e-4 to 1
  t = colorbar_ticks(1.5, 60, true, 6);
  for (double v : values_of(t)) {
    const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-12));
    EXPECT_TRUE(std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9) << v;
    EXPECT_GE(v, 1.5);
    EXPECT_LE(v, 60);
  }
}

// The picture's scale at a point (the steering brush's preview in the 3D view): a short
// segment facing the camera, anywhere in the box, is drawn pixels_per_unit times its
// length, in an oblong box seen from above and off-centre.
TEST(SceneCamera, PixelsPerUnitIsTheScaleOfASegmentFacingTheCamera) {
  Grid g;
  g.n = {40, 24, 16};
  g.spacing = {0.01, 0.01, 0.02};
  ViewSettings vs;
  vs.yaw = 0.9f;
  vs.pitch = 0.6f;
  vs.distance = 1.4f;
  const SceneCamera cam = SceneCamera::make(g, vs, 640, 480);
  // Across the view: perpendicular to the view axis (the eye looks at the origin).
  const auto& e = cam.eye;
  const float d = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  std::array<float, 3> u{-e[1], e[0], 0};
  const float ul = std::hypot(u[0], u[1]);
  for (float& c : u) c /= ul;
  std::array<float, 3> v{e[1] * u[2] - e[2] * u[1], e[2] * u[0] - e[0] * u[2],
                         e[0] * u[1] - e[1] * u[0]};
  for (float& c : v) c /= d;
  for (const std::array<float, 3> p :
       {std::array<float, 3>{0, 0, 0}, {0.4f, -0.2f, 0.1f}, {-0.45f, 0.25f, -0.15f}}) {
    for (const auto& dir : {u, v}) {
      const float h = 1e-3f;
      std::array<float, 3> a = p, b = p;
      for (int k = 0; k < 3; ++k) {
        a[k] -= h * dir[k];
        b[k] += h * dir[k];
      }
      const auto pa = cam.project(a), pb = cam.project(b);
      const double drawn = std::hypot(pb[0] - pa[0], pb[1] - pa[1]) / (2 * h);
      EXPECT_NEAR(drawn / cam.pixels_per_unit(p), 1.0, 2e-3) << p[0] << " " << p[1] << " " << p[2];
    }
  }
  // Nearer the eye, larger.
  EXPECT_GT(cam.pixels_per_unit({0.4f, 0.2f, 0.1f}), cam.pixels_per_unit({-0.4f, -0.2f, -0.1f}));
}

TEST(TransferFunction, CurveTablesAndPresets) {
  TransferFunction f;
  f.points = {{0.0f, 0.0f}, {0.5f, 0.2f}, {1.0f, 0.6f}};
  EXPECT_FLOAT_EQ(f.opacity_at(0.25f), 0.1f);
  EXPECT_FLOAT_EQ(f.opacity_at(0.75f), 0.4f);
  EXPECT_FLOAT_EQ(f.opacity_at(2.0f), 0.6f);
  f.add_point(0.1f, 0.5f);
  EXPECT_EQ(f.points.size(), 4u);
  EXPECT_FLOAT_EQ(f.points[1].t, 0.1f);
  f.remove_point(1);
  EXPECT_EQ(f.points.size(), 3u);
  const auto table = transfer_table(f, "viridis");
  EXPECT_FLOAT_EQ(table[255][3], 0.6f);
  EXPECT_NEAR(table[0][0], 0x44 / 255.0, 1e-6);  // viridis's first colour
  // The largest opacity over an interval of entries: what lets a brick be skipped.
  const auto mx = max_opacity_table(f);
  EXPECT_FLOAT_EQ(mx[0], 0.0f);
  EXPECT_NEAR(mx[std::size_t(127) * 256 + 0], f.opacity_at(127 / 255.0f), 1e-6);
  EXPECT_FLOAT_EQ(mx[std::size_t(255) * 256 + 10], 0.6f);
  EXPECT_FLOAT_EQ(mx[std::size_t(10) * 256 + 255], 0.6f);
  // A transfer function transparent below a threshold: empty bricks there.
  const auto& density = transfer_preset("density").function;
  EXPECT_FLOAT_EQ(max_opacity_table(density)[std::size_t(60) * 256 + 0], 0.0f);
  for (const char* name : {"density", "temperature", "vorticity"})
    EXPECT_NO_THROW(transfer_preset(name)) << name;
  EXPECT_THROW(transfer_preset("rainbow"), std::invalid_argument);
  EXPECT_EQ(std::string(preset_for_field("T").name), "temperature");
}

TEST(ViewState, VolumeIsoAndLinesRoundTripThroughJson) {
  ViewSettings v;
  apply_view_name(v, "volume+iso+lines");
  EXPECT_EQ(v.mode, ViewMode::slices3d);
  EXPECT_EQ(v.layers, (SceneLayers{false, true, true, true}));
  EXPECT_EQ(view_name(v), "volume+iso+lines");
  v.volume.transfer.points = {{0.0f, 0.0f}, {0.3f, 0.0f}, {1.0f, 0.4f}};
  v.volume.step = 0.75f;
  v.volume.lighting = true;
  v.volume.skipping = Skipping::off;
  v.iso.values = {0.25, 0.75};
  v.iso.color_field = "p";
  v.iso.opacity = 0.5f;
  v.lines.seed = SeedKind::point;
  v.lines.seed_point = {0.2f, 0.3f, 0.4f};
  v.lines.seeds = 7;
  const ViewSettings w = view_settings_from_json(nlohmann::json::parse(to_json(v).dump()));
  EXPECT_EQ(w.layers, v.layers);
  EXPECT_EQ(w.volume, v.volume);
  EXPECT_EQ(w.iso, v.iso);
  EXPECT_EQ(w.lines, v.lines);
  // A view file of before the volume view keeps its meaning: three slices.
  const ViewSettings old = view_settings_from_json({{"view", "3d"}});
  EXPECT_EQ(old.layers, (SceneLayers{true, false, false, false}));
  // Bad values are refused, naming the key.
  const auto refused = [](const nlohmann::json& j, const std::string& key) {
    try {
      view_settings_from_json(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(key) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused({{"volume", {{"step", 0}}}}, "volume.step"));
  EXPECT_TRUE(refused({{"volume", {{"skipping", "sometimes"}}}}, "volume.skipping"));
  EXPECT_TRUE(refused({{"volume", {{"transfer_function", {{"opacity", {{0.5, 2.0}}}}}}}},
                      "transfer_function"));
  EXPECT_TRUE(refused({{"iso", {{"values", {1, 2, 3, 4, 5}}}}}, "iso.values"));
  EXPECT_TRUE(refused({{"lines", {{"seed", "line"}}}}, "lines.seed"));
  EXPECT_THROW(apply_view_name(v, "volume+slice"), std::invalid_argument);
  EXPECT_THROW(apply_view_name(v, "2d+iso"), std::invalid_argument);
}

// Solid-body rotation about the z axis through the box centre, omega = 3 /s: speed
// omega r, vorticity 2 omega everywhere (exact for central and one-sided differences of
// a linear field).
TEST(DerivedFields, SpeedAndVorticityOfSolidBodyRotation) {
  const double omega = 3.0, L = 2.0;
  test::FieldSolver s({24, 20, 6}, L);
  const auto& g = s.grid();
  const auto x = [&](int a, int i) { return g.origin[a] + i * g.spacing[a] - 0.5 * L; };
  s.add("ux", "m/s", [&](int, int j, int) { return -omega * x(1, j); });
  s.add("uy", "m/s", [&](int i, int, int) { return omega * x(0, i); });
  s.add("uz", "m/s", [](int, int, int) { return 0.0; });
  const auto fields = derived_fields(s);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[1].name, "vorticity");
  EXPECT_EQ(fields[1].unit, "1/s");
  DerivedField speed, vorticity;
  const FieldView sv = speed.compute(s, "speed"), wv = vorticity.compute(s, "vorticity");
  double worst_speed = 0, worst_w = 0;
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 20; ++j)
      for (int i = 0; i < 24; ++i) {
        const double r = std::hypot(x(0, i), x(1, j));
        const auto* sp = static_cast<const float*>(sv.data);
        const auto* wp = static_cast<const float*>(wv.data);
        worst_speed = std::max(worst_speed, std::abs(sp[sv.layout.index(i, j, k)] - omega * r));
        worst_w = std::max(worst_w, std::abs(wp[wv.layout.index(i, j, k)] - 2 * omega));
      }
  EXPECT_LT(worst_speed, 1e-5);
  EXPECT_LT(worst_w, 1e-4);
  test::FieldSolver heat({4, 4, 4});
  heat.add("T", "degC", [](int, int, int) { return 1.0; });
  EXPECT_TRUE(derived_fields(heat).empty());
  EXPECT_THROW(speed.compute(heat, "speed"), std::out_of_range);
}

// Streamlines of a rotation are circles: RK4 along the normalised field keeps each
// vertex at its seed's distance from the axis (to far below a cell), where forward Euler
// would spiral outwards.
TEST(Streamlines, Rk4KeepsRotationLinesOnTheirCircles) {
  const int n = 40;
  test::FieldSolver s({n, n, 8});
  // In cells: u = omega x (p - c), c the box centre (19.5, 19.5) in index space.
  s.add("ux", "m/s", [](int, int j, int) { return -(j - 19.5); });
  s.add("uy", "m/s", [](int i, int, int) { return i - 19.5; });
  s.add("uz", "m/s", [](int, int, int) { return 0.0; });
  LineSettings ls;
  ls.seed_axis = 1;  // seeds on the plane y = centre: radii |x - 19.5| = 15 and 5
  ls.seed_position = 0.5f;
  ls.seeds = 4;
  ls.steps = 200;
  ls.step = 0.5f;
  const std::array<float, 3> half{0.5f, 0.5f, 0.1f};
  const LineGeometry g = line_geometry(ls, s.grid(), half);
  ASSERT_EQ(g.seeds(), 16);
  std::vector<float> v(std::size_t(g.seeds()) * g.vertices_per_line() * 4);
  const FieldView u[3] = {s.view("ux"), s.view("uy"), s.view("uz")};
  integrate_streamlines(u, s.grid().spacing, g, v.data());
  const LineGeometry* geom = &g;
  const auto index = [&](const float* p, int a) {
    return (p[a] + half[a]) / (2 * half[a]) * geom->n[a] - 0.5f;
  };
  double worst = 0, travelled = 0;
  for (int l = 0; l < g.seeds(); ++l) {
    const float* seed = &v[(std::size_t(l) * g.vertices_per_line() + g.steps) * 4];
    const double r0 = std::hypot(index(seed, 0) - 19.5, index(seed, 1) - 19.5);
    EXPECT_NEAR(index(seed, 1), 19.5, 1e-4);
    for (int k = 0; k < g.vertices_per_line(); ++k) {
      const float* p = &v[(std::size_t(l) * g.vertices_per_line() + k) * 4];
      worst = std::max(worst, std::abs(std::hypot(index(p, 0) - 19.5, index(p, 1) - 19.5) - r0));
      EXPECT_NEAR(index(p, 2), index(seed, 2), 1e-4);
    }
    const float* end = &v[(std::size_t(l) * g.vertices_per_line() + 2 * g.steps) * 4];
    travelled = std::max(travelled, double(std::hypot(end[0] - seed[0], end[1] - seed[1])));
  }
  EXPECT_LT(worst, 1e-3) << "cells off the circle";
  EXPECT_GT(travelled, 0.05) << "the lines did not move";

  // A uniform flow along x: lines run to the faces and stop there, inside the box.
  test::FieldSolver f({16, 12, 10});
  f.add("ux", "m/s", [](int, int, int) { return 2.0; });
  f.add("uy", "m/s", [](int, int, int) { return 0.0; });
  f.add("uz", "m/s", [](int, int, int) { return 0.0; });
  ls.seed_axis = 0;
  ls.seeds = 3;
  ls.steps = 40;
  const LineGeometry h = line_geometry(ls, f.grid(), half);
  geom = &h;
  std::vector<float> w(std::size_t(h.seeds()) * h.vertices_per_line() * 4);
  const FieldView uf[3] = {f.view("ux"), f.view("uy"), f.view("uz")};
  integrate_streamlines(uf, f.grid().spacing, h, w.data());
  for (int l = 0; l < h.seeds(); ++l) {
    const float* first = &w[std::size_t(l) * h.vertices_per_line() * 4];
    const float* last = &w[(std::size_t(l) * h.vertices_per_line() + 2 * h.steps) * 4];
    EXPECT_NEAR(index(first, 0), -0.5, 0.51);  // the backward end at the low face
    EXPECT_NEAR(index(last, 0), 15.5, 0.51);   // the forward end at the high face
    for (int k = 0; k < h.vertices_per_line(); ++k) {
      const float x = index(&w[(std::size_t(l) * h.vertices_per_line() + k) * 4], 0);
      EXPECT_GE(x, -0.5f - 1e-4f);
      EXPECT_LE(x, 15.5f + 1e-4f);
    }
  }
}

// A build without FFmpeg's libraries pipes frames to the ffmpeg program: the same film.
TEST(MovieWriter, PipeToTheFfmpegProgramWritesEveryFrame) {
  if (detail::ffmpeg_program().empty() || std::system("ffprobe -version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no ffmpeg or ffprobe program";
  const std::filesystem::path d = std::filesystem::temp_directory_path() / "fluxview_pipe_movie";
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  const auto film = d / "pipe.mkv";
  {
    auto m = detail::open_pipe_movie(film, d / ".pipe.part", 65, 48, 25);
    Image im;
    im.width = 65;
    im.height = 48;
    for (int f = 0; f < 4; ++f) {
      im.rgba.assign(std::size_t(65) * 48 * 4, std::uint8_t(40 * f));
      m->add_frame(im);
    }
    EXPECT_THROW(m->add_frame(Image{}), std::runtime_error) << "a frame of another size";
    m->finish();
    EXPECT_EQ(m->frames(), 4);
  }
  const std::string cmd =
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,width,height -of csv=p=0 " +
      film.string() + " > " + (d / "probe.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string line;
  std::getline(std::ifstream(d / "probe.txt"), line);
  EXPECT_EQ(line, "64,48,4") << "width (cropped to even), height, frames";
  EXPECT_FALSE(std::filesystem::exists(d / ".pipe.part"));
  EXPECT_THROW(open_movie(d / "film.gif", 64, 48), std::invalid_argument);
}

// The blocks a slice cuts, as fractions of the slice: a 3D brick of 2 x 1 x 1 top blocks of
// 8^3 cells (16 x 8 x 8 cells), the first refined once (its 8 children at level 1).
TEST(BlockOutlines, TheSliceCutsTheBlocksAroundItsPlaneAndKeepsTheirLevels) {
  std::vector<amr::BlockBox> blocks = {{0, {1, 0, 0}}};
  for (int c = 0; c < 8; ++c) blocks.push_back({1, {c & 1, (c >> 1) & 1, (c >> 2) & 1}});
  const std::array<int, 3> block{8, 8, 8}, top{16, 8, 8};
  // Normal z through cell 5 of 32 view cells: z = 5.5/32 < 1/2, so the level-1 blocks of
  // the lower half (k = 0) and the level-0 block.
  const auto low = render::block_outlines(blocks, block, top, 2, 5, 32);
  ASSERT_EQ(low.size(), 5u);
  EXPECT_EQ(low[0].level, 0);  // coarse first, so finer outlines are drawn over it
  EXPECT_FLOAT_EQ(low[0].u0, 0.5f);
  EXPECT_FLOAT_EQ(low[0].u1, 1.0f);
  EXPECT_FLOAT_EQ(low[0].v0, 0.0f);
  EXPECT_FLOAT_EQ(low[0].v1, 1.0f);
  for (std::size_t i = 1; i < low.size(); ++i) {
    EXPECT_EQ(low[i].level, 1);
    EXPECT_FLOAT_EQ(low[i].u1 - low[i].u0, 0.25f);  // a level-1 block: a quarter of x
    EXPECT_FLOAT_EQ(low[i].v1 - low[i].v0, 0.5f);   // and half of y
  }
  // Normal x through the middle of the coarse block (x = 0.75): it alone, spanning y and z.
  const auto right = render::block_outlines(blocks, block, top, 0, 48, 64);
  ASSERT_EQ(right.size(), 1u);
  EXPECT_EQ(right[0].level, 0);
  EXPECT_FLOAT_EQ(right[0].u0, 0.0f);
  EXPECT_FLOAT_EQ(right[0].v1, 1.0f);
  // A 2D run (one cell along z): every block, whatever the index.
  const std::array<int, 3> block2{8, 8, 1}, top2{16, 8, 1};
  std::vector<amr::BlockBox> flat = {
      {0, {1, 0, 0}}, {1, {0, 0, 0}}, {1, {1, 0, 0}}, {1, {0, 1, 0}}, {1, {1, 1, 0}}};
  EXPECT_EQ(render::block_outlines(flat, block2, top2, 2, 0, 1).size(), 5u);
  // Levels have distinct colours.
  EXPECT_NE(render::level_colour(0), render::level_colour(1));
  EXPECT_EQ(render::level_colour(0), render::level_colour(8));
}
