#include "render/FrameWriter.hpp"

#include <array>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <utility>
#include <vector>

#include "render/GatheredSlices.hpp"
#include "render/OffscreenRenderer.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::render {

namespace {

// Under MPI: every rank learns whether any rank failed at a step they take together, so
// that all of them stop with the message instead of waiting for one that stopped.
void settle_across_ranks(const std::string& error, const std::string& what) {
  if (parallel::allreduce_sum(std::int64_t(error.empty() ? 0 : 1)) > 0)
    throw std::runtime_error(error.empty() ? what + " failed on another MPI rank" : error);
}

// Serially the frame is drawn from the solver's fields (through CUDA-GL interop on the
// CUDA backend). On several MPI ranks every rank sends its pieces of the shown slices
// to rank 0 (gather_slices), and only rank 0 holds a GL context and writes the PNGs.
class PngFrameWriter : public FrameWriter {
 public:
  PngFrameWriter(const FrameOptions& o, ViewSettings vs) : dir_(o.dir), settings_(std::move(vs)) {
    if (parallel::size() == 1) {
      offscreen_ = std::make_unique<OffscreenRenderer>(o.width, o.height);
      return;
    }
    std::string error;
    if (parallel::is_root()) try {
        offscreen_ = std::make_unique<OffscreenRenderer>(o.width, o.height);
      } catch (const std::exception& e) {
        error = e.what();
      }
    settle_across_ranks(error, "opening the rendering context on rank 0");
  }
  void write(const Solver& s) override {
    char name[64];
    std::snprintf(name, sizeof name, "frame_%06lld.png", static_cast<long long>(s.step()));
    if (parallel::size() == 1) {
      write_png(dir_ / name, offscreen_->render(s, settings_));
      return;
    }
    std::string error;
    try {
      const GatheredSlices g = gather_slices(s, settings_);  // collective
      if (parallel::is_root()) write_png(dir_ / name, offscreen_->render(g, settings_));
    } catch (const std::exception& e) {
      error = e.what();
    }
    settle_across_ranks(error, std::string("drawing ") + name);
  }
  std::string context_description() const override {
    return offscreen_ ? offscreen_->context().description() : "drawn on MPI rank 0";
  }

 private:
  std::filesystem::path dir_;
  ViewSettings settings_;
  std::unique_ptr<OffscreenRenderer> offscreen_;  // on rank 0 only under MPI
};

}  // namespace

std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s) {
  ViewSettings vs;
  try {
    vs.mode = parse_view_mode(o.view);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--render-view: ") + e.what());
  }
  if (!o.field.empty()) {
    std::string names;
    bool found = false;
    for (const auto& f : s.fields()) {
      found |= f.name == o.field;
      names += (names.empty() ? "" : ", ") + f.name;
    }
    if (!found)
      throw ConfigError("--render-field " + o.field + ": no such field; allowed: " + names);
    vs.field = o.field;
  }
  // Seen along z: the (x, y) plane, which is also the plane of a 2D problem (nz = 1).
  // Only a line along z is seen from the side.
  const auto& n = s.grid().n;
  vs.axis = n[0] == 1 && n[1] == 1 ? 0 : 2;
  return std::make_unique<PngFrameWriter>(o, vs);
}

}  // namespace fluxview::render
