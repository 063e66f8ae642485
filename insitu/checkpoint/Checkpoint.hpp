#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

// One file of a checkpoint: the whole grid (a serial run) or the box of the rank that
// wrote it (under MPI), `n` cells from global index `offset`.
struct CheckpointPiece {
  std::filesystem::path file;
  int rank = 0;
  int ranks = 1;
  std::array<int, 3> offset{0, 0, 0};
  std::array<int, 3> n{1, 1, 1};
  int version = 0;
  std::uint32_t crc = 0;  // as stored, checked when the piece's arrays are read
};

// A checkpoint: everything needed to continue a run bit-identically on the same
// backend and precision. Stored as HDF5: the state arrays (chunked, with HDF5's
// Fletcher-32 filter), and as attributes the solver, scenario, every resolved
// parameter (JSON), backend, precision, time, step, the solver's extra state (a random
// generator's, say), the piece's box (rank, ranks, global grid, offset) and a CRC-32 over
// all of it, checked on load.
struct Checkpoint {
  std::string solver;
  std::string scenario;
  std::string description;
  std::string parameters_json;
  std::string backend;
  std::string precision;
  // A steered run's journal (sim/core/Journal.hpp, as lines) up to the checkpoint's step,
  // so that a restart goes on with the parameters it had set; "" for a run not steered
  // (and in checkpoints written before steering existed).
  std::string journal;
  // Filled by read_checkpoint / read_checkpoint_state; open_checkpoint leaves the arrays
  // empty (their names are in array_names).
  SolverState state;
  std::vector<std::string> array_names;
  // Each array's size, for a state not on the grid (SolverState::on_grid false, format
  // version 3: one piece, its arrays of their own sizes); empty for one on the grid, whose
  // arrays all have the piece's box size.
  std::vector<std::array<int, 3>> array_n;
  std::array<int, 3> global_n{1, 1, 1};
  std::vector<CheckpointPiece> pieces;  // one for a serial checkpoint, in rank order
};

// Under MPI each rank writes its own piece, PATH with ".rankRRRRofSSSS" before the
// extension; a serial run writes PATH itself.
std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path);
// Writes atomically: a temporary file, every HDF5 call checked, synced, read back whole
// and checked against what was meant, then renamed into place; a failure leaves the target
// as it was and throws a FileError naming PATH and the operating system's error.
// Collective under MPI (every rank writes its piece; none replaces an older file unless
// all were written, and every rank throws the first failure).
// `journal`: Checkpoint::journal.
void write_checkpoint(const std::filesystem::path& path, const Scenario& scenario,
                      const Solver& solver, const std::string& journal = "");

// Finds the pieces of the checkpoint PATH (PATH itself, or PATH.rankRRRRofSSSS.h5 as
// written on S ranks) and reads and cross-checks every piece's header, not its arrays:
// all pieces present, of the same run and step, and tiling the global grid. Throws
// ConfigError naming the file and what is wrong. Collective under MPI (every rank gets the
// same result or the same error).
Checkpoint open_checkpoint(const std::filesystem::path& path);
// The state of the box [offset, offset + n) of the global grid, copied from the pieces
// that overlap it (each read whole, so its Fletcher-32 sums and CRC are checked). Not
// collective; throws ConfigError naming the piece and what is wrong.
SolverState read_checkpoint_box(const Checkpoint& c, std::array<int, 3> offset,
                                std::array<int, 3> n);
// The state of this rank's box of `solver` (reset with the checkpoint's parameters, on
// any number of ranks); checks that its global grid is the checkpoint's. Collective under
// MPI: when any rank fails, every rank throws the ConfigError of the lowest failing one.
SolverState read_checkpoint_state(const Checkpoint& c, const Solver& solver);
// open_checkpoint and the whole state read (a serial restart, tests).
Checkpoint read_checkpoint(const std::filesystem::path& path);
// The scenario a checkpoint was written from, with its parameters restored.
Scenario scenario_of(const Checkpoint& c);

}  // namespace fluxview
