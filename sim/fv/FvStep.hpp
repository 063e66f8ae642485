#pragma once
// One TVD RK2 stage, ghost filling, the CFL rate and the reductions of the finite-volume
// solver, as the two backends implement them. The solver (FvSolver.cpp) owns the fields
// and sequences the calls; these functions only move data and loop. The physics they
// apply is FvPhysics.hpp, shared by both.
#include <cstdint>

#include "sim/core/FieldLayout.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::fv {

// Boundary condition of one face of the box.
// `neighbour`: the face borders another MPI rank, whose cells fill the ghosts.
enum class Bc : int { outflow = 0, reflecting = 1, periodic = 2, neighbour = 3 };

// Ghost width: PLM at face i-1/2 reads cells i-2 .. i+1.
inline constexpr int kGhost = 2;

// The interior cell a ghost copies along a boundary axis of n cells: ghost layer h (0
// next to the interior) on side 0 (low, index -1 - h) or 1 (high, index n + h).
// Periodic wraps, reflecting mirrors (the solver then negates the normal momentum),
// outflow repeats the edge cell. Shared by the CPU loop and the CUDA kernel.
FLUXVIEW_HD int ghost_source(Bc bc, int side, int h, int n) {
  if (bc == Bc::periodic) return side == 0 ? n - 1 - h : h;
  if (bc == Bc::reflecting) return side == 0 ? h : n - 1 - h;
  return side == 0 ? 0 : n - 1;
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

template <class T>
struct StageArgs {
  int nv = 5;          // 5 (Euler) or 6 (with tracer)
  FieldLayout layout;  // of every field
  Conserved<T> u0;     // U^n, read only at the cell itself (may be the same as out)
  Conserved<T> in;     // the state L is evaluated on; ghosts filled
  Conserved<T> out;    // written: interior only. Must not be `in`.
  T dt = 0;
  T a = 0, b = 1;           // out = a U0 + b (in + dt L(in))
  T inv_dx[3] = {0, 0, 0};  // 1/dx per axis, 0 along a reduced axis
  Physics<T> ph;
  // Cells whose update needed the first-order fallback or the floors are added here
  // (host memory for the CPU backend, device memory for CUDA).
  unsigned long long* corrected = nullptr;
  // If set, the stage also computes max over the written cells of the signal rate
  // sum_a (|u_a| + c)/dx_a (the next step's CFL rate), stored as the bits of a
  // non-negative double (so an integer max orders it); NaN anywhere gives NaN bits.
  unsigned long long* rate_bits = nullptr;
  // CPU backend only: scratch of 3 * nv * layout.size elements (primitives, one axis's
  // face fluxes, the accumulated flux divergence), owned by the solver.
  T* cpu_work = nullptr;
  // CUDA backend only: rows of the block tile (8 or 4), fv.cuda_tile.
  int tile_rows = 8;
};

struct GhostArgs {
  Bc bc[3][2] = {};  // [axis][0: min face, 1: max face]
};

// Totals over the interior for the diagnostics (sums of cell values; the solver
// multiplies by the cell volume).
struct Totals {
  double mass = 0, momentum[3] = {0, 0, 0}, energy = 0;
  double tracer_mass = 0;  // sum rho c
  double mixed_mass = 0;   // sum rho c over cells with 0.1 < c < 0.9
  double max_mach = 0;
  std::int64_t nonfinite = 0;
};

// Which derived field primitive() computes.
enum class Derived : int { ux = 0, uy = 1, uz = 2, p = 3, tracer = 4 };

// A derived field at one cell from its primitive state q = (rho, ux, uy, uz, p) and the
// conserved tracer density rho c: shared by the CPU loop and the CUDA kernel.
template <class T>
FLUXVIEW_HD T derived_value(const State<T, 5>& q, T tracer_density, Derived what) {
  switch (what) {
    case Derived::ux:
      return q.v[1];
    case Derived::uy:
      return q.v[2];
    case Derived::uz:
      return q.v[3];
    case Derived::p:
      return q.v[4];
    default:
      return tracer_density / q.v[0];
  }
}

// ---- CPU backend (FvCpu.cpp): OpenMP loops --------------------------------------------
template <class T>
void fill_ghosts_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const GhostArgs& g);
template <class T>
void stage_cpu(const StageArgs<T>& a);
// max over the interior of the signal rate (NaN if any cell is not finite).
template <class T>
double max_rate_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                    const T inv_dx[3]);
template <class T>
Totals totals_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph);
template <class T>
void derived_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                 Derived what, T* out);

// ---- CUDA backend (cuda/FvKernels.cu): launches on the default stream -----------------
// Each throws where the build has no CUDA.
template <class T>
void fill_ghosts_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const GhostArgs& g);
template <class T>
void stage_cuda(const StageArgs<T>& a);
template <class T>
double max_rate_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                     const T inv_dx[3]);
template <class T>
Totals totals_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph);
template <class T>
void derived_cuda(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                  Derived what, T* out);

}  // namespace fluxview::fv
