// CUDA-GL interop on an NVIDIA GPU: the slice a kernel stores into the texture must
// draw the same picture as the slice copied through the host (at most one level of
// difference per channel), for both precisions. Skips where there is no CUDA device.
#include <gtest/gtest.h>

#include <iostream>

#include "render/OffscreenRenderer.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;
using namespace fluxview::render;

TEST(Interop, SameImageAsTheHostUploadPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  OffscreenRenderer off(640, 480);
  std::cout << "context: " << off.context().description() << "\n";
  for (Precision prec : {Precision::f64, Precision::f32}) {
    const Scenario s = load_scenario("heat/hot-spot", {"grid.n=48"});
    auto solver = find_family(s.solver).create(BackendKind::cuda, prec);
    solver->reset(s.params);
    solver->advance(40);
    solver->synchronize();
    for (ViewMode mode : {ViewMode::slice2d, ViewMode::slices3d}) {
      ViewSettings vs;
      vs.mode = mode;
      vs.position = {0.4f, 0.55f, 0.5f};
      const Image via_host = off.render(*solver, vs, UploadPath::host);
      EXPECT_EQ(off.renderer().texture(2).last_path(), UploadPath::host);
      const Image via_interop = off.render(*solver, vs, UploadPath::interop);
      ASSERT_EQ(off.renderer().texture(2).last_path(), UploadPath::interop)
          << off.renderer().texture(2).interop_note();
      ASSERT_EQ(via_host.rgba.size(), via_interop.rgba.size());
      int worst = 0;
      std::size_t differing = 0;
      for (std::size_t i = 0; i < via_host.rgba.size(); ++i) {
        const int d = std::abs(int(via_host.rgba[i]) - int(via_interop.rgba[i]));
        worst = std::max(worst, d);
        differing += d != 0;
      }
      EXPECT_LE(worst, 1) << to_string(prec) << (mode == ViewMode::slice2d ? " 2d" : " 3d") << ": "
                          << differing << " channel values differ";
    }
  }
}
