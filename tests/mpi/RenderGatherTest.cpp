// Headless frames of an MPI run (docs/parallel.md): every rank sends its pieces of the
// shown slices to rank 0, which draws them. The PNGs of `fluxview run --render-every`
// on 2 and 4 ranks must be those of the serial run (at most one level per channel
// apart), and must show the field: the colormap's top and bottom colours where the
// field's maximum and minimum are.
#include <gtest/gtest.h>
#include <array>
#include <cstdlib>
#include <initializer_list>
#include <iosfwd>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using namespace fluxview;
using namespace fluxview::render;

namespace {

struct Case {
  std::string name;
  std::string args;  // after `fluxview run`
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << c.name;
}

// Left of x = 776 lies the picture of a 1024x768 frame; right of it the colour bar and
// its labels (SliceRenderer::draw's layout), which carry every colour whatever the field.
constexpr int kPictureRight = 776;

// Pixels of the picture within 2 levels of a colour: how many, and their mean row.
struct ColourCount {
  int count = 0;
  double mean_row = 0;
};
ColourCount count_colour(const Image& im, std::array<unsigned char, 3> c) {
  ColourCount r;
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < std::min(im.width, kPictureRight); ++x) {
      const auto* p = im.pixel(x, y);
      int d = 0;
      for (int i = 0; i < 3; ++i) d = std::max(d, std::abs(int(p[i]) - int(c[i])));
      if (d <= 2) {
        ++r.count;
        r.mean_row += y;
      }
    }
  if (r.count) r.mean_row /= r.count;
  return r;
}

std::vector<std::string> frames_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".png") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

fs::path run(const Case& c, int ranks) {
  const fs::path out = fs::path(FLUXVIEW_BINARY_DIR) / "tests" / "mpi" / "render_gather" / c.name /
                       (ranks == 1 ? std::string("serial") : "np" + std::to_string(ranks));
  fs::remove_all(out);
  std::string prefix = "OMP_NUM_THREADS=1 ";
  if (ranks > 1)
    prefix += "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(MPIEXEC) +
              " --oversubscribe -np " + std::to_string(ranks) + " ";
  const auto r = test::run_fluxview("run " + c.args + " --quiet --output " + out.string(), prefix);
  EXPECT_EQ(r.code, 0) << r.out;
  return out / "frames";
}

class RenderGather : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(RenderGather, FramesOnSeveralRanksAreTheSerialFrames) {
  const Case& c = GetParam();
  const fs::path serial = run(c, 1);
  const std::vector<std::string> names = frames_in(serial);
  ASSERT_EQ(names.size(), 3u) << "frames at steps 0, N and 2N";

  // The last frame shows the field: its maximum in the top colour, its minimum in the
  // bottom colour, each over a good part of the picture (not a blank or uniform frame).
  const auto table = colormap_table("viridis");
  const Image last = read_png(serial / names.back());
  const ColourCount top = count_colour(last, table[255]), bottom = count_colour(last, table[0]);
  EXPECT_GE(top.count, 100) << "too few pixels in the top colour";
  EXPECT_GE(bottom.count, 100) << "too few pixels in the bottom colour";
  if (c.name.starts_with("heat_hot_wall_2d"))
    EXPECT_LT(top.mean_row, bottom.mean_row - 100) << "the hot wall (y = ly) is at the top";

  for (const int ranks : {2, 4}) {
    const fs::path parallel = run(c, ranks);
    ASSERT_EQ(frames_in(parallel), names) << ranks << " ranks";
    for (const auto& name : names) {
      const Image a = read_png(serial / name), b = read_png(parallel / name);
      ASSERT_EQ(a.width, b.width);
      ASSERT_EQ(a.height, b.height);
      int worst = 0;
      std::size_t differing = 0;
      for (std::size_t i = 0; i < a.rgba.size(); ++i) {
        const int d = std::abs(int(a.rgba[i]) - int(b.rgba[i]));
        worst = std::max(worst, d);
        differing += d > 0;
      }
      EXPECT_LE(worst, 1) << name << " on " << ranks << " ranks: " << differing
                          << " channel values differ from the serial frame";
    }
  }
}

// Grid sizes differ per axis and do not divide evenly, so a misplaced or transposed
// piece shows; whichever axes the ranks split, the 3D views hold slices that several
// ranks cut and slices that only some ranks cut (the others send nothing).
INSTANTIATE_TEST_SUITE_P(
    Scenarios, RenderGather,
    ::testing::Values(
        Case{"heat_hot_wall_2d",
             "heat/hot-wall --backend cpu --set grid.nx=21 --set grid.ny=17 "
             "--set grid.nz=13 --steps 40 --render-every 20"},
        Case{"heat_hot_wall_2d_plane",
             "heat/hot-wall --backend cpu --set grid.nx=27 --set grid.ny=22 --set grid.nz=1 "
             "--steps 40 --render-every 20"},
        Case{"heat_hot_wall_3d",
             "heat/hot-wall --backend cpu --set grid.nx=21 --set grid.ny=17 "
             "--set grid.nz=13 --steps 40 --render-every 20 --render-view 3d"},
        // p is derived from the conserved state on each rank when it is asked for.
        Case{"fv_sedov_pressure_3d",
             "fv/sedov --backend cpu --set grid.nx=18 --set grid.ny=15 --set grid.nz=13 "
             "--steps 6 --render-every 3 --render-view 3d --render-field p"},
        Case{"fv_sod_1d", "fv/sod --backend cpu --set grid.nx=70 --steps 10 --render-every 5"}),
    [](const auto& info) { return info.param.name; });
