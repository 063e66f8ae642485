#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>
#include "sim/core/CommonConfig.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/core/Steering.hpp"

namespace fluxview {

std::vector<ParamSpec> common_params(int default_n, double default_length) {
  std::vector<ParamSpec> p = {
      int_param("grid.nx", default_n, "cells", 1, 16384, "cells (or points) along x"),
      int_param("grid.ny", default_n, "cells", 1, 16384, "cells (or points) along y"),
      int_param("grid.nz", default_n, "cells", 1, 16384, "cells (or points) along z"),
      real_param("grid.lx", default_length, "m", 0, 1e30, "box length along x", true),
      real_param("grid.ly", default_length, "m", 0, 1e30, "box length along y", true),
      real_param("grid.lz", default_length, "m", 0, 1e30, "box length along z", true),
      int_param("run.steps", 100, "steps", 0, std::int64_t(1) << 40,
                "steps to run when neither --steps nor --until is given"),
      real_param("run.until", 0, "s", 0, 1e300,
                 "simulated time to run to (0: use run.steps instead)"),
      int_param("run.every", 0, "steps", 0, std::int64_t(1) << 40,
                "write a snapshot every this many steps (0: first and last only)"),
      int_param("run.checkpoint_every", 0, "steps", 0, std::int64_t(1) << 40,
                "write an HDF5 checkpoint every this many steps (0: none); --checkpoint-every "
                "sets it, and a restart keeps it"),
      int_param("run.check_every", 100, "steps", 0, std::int64_t(1) << 40,
                "check the state for NaN, Inf and negative density or pressure every this many "
                "steps (0: never)"),
      choice_param("run.ghosts", "auto", {"auto", "host", "ipc", "mpi"},
                   "MPI on the CUDA backend: how ghost layers travel between ranks; auto: "
                   "CUDA-aware MPI if the library has it, else ipc if every neighbour is on this "
                   "node, else host; host: page-locked host buffers; ipc: device to device "
                   "(CUDA IPC, ranks of one node); mpi: device pointers to MPI (needs a "
                   "CUDA-aware library); on the adaptive mesh (fv.mesh = amr) auto is ipc "
                   "where every rank shares the node, else host, and mpi is refused"),
      choice_param("run.mpi_overlap", "auto", {"auto", "on", "off"},
                   "MPI on the CUDA backend: update interior cells while the ghosts travel; "
                   "auto: the family's measured default (heat on, fd off; fv never overlaps)"),
  };
  // None of these changes while a solver runs (Solver::set_live, docs/gui.md).
  mark_live(p, {fixed_key("grid.*",
                          "the grid's memory (and its split over MPI ranks) is laid out at Reset"),
                fixed_key("run.ghosts", "the ghost exchange between ranks is set up at Reset"),
                fixed_key("run.mpi_overlap", "the ghost exchange between ranks is set up at Reset"),
                fixed_key("run.*",
                          "the runner reads how long to run and how often to write when the run "
                          "starts (the GUI pauses at run.until or run.steps)")});
  return p;
}

GridConfig grid_config(const ParamSet& p) {
  GridConfig g;
  g.n = {int(p.get_int("grid.nx")), int(p.get_int("grid.ny")), int(p.get_int("grid.nz"))};
  g.length = {p.get_real("grid.lx"), p.get_real("grid.ly"), p.get_real("grid.lz")};
  return g;
}

ParallelConfig parallel_config(const ParamSet& p) {
  ParallelConfig c;
  const std::string& ghosts = p.get_string("run.ghosts");
  c.ghosts = ghosts == "host"  ? GhostTransportChoice::host
             : ghosts == "ipc" ? GhostTransportChoice::ipc
             : ghosts == "mpi" ? GhostTransportChoice::mpi
                               : GhostTransportChoice::automatic;
  const std::string& overlap = p.get_string("run.mpi_overlap");
  c.overlap = overlap == "on"    ? OverlapChoice::on
              : overlap == "off" ? OverlapChoice::off
                                 : OverlapChoice::automatic;
  return c;
}

}  // namespace fluxview
