#pragma once
// ParaView Catalyst pipelines of a headless run (--catalyst, --catalyst-every,
// --catalyst-on-error): the state is offered at the start and every N steps; a failing
// script stops the run (its state was sound, so it is kept as the last snapshot) or is
// dropped. run.json records what ran and what it cost.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>

#include "app/RunOptions.hpp"
#include "app/RunOutput.hpp"
#include "insitu/catalyst/CatalystAdaptor.hpp"

namespace fluxview::app {

class CatalystOutput : public RunOutput {
 public:
  // Starts ParaView and checks every script; throws ConfigError naming a missing or broken
  // one (before anything is written).
  CatalystOutput(const RunOptions& o, const std::filesystem::path& output_dir);

  std::int64_t steps_to_next_write(std::int64_t step) const override;
  bool wants(RunMoment moment, std::int64_t step) override;
  // Throws SoundStateFailure when a script fails and the run is to stop.
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  void describe(RunSummary& summary) const override;
  void report(std::ostream& err) const override;

 private:
  std::int64_t every_;
  std::unique_ptr<CatalystAdaptor> adaptor_;  // destroyed before the solver it may alias
};

}  // namespace fluxview::app
