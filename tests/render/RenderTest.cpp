// Headless drawing through EGL (Mesa in CI, NVIDIA on the GPU machine): the hot-wall
// problem must show its hot side in the colormap's top colour and its cold side in the
// bottom one, with a colour bar that spans the map; PNGs written by `fluxview run
// --render-every` must say the same. The adaptive mesh's slices hold its finest blocks.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "render/OffscreenRenderer.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fs = std::filesystem;
using namespace fluxview;
using namespace fluxview::render;

namespace {

using Rgb = std::array<unsigned char, 3>;

// Largest per-channel difference between a pixel and a colour.
int distance(const Image& im, int x, int y, Rgb c) {
  const auto* p = im.pixel(x, y);
  int d = 0;
  for (int i = 0; i < 3; ++i) d = std::max(d, std::abs(int(p[i]) - int(c[i])));
  return d;
}

std::unique_ptr<Solver> hot_wall(int n, int steps) {
  const Scenario s = load_scenario("heat/hot-wall", {"grid.n=" + std::to_string(n)});
  auto solver = find_family(s.solver).create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(steps);
  return solver;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_render_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Checks the hot-wall picture: the slice (x right, y up; the hot wall is y = ly) has
// the top colour along its top row and the bottom colour along its bottom row, and
// the colour bar runs from the bottom colour to the top colour.
void expect_hot_wall_picture(const Image& im, const std::string& colormap) {
  const auto table = colormap_table(colormap);
  const Rgb top = table[255], bottom = table[0];
  // Find the slice: the widest run of non-background pixels across the middle row.
  const int ym = im.height / 2;
  const auto* bg = im.pixel(0, 0);
  int x0 = -1, x1 = -1;
  for (int x = 0; x < im.width / 2; ++x)
    if (std::memcmp(im.pixel(x, ym), bg, 3) != 0) {
      x0 = x;
      break;
    }
  ASSERT_GE(x0, 0) << "no slice found";
  for (x1 = x0; x1 < im.width && std::memcmp(im.pixel(x1, ym), bg, 3) != 0; ++x1) {
  }
  const int xc = (x0 + x1) / 2;
  int y0 = ym, y1 = ym;  // top and bottom rows of the slice (image rows go down)
  while (y0 > 0 && std::memcmp(im.pixel(xc, y0 - 1), bg, 3) != 0) --y0;
  while (y1 < im.height - 1 && std::memcmp(im.pixel(xc, y1 + 1), bg, 3) != 0) ++y1;
  ASSERT_GT(y1 - y0, im.height / 2) << "slice too small";
  EXPECT_LE(distance(im, xc, y0 + 1, top), 2)
      << "hot wall (top row) must carry the top colour of " << colormap;
  EXPECT_LE(distance(im, xc, y1 - 1, bottom), 2)
      << "far side must carry the bottom colour of " << colormap;

  // The colour bar: right of the slice, a column whose top is the top colour and whose
  // bottom is the bottom colour, with the colours in between.
  bool found = false;
  for (int x = x1 + 1; x < im.width && !found; ++x) {
    int yt = -1, yb = -1;
    for (int y = 0; y < im.height; ++y) {
      if (distance(im, x, y, top) <= 2 && yt < 0) yt = y;
      if (distance(im, x, y, bottom) <= 2) yb = y;
    }
    if (yt >= 0 && yb > yt + im.height / 3) {
      found = true;
      const Rgb mid = table[128];
      EXPECT_LE(distance(im, x, (yt + yb) / 2, mid), 12) << "colour bar middle";
    }
  }
  EXPECT_TRUE(found) << "no colour bar running from the top to the bottom colour";
}

}  // namespace

TEST(Colormaps, TablesHave256EntriesAndTheirKnownEnds) {
  for (const auto& name : colormap_names()) {
    const auto t = colormap_table(name);
    ASSERT_EQ(t.size(), 256u) << name;
  }
  // viridis runs from dark purple (#440154) to yellow (#FDE725).
  const auto v = colormap_table("viridis");
  EXPECT_EQ(v[0], (Rgb{0x44, 0x01, 0x54}));
  EXPECT_EQ(v[255], (Rgb{0xFD, 0xE7, 0x25}));
  // Moreland's coolwarm passes through a light grey at the middle.
  const auto c = colormap_table("coolwarm");
  EXPECT_NEAR(c[128][0], 221, 3);
  EXPECT_NEAR(c[128][1], 221, 3);
  EXPECT_NEAR(c[128][2], 221, 3);
  // Lightness rises monotonically in the sequential maps (grey as its proxy).
  for (const char* name : {"viridis", "magma", "inferno", "grey"}) {
    const auto t = colormap_table(name);
    auto lum = [](Rgb p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; };
    for (int i = 8; i < 256; i += 8)
      EXPECT_GT(lum(t[i]), lum(t[i - 8]) - 1.0) << name << " at " << i;
  }
  EXPECT_THROW(colormap_table("jet"), std::invalid_argument);
}

TEST(ViewState, RoundTripsThroughJson) {
  ViewSettings v;
  v.field = "T";
  v.mode = ViewMode::slices3d;
  v.axis = 1;
  v.position = {0.1f, 0.2f, 0.3f};
  v.colormap = "magma";
  v.auto_range = false;
  v.lo = -3;
  v.hi = 7;
  v.log_scale = true;
  v.yaw = 1.25f;
  const ViewSettings w = view_settings_from_json(nlohmann::json::parse(to_json(v).dump()));
  EXPECT_EQ(w.field, "T");
  EXPECT_EQ(w.mode, ViewMode::slices3d);
  EXPECT_EQ(w.axis, 1);
  EXPECT_FLOAT_EQ(w.position[2], 0.3f);
  EXPECT_EQ(w.colormap, "magma");
  EXPECT_FALSE(w.auto_range);
  EXPECT_DOUBLE_EQ(w.lo, -3);
  EXPECT_DOUBLE_EQ(w.hi, 7);
  EXPECT_TRUE(w.log_scale);
  EXPECT_FLOAT_EQ(w.yaw, 1.25f);
  EXPECT_THROW(view_settings_from_json({{"colormap", "jet"}}), std::invalid_argument);
  EXPECT_THROW(view_settings_from_json({{"axis", 5}}), std::invalid_argument);
}

TEST(Render, HotWallSliceShowsHotSideInTopColourAndColourBar) {
  auto solver = hot_wall(32, 200);
  OffscreenRenderer off(640, 480);
  std::cout << "context: " << off.context().description() << "\n";
  for (const char* cmap : {"viridis", "inferno"}) {
    ViewSettings vs;
    vs.colormap = cmap;
    const Image im = off.render(*solver, vs);
    // Through a PNG file and back, as users get it.
    const fs::path png = fresh_dir("hotwall") / (std::string(cmap) + ".png");
    write_png(png, im);
    const Image back = read_png(png);
    ASSERT_EQ(back.width, 640);
    ASSERT_EQ(back.height, 480);
    EXPECT_EQ(back.rgba, im.rgba) << "PNG round trip";
    expect_hot_wall_picture(back, cmap);
  }
}

TEST(Render, ProbeReadsTheCellUnderThePixel) {
  auto solver = hot_wall(16, 50);
  OffscreenRenderer off(400, 300);
  ViewSettings vs;
  off.render(*solver, vs);
  const auto r = off.renderer().slice_rect();
  // The top-middle cell: the hottest of the slice, i = 8, j = 15, k = 8.
  const auto p = off.renderer().probe(r.x + r.w * 0.53, r.y + r.h * 0.99);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->cell, (std::array<int, 3>{8, 15, 8}));
  const HostArray h = gather_interior(solver->view("T"));
  EXPECT_FLOAT_EQ(float(p->value), float(h.at(8 + 15 * 16 + 8 * 256)));
  EXPECT_FALSE(off.renderer().probe(r.x - 5, r.y + 1).has_value()) << "outside the slice";
}

