// The 3D view's ray caster and layers, drawn headless through EGL (Mesa in CI) from
// analytic fields: an isosurface of a ball has the ball's silhouette radius and a pick finds
// its near side, a uniform field's volume rendering lets through the analytic fraction of
// the background, the shader's own trilinear interpolation (the shared-memory path's) draws
// what the 3D texture's does, brick ranges cover their cells, and slices seen edge-on leave
// no seam.
#include <gtest/gtest.h>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "render/GlResources.hpp"
#include "render/OffscreenRenderer.hpp"
#include "render/VolumeBricks.hpp"
#include "tests/render/FieldSolver.hpp"

using namespace fluxview;
using namespace fluxview::render;

namespace {

// The background the views clear to, as it lands in an 8-bit target.
constexpr double kBackground[3] = {0.13, 0.13, 0.15};

int max_channel_difference(const Image& a, const Image& b, int* differing = nullptr) {
  int worst = 0, count = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4)
    for (int c = 0; c < 3; ++c) {
      const int d = std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c]));
      worst = std::max(worst, d);
      count += d > 0;
    }
  if (differing) *differing = count;
  return worst;
}

ViewSettings bare_3d_view() {
  ViewSettings vs;
  vs.mode = ViewMode::slices3d;
  vs.layers = {false, false, false, false};
  vs.colorbar = false;
  vs.auto_range = false;
  vs.lo = 0;
  vs.hi = 1;
  return vs;
}

// A ball of radius r (a fraction of the unit box) holding 1, as cell averages (4^3
// samples a cell), so that the 0.5 isosurface of the trilinear field is the sphere.
std::unique_ptr<test::FieldSolver> ball(int n, double r) {
  auto s = std::make_unique<test::FieldSolver>(std::array<int, 3>{n, n, n});
  s->add("c", "", [n, r](int i, int j, int k) {
    int inside = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c) {
          const double x = (i + (a + 0.5) / 4) / n - 0.5, y = (j + (b + 0.5) / 4) / n - 0.5,
                       z = (k + (c + 0.5) / 4) / n - 0.5;
          inside += x * x + y * y + z * z < r * r;
        }
    return inside / 64.0;
  });
  return s;
}

}  // namespace

TEST(Volume, IsosurfaceOfABallHasItsSilhouetteRadius) {
  const double radius = 0.3;
  auto s = ball(64, radius);
  OffscreenRenderer off(160, 160);
  std::cout << "context: " << off.context().description() << "\n";
  ViewSettings vs = bare_3d_view();
  vs.yaw = 0.15f;  // no box edge in front of the ball
  vs.pitch = 0.1f;
  vs.distance = 1.2f;
  const Image box = off.render(*s, vs);
  vs.layers.iso = true;
  vs.iso.values = {0.5};
  for (bool from_buffer : {false, true}) {
    off.renderer().set_volume_host_buffer(from_buffer);
    const Image with_ball = off.render(*s, vs);
    ASSERT_EQ(off.renderer().volume()->values().storage(),
              from_buffer ? VolumeStorage::buffer : VolumeStorage::texture);
    // The ball's pixels: those the surface changed (the box is drawn the same in both).
    int pixels = 0;
    for (std::size_t i = 0; i < box.rgba.size(); i += 4) {
      int d = 0;
      for (int c = 0; c < 3; ++c)
        d = std::max(d, std::abs(int(box.rgba[i + c]) - with_ball.rgba[i + c]));
      pixels += d > 8;
    }
    const double measured = std::sqrt(pixels / M_PI);
    // The analytic silhouette: the cone from the eye tangent to the sphere, projected.
    const SceneCamera& cam = off.renderer().camera();
    const auto& e = cam.eye;
    const double d = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    const double alpha = std::asin(radius / d), along = std::sqrt(d * d - radius * radius);
    const std::array<double, 3> f{-e[0] / d, -e[1] / d, -e[2] / d};
    // A unit vector across the view (horizontal: the view never looks straight down here).
    std::array<double, 3> u{-f[1], f[0], 0};
    const double ul = std::hypot(u[0], u[1]);
    for (auto& c : u) c /= ul;
    std::array<float, 3> rim;
    for (int a = 0; a < 3; ++a)
      rim[a] = float(e[a] + along * (std::cos(alpha) * f[a] + std::sin(alpha) * u[a]));
    const auto c = cam.project({0, 0, 0}), p = cam.project(rim);
    const double expected = std::hypot(p[0] - c[0], p[1] - c[1]);
    std::cout << (from_buffer ? "buffer" : "texture") << ": silhouette radius " << measured
              << " px, analytic " << expected << " px\n";
    EXPECT_GT(expected, 20) << "the ball should be large enough to measure";
    EXPECT_NEAR(measured, expected, 1.0) << (from_buffer ? "buffer" : "texture");
  }
}

