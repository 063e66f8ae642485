#pragma once
// One TVD RK2 stage, ghost filling, the CFL rate and the reductions of the finite-volume
// solver, and the backend object that computes them. The solver (FvSolver*.cpp) owns the
// fields and sequences the calls; a backend only moves data and loops. The physics it
// applies is FvPhysics.hpp.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "sim/core/Backend.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/Grid.hpp"
#include "sim/fv/AccuracyProblems.hpp"
#include "sim/fv/EulerCharacteristics.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::fv {

// Boundary condition of one face of the box.
// `neighbour`: the face borders another MPI rank, whose cells fill the ghosts.
enum class Bc : int { outflow = 0, reflecting = 1, periodic = 2, neighbour = 3 };

// The interior cell a ghost copies along a boundary axis of n cells: ghost layer h (0
// next to the interior) on side 0 (low, index -1 - h) or 1 (high, index n + h).
// Periodic wraps, reflecting mirrors (the fill then negates the normal momentum), outflow
// repeats the edge cell.
FLUXVIEW_HD int ghost_source(Bc bc, int side, int h, int n) {
  if (bc == Bc::periodic) return side == 0 ? n - 1 - h : h;
  if (bc == Bc::reflecting) return side == 0 ? h : n - 1 - h;
  return side == 0 ? 0 : n - 1;
}

// Calls f(std::integral_constant<int, NV>{}) for the run's number of variables nv (5, 6, 9
// or 10: StateLayout.hpp), so that one line instantiates a loop for every system.
template <class F>
decltype(auto) with_nv(int nv, F&& f) {
  switch (nv) {
    case 6:
      return f(std::integral_constant<int, 6>{});
    case 9:
      return f(std::integral_constant<int, 9>{});
    case 10:
      return f(std::integral_constant<int, 10>{});
    default:
      return f(std::integral_constant<int, 5>{});
  }
}

// A set of NV conservative fields sharing one layout (SoA). Fields past nv are unused.
template <class T>
struct Conserved {
  T* f[kMaxVars] = {};
};

// One cell of a set of fields as a State.
template <int NV, class T>
FLUXVIEW_HD State<T, NV> load_state(const Conserved<T>& u, std::int64_t c) {
  State<T, NV> s;
#pragma unroll
  for (int m = 0; m < NV; ++m) s.v[m] = u.f[m][c];
  return s;
}
template <int NV, class T>
FLUXVIEW_HD void store_state(const Conserved<T>& u, std::int64_t c, const State<T, NV>& s) {
#pragma unroll
  for (int m = 0; m < NV; ++m) u.f[m][c] = s.v[m];
}

// How a stage is computed: the second-order face path of Wang et al. (PLM or constant in
// primitive variables; the fused tile kernel on the device), the modal path (a polynomial
// per cell, optionally evolved by the ADER predictor, fluxes at Gauss points:
// FvModalLoops.hpp), or WENO-Z face values (FvModalLoops.hpp too).
enum class StagePath { plm_faces, modal, wenoz_faces };

// Seconds spent in each pass of the modal and WENO-Z paths, summed over stages, when the
// run asks for them (fv.time_passes; the device is waited for after each pass).
struct PassTimes {
  double reconstruct = 0, predict = 0, faces = 0, update = 0;
  double total() const { return reconstruct + predict + faces + update; }
};

template <class T>
struct StageArgs {
  int nv = 5;          // 5 (Euler) or 6 (with tracer); 9 or 10 (MHD)
  FieldLayout layout;  // of every field
  Conserved<T> u0;     // read only at the cell itself (may be the same as out)
  Conserved<T> in;     // the state L is evaluated on; ghosts filled
  Conserved<T> out;    // written: interior only. Must not be `in`.
  T dt = 0;
  // out = weight_u0 U0 + weight_in (in + dt L(in)): stage 1 of eq. 8 is (0, 1), stage 2
  // (1/2, 1/2). Every Runge-Kutta stage in Shu-Osher form is of this shape (dt then being
  // the stage's b / weight_in times the step; TimeSteppers.hpp).
  T weight_u0 = 0, weight_in = 1;
  // A second output of the same L (the fourth stage of rk4 writes two registers):
  // out_2 = weight_u0_2 u0_2 + weight_in_2 (in + dt_2 L), when outputs == 2.
  int outputs = 1;
  Conserved<T> u0_2, out_2;
  T dt_2 = 0, weight_u0_2 = 0, weight_in_2 = 1;
  T inv_dx[3] = {0, 0, 0};  // 1/dx per axis, 0 along a reduced axis
  Physics<T> ph;
  // Cells whose update needed the first-order fallback or the floors are added here
  // (host memory for the CPU backend, device memory for CUDA).
  unsigned long long* corrected = nullptr;
  // If set, the stage also computes max over the written cells of the signal rate
  // sum_a (|u_a| + c)/dx_a (the next step's CFL rate), stored as the bits of a
  // non-negative double (so an integer max orders it); NaN anywhere gives NaN bits.
  unsigned long long* rate_bits = nullptr;
  // The device only: rows of the block tile (8 or 4), fv.cuda_tile.
  int tile_rows = 8;
  // The higher-order paths.
  StagePath path = StagePath::plm_faces;
  int degree = 1;           // of the cell polynomial (modal path): 1 plm or weno2, 2 weno3, 3 weno4
  bool weno_slope = false;  // degree 1: the slope of weno2, not theta-minmod
  T weno2_floor[3] = {0, 0, 0};  // weno2's floor per axis (weno2_floor_fraction)
  bool ader = false;             // evolve it with the predictor; L is then the step's average
  ReconstructionVariables vars = ReconstructionVariables::characteristic;
  PassTimes* times = nullptr;  // add the passes' seconds here (host memory)
};

