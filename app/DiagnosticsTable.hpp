#pragma once
// DIR/diagnostics.csv: the run's diagnostics at each snapshot, one row a snapshot (step,
// time, then every diagnostic the solver reports, the unit in the header), so that a
// quantity's history (the turbulence's mean Mach number, div B, the mass) can be plotted
// without reading the snapshots. Rewritten whole and atomically after each row
// (fileio/AtomicFile.hpp), by the root rank only. A restart that continues the series keeps
// the rows before its step when the columns are the same.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Solver.hpp"

namespace fluxview::app {

class DiagnosticsTable {
 public:
  // `keep_until`: a restart's earlier rows with step <= keep_until are kept (-1: none).
  DiagnosticsTable(std::filesystem::path dir, std::int64_t keep_until);

  // Adds the row of this snapshot and rewrites the file (root rank only; others ignore).
  void add(std::int64_t step, double time, const std::vector<Diagnostic>& diagnostics);

 private:
  std::filesystem::path path_;
  std::string header_;             // "step,time,name [unit],..."
  std::vector<std::string> rows_;  // formatted, without the newline
};

}  // namespace fluxview::app
