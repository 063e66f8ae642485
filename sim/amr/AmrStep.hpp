#pragma once
// One RK stage of the finite-volume scheme on every block of the adaptive mesh, the
// refluxing after it, and the reductions and resampling a solver needs, as the two
// backends implement them. The physics is fv's (FvPhysics.hpp): the CPU runs fv's own
// stage on each block (FvCpu.cpp), the GPU one kernel over all blocks that calls the same
// pointwise reconstruction, Riemann solver and update (cuda/AmrStage.cu).
#include <cstdint>

#include "sim/amr/BlockPool.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/amr/Topology.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::amr {

template <class T>
struct BlockStageArgs {
  PoolView<T> u0;                   // U^n, read only at the cell itself (may be `out`)
  PoolView<T> in;                   // the state L is evaluated on; face ghosts filled
  PoolView<T> out;                  // interiors written
  const BlockInfo* info = nullptr;  // per slot, on the backend
  int blocks = 0;                   // slots [0, blocks) are advanced
  T dt = 0, a = 0, b = 1;           // out = a U0 + b (in + dt L(in))
  T inv_dx0[3] = {0, 0, 0};         // 1/dx at level 0 (0 along an inactive axis)
  fv::Physics<T> ph;
  unsigned long long* corrected = nullptr;  // backend memory: cells that took the fallback
  unsigned long long* rate_bits = nullptr;  // backend memory or null: max signal rate bits
  T* cpu_work = nullptr;                    // CPU: 3 nv S elements per OpenMP thread
};

// Totals of one block, in this order: mass, momentum x, y, z, energy, tracer mass, tracer
// mass in mixed cells (0.1 < c < 0.9), non-finite cells (sums of cell values; the caller
// multiplies by the cell volume), and the largest Mach number.
inline constexpr int kBlockTotals = 9;

// A box of cells of a uniform grid at some level that block `slot` covers (cell centres
// inside the block), for resampling the hierarchy onto that grid.
struct ResampleTask {
  int slot = 0;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // cells of the uniform grid
  int shift = 0;              // level of the block minus level of the grid (either sign)
  int origin[3] = {0, 0, 0};  // the block's first cell in cells of its own level
};

// ---- CPU (AmrStepCpu.cpp) --------------------------------------------------------------
template <class T>
void stage_blocks_cpu(const BlockStageArgs<T>& a);
// Reflux tasks [begin, end) (one face kind) into `out`, from the stage input `in`.
template <class T>
void reflux_cpu(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks, int begin,
                int end, const BlockInfo* info, const fv::Physics<T>& ph, T coef,
                const T inv_dx0[3], int block, const bool active[3]);
// Largest signal rate over the interiors of slots [0, blocks) (NaN if any is not finite).
template <class T>
double max_rate_cpu(const PoolView<T>& u, const BlockInfo* info, int blocks,
                    const fv::Physics<T>& ph, const T inv_dx0[3]);
// kBlockTotals values per block into out[b * kBlockTotals + m].
template <class T>
void block_totals_cpu(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, double* out);
// The field `what` (rho, or a derived one) of the blocks onto a uniform grid laid out by
// `grid` (interior only is written): each cell from the block cell containing its centre.
template <class T>
void resample_cpu(const PoolView<T>& u, const ResampleTask* tasks, int count,
                  const FieldLayout& grid, const fv::Physics<T>& ph, int what, int block, T* out);

// The interiors of slots [0, blocks), field `what`, packed block after block (x fastest).
template <class T>
void pack_cpu(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, int what, T* out);

// ---- CUDA (cuda/AmrStage.cu; AmrKernelsAbsent.cpp throws without CUDA) -----------------
template <class T>
void stage_blocks_cuda(const BlockStageArgs<T>& a);
template <class T>
void reflux_cuda(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks, int begin,
                 int end, const BlockInfo* info, const fv::Physics<T>& ph, T coef,
                 const T inv_dx0[3], int block, const bool active[3]);
template <class T>
double max_rate_cuda(const PoolView<T>& u, const BlockInfo* info, int blocks,
                     const fv::Physics<T>& ph, const T inv_dx0[3]);
template <class T>
void block_totals_cuda(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, double* out);
template <class T>
void resample_cuda(const PoolView<T>& u, const ResampleTask* tasks, int count,
                   const FieldLayout& grid, const fv::Physics<T>& ph, int what, int block, T* out);

template <class T>
void pack_cuda(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, int what, T* out);

// `what` for resampling: -1 density, else an fv::Derived.
inline constexpr int kResampleDensity = -1;

}  // namespace fluxview::amr
