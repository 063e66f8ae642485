#pragma once
// run.json of a headless run: written before anything else (status running), after each
// snapshot, at least every ten seconds between them (the heartbeat), and once more when the
// run has ended, with its final status. What it says of the other outputs each says itself
// (RunOutput::describe). Only rank 0 writes it.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "app/RunOutput.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

class RunRecordOutput : public RunOutput {
 public:
  // `summary`: what the run says of itself from the start (device, process, restart);
  // `others`: the outputs whose descriptions it records, called in this order.
  RunRecordOutput(std::filesystem::path dir, const Scenario& scenario, RunSummary summary,
                  std::int64_t snapshot_every, std::vector<const RunOutput*> others);

  // At the opening, the start and with every snapshot; between snapshots when the last
  // write is older than the heartbeat's period.
  bool wants(RunMoment moment, std::int64_t step) override;
  bool reads_state() const override { return false; }
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  // The final record; on a full disk it may fail too, and the run.json left says running
  // with a pid that has ended (the lock, no longer held, says so too).
  void close(const Solver& solver, const RunState& run) override;

 private:
  void write_here(const Solver& solver, const RunState& run);

  std::filesystem::path path_;
  const Scenario& scenario_;
  RunSummary summary_;
  std::int64_t every_;
  std::vector<const RunOutput*> others_;
  std::chrono::steady_clock::time_point last_write_;
};

}  // namespace fluxview::app