// What a steering tool's click in the 3D view finds (ViewRenderer::pick_surface): under the
// ball's centre, the near side of its isosurface; beside the ball but inside the box,
// nothing (where pick() answers the middle of the ray's path through the box). The
// preview's scale there (SceneCamera::pixels_per_unit) draws the ball's silhouette radius.
TEST(Volume, PickSurfaceFindsTheIsosurfaceAndNothingBesideIt) {
  const double radius = 0.3;
  auto s = ball(64, radius);
  OffscreenRenderer off(160, 160);
  ViewSettings vs = bare_3d_view();
  vs.yaw = 0.15f;  // no box edge in front of the ball
  vs.pitch = 0.1f;
  vs.distance = 1.2f;
  vs.layers.iso = true;
  vs.iso.values = {0.5};
  off.render(*s, vs);
  const ViewRenderer& r = off.renderer();
  const SceneCamera& cam = r.camera();
  const Rect scene = r.scene_rect();
  const auto c = cam.project({0, 0, 0});
  const auto hit = r.pick_surface(scene.x + c[0], scene.y + c[1]);
  ASSERT_TRUE(hit);
  // The box is the unit cube here: fractions less a half are box units.
  double dist = 0, toward_eye = 0;
  for (int k = 0; k < 3; ++k) {
    const double p = (*hit)[k] - 0.5;
    dist += p * p;
    toward_eye += p * cam.eye[k];
  }
  dist = std::sqrt(dist);
  std::cout << "picked " << dist << " from the centre (the sphere: " << radius << ")\n";
  EXPECT_NEAR(dist, radius, 0.5 / 64);
  EXPECT_GT(toward_eye, 0) << "the near side";

  // The silhouette's radius in pixels (the cone from the eye tangent to the sphere) against
  // the scale the preview takes at the ball's centre: radius f / sqrt(d^2 - r^2) against
  // radius f / d, 1% apart at this distance.
  const auto& e = cam.eye;
  const double d = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  const double silhouette = radius * cam.focal_px / std::sqrt(d * d - radius * radius);
  const double preview = radius * cam.pixels_per_unit({0, 0, 0});
  std::cout << "preview radius " << preview << " px, silhouette " << silhouette << " px\n";
  EXPECT_NEAR(preview / silhouette, 1.0, 0.015);

  // Beside the ball, still inside the box's picture: pick() guesses, pick_surface() does not.
  const double bx = scene.x + c[0] + 1.3 * silhouette, by = scene.y + c[1];
  EXPECT_TRUE(r.pick(bx, by)) << "the pixel should be inside the box's picture";
  EXPECT_FALSE(r.pick_surface(bx, by));
  // Outside the scene, neither.
  EXPECT_FALSE(r.pick_surface(scene.x - 2, scene.y + c[1]));
}

