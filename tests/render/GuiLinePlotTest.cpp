// The main view of a 1D run is a line plot: Sod's shock tube at t = 0.14 drawn in the
// window under Xvfb, its screenshot read back. The field's curve (its own colour) lies at
// the rows of the four known plateau densities, and the exact Riemann solution (dashed, its
// own colour) on the same rows, its shock at the column of x = 0.5 + 1.75216 t.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "tests/render/GuiScript.hpp"

namespace fs = std::filesystem;
using namespace fluxview::render;

namespace {

// app/gui/ProfileView.hpp: kFieldCurveColour and kExactCurveColour.
constexpr std::array<int, 3> kField{255, 160, 40}, kExact{80, 190, 255};
constexpr int kPanel = 430;  // the side bar's width in pixels, and a little more

bool is(const Image& im, int x, int y, const std::array<int, 3>& c) {
  const auto* p = im.pixel(x, y);
  return std::abs(p[0] - c[0]) <= 1 && std::abs(p[1] - c[1]) <= 1 && std::abs(p[2] - c[2]) <= 1;
}

// The row of a curve of colour `c` in columns [x0, x1]: the middle of the lowest group of
// its pixels in a column, gaps of a row or two allowed (the thin exact curve runs along the
// middle of the field's thicker one); the lowest such group, since the legend, where a
// column crosses it, lies higher up.
std::optional<double> curve_row(const Image& im, int x0, int x1, const std::array<int, 3>& c) {
  std::optional<double> best;
  for (int x = std::max(x0, 0); x <= std::min(x1, im.width - 1); ++x) {
    int y = im.height - 1;
    while (y >= 0 && !is(im, x, y, c)) --y;
    if (y < 0) continue;
    int top = y;
    for (int k = top - 1; k >= std::max(0, top - 3); --k)
      if (is(im, x, k, c)) top = k;
    const double row = 0.5 * (top + y);
    if (!best || row > *best) best = row;
  }
  return best;
}

}  // namespace

TEST(GuiLinePlot, SodIsDrawnAsACurveOnItsPlateausBesideTheExactSolution) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_line_plot_test");
  const fs::path shot = dir / "sod.png";
  // 200 cells reach run.until = 0.14 in about 150 steps; the window pauses there.
  const auto r = fluxview::test::run_gui(
      "gui fv/sod --backend cpu --set grid.nx=200 --exit-after-frames 400 --screenshot " +
      shot.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_NE(r.out.find("run.until = 0.14"), std::string::npos) << "did not reach t = 0.14:\n"
                                                               << r.out;
  const Image im = read_png(shot);

  // The field's curve runs from the first cell's centre (x = 0.0025) to the last's
  // (0.9975): its outermost columns give the x axis's scale.
  int c0 = im.width, c1 = -1;
  for (int y = 0; y < im.height; ++y)
    for (int x = kPanel; x < im.width; ++x)
      if (is(im, x, y, kField)) {
        c0 = std::min(c0, x);
        c1 = std::max(c1, x);
      }
  ASSERT_LT(c0, c1) << "no curve of the field's colour in the view";
  EXPECT_GT(c1 - c0, 600) << "the plot should fill the view";
  const auto column = [&](double x) { return c0 + (x - 0.0025) / 0.995 * (c1 - c0); };

  // Toro's Sod solution (gamma 1.4): the left state, the star densities left and right of
  // the contact, the right state; sampled inside each plateau at t = 0.14.
  const double t = 0.14;
  const std::vector<std::pair<double, double>> plateaus = {
      {0.15, 1.0}, {0.56, 0.42632}, {0.69, 0.26557}, {0.80, 0.125}};
  std::vector<double> field_rows, exact_rows;
  for (const auto& [x, rho] : plateaus) {
    const int c = int(std::lround(column(x)));
    const auto f = curve_row(im, c, c, kField);
    const auto e = curve_row(im, c - 7, c + 7, kExact);  // the exact curve is dashed
    ASSERT_TRUE(f && e) << "no curve at x = " << x;
    field_rows.push_back(*f);
    exact_rows.push_back(*e);
  }
  // The rows of rho = 1 and rho = 0.125 give the y axis's scale; the star densities must
  // then sit where their values say, the field's to 2 pixels (the scheme's error) and the
  // exact curve's to 1.
  const auto row_of = [](const std::vector<double>& rows, double rho) {
    return rows[0] + (1.0 - rho) / (1.0 - 0.125) * (rows[3] - rows[0]);
  };
  EXPECT_GT(field_rows[3] - field_rows[0], 400) << "the plot should fill the view's height";
  for (std::size_t i = 1; i < 3; ++i) {
    const double rho = plateaus[i].second;
    std::printf("rho %.5f: expected row %.1f, field's %.1f, exact's %.1f\n", rho,
                row_of(field_rows, rho), field_rows[i], exact_rows[i]);
    EXPECT_NEAR(field_rows[i], row_of(field_rows, rho), 2.0) << "rho = " << rho;
    EXPECT_NEAR(exact_rows[i], row_of(field_rows, rho), 1.5) << "exact rho = " << rho;
  }
  for (std::size_t i : {0u, 3u}) EXPECT_NEAR(exact_rows[i], field_rows[i], 1.0);

  // The shock: the exact curve jumps at x = 0.5 + 1.75216 t, the field's within a cell
  // and a half of it (a cell is (c1 - c0) / 199 pixels).
  const double mid = 0.5 * (field_rows[2] + field_rows[3]);
  const auto crossing = [&](const std::array<int, 3>& colour) {
    std::vector<int> cols;
    for (int x = c0; x <= c1; ++x)
      for (int y = int(mid) - 3; y <= int(mid) + 3; ++y)
        if (is(im, x, y, colour)) {
          cols.push_back(x);
          break;
        }
    return cols;
  };
  const double shock = column(0.5 + 1.75216 * t), cell = (c1 - c0) / 199.0;
  const auto exact_cols = crossing(kExact), field_cols = crossing(kField);
  std::printf("shock: expected column %.1f, exact's %d, field's %d (a cell: %.1f px)\n", shock,
              exact_cols.empty() ? -1 : exact_cols.front(),
              field_cols.empty() ? -1 : field_cols.front(), cell);
  ASSERT_FALSE(exact_cols.empty());
  ASSERT_FALSE(field_cols.empty());
  EXPECT_NEAR(exact_cols.front(), shock, 2.0);
  EXPECT_NEAR(field_cols.front(), shock, 1.5 * cell);
}
