// render_bench: what drawing costs (docs/performance.md, "Slice updates and frame rate").
//   render_bench slice [N]   time SliceTexture updates of an N x N slice (default 1024)
//                            from a CUDA solver, interop and host paths, both precisions
//   render_bench frames [N]  frames per second of the 3D view while an N^3 (default 256)
//                            CUDA heat run steps, for several steps per frame
// Prints one JSON object per measurement. Needs a CUDA device and headless EGL.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "render/OffscreenRenderer.hpp"
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

void slice_bench(int n) {
  OffscreenRenderer off(64, 64);  // only for the context
  std::fprintf(stderr, "context: %s\n", off.context().description().c_str());
  for (Precision prec : {Precision::f32, Precision::f64}) {
    auto solver =
        heat({"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n), "grid.nz=1"}, prec);
    const FieldView v = solver->view("T");
    for (UploadPath path : {UploadPath::interop, UploadPath::host}) {
      SliceTexture tex;
      for (int i = 0; i < 20; ++i) tex.update(v, {2, 0}, path);  // registration, first maps
      glFinish();
      cuda::synchronize();
      // Throughput: updates back to back, waited for once at the end (what a frame loop sees).
      const int reps = path == UploadPath::interop ? 1000 : 50;
      auto t0 = Clock::now();
      for (int i = 0; i < reps; ++i) tex.update(v, {2, 0}, path);
      cuda::synchronize();
      glFinish();
      const double back_to_back = since(t0) / reps;
      // Latency: each update waited for by both APIs.
      t0 = Clock::now();
      for (int i = 0; i < reps; ++i) {
        tex.update(v, {2, 0}, path);
        cuda::synchronize();
        glFinish();
      }
      const double each_waited = since(t0) / reps;
      std::printf(
          "{\"what\": \"slice_update\", \"n\": %d, \"precision\": \"%s\", \"path\": \"%s\", "
          "\"ms_back_to_back\": "
          "%.4f, \"ms_each_waited\": %.4f, \"taken\": \"%s\"}\n",
          n, std::string(to_string(prec)).c_str(), path == UploadPath::interop ? "interop" : "host",
          back_to_back * 1e3, each_waited * 1e3,
          tex.last_path() == UploadPath::interop ? "interop" : "host");
      std::fflush(stdout);
    }
  }
}

void frames_bench(int n) {
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
      off.renderer().update(*solver, vs);
      target.bind();
      off.renderer().draw(vs, 0, 0, w, h);
      glFinish();  // a swap would wait for the frame the same way
      ++frames;
    }
    solver->synchronize();
    const double el = since(t0);
    std::printf(
        "{\"what\": \"frames_while_stepping\", \"n\": %d, \"width\": %d, \"height\": %d, "
        "\"steps_per_frame\": %d, "
        "\"fps\": %.1f, \"steps_per_s\": %.1f, \"cell_updates_per_s\": %.4g}\n",
        n, w, h, steps_per_frame, frames / el, steps / el,
        steps * double(solver->grid().cells()) / el);
    std::fflush(stdout);
  }
}

}  // namespace

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
      frames_bench(argc > 2 ? std::stoi(argv[2]) : 256);
    else {
      std::fprintf(stderr, "usage: render_bench slice|frames [N]\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "render_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
