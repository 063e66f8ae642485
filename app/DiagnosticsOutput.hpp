#pragma once
// The rows of DIR/diagnostics.csv (DiagnosticsTable.hpp): at the start, every `every` steps
// (`--diagnostics-every`; by default the snapshots' period, so a row with each snapshot),
// and at the end, on an interrupt or a salvage unless this step has its row. Rows between
// snapshots cost a reduction of the state (Solver::diagnostics), not a snapshot, so a long
// run can keep a quantity's history finely (the adaptive mesh's blocks per level every few
// steps) and write few snapshots.
#include <cstdint>
#include <filesystem>

#include "app/DiagnosticsTable.hpp"
#include "app/RunOutput.hpp"

namespace fluxview::app {

class DiagnosticsOutput : public RunOutput {
 public:
  // `keep_until`: a restart's earlier rows with step <= keep_until stay (-1: none). A row at
  // a snapshot's step (every `snapshot_every` steps), the first and the last go to disk at
  // once; the others as DiagnosticsTable batches them.
  DiagnosticsOutput(std::filesystem::path dir, std::int64_t every, std::int64_t snapshot_every,
                    std::int64_t keep_until);

  std::int64_t steps_to_next_write(std::int64_t step) const override;
  bool wants(RunMoment moment, std::int64_t step) override;
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  void close(const Solver& solver, const RunState& run) override;

 private:
  std::int64_t every_, snapshot_every_;
  std::int64_t last_ = -1;  // the step of the last row
  DiagnosticsTable table_;
};

}  // namespace fluxview::app