TEST(Volume, UniformFieldLetsThroughTheAnalyticTransmittance) {
  test::FieldSolver s({24, 24, 24});
  const double value = 128.0 / 255.0;  // exactly the colormap's entry 128
  s.add("c", "", [value](int, int, int) { return value; });
  OffscreenRenderer off(129, 129);
  ViewSettings vs = bare_3d_view();
  vs.layers.volume = true;
  vs.yaw = 0;  // the ray through the image centre runs along x through the whole box
  vs.pitch = 0;
  const auto colour = colormap_table(vs.colormap)[128];
  for (bool from_buffer : {false, true}) {
    off.renderer().set_volume_host_buffer(from_buffer);
    for (const float a : {0.004f, 0.01f, 0.03f}) {
      vs.volume.transfer.points = {{0.0f, a}, {1.0f, a}};
      const Image im = off.render(s, vs);
      // The box is 1 long and opacity is per hundredth of it: (1 - a)^100 gets through.
      const double t = std::pow(1.0 - a, 100.0);
      const std::uint8_t* p = im.pixel(64, 64);
      for (int c = 0; c < 3; ++c) {
        const double bg = std::round(kBackground[c] * 255) / 255;
        const double expected = 255 * (colour[c] / 255.0 * (1 - t) + bg * t);
        EXPECT_NEAR(p[c], expected, 1.0) << (from_buffer ? "buffer" : "texture") << ", opacity "
                                         << a << ", channel " << c << ": transmittance " << t;
      }
    }
  }
}

// The shared-memory path's sampling (the shader's own trilinear interpolation of a
// storage buffer) against the 3D texture's filtering, on a smooth field with the volume,
// lit, and two isosurfaces: the same picture.
TEST(Volume, ShaderInterpolationDrawsWhatTheTextureFilterDraws) {
  test::FieldSolver s({40, 32, 24});
  s.add("g", "", [](int i, int j, int k) {
    const double x = (i + 0.5) / 40 - 0.45, y = (j + 0.5) / 32 - 0.55, z = (k + 0.5) / 24 - 0.5;
    return std::exp(-12 * (x * x + y * y + z * z));
  });
  OffscreenRenderer off(160, 128);
  ViewSettings vs = bare_3d_view();
  vs.layers = {true, true, true, false};
  vs.volume.lighting = true;
  vs.iso.values = {0.5, 0.8};
  vs.iso.opacity = 0.6f;
  vs.volume.transfer = transfer_preset("density").function;
  off.renderer().set_volume_host_buffer(false);
  const Image texture = off.render(s, vs);
  off.renderer().set_volume_host_buffer(true);
  const Image buffer = off.render(s, vs);
  int differing = 0;
  const int worst = max_channel_difference(texture, buffer, &differing);
  // Texture units may quantise their weights (NVIDIA's to 1/256), which moves a surface by
  // a few thousandths of a cell: a pixel on a silhouette may flip, the rest may not move.
  int far_off = 0;
  double total = 0;
  for (std::size_t i = 0; i < texture.rgba.size(); i += 4)
    for (int c = 0; c < 3; ++c) {
      const int d = std::abs(int(texture.rgba[i + c]) - int(buffer.rgba[i + c]));
      far_off += d > 2;
      total += d;
    }
  const std::size_t values = texture.rgba.size() / 4 * 3;
  std::cout << "largest difference " << worst << ", " << differing << " of " << values
            << " channel values differ, " << far_off << " by more than 2\n";
  EXPECT_LE(far_off, int(values / 500)) << "more than 0.2% of values off by more than 2 levels";
  EXPECT_LT(total / values, 0.1) << "mean difference in levels";
}

