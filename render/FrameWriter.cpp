#include "render/FrameWriter.hpp"

#include <array>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "render/GatheredSlices.hpp"
#include "render/MovieWriter.hpp"
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

std::string field_names(const Solver& s) {
  std::string names;
  for (const auto& f : ViewRenderer::viewable_fields(s))
    names += (names.empty() ? "" : ", ") + f.name;
  return names;
}

bool viewable(const Solver& s, const std::string& name) {
  for (const auto& f : ViewRenderer::viewable_fields(s))
    if (f.name == name) return true;
  return false;
}

// The view the frames show: the view file's (or the defaults), then --render-view and
// --render-field on top. Every problem is a ConfigError naming the option.
ViewSettings resolve_view(const FrameOptions& o, const Solver& s) {
  ViewSettings vs;
  if (!o.view_file.empty()) {
    std::ifstream in(o.view_file);
    if (!in) throw ConfigError("--view-file " + o.view_file.string() + ": cannot be read");
    try {
      vs = view_settings_from_json(nlohmann::json::parse(in));
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError("--view-file " + o.view_file.string() + ": not JSON (" + e.what() + ")");
    } catch (const std::invalid_argument& e) {
      throw ConfigError("--view-file " + o.view_file.string() + ": " + e.what());
    }
  } else {
    // Seen along z: the (x, y) plane, which is also the plane of a 2D problem (nz = 1).
    // Only a line along z is seen from the side.
    const auto& n = s.grid().n;
    vs.axis = n[0] == 1 && n[1] == 1 ? 0 : 2;
  }
  if (!o.view.empty()) {
    try {
      apply_view_name(vs, o.view);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(std::string("--render-view: ") + e.what());
    }
  }
  if (!o.field.empty()) {
    if (!viewable(s, o.field))
      throw ConfigError("--render-field " + o.field +
                        ": no such field; allowed: " + field_names(s));
    vs.field = o.field;
  }
  if (o.view_file.empty()) {
    // No view file: the volume's look suits the field (TransferFunction's presets).
    const TransferPreset& p = preset_for_field(vs.field.empty() ? s.fields().at(0).name : vs.field);
    vs.volume.transfer = p.function;
    if (vs.mode == ViewMode::slices3d && vs.layers.volume) vs.colormap = p.colormap;
  }
  const std::string source = o.view_file.empty() ? "" : " (from " + o.view_file.string() + ")";
  if (!vs.field.empty() && !viewable(s, vs.field))
    throw ConfigError("field " + vs.field + source + ": no such field; allowed: " + field_names(s));
  const bool three_d = vs.mode == ViewMode::slices3d;
  if (three_d && vs.layers.iso && !vs.iso.color_field.empty() && !viewable(s, vs.iso.color_field))
    throw ConfigError("iso.color_field " + vs.iso.color_field + source +
                      ": no such field; allowed: " + field_names(s));
  if (three_d && vs.layers.lines)
    for (const auto& name : vs.lines.field) {
      bool found = false;
      for (const auto& f : s.fields()) found |= f.name == name;
      if (!found)
        throw ConfigError("--render-view " + view_name(vs) + ": streamlines follow the vector " +
                          "field " + vs.lines.field[0] + ", " + vs.lines.field[1] + ", " +
                          vs.lines.field[2] + ", and this solver has no " + name +
                          " (its fields: " + field_names(s) + ")");
    }
  if (parallel::size() > 1 && !vs.field.empty() && derived_kind(vs.field))
    throw ConfigError("field " + vs.field + source +
                      ": derived fields are drawn by a single process for now; allowed under "
                      "mpirun: the solver's own fields");
  if (parallel::size() > 1 && three_d && (vs.layers.volume || vs.layers.iso || vs.layers.lines))
    throw ConfigError("--render-view " + view_name(vs) +
                      ": volume, isosurfaces and lines are drawn by a single process for now; "
                      "allowed under mpirun: 2d, 3d");
  return vs;
}

// Serially the frame is drawn from the solver's fields (through CUDA-GL interop on the
// CUDA backend). On several MPI ranks every rank sends its pieces of the shown slices
// to rank 0 (gather_slices), and only rank 0 holds a GL context and writes the files.
class HeadlessFrameWriter : public FrameWriter {
 public:
  HeadlessFrameWriter(const FrameOptions& o, ViewSettings vs)
      : options_(o), settings_(std::move(vs)) {
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
    const FrameTitle title{options_.scenario, s.time(), s.step()};
    last_step_ = s.step();
    if (parallel::size() == 1) {
      keep(offscreen_->render(s, settings_, options_.upload_path, &title), name);
      return;
    }
    std::string error;
    try {
      const GatheredSlices g = gather_slices(s, settings_);  // collective
      if (parallel::is_root()) keep(offscreen_->render(g, settings_, &title), name);
    } catch (const std::exception& e) {
      error = e.what();
    }
    settle_across_ranks(error, std::string("drawing ") + name);
  }

  void finish(const Solver& s, bool final_frame) override {
    if (final_frame && s.step() != last_step_) write(s);
    std::string error;
    try {
      if (movie_) movie_->finish();
    } catch (const std::exception& e) {
      error = e.what();
    }
    movie_.reset();
    if (parallel::size() > 1)
      settle_across_ranks(error, "finishing the movie");
    else if (!error.empty())
      throw std::runtime_error(error);
  }

  std::string context_description() const override {
    std::string d = offscreen_ ? offscreen_->context().description() : "drawn on MPI rank 0";
    if (!options_.movie.empty()) d += "; movie through " + movie_encoder();
    return d;
  }

 private:
  void keep(const Image& im, const char* name) {
    if (!options_.dir.empty()) write_png(options_.dir / name, im);
    if (options_.movie.empty()) return;
    if (!movie_) movie_ = open_movie(options_.movie, im.width, im.height, options_.fps);
    movie_->add_frame(im);
  }

  FrameOptions options_;
  ViewSettings settings_;
  std::unique_ptr<OffscreenRenderer> offscreen_;  // on rank 0 only under MPI
  std::unique_ptr<MovieWriter> movie_;
  std::int64_t last_step_ = -1;
};

}  // namespace

void check_frame_options(const FrameOptions& o, const Solver& s) {
  if (o.every <= 0)
    throw ConfigError("--render-every " + std::to_string(o.every) +
                      ": frames need a positive step count (and --movie needs --render-every)");
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192)
    throw ConfigError("--render-size " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                      ": allowed 16 to 8192 pixels a side");
  resolve_view(o, s);
  if (!o.movie.empty()) {
    try {
      check_movie_path(o.movie);
    } catch (const std::exception& e) {
      throw ConfigError(std::string("--movie: ") + e.what());
    }
  }
}

std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s) {
  check_frame_options(o, s);
  return std::make_unique<HeadlessFrameWriter>(o, resolve_view(o, s));
}

}  // namespace fluxview::render
