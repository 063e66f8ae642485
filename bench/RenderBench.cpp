// render_bench: what drawing costs (docs/performance.md, "Slice updates and frame rate").
//   render_bench slice [N]   time SliceTexture updates of an N x N slice (default 1024)
//                            from a CUDA solver, shared-memory, mapped-texture ("interop")
//                            and host paths, both precisions
//   render_bench frames [N [PATH]]  frames per second of the 3D view while an N^3
//                            (default 256) CUDA heat run steps, for several steps per
//                            frame, the slices taking PATH (auto, shared, map or host)
//   render_bench volume [N [device]]  time the volume's refresh from an N^3 (default 256) CUDA
//                            solver, shared-memory, mapped-texture and host paths, both
//                            precisions (target 0.1 ms for 256^3 float), and the
//                            kernels alone into plain device memory ("device": not
//                            the host path, which takes seconds at 512^3)
//   render_bench volume-frames [N]  frames per second of the volume, isosurface and
//                            combined views at 1280x720 while an N^3 float run steps
//   render_bench amr-slice [LEVELS]  time the 2D view's update of the paper's cloud on the
//                            adaptive mesh (LEVELS below its 64^3 top grid, default 6: a
//                            4096^2 plane), the 3D view's slices, and the 256^3 view grid
// Prints one JSON object per measurement. Needs a CUDA device and headless EGL.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/OffscreenRenderer.hpp"
#include "render/SliceInterop.hpp"
#include "render/VolumeBricks.hpp"
#include "render/VolumeInterop.hpp"
#include "render/VolumeTexture.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;
using namespace fluxview::render;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::unique_ptr<Solver> heat(const std::vector<std::string>& sets, Precision p) {
  const Scenario s = load_scenario("heat/hot-spot", sets);
  auto solver = find_family(s.solver).create(BackendKind::cuda, p);
  solver->reset(s.params);
  solver->advance(2);
  solver->synchronize();
  return solver;
}

// Mean milliseconds of `update` run back to back (waited for once at the end, what a
// frame loop sees) and each waited for by CUDA and GL (the latency).
template <class F>
std::pair<double, double> time_updates(F&& update, int reps) {
  for (int i = 0; i < 10; ++i) update();  // registration, first maps
  cuda::synchronize();
  glFinish();
  auto t0 = Clock::now();
  for (int i = 0; i < reps; ++i) update();
  cuda::synchronize();
  glFinish();
  const double back_to_back = since(t0) * 1e3 / reps;
  t0 = Clock::now();
  for (int i = 0; i < reps; ++i) {
    update();
    cuda::synchronize();
    glFinish();
  }
  return {back_to_back, since(t0) * 1e3 / reps};
}

void print_update(const char* what, int n, Precision p, const char* path,
                  std::pair<double, double> ms) {
  std::printf(
      "{\"what\": \"%s\", \"n\": %d, \"precision\": \"%s\", \"path\": \"%s\", \"ms_back_to_back\": "
      "%.4f, "
      "\"ms_each_waited\": %.4f}\n",
      what, n, std::string(to_string(p)).c_str(), path, ms.first, ms.second);
  std::fflush(stdout);
}

// Whether the shared-memory path can be had here; says why not on stderr (once).
bool shared_path_available(const FieldView& v) {
  static int known = -1;
  if (known < 0) {
    SliceTexture probe;
    known = probe.device_path(v, {2, 0}, UploadPath::shared) == UploadPath::shared;
    if (!known)
      std::fprintf(stderr, "shared-memory path unavailable, its rows are left out: %s\n",
                   probe.interop_note().c_str());
  }
  return known == 1;
}

// The row names: "shared" is the shared-memory path, "interop" the mapped texture.
const char* row_name(UploadPath p) {
  return p == UploadPath::shared ? "shared" : p == UploadPath::interop ? "interop" : "host";
}

