#include "app/SnapshotOutput.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "insitu/EveryRank.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

SnapshotOutput::SnapshotOutput(std::filesystem::path dir, const Scenario& scenario,
                               std::int64_t every, std::vector<SnapshotRecord> earlier)
    : series_(dir, earlier),
      scenario_(scenario),
      family_(find_family(scenario.solver)),
      every_(every) {}

std::int64_t SnapshotOutput::steps_to_next_write(std::int64_t step) const {
  return steps_to_next(step, every_);
}

bool SnapshotOutput::wants(RunMoment moment, std::int64_t step) {
  const bool written = !series_.records().empty() && series_.records().back().step == step;
  switch (moment) {
    case RunMoment::start:
      return true;
    case RunMoment::step:
      return due(step, every_);
    case RunMoment::end:
    case RunMoment::salvage:
      return !written;
    case RunMoment::opening:
    case RunMoment::interrupt:
      return false;
  }
  return false;
}

void SnapshotOutput::write(Solver& solver, RunMoment, const RunState&) {
  series_.write(solver);
  diagnostics_ = solver.diagnostics();  // collective under MPI: every rank calls it
  if (family_.write_output_files)       // collective under MPI: rank 0 writes them
    on_every_rank([&] { family_.write_output_files(solver, scenario_.params, series_.dir()); });
}

void SnapshotOutput::describe(RunSummary& summary) const {
  summary.snapshots = series_.records();
  summary.diagnostics = diagnostics_;
}

std::vector<SnapshotRecord> earlier_snapshots(const std::filesystem::path& dir, const Scenario& sc,
                                              const Solver& s, bool quiet) {
  std::vector<SnapshotRecord> kept;
  if (!parallel::is_root()) return kept;  // only the root writes series.pvd
  try {
    std::ifstream in(dir / "run.json");
    if (!in) return kept;
    const auto j = nlohmann::json::parse(in);
    if (j.at("solver") != sc.solver || j.at("scenario") != sc.name ||
        j.at("grid").at("n") != nlohmann::json(s.grid().n))
      return kept;
  } catch (const std::exception&) {
    return kept;  // not a run.json this fluxview can read: a series of its own starts
  }
  for (const SnapshotRecord& r : SnapshotSeries::read_series(dir))
    if (r.step < s.step()) kept.push_back(r);
  if (!quiet && !kept.empty())
    std::cerr << "fluxview: continuing the series in " << dir.string() << " (" << kept.size()
              << " earlier snapshots kept, those from step " << s.step() << " on replaced)\n";
  return kept;
}

}  // namespace fluxview::app
