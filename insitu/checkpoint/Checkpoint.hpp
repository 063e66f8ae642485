#pragma once
#include <filesystem>
#include <string>

#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

// A checkpoint: everything needed to continue a run bit-identically on the same
// backend and precision. Stored as HDF5: the state arrays (chunked, with HDF5's
// Fletcher-32 filter), and as attributes the solver, scenario, every resolved
// parameter (JSON), backend, precision, time, step, the solver's extra state (a random
// generator's, say) and a CRC-32 over all of it, checked on load.
struct Checkpoint {
  std::string solver;
  std::string scenario;
  std::string description;
  std::string parameters_json;
  std::string backend;
  std::string precision;
  SolverState state;
};

// Under MPI each rank writes and reads its own piece, PATH with ".rankRRRRofSSSS" before
// the extension (its box of the grid); a restart needs as many ranks as wrote it.
std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path);
// Writes atomically (temporary file, then rename). Throws std::runtime_error.
void write_checkpoint(const std::filesystem::path& path, const Scenario& scenario,
                      const Solver& solver);
// Reads and verifies; throws ConfigError naming the file and what is wrong (missing,
// truncated, not a checkpoint, corrupt, inconsistent).
Checkpoint read_checkpoint(const std::filesystem::path& path);
// The scenario a checkpoint was written from, with its parameters restored.
Scenario scenario_of(const Checkpoint& c);

}  // namespace fluxview