struct GhostArgs {
  Bc bc[3][2] = {};  // [axis][0: min face, 1: max face]
};

// Totals over the interior for the diagnostics (sums of cell values; the solver
// multiplies by the cell volume). Cells with a value that is not finite are only counted.
struct Totals {
  double mass = 0, momentum[3] = {0, 0, 0}, energy = 0;
  double tracer_mass = 0;  // sum rho c
  double mixed_mass = 0;   // sum rho c over cells with 0.1 < c < 0.9
  double max_mach = 0;
  double mach_sum = 0;         // sum |u| / c_s (the mean Mach number times the cells)
  double magnetic_energy = 0;  // MHD: sum B^2/2
  double divb_sum = 0;         // MHD: sum |div B| (central differences)
  double divb_max = 0;         // MHD: max |div B|
  std::int64_t nonfinite = 0;
};

// The exact solution an accuracy test compares with (AccuracyProblems.hpp), and what it
// compares: the density of the isentropic vortex and the smooth wave, B_x of the MHD vortex
// (the variables of the paper's Tables XII and XIII).
enum class ExactProblem : int { vortex, wave, mhd_vortex };
struct ExactSolution {
  ExactProblem problem = ExactProblem::vortex;
  VortexSpec vortex_spec;
  WaveSpec wave_spec;
  MhdVortexSpec mhd_vortex_spec;
};
struct ExactErrors {
  double sum = 0, max = 0;  // of |value - exact value| over this rank's interior
};

// Which derived field view() computes: those of the Euler equations, then MHD's (bx ..
// psi in the order of MhdField, MhdState.hpp) and div B.
enum class Derived : int {
  ux = 0,
  uy = 1,
  uz = 2,
  p = 3,
  tracer = 4,
  bx = 5,
  by,
  bz,
  b_magnitude,
  magnetic_pressure,
  plasma_beta,
  psi,
  divergence_b
};

// A derived field at one cell from its primitive state q = (rho, ux, uy, uz, p) and the
// conserved tracer density rho c.
template <class T>
FLUXVIEW_HD T derived_value(const State<T, 5>& q, T tracer_density, Derived what) {
  switch (what) {
    case Derived::ux:
      return q.v[kVelX];
    case Derived::uy:
      return q.v[kVelX + 1];
    case Derived::uz:
      return q.v[kVelX + 2];
    case Derived::p:
      return q.v[kPressure];
    default:
      return tracer_density / q.v[kRho];
  }
}

template <class T>
class FvBackend : public Backend {
 public:
  using Backend::Backend;
  // Fills the ghosts of every face whose boundary is not Bc::neighbour (those come from
  // the MPI exchange), axis by axis, so edges and corners hold values too.
  virtual void fill_boundary_ghosts(const Conserved<T>& u, int nv, const FieldLayout& l,
                                    const GhostArgs& g) = 0;
  // The double Mach reflection's inflow and moving-shock ghosts at time t, after the
  // physical fill (DoubleMach.hpp).
  virtual void fill_double_mach_ghosts(const Conserved<T>& u, int nv, const FieldLayout& l,
                                       const GhostArgs& g, const Grid& grid, const Physics<T>& ph,
                                       double t) = 0;
  virtual void stage(const StageArgs<T>& a) = 0;
  // max over the interior of the signal rate; not finite when any cell is not.
  virtual double max_rate(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                          const T inv_dx[3]) = 0;
  virtual Totals totals(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                        const T inv_dx[3]) = 0;
  virtual ExactErrors exact_errors(const Conserved<T>& u, const FieldLayout& l, const Grid& grid,
                                   const ExactSolution& exact, double t) = 0;
  // A derived field into `out` (the interior; same layout and location as the state).
  virtual void derived(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                       const T inv_dx[3], Derived what, T* out) = 0;
  // What computes a stage, for run.json.
  virtual std::string kernel(int tile_rows) const = 0;
};

// The host backend (FvCpu.cpp), the device backend (cuda/FvKernels.cu), and the backend
// of a run (FvCpu.cpp; throws for cuda in a build without CUDA).
template <class T>
std::unique_ptr<FvBackend<T>> make_host_backend();
template <class T>
std::unique_ptr<FvBackend<T>> make_device_backend();
template <class T>
std::unique_ptr<FvBackend<T>> make_backend(BackendKind backend);

}  // namespace fluxview::fv