TEST(Render, AdaptiveMeshSliceShowsTheFinestBlocksBeyondTheViewGrid) {
  // Top grid 16^3 in blocks of 8, five levels: the view grid is level 4 (256^3), the slice
  // through the blast level 5 (512^2), which the texture must hold texel for texel.
  const Scenario sc = load_scenario("fv/sedov", {"grid.n=16", "fv.mesh=amr", "fv.amr.block=8",
                                                 "fv.amr.max_level=5", "fv.blast_radius=0.02"});
  auto solver = find_family(sc.solver).create(BackendKind::cpu, Precision::f64);
  solver->reset(sc.params);
  solver->advance(2);
  ASSERT_EQ(solver->grid().n[2], 256);
  OffscreenRenderer off(400, 300);
  ViewSettings vs;
  vs.field = "rho";
  off.render(*solver, vs);
  const SliceTexture& t = off.renderer().shown_texture();
  ASSERT_EQ(t.width(), 512);
  ASSERT_EQ(t.height(), 512);
  const amr::Hierarchy* h = amr::hierarchy_of(*solver);
  ASSERT_NE(h, nullptr);
  const HostArray plane =
      gather_interior(h->plane_view("rho", 2, (slice_index(0.5f, 256) + 0.5) / 256));
  const auto r = off.renderer().slice_rect();
  int finer = 0;
  float left = 0;
  for (int u = 0; u < 512; ++u) {
    // Row 256 (through the blast), texel u: each from the plane, placed at its centre.
    const auto p = off.renderer().probe(r.x + r.w * (u + 0.5) / 512, r.y + r.h * 256.5 / 512);
    ASSERT_TRUE(p.has_value());
    ASSERT_EQ(float(p->value), float(plane.at(256 * 512 + u))) << "texel " << u;
    EXPECT_NEAR(p->position[0], (u + 0.5) / 512, 1e-12);
    EXPECT_EQ(p->cell[0], u / 2);
    // Two texels of one view-grid cell that differ: detail the view grid cannot show.
    if (u % 2 == 1 && float(p->value) != left) ++finer;
    left = float(p->value);
  }
  EXPECT_GT(finer, 4);
}

