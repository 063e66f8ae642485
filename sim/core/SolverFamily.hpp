#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

// A solver family as the app sees it: its name ("heat", "fd", "fv"), what it solves,
// every parameter it takes (the grid.* and run.* keys are added by the core), and
// how to make a solver for a backend and precision.
struct SolverFamily {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // Grid defaults of this family (cells per axis and box size), overridable.
  // Whether a run may be split over MPI ranks (sim/core/Parallel.hpp).
  bool supports_mpi = false;
  int default_n = 64;
  double default_length = 1.0;
  std::function<std::unique_ptr<Solver>(BackendKind, Precision)> create;
  // Checks across parameters that single ranges cannot express (stable dt, kmin <= kmax,
  // grid larger than the stencil). Throws ConfigError. Runs at load, before any output.
  std::function<void(const ParamSet&)> validate;
  // Files of the family's own that a headless run writes beside each snapshot (fd: the
  // kinetic-energy spectrum, when fd.spectrum is on), into `dir`, named by the step like
  // the snapshot, each written atomically. Collective under MPI. Empty: none.
  std::function<void(const Solver&, const ParamSet&, const std::filesystem::path& dir)>
      write_output_files;
};

// All families compiled in (sim/registry).
const std::vector<SolverFamily>& solver_families();
const SolverFamily& find_family(const std::string& name);  // throws ConfigError

// The keys every family has: grid.nx/ny/nz/n, grid.lx/ly/lz, run.steps/until/every.
std::vector<ParamSpec> common_params(int default_n, double default_length);

}  // namespace fluxview
