#include "app/CheckpointOutput.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "insitu/EveryRank.hpp"
#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

CheckpointOutput::CheckpointOutput(std::filesystem::path dir, std::string option,
                                   const Scenario& scenario, std::int64_t every, std::int64_t keep,
                                   const Steerer* steerer)
    : dir_(std::move(dir)),
      option_(std::move(option)),
      scenario_(scenario),
      steerer_(steerer),
      every_(every),
      keep_(std::size_t(keep)) {}

std::vector<RunFolder> CheckpointOutput::folders() const {
  return {{dir_, option_}};
}

std::int64_t CheckpointOutput::steps_to_next_write(std::int64_t step) const {
  return steps_to_next(step, every_);
}

bool CheckpointOutput::wants(RunMoment moment, std::int64_t step) {
  return (moment == RunMoment::step && due(step, every_)) || moment == RunMoment::interrupt;
}

void CheckpointOutput::write(Solver& solver, RunMoment, const RunState&) {
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(solver.step()));
  const auto path = dir_ / name;
  if (!written_.empty() && written_.back() == path) return;
  const std::string journal = steerer_ ? steerer_->record().to_lines() : std::string();
  on_every_rank([&] { write_checkpoint(path, scenario_, solver, journal); });
  written_.push_back(path);
  while (written_.size() > keep_) {
    std::error_code ec;
    std::filesystem::remove(checkpoint_piece_path(written_.front()), ec);
    // The adaptive mesh's checkpoint is one file, the root's, under the serial name on any
    // rank count (write_checkpoint).
    if (parallel::size() > 1 && parallel::is_root()) std::filesystem::remove(written_.front(), ec);
    written_.erase(written_.begin());
  }
}

void CheckpointOutput::describe(RunSummary& summary) const {
  summary.last_checkpoint = written_.empty() ? std::string() : written_.back().string();
}

}  // namespace fluxview::app