TEST(Volume, BrickRangesCoverTheirCellsAndNeighbours) {
  OffscreenRenderer off(32, 32);  // the context
  test::FieldSolver s({20, 13, 9});
  s.add("h", "", [](int i, int j, int k) {
    if (i == 17 && j == 2 && k == 7) return std::nan("");
    return std::sin(1.3 * i + 0.7 * j * j - 2.1 * k) + 0.01 * i * j;
  });
  VolumeTexture vt;
  vt.update(s.view("h"), UploadPath::host);
  ASSERT_EQ(vt.bricks(), (std::array<int, 3>{3, 2, 2}));
  const auto values = vt.read_values();
  const auto bricks = vt.read_bricks();
  const FieldView v = s.view("h");
  for (int k = 0; k < 9; ++k)
    for (int j = 0; j < 13; ++j)
      for (int i = 0; i < 20; ++i) {
        const float f = static_cast<const float*>(v.data)[v.layout.index(i, j, k)];
        const float g = values[std::size_t(i + 20 * (j + 13 * k))];
        if (std::isnan(f)) {
          EXPECT_TRUE(std::isnan(g));
          continue;
        }
        EXPECT_EQ(f, g) << "cell " << i << " " << j << " " << k;
        // Every brick that this cell or a neighbour of it falls in holds its value.
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              const int bi = std::clamp(i + di, 0, 19) / 8, bj = std::clamp(j + dj, 0, 12) / 8,
                        bk = std::clamp(k + dk, 0, 8) / 8;
              const std::size_t b = std::size_t(bi + 3 * (bj + 2 * bk));
              EXPECT_LE(bricks[2 * b], f);
              EXPECT_GE(bricks[2 * b + 1], f);
            }
      }
  // The brick of the NaN cell (2, 0, 0), and its neighbours, are never skipped.
  for (std::size_t b = 0; b < 12; ++b) {
    const bool near_nan = b % 3 >= 1;
    EXPECT_EQ(std::isinf(bricks[2 * b]) && bricks[2 * b] < 0, near_nan) << "brick " << b;
    EXPECT_EQ(std::isinf(bricks[2 * b + 1]) && bricks[2 * b + 1] > 0, near_nan) << "brick " << b;
  }
}

// Seen along x, the y and z slices are edge-on: they used to be drawn as lines of their
// border cells across the x slice (a dark seam where the slices cross). A field that
// varies along x only leaves the x slice one colour.
TEST(Volume, SlicesSeenEdgeOnLeaveNoSeam) {
  test::FieldSolver s({32, 32, 32});
  s.add("x", "", [](int i, int, int) { return i / 31.0; });
  // Large enough that an edge-on slice (half a cell off the eye's plane) covers pixels.
  OffscreenRenderer off(400, 400);
  ViewSettings vs = bare_3d_view();
  vs.layers.slices = true;
  vs.yaw = 0;
  vs.pitch = 0;
  const Image im = off.render(s, vs);
  const Rect r = off.renderer().scene_rect();
  const int cx = int(r.x + r.w / 2), cy = im.height - 1 - int(r.y + r.h / 2);
  const std::uint8_t* centre = im.pixel(cx, cy);
  int worst = 0;
  // The middle of the x slice (a third of it each way; the box's edges lie outside).
  for (int y = cy - int(r.h / 9); y <= cy + int(r.h / 9); ++y)
    for (int x = cx - int(r.w / 9); x <= cx + int(r.w / 9); ++x)
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(im.pixel(x, y)[c] - centre[c]));
  EXPECT_LE(worst, 1) << "a seam across the slice";
}

TEST(Volume, StreamlinesAndDerivedFieldsAreDrawn) {
  test::FieldSolver s({24, 24, 24});
  s.add("rho", "kg/m^3", [](int, int, int) { return 1.0; });
  s.add("ux", "m/s", [](int, int j, int) { return -(j - 11.5); });
  s.add("uy", "m/s", [](int i, int, int) { return i - 11.5; });
  s.add("uz", "m/s", [](int, int, int) { return 0.2; });
  OffscreenRenderer off(160, 160);
  ViewSettings vs = bare_3d_view();
  const Image box = off.render(s, vs);
  vs.layers.lines = true;
  vs.lines.seeds = 4;
  const Image lines = off.render(s, vs);
  int changed = 0;
  for (std::size_t i = 0; i < box.rgba.size(); i += 4) changed += box.rgba[i] != lines.rgba[i];
  EXPECT_GT(changed, 200) << "the streamlines drew too few pixels";
  EXPECT_EQ(off.renderer().lines()->lines(), 16);
  // Speed shown as a volume: the field the renderer derived on the host, |u| from 0.2 up.
  vs.layers = {false, true, false, false};
  vs.field = "speed";
  vs.auto_range = true;
  off.render(s, vs);
  EXPECT_EQ(off.renderer().field_name(), "speed");
  EXPECT_EQ(off.renderer().field_unit(), "m/s");
  EXPECT_NEAR(off.renderer().lo(), std::hypot(0.5, 0.5, 0.2), 1e-5);
  EXPECT_NEAR(off.renderer().hi(), std::hypot(11.5, 11.5, 0.2), 1e-4);
}
