#pragma once
// Snapshots of a headless run: every field as VTK ImageData in the output folder, listed in
// series.pvd, and with each the family's own files (SolverFamily::write_output_files, e.g.
// fd's spectra). The diagnostics are taken at each snapshot for run.json, which records the
// last (diagnostics.csv has its own output, DiagnosticsOutput.hpp).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/RunOutput.hpp"
#include "insitu/snapshot/SnapshotSeries.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

class SnapshotOutput : public RunOutput {
 public:
  // `earlier`: the snapshots of the run a restart continues (earlier_snapshots).
  SnapshotOutput(std::filesystem::path dir, const Scenario& scenario, std::int64_t every,
                 std::vector<SnapshotRecord> earlier);

  std::int64_t steps_to_next_write(std::int64_t step) const override;
  // At the start, every `every` steps, and at the end or on a salvage unless this step is
  // written already.
  bool wants(RunMoment moment, std::int64_t step) override;
  void write(Solver& solver, RunMoment moment, const RunState& run) override;
  void describe(RunSummary& summary) const override;

  std::size_t count() const { return series_.records().size(); }

 private:
  SnapshotSeries series_;
  const Scenario& scenario_;
  const SolverFamily& family_;
  std::int64_t every_;
  std::vector<Diagnostic> diagnostics_;  // at the last snapshot (all ranks reduced)
};

// The snapshots of the run a restart continues, when its output folder is that run's
// (its run.json names the same solver, scenario and grid): those before the restart's
// step stay in series.pvd, the later ones are replaced by the new run's.
std::vector<SnapshotRecord> earlier_snapshots(const std::filesystem::path& dir, const Scenario& sc,
                                              const Solver& s, bool quiet);

}  // namespace fluxview::app
