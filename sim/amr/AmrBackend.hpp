#pragma once
// What the adaptive mesh computes on the cells of its blocks, as one backend object per
// run (as FvBackend is for the uniform grid): ghost filling, regrid remapping, the
// refinement indicator, an RK stage on every block, refluxing, and the reductions and
// resampling of the solver. The loops are written once over the execution space
// (AmrLoops.hpp); AmrCpu.cpp makes the host backend, cuda/AmrDeviceBackend.cuh the device one.
// The state is the fv solver's (rho, rho u, E [, B, psi] [, rho c]) and the physics fv's.
#include <cstdint>
#include <memory>
#include <string>

#include "sim/amr/BlockPool.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/amr/Topology.hpp"
#include "sim/core/Backend.hpp"
#include "sim/core/Brush.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/FvTools.hpp"

namespace fluxview::amr {

// The states prolongation may produce: density and pressure above the floors.
template <class T>
struct EulerAdmissible {
  fv::Physics<T> ph;
  template <int NV>
  FLUXVIEW_HD bool operator()(const State<T, NV>& u) const {
    return fv::admissible(u, ph);
  }
};

// A stage's scheme, which refluxing recomputes the coarse-fine fluxes with (AmrReflux.hpp):
// the second-order faces (PLM or constant) or WENO-Z's (AmrWenoZStage.hpp), and WENO-Z's
// reconstructed variables.
struct BlockScheme {
  fv::StagePath path = fv::StagePath::plm_faces;
  fv::ReconstructionVariables vars = fv::ReconstructionVariables::characteristic;
};

template <class T>
struct BlockStageArgs {
  PoolView<T> u0;                          // U^n, read only at the cell itself (may be `out`)
  PoolView<T> in;                          // the state L is evaluated on; face ghosts filled
  PoolView<T> out;                         // interiors written
  const BlockInfo* info = nullptr;         // per slot, where the backend computes
  int blocks = 0;                          // slots [0, blocks) are advanced
  T dt = 0, weight_u0 = 0, weight_in = 1;  // out = w0 U0 + w (in + dt L(in))
  T inv_dx0[3] = {0, 0, 0};                // 1/dx at level 0 (0 along an inactive axis)
  fv::Physics<T> ph;
  unsigned long long* corrected = nullptr;  // where the backend computes: fallback cells
  unsigned long long* rate_bits = nullptr;  // ditto, or null: max signal rate (double bits)
  BlockScheme scheme;
};

// A box of cells of a uniform grid at some level that block `slot` covers (cell centres
// inside the block), for resampling the hierarchy onto that grid.
struct ResampleTask {
  int slot = 0;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // cells of the uniform grid
  int shift = 0;              // level of the block minus level of the grid (either sign)
  int origin[3] = {0, 0, 0};  // the block's first cell in cells of its own level
  int first[3] = {0, 0, 0};   // the grid cell held at the output's index 0 (a plane's offset)
};

// `what` of resample and pack: density, or an fv::Derived.
inline constexpr int kDensity = -1;

// Volume integrals over the local blocks (the Mach number's too) and the largest Mach number.
struct MeshTotals {
  double mass = 0, momentum[3] = {0, 0, 0}, energy = 0, tracer_mass = 0, mixed_mass = 0;
  double mach_volume = 0;  // the integral of |u| / c_s
  double max_mach = 0;
  double magnetic_energy = 0;  // MHD: the integral of B^2 / 2
  double divb_volume = 0;      // MHD: the integral of |div B|
  double divb_max = 0;         // MHD: the largest |div B|
  std::int64_t nonfinite = 0;
};

template <class T>
class AmrBackend : public Backend {
 public:
  using Backend::Backend;

  // Ghost tasks [begin, end) of the list `tasks` (where the backend computes).
  virtual void fill_ghosts(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                           const FillParams& params, const fv::Physics<T>& ph) = 0;
  // New blocks of `to` from `from` (whose ghosts are filled).
  virtual void remap(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks,
                     int count, const FillParams& params, const fv::Physics<T>& ph) = 0;
  // Per block of slots [0, blocks): the largest Loehner estimate (density, pressure) over
  // its interior, into `out` where the backend computes.
  virtual void indicators(const PoolView<T>& u, int blocks, const FillParams& params,
                          const fv::Physics<T>& ph, T eps, T* out) = 0;
  // One RK stage on every block (PLM: one launch on the device; WENO-Z: a few per group of
  // blocks).
  virtual void stage(const BlockStageArgs<T>& a) = 0;
  // Reflux tasks [begin, end) (one face kind) into `out`, from the stage input `in`, the
  // fluxes recomputed by the stage's `scheme`.
  virtual void reflux(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks,
                      int begin, int end, const BlockInfo* info, const fv::Physics<T>& ph,
                      const BlockScheme& scheme, T coef, const T inv_dx0[3], int block,
                      const bool active[3]) = 0;
  // Largest signal rate over slots [0, blocks) (not finite if any cell is not).
  virtual double max_rate(const PoolView<T>& u, const BlockInfo* info, int blocks,
                          const fv::Physics<T>& ph, const T inv_dx0[3]) = 0;
  // Totals with each block's cells weighted by `volume0` / 2^(d level); MHD's div B with
  // each block's 1/dx (inv_dx0 at level 0; the ghosts filled).
  virtual MeshTotals totals(const PoolView<T>& u, const BlockInfo* info, int blocks,
                            const fv::Physics<T>& ph, const T inv_dx0[3], double volume0,
                            int dims) = 0;
  // Field `what` onto a uniform grid laid out by `grid` (its interior is written): each
  // cell from the block cell containing its centre (div B with its block's 1/dx).
  virtual void resample(const PoolView<T>& u, const BlockInfo* info, const T inv_dx0[3],
                        const ResampleTask* tasks, int count, const FieldLayout& grid,
                        const fv::Physics<T>& ph, int what, T* out) = 0;
  // The interiors of slots [0, blocks), field `what`, one block after another (x fastest).
  virtual void pack(const PoolView<T>& u, const BlockInfo* info, const T inv_dx0[3], int blocks,
                    const fv::Physics<T>& ph, int what, T* out) = 0;
  // A steering stroke (fv::Paint) on every cell of slots [0, blocks) whose centre `brush`
  // reaches (its centre, reach, periodic lengths and active axes; dx0 the cell size at
  // level 0): per block the cells it reached and its changes per unit volume (PaintSums,
  // not yet weighted by the block's cell volume), into `out` on the host.
  virtual void paint(const PoolView<T>& u, const BlockInfo* info, int blocks, const Brush& brush,
                     const double dx0[3], const fv::Paint& paint, fv::PaintSums* out) = 0;
  // Whole blocks of the listed slots (`slots` and `out` where the backend computes), for
  // another rank: variable after variable, each listed block's `u.stride` elements.
  virtual void gather_blocks(const PoolView<T>& u, const int* slots, int count, T* out) = 0;
  // What computes a stage, for run.json.
  virtual std::string kernel() const = 0;
};

template <class T>
std::unique_ptr<AmrBackend<T>> make_host_amr_backend();
template <class T>
std::unique_ptr<AmrBackend<T>> make_device_amr_backend();
// The backend of a run (throws for cuda in a build without CUDA).
template <class T>
std::unique_ptr<AmrBackend<T>> make_amr_backend(BackendKind backend);

}  // namespace fluxview::amr
