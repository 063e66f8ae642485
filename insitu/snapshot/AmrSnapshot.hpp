#pragma once
// A snapshot of a solver on the adaptive mesh as ParaView reads it: a vtkOverlappingAMR
// file STEM.vthb listing, per level, every block (the leaves and their ancestors, see
// AmrPieces.hpp) as a dataset with its AMR box, and one ImageData piece per block,
// STEM/l<level>_<i>_<j>_<k>.vti, with the fields as cell data. Under MPI each rank writes
// its own blocks' pieces and the root the .vthb.
#include <cstdint>
#include <filesystem>
#include <string>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

// Returns the .vthb's name (relative to dir); adds the bytes of this rank's pieces to `bytes`.
// Collective under MPI.
std::string write_amr_snapshot(const std::filesystem::path& dir, const std::string& stem,
                               const Solver& solver, const amr::Hierarchy& h, std::uint64_t& bytes);

}  // namespace fluxview
