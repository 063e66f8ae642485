// CUDA-GL interop on an NVIDIA GPU: the slice a kernel stores into the texture must
// draw the same picture as the slice copied through the host (at most one level of
// difference per channel), for both precisions; the shared-memory path must give the
// host path's texels exactly. Skips where there is no CUDA device (or, for the shared
// path, no GL_EXT_memory_object_fd).
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <utility>

#include <cstddef>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "render/OffscreenRenderer.hpp"
#include "render/SharedGlBuffer.hpp"
#include "render/SliceInterop.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "tests/support/SolverTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::render;

// The state both tests draw: heat/hot-spot, 48^3, 40 steps on the CUDA backend.
static std::unique_ptr<Solver> hot_spot_on_cuda(Precision prec) {
  auto solver = test::make_solver("heat/hot-spot", {"grid.n=48"}, BackendKind::cuda, prec);
  solver->advance(40);
  solver->synchronize();
  return solver;
}

TEST(Interop, SameImageAsTheHostUploadPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  OffscreenRenderer off(640, 480);
  std::cout << "context: " << off.context().description() << "\n";
  for (Precision prec : {Precision::f64, Precision::f32}) {
    auto solver = hot_spot_on_cuda(prec);
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

namespace {

std::vector<float> texels(const SliceTexture& t) {
  return t.read_values();
}

// Where the two differ first, or an empty string where they are equal bit for bit.
std::string first_difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return "sizes differ";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
      return "texel " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " +
             std::to_string(b[i]);
  return "";
}

}  // namespace

// The shared-memory path (CUDA memory imported by GL, read in place by the shader) stores
// float(value) as the host path does: the values must be equal bit for bit, for each
// slice axis and both precisions, also on a second update (the buffer written again);
// and the 3D view it draws, reading the buffer, equals the host path's image.
TEST(Interop, SharedMemoryTexelsEqualTheHostUpload) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  OffscreenRenderer off(640, 480);
  std::cout << "context: " << off.context().description() << "\n";
  for (const char* ext : {"GL_EXT_memory_object", "GL_EXT_memory_object_fd"})
    if (!epoxy_has_gl_extension(ext))
      GTEST_SKIP() << ext << " is not offered by " << off.context().description();
  for (Precision prec : {Precision::f64, Precision::f32}) {
    auto solver = hot_spot_on_cuda(prec);
    for (int axis = 0; axis < 3; ++axis) {
      const SliceSpec slice{axis, 20 + axis};
      SliceTexture via_host, via_shared;
      ASSERT_EQ(via_shared.device_path(solver->view("T"), slice, UploadPath::shared),
                UploadPath::shared)
          << via_shared.interop_note();
      for (int round = 0; round < 2; ++round) {
        if (round == 1) solver->advance(7);
        const FieldView v = solver->view("T");
        via_host.update(v, slice, UploadPath::host);
        via_shared.update(v, slice, UploadPath::shared);
        ASSERT_EQ(via_shared.last_path(), UploadPath::shared) << via_shared.interop_note();
        const std::string diff = first_difference(texels(via_host), texels(via_shared));
        EXPECT_EQ(diff, "") << to_string(prec) << ", axis " << axis << ", update " << round + 1;
      }
    }
    ViewSettings vs;
    vs.mode = ViewMode::slices3d;
    vs.position = {0.4f, 0.55f, 0.5f};
    const Image via_host = off.render(*solver, vs, UploadPath::host);
    const Image via_shared = off.render(*solver, vs, UploadPath::shared);
    for (int a = 0; a < 3; ++a)
      ASSERT_EQ(off.renderer().texture(a).last_path(), UploadPath::shared)
          << off.renderer().texture(a).interop_note();
    EXPECT_TRUE(via_host.rgba == via_shared.rgba) << to_string(prec) << ": 3D view differs";
  }
}

TEST(Interop, SharedMemoryStaysSharedAcrossManyAllocationsAndFrees) {
  // Issue 18: on an H100 a later import of shared memory (three slices after a 512^3
  // volume, or after earlier slices had been freed) failed its check, "GL does not read
  // what CUDA wrote". Here: 30 allocations of mixed sizes (1 MiB to 512 MiB), up to three
  // alive at once, freed in varying order; every one must be made, and GL must read what
  // CUDA writes into it afterwards too (a byte of its own, so a stale alias of an earlier
  // allocation cannot pass).
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason();
  OffscreenRenderer off(64, 64);
  for (const char* ext : {"GL_EXT_memory_object", "GL_EXT_memory_object_fd"})
    if (!epoxy_has_gl_extension(ext))
      GTEST_SKIP() << ext << " is not offered by " << off.context().description();
  const std::size_t mib = std::size_t(1) << 20;
  const std::size_t sizes[] = {512 * mib, mib + 12345, 3 * mib, 64 * mib, 1 * mib, 2 * mib};
  std::vector<std::unique_ptr<SharedGlBuffer>> alive;
  for (int i = 0; i < 30; ++i) {
    const std::size_t bytes = sizes[i % 6];
    auto b = std::make_unique<SharedGlBuffer>();
    std::string why;
    ASSERT_TRUE(b->create(bytes, &why)) << "allocation " << i << " of " << bytes << ": " << why;
    EXPECT_EQ(b->import_notes(), "") << "allocation " << i << ": the first import was not read";
    const auto byte = static_cast<unsigned char>(0x10 + i);
    interop::fill_shared_memory(b->handle(), byte);
    const auto ends = gl_read_ends(b->buffer(), bytes);
    for (unsigned char c : ends)
      ASSERT_EQ(int(c), int(byte)) << "allocation " << i << " of " << bytes << " bytes";
    alive.push_back(std::move(b));
    if (alive.size() > 3) alive.erase(alive.begin() + (i % 3));  // not always the oldest
    if (i % 7 == 6) alive.clear();
  }
}
