#pragma once
// Checkpoints of a headless run: checkpoint_NNNNNN.h5 every N steps and when a signal
// stops the run, keeping the newest `keep` so that a failure while writing one, or a bad
// state found later, leaves a good one. A checkpoint is counted only once it has been
// written whole and read back (write_checkpoint), and only then is the oldest removed.
// Collective under MPI: a failure on any rank stops every rank.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/RunOutput.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

class CheckpointOutput : public RunOutput {
 public:
  // `option`: what chose `dir` ("--checkpoint-dir", or "--output" for the output folder).
  // `steerer`: a steered run's, whose record (the entries applied so far) each checkpoint
  // carries, so that a restart goes on with what was set live; null when not steered.
  CheckpointOutput(std::filesystem::path dir, std::string option, const Scenario& scenario,
                   std::int64_t every, std::int64_t keep, const Steerer* steerer);

  std::vector<RunFolder> folders() const override;
  std::int64_t steps_to_next_write(std::int64_t step) const override;
  bool wants(RunMoment moment, std::int64_t step) override;
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  void describe(RunSummary& summary) const override;

 private:
  std::filesystem::path dir_;
  std::string option_;
  const Scenario& scenario_;
  const Steerer* steerer_;
  std::int64_t every_;
  std::size_t keep_;
  std::vector<std::filesystem::path> written_;  // oldest first, each whole and read back
};

}  // namespace fluxview::app
