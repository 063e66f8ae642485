// The GUI as a script sees it: started under Xvfb (no display in CI), drawn for some
// frames while the solver steps, and its last frame saved: the screenshot must show a
// picture (many colours, the colormap's top colour somewhere), not a blank window, and
// the panel's text drawn with the TrueType font where one is embedded.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "render/EmbeddedFont.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "tests/render/GuiScript.hpp"

namespace fs = std::filesystem;
using namespace fluxview::render;

TEST(Gui, RunsFramesUnderXvfbAndSavesANonBlankScreenshot) {
  if (!fluxview::test::have_xvfb()) GTEST_SKIP() << "Xvfb not installed";
  const fs::path dir = fluxview::test::fresh_folder("fluxview_gui_test");
  const fs::path shot = dir / "shot.png";
  const auto r = fluxview::test::run_gui(
      "gui heat/hot-wall --backend cpu --set grid.n=32 --exit-after-frames 40 --screenshot " +
      shot.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(shot));
  const Image im = read_png(shot);
  EXPECT_GE(im.width, 640);
  EXPECT_GE(im.height, 480);
  std::set<std::uint32_t> colours;
  bool has_top = false;
  const auto top = colormap_table("viridis")[255];
  for (int y = 0; y < im.height; y += 2)
    for (int x = 0; x < im.width; x += 2) {
      const auto* p = im.pixel(x, y);
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
      has_top |= std::abs(p[0] - top[0]) <= 2 && std::abs(p[1] - top[1]) <= 2 &&
                 std::abs(p[2] - top[2]) <= 2;
    }
  EXPECT_GT(colours.size(), 50u) << "a blank or nearly blank screenshot";
  EXPECT_TRUE(has_top) << "the hot wall (top colour of viridis) is not in the picture";
  // The panel (the left 400 pixels) drawn with DejaVu Sans has anti-aliased glyph edges:
  // grey pixels between the dark backgrounds and the light text. ImGui's bitmap font has
  // none (only the few edges of check marks and slider grabs): measured 401 such pixels
  // with it, 6558 with DejaVu Sans at 15 px, on this scenario's first panel.
  if (!embedded_ui_font().empty()) {
    int grey = 0;
    for (int y = 0; y < im.height; ++y)
      for (int x = 0; x < std::min(400, im.width); ++x) {
        const auto* p = im.pixel(x, y);
        grey += std::abs(p[0] - p[1]) <= 3 && std::abs(p[1] - p[2]) <= 3 && p[0] > 60 && p[0] < 200;
      }
    EXPECT_GT(grey, 2000) << "the panel's text is not anti-aliased: not the TrueType font";
  }
}