void slice_bench(int n) {
  OffscreenRenderer off(64, 64);  // only for the context
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  // One 2D slice of an n x n run, every path and both precisions.
  for (Precision prec : {Precision::f32, Precision::f64}) {
    auto solver =
        heat({"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n), "grid.nz=1"}, prec);
    const FieldView v = solver->view("T");
    for (UploadPath path : {UploadPath::shared, UploadPath::interop, UploadPath::host}) {
      if (path == UploadPath::shared && !shared_path_available(v)) continue;
      SliceTexture tex;
      const auto ms = time_updates(
          [&] {
            tex.update(v, {2, 0}, path);
          },
          path == UploadPath::host ? 50 : 1000);
      print_update("slice_update", n, prec, row_name(path), ms);
    }
    if (prec == Precision::f32) {
      // Where the shared-memory time goes, each phase waited for: the wait for GL's
      // last read (its fence), the kernel with the host wait for it, and finishing the
      // update on the GL side (nothing to copy: the shader reads the buffer in place),
      // with a glFinish.
      if (shared_path_available(v)) {
        SliceTexture st;
        st.device_path(v, {2, 0}, UploadPath::shared);
        const SliceSpec s0{2, 0};
        double fence_ms = 0, write_ms = 0, copy_ms = 0;
        const int reps = 200;
        for (int i = 0; i < reps; ++i) {
          auto t0 = Clock::now();
          void* memory = st.begin_shared_write();
          fence_ms += since(t0) * 1e3;
          t0 = Clock::now();
          interop::write_slices_shared(&memory, v, &s0, 1);
          write_ms += since(t0) * 1e3;
          t0 = Clock::now();
          st.finish_shared_write();
          glFinish();
          copy_ms += since(t0) * 1e3;
        }
        std::printf(
            "{\"what\": \"shared_phases\", \"n\": %d, \"fence_wait_ms\": %.4f, "
            "\"kernel_and_host_wait_ms\": %.4f, \"gl_finish_ms\": %.4f}\n",
            n, fence_ms / reps, write_ms / reps, copy_ms / reps);
      }
    }
  }
  // Slice size: is the cost per byte or per call?
  for (int m : {256, 2048, 4096}) {
    auto solver =
        heat({"grid.nx=" + std::to_string(m), "grid.ny=" + std::to_string(m), "grid.nz=1"},
             Precision::f32);
    const FieldView v = solver->view("T");
    for (UploadPath path : {UploadPath::shared, UploadPath::interop}) {
      if (path == UploadPath::shared && !shared_path_available(v)) continue;
      SliceTexture tex;
      print_update("slice_update", m, Precision::f32, row_name(path),
                   time_updates(
                       [&] {
                         tex.update(v, {2, 0}, path);
                       },
                       500));
    }
  }
  // The 3D view: three slices of a 512^3 run, mapped one by one or together.
  {
    const int m = 512;
    auto solver = heat({"grid.n=" + std::to_string(m)}, Precision::f32);
    const FieldView v = solver->view("T");
    SliceTexture t0, t1, t2;
    print_update("three_slices_separate_maps", m, Precision::f32, "interop",
                 time_updates(
                     [&] {
                       t0.update(v, {0, m / 2}, UploadPath::interop);
                       t1.update(v, {1, m / 2}, UploadPath::interop);
                       t2.update(v, {2, m / 2}, UploadPath::interop);
                     },
                     500));
    ViewRenderer r;
    ViewSettings vs;
    vs.mode = ViewMode::slices3d;
    vs.auto_range = false;
    print_update("three_slices_one_map", m, Precision::f32, "interop",
                 time_updates([&] { r.update(*solver, vs, UploadPath::interop); }, 500));
    vs.auto_range = true;
    print_update("three_slices_one_map_plus_auto_range", m, Precision::f32, "interop",
                 time_updates([&] { r.update(*solver, vs, UploadPath::interop); }, 500));
    if (shared_path_available(v)) {
      // Three slices written by one batch of kernels with one host wait, read in place.
      ViewRenderer rs;
      vs.auto_range = false;
      print_update("three_slices_one_wait", m, Precision::f32, "shared",
                   time_updates([&] { rs.update(*solver, vs, UploadPath::shared); }, 500));
    }
  }
}

void frames_bench(int n, UploadPath path) {
  const int w = 1280, h = 720;
  OffscreenRenderer off(w, h);
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  Framebuffer target(w, h);
  auto solver = heat({"grid.n=" + std::to_string(n)}, Precision::f64);
  ViewSettings vs;
  vs.mode = ViewMode::slices3d;
  for (int steps_per_frame : {0, 1, 4, 16}) {
    int frames = 0;
    std::int64_t steps = 0;
    const auto t0 = Clock::now();
    while (since(t0) < 3.0) {
      if (steps_per_frame > 0) {
        solver->advance(steps_per_frame);
        steps += steps_per_frame;
      }
      off.renderer().update(*solver, vs, path);
      target.bind();
      off.renderer().draw(vs, 0, 0, w, h);
      glFinish();  // a swap would wait for the frame the same way
      ++frames;
    }
    solver->synchronize();
    const double el = since(t0);
    std::printf(
        "{\"what\": \"frames_while_stepping\", \"n\": %d, \"path\": \"%s\", \"width\": %d, "
        "\"height\": %d, \"steps_per_frame\": %d, "
        "\"fps\": %.1f, \"steps_per_s\": %.1f, \"cell_updates_per_s\": %.4g}\n",
        n, upload_path_option(path), w, h, steps_per_frame, frames / el, steps / el,
        steps * double(solver->grid().cells()) / el);
    std::fflush(stdout);
  }
}

// The volume's refresh from the solver (VolumeTexture::update), N^3, each path and both
// precisions: the kernel writing every cell and the bricks, and what the path adds (the
// host wait of the shared memory, the map of the texture, the bus of the host path).
void volume_bench(int n, bool device_only) {
  OffscreenRenderer off(64, 64);  // only for the context
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  for (Precision prec : {Precision::f32, Precision::f64}) {
    auto solver = heat({"grid.n=" + std::to_string(n)}, prec);
    const FieldView v = solver->view("T");
    {
      // The kernels alone, into plain device memory: what the paths below add to it.
      const std::size_t cells = std::size_t(n) * n * n;
      const std::size_t bricks = std::size_t(bricks_along(n)) * bricks_along(n) * bricks_along(n);
      Buffer volume(Location::device, cells * sizeof(float));
      Buffer brick_ranges(Location::device, 2 * bricks * sizeof(float));
      Buffer raw(Location::device, 2 * bricks * sizeof(float));
      auto* out = static_cast<float*>(volume.data());
      auto* ranges = static_cast<float*>(brick_ranges.data());
      auto* scratch = static_cast<float*>(raw.data());
      const auto kernels = [&] { interop::write_volume_linear(v, out, ranges, scratch); };
      print_update("volume_kernels", n, prec, "device memory", time_updates(kernels, 200));
    }
    for (UploadPath path : {UploadPath::shared, UploadPath::interop, UploadPath::host}) {
      if (device_only && path == UploadPath::host) continue;
      VolumeTexture tex;
      try {
        tex.update(v, path);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "volume %s: %s\n", row_name(path), e.what());
        continue;
      }
      const int reps = path == UploadPath::host ? 5 : 200;
      // No draw between refreshes, so no read fence to wait for: the refresh itself.
      print_update("volume_refresh", n, prec, row_name(path),
                   time_updates([&] { tex.update(v, path); }, reps));
      // Right after a draw's fence, with nothing else queued: the fence's round trip too.
      print_update("volume_refresh_after_fence", n, prec, row_name(path),
                   time_updates(
                       [&] {
                         tex.update(v, path);
                         tex.note_gl_read();
                       },
                       reps));
    }
  }
}

// Frames per second of the 3D view at 1280x720 while an N^3 CUDA heat run steps (float):
// the volume alone (shared memory and mapped texture; empty-space skipping as the view
// decides and off; lit), an isosurface, and slices, volume and isosurface together.
// Each frame refreshes what it shows from the solver, as the GUI does.
void volume_frames_bench(int n) {
  const int w = 1280, h = 720;
  OffscreenRenderer off(w, h);
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  Framebuffer target(w, h);
  auto solver = heat({"grid.n=" + std::to_string(n)}, Precision::f32);
  solver->advance(200);  // a spot that has spread a little
  struct Case {
    const char* name;
    UploadPath path;
    ViewSettings vs;
  };
  std::vector<Case> cases;
  ViewSettings base;
  base.mode = ViewMode::slices3d;
  base.layers = {false, true, false, false};
  base.volume.transfer = transfer_preset("temperature").function;
  base.colormap = "inferno";
  for (UploadPath path : {UploadPath::shared, UploadPath::interop}) {
    cases.push_back({"volume", path, base});
    ViewSettings off_skip = base;
    off_skip.volume.skipping = Skipping::off;
    cases.push_back({"volume_no_skipping", path, off_skip});
    ViewSettings lit = base;
    lit.volume.lighting = true;
    cases.push_back({"volume_lit", path, lit});
    ViewSettings iso = base;
    iso.layers = {false, false, true, false};
    cases.push_back({"isosurface", path, iso});
    ViewSettings all = base;
    all.layers = {true, true, true, false};
    cases.push_back({"slices_volume_isosurface", path, all});
  }
  for (const Case& c : cases) {
    for (int steps_per_frame : {0, 1, 4}) {
      int frames = 0;
      std::int64_t steps = 0;
      try {
        off.renderer().update(*solver, c.vs, c.path);  // set-up outside the timing
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s, %s: %s\n", c.name, row_name(c.path), e.what());
        break;
      }
      const auto t0 = Clock::now();
      while (since(t0) < 3.0) {
        if (steps_per_frame > 0) {
          solver->advance(steps_per_frame);
          steps += steps_per_frame;
        }
        off.renderer().update(*solver, c.vs, c.path);
        target.bind();
        off.renderer().draw(c.vs, 0, 0, w, h);
        glFinish();
        ++frames;
      }
      solver->synchronize();
      const double el = since(t0);
      std::printf(
          "{\"what\": \"volume_frames\", \"view\": \"%s\", \"path\": \"%s\", \"n\": %d, "
          "\"width\": %d, \"height\": %d, \"steps_per_frame\": %d, \"fps\": %.1f, "
          "\"ms_per_frame\": %.3f, \"skipping\": %s, \"steps_per_s\": %.1f}\n",
          c.name, row_name(off.renderer().volume()->values().last_path()), n, w, h, steps_per_frame,
          frames / el, el * 1e3 / frames, off.renderer().volume()->skipped() ? "true" : "false",
          steps / el);
      std::fflush(stdout);
    }
  }
}

}  // namespace

