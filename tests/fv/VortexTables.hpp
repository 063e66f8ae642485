#pragma once
// The paper's accuracy problems (Subramanian, Balsara et al., Tables XII and XIII): the 3D
// isentropic vortex (its density errors) and the 3D MHD vortex (the errors of B_x), both
// uniform along z, run through the solver with a chosen scheme; shared by the GPU tests
// that put the CPU and the GPU side by side and the ones that run the tables.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tests/fv/FvTestUtil.hpp"

namespace fluxview::fv::test {

// A reconstruction and a time stepper, by their parameter values.
struct Scheme {
  const char* reconstruction;
  const char* time;
};

inline std::vector<std::string> with_scheme(std::vector<std::string> o, const char* rec,
                                            const char* time) {
  o.push_back(std::string("fv.reconstruction=") + rec);
  o.push_back(std::string("fv.time=") + time);
  return o;
}

struct VortexErrors {
  double l1 = 0, linf = 0;
};
struct VortexTable {
  const char *name, *scenario, *l1, *linf;
};
inline const VortexTable kTableXII = {"Table XII", "fv/isentropic-vortex", "density_error_l1",
                                      "density_error_linf"};
inline const VortexTable kTableXIII = {"Table XIII", "fv/mhd-vortex", "bx_error_l1",
                                       "bx_error_linf"};

// The vortex on the paper's n^3 grid over [0, 10]^3.
inline std::vector<std::string> vortex_cube(int n) {
  return {"grid.n=" + std::to_string(n), "grid.lz=10"};
}
// The same cells in x and y on a periodic slab of 4 cells along z with dz = dx: the vortex
// is uniform along z and the time step sums (|u_a| + c) / dx_a over the axes, so the slab
// takes the cube's steps and gives its errors (VortexTablesCuda.SlabGivesTheCubesErrors)
// on n / 4 of its cells.
inline std::vector<std::string> vortex_slab(int n) {
  char lz[32];
  std::snprintf(lz, sizeof lz, "grid.lz=%.17g", 40.0 / n);  // 4 dx to the last bit
  return {"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n), "grid.nz=4", lz};
}

inline VortexErrors vortex_errors(const VortexTable& table, const Scheme& s,
                                  const std::vector<std::string>& grid, double t,
                                  BackendKind backend) {
  auto solver = make_solver(table.scenario, with_scheme(grid, s.reconstruction, s.time), backend,
                            Precision::f64);
  run_until(*solver, t);
  return {diagnostic(*solver, table.l1), diagnostic(*solver, table.linf)};
}

}  // namespace fluxview::fv::test
