#pragma once
// Headless frames of a run and its movie (--render-every, --render-dir, --render-field,
// --render-view, --view-file, --movie, --render-size): a PNG every N steps, the movie's
// frames, and at the end a frame of the final state and the finished movie.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "app/RunOptions.hpp"
#include "app/RunOutput.hpp"
#include "render/FrameWriter.hpp"

namespace fluxview::app {

class FrameOutput : public RunOutput {
 public:
  // Checks the options against the solver and opens the headless GL context; throws
  // ConfigError for bad options (before anything is written).
  FrameOutput(const RunOptions& o, const std::filesystem::path& output_dir,
              const std::string& scenario, const Solver& solver);

  std::vector<RunFolder> folders() const override;
  std::int64_t steps_to_next_write(std::int64_t step) const override;
  // At the start, every N steps, and at the end (the final frame, then the movie).
  bool wants(RunMoment moment, std::int64_t step) override;
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  // Finishes the movie whatever ended the run.
  void close(const Solver& solver, const RunState& run) override;
  // run.json's "frames": period, folder, movie, upload path and size.
  void describe(RunSummary& summary) const override;
  void announce(std::ostream& err) const override;

 private:
  render::FrameOptions options_;
  std::string folder_option_;  // what chose options_.dir: --render-dir or --output
  std::unique_ptr<render::FrameWriter> writer_;
};

}  // namespace fluxview::app