// The adaptive mesh's slices: the paper's cloud (fv/cloud-disruption-amr, CUDA, double,
// its first mesh with `levels` levels below the 64^3 top grid). Times the 2D view's update
// (one plane at the finest level the planes reach, resampled from the blocks and written
// into the texture), the 3D view's three slices, and the resampling onto the 256^3 view
// grid alone (what the 2D view cost when its slice came from that grid).
void amr_slice_bench(int levels) {
  OffscreenRenderer off(64, 64);  // only for the context
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  const Scenario sc =
      load_scenario("fv/cloud-disruption-amr", {"fv.amr.max_level=" + std::to_string(levels)});
  auto solver = find_family(sc.solver).create(BackendKind::cuda, Precision::f64);
  solver->reset(sc.params);
  solver->synchronize();
  const amr::Hierarchy* h = amr::hierarchy_of(*solver);
  if (!h) throw std::runtime_error("fv/cloud-disruption-amr is not on the adaptive mesh");
  ViewSettings vs;
  vs.field = "rho";
  const int reps = 20;
  // `values`: the texels written, or the view grid's cells.
  const auto print = [&](const char* what, double values, std::pair<double, double> ms) {
    std::printf(
        "{\"what\": \"%s\", \"blocks\": %zu, \"plane_level\": %d, \"view_grid\": %d, "
        "\"values\": %.0f, \"ms_back_to_back\": %.4f, \"ms_each_waited\": %.4f}\n",
        what, h->local_blocks().size(), h->plane_level(), solver->grid().n[0], values, ms.first,
        ms.second);
    std::fflush(stdout);
  };
  vs.mode = ViewMode::slice2d;
  const auto two_d = time_updates([&] { off.renderer().update(*solver, vs); }, reps);
  const SliceTexture& t = off.renderer().shown_texture();
  print("amr_2d_view_update", double(t.width()) * t.height(), two_d);
  vs.mode = ViewMode::slices3d;
  print("amr_3d_slices_update", 3.0 * t.width() * t.height(),
        time_updates([&] { off.renderer().update(*solver, vs); }, reps));
  const Grid& g = solver->grid();
  print("amr_view_grid_resample", double(g.cells()),
        time_updates([&] { (void)solver->view("rho"); }, reps));
}

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "slice";
  if (cuda::device_count() == 0) {
    std::fprintf(stderr, "render_bench: no CUDA device: %s\n", cuda::no_device_reason().c_str());
    return 1;
  }
  try {
    if (what == "slice")
      slice_bench(argc > 2 ? std::stoi(argv[2]) : 1024);
    else if (what == "frames")
      frames_bench(argc > 2 ? std::stoi(argv[2]) : 256,
                   parse_upload_path(argc > 3 ? argv[3] : "auto"));
    else if (what == "volume" && (argc < 4 || std::string_view(argv[3]) == "device"))
      volume_bench(argc > 2 ? std::stoi(argv[2]) : 256, argc > 3);
    else if (what == "volume-frames")
      volume_frames_bench(argc > 2 ? std::stoi(argv[2]) : 256);
    else if (what == "amr-slice")
      amr_slice_bench(argc > 2 ? std::stoi(argv[2]) : 6);
    else {
      std::fprintf(stderr,
                   "usage: render_bench slice [N] | frames [N [PATH]] | volume [N [device]] | "
                   "volume-frames [N] | amr-slice [LEVELS]\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "render_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
