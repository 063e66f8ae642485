#pragma once
// DIR/diagnostics.csv: the run's diagnostics, one row at each step DiagnosticsOutput asks
// for (step, time, then every diagnostic the solver reports, the unit in the header), so
// that a quantity's history (the turbulence's mean Mach number, div B, the mass, the
// adaptive mesh's blocks per level) can be plotted without reading the snapshots.
// Rewritten whole and atomically (fileio/AtomicFile.hpp) by the root rank only, so the file
// on disk is always a whole table: at each row asked to be kept at once (a snapshot's, the
// last), else once the rows not yet written are an eighth of those written, which keeps
// the bytes written within about nine times the file's size however many rows there are.
// A restart that continues the series keeps the rows before its step when the columns are
// the same.
#include <cstddef>
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

  // Adds the row of this step (root rank only; others ignore); `now`: rewrite the file
  // now, else when enough rows are waiting (above).
  void add(std::int64_t step, double time, const std::vector<Diagnostic>& diagnostics, bool now);
  // Rewrites the file if rows are waiting.
  void flush();

 private:
  std::filesystem::path path_;
  std::string header_;             // "step,time,name [unit],..."
  std::vector<std::string> rows_;  // formatted, without the newline
  std::size_t written_ = 0;        // rows in the file on disk
};

}  // namespace fluxview::app