TEST(Render, FixedAndLogRangesMoveTheColours) {
  auto solver = hot_wall(32, 200);
  OffscreenRenderer off(640, 480);
  ViewSettings vs;
  vs.auto_range = false;
  vs.lo = 1000;  // everything below the range: the whole slice takes the bottom colour
  vs.hi = 2000;
  Image im = off.render(*solver, vs);
  const auto r = off.renderer().slice_rect();
  const auto table = colormap_table("viridis");
  const int x = int(r.x + r.w / 2), ytop = im.height - 1 - int(r.y + r.h - 2);
  EXPECT_LE(distance(im, x, ytop, table[0]), 2);
  // Log scale over [1, 100]: a cell's colour is the entry at log(v) / log(100) of the
  // map, not at (v - 1) / 99.
  vs.lo = 1;
  vs.hi = 100;
  vs.log_scale = true;
  im = off.render(*solver, vs);
  int checked = 0;
  for (float f = 0.97f; f > 0.5f && checked < 3; f -= 0.03f) {
    const double gx = r.x + r.w * 0.5, gy = r.y + r.h * f;
    const auto p = off.renderer().probe(gx, gy);
    ASSERT_TRUE(p.has_value());
    if (p->value < 3 || p->value > 60) continue;
    const double t = std::log(p->value) / std::log(100.0);
    int best = 0;
    for (int i = 1; i < 256; ++i)
      if (distance(im, int(gx), im.height - 1 - int(gy), table[i]) <
          distance(im, int(gx), im.height - 1 - int(gy), table[best]))
        best = i;
    EXPECT_NEAR(best, t * 255, 3) << "value " << p->value;
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no cell between 3 and 60 found";
}

TEST(Cli, RunRenderEveryWritesHotWallFrames) {
  const fs::path d = fresh_dir("cli");
  const std::string cmd =
      std::string(FLUXVIEW_EXE) +
      " run heat/hot-wall --backend cpu --set grid.n=24 --steps 120 --render-every 60 --output " +
      d.string() + " --render-dir " + (d / "frames").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  for (const char* f : {"frame_000000.png", "frame_000060.png", "frame_000120.png"})
    EXPECT_TRUE(fs::exists(d / "frames" / f)) << f;
  expect_hot_wall_picture(read_png(d / "frames" / "frame_000120.png"), "viridis");
  // A bad field is refused before any step, naming what is allowed.
  const std::string bad =
      std::string(FLUXVIEW_EXE) + " run heat/hot-wall --backend cpu --set grid.n=8 --steps 2 " +
      "--render-every 1 --render-field rho --output " + (d / "bad").string() + " 2>&1";
  const int bs = std::system(bad.c_str());
  EXPECT_TRUE(WIFEXITED(bs) && WEXITSTATUS(bs) == 2);
}
