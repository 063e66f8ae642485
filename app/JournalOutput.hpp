#pragma once
// The journal of a steered headless run (--steer, --replay, or a steered run's checkpoint)
// in run.json: where the plan came from, the entries applied so far and how many planned
// ones are left (journal_json). It writes nothing of its own; run.json (RunRecordOutput)
// records it with every write, so a run stopped early still says what it had applied.
#include <cstdint>

#include "app/RunOptions.hpp"
#include "app/RunOutput.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

class JournalOutput : public RunOutput {
 public:
  // `options` and `steerer` must outlive the output.
  JournalOutput(const RunOptions& options, const Steerer& steerer);

  bool wants(RunMoment moment, std::int64_t step) override;
  bool reads_state() const override { return false; }
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  void describe(RunSummary& summary) const override;

 private:
  const RunOptions& options_;
  const Steerer& steerer_;
};

}  // namespace fluxview::app
