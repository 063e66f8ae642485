#include "app/FrameOutput.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "sim/core/ConfigError.hpp"

namespace fluxview::app {

namespace {

// What the frame options ask for. PNGs go to OUTPUT/frames unless only a movie is asked for.
render::FrameOptions frame_options_of(const RunOptions& o, const std::filesystem::path& dir,
                                      const std::string& scenario) {
  render::FrameOptions f;
  f.every = o.render_every;
  f.dir = !o.render_dir.empty()                    ? std::filesystem::path(o.render_dir)
          : o.movie.empty() || o.render_every <= 0 ? dir / "frames"
                                                   : std::filesystem::path();
  f.field = o.render_field;
  f.view = o.render_view;
  f.view_file = o.view_file;
  f.movie = o.movie;
  f.scenario = scenario;
  f.upload_path = render::parse_upload_path(o.upload_path);  // checked by the command line
  if (!o.render_size.empty()) {
    int w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(o.render_size.c_str(), "%dx%d%c", &w, &h, &tail) != 2)
      throw ConfigError("--render-size " + o.render_size + ": expected WxH, e.g. 1280x720");
    f.width = w;
    f.height = h;
  }
  return f;
}

}  // namespace

FrameOutput::FrameOutput(const RunOptions& o, const std::filesystem::path& output_dir,
                         const std::string& scenario, const Solver& solver)
    : options_(frame_options_of(o, output_dir, scenario)),
      folder_option_(o.render_dir.empty() ? "--output" : "--render-dir") {
  render::check_frame_options(options_, solver);
  writer_ = render::make_frame_writer(options_, solver);
}

std::vector<RunFolder> FrameOutput::folders() const {
  if (!writer_ || options_.dir.empty()) return {};
  return {{options_.dir, folder_option_}};
}

std::int64_t FrameOutput::steps_to_next_write(std::int64_t step) const {
  return steps_to_next(step, options_.every);
}

bool FrameOutput::wants(RunMoment moment, std::int64_t step) {
  switch (moment) {
    case RunMoment::start:
    case RunMoment::end:
      return true;
    case RunMoment::step:
      return due(step, options_.every);
    case RunMoment::opening:
    case RunMoment::interrupt:
    case RunMoment::salvage:
      return false;
  }
  return false;
}

void FrameOutput::write(Solver& solver, RunMoment moment, const RunState&) {
  if (!writer_) return;
  if (moment == RunMoment::end)
    writer_->finish(solver, true);  // a frame of the final state, and the movie
  else
    writer_->write(solver);
}

void FrameOutput::close(const Solver& solver, const RunState&) {
  // A completed run finished the movie at its end; this closes it whatever else ended it.
  if (writer_) writer_->finish(solver, false);
}

void FrameOutput::describe(RunSummary& summary) const {
  std::erase_if(summary.extra, [](const auto& e) { return e.first == "frames"; });
  summary.extra.emplace_back(
      "frames", nlohmann::json{{"every", options_.every},
                               {"dir", options_.dir.string()},
                               {"movie", options_.movie.string()},
                               {"upload_path", render::upload_path_option(options_.upload_path)},
                               {"width", options_.width},
                               {"height", options_.height}});
}

void FrameOutput::announce(std::ostream& err) const {
  if (writer_)
    err << "fluxview: frames in " << (options_.dir.empty() ? options_.movie : options_.dir).string()
        << " (" << writer_->context_description() << ")\n";
}

}  // namespace fluxview::app
