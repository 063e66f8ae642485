#pragma once
// The loops of the adaptive mesh, written once over the execution space: ghost filling,
// remapping, the indicator, refluxing, the CFL rate, the totals, resampling and packing.
// AmrCpu.cpp instantiates them on the host and cuda/AmrDeviceBackend.cuh on the device; a stage is
// the one thing each space computes its own way (the host runs fv's own stage on each
// block, the device one kernel over all blocks), both through fv's update_cell().
//
// Loops over the cells of every block use one box for the whole pool: x and y those of a
// block, z the blocks' z ranges one after another (cell k of the box is cell k % nz of
// block k / nz), so the execution layer's for_each_cell and reduce_cells serve them.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/AmrReflux.hpp"
#include "sim/amr/AmrStepBodies.hpp"
#include "sim/amr/MeshTasks.hpp"
#include "sim/amr/TaskLoops.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Exec.hpp"
#include "sim/core/Types.hpp"
#include "sim/fv/FvLoops.hpp"

namespace fluxview::amr {

// Runs f.template operator()<NV>() for the pool's variable count: 5 or 6 (Euler [+
// tracer]), 9 or 10 (MHD [+ tracer]).
template <class F>
void with_nv(int nv, F&& f) {
  switch (nv) {
    case 6:
      return f.template operator()<6>();
    case 9:
      return f.template operator()<9>();
    case 10:
      return f.template operator()<10>();
    default:
      return f.template operator()<5>();
  }
}

inline exec::Box all_blocks(const FieldLayout& l, int blocks) {
  return {{0, 0, 0}, {l.n[0], l.n[1], l.n[2] * blocks}};
}

template <class Space, class T>
void fill_ghosts_on(const Space& space, const PoolView<T>& u, const GhostTask* tasks, int begin,
                    int end, const FillParams& params, const fv::Physics<T>& ph) {
  with_nv(u.nv, [&]<int NV>() {
    const GhostFillBody<T, NV, EulerAdmissible<T>> body{u, tasks, params, {ph}};
    for_each_task_cell(space, begin, end, body);
  });
}

template <class Space, class T>
void remap_on(const Space& space, const PoolView<T>& from, const PoolView<T>& to,
              const RemapTask* tasks, int count, const FillParams& params,
              const fv::Physics<T>& ph) {
  with_nv(from.nv, [&]<int NV>() {
    const RemapBody<T, NV, EulerAdmissible<T>> body{from, to, tasks, params, {ph}};
    for_each_task_cell(space, 0, count, body);
  });
}

template <class Space, class T>
void indicators_on(const Space& space, const PoolView<T>& u, int blocks, const FillParams& params,
                   const fv::Physics<T>& ph, T eps, T* out) {
  with_nv(u.nv, [&]<int NV>() {
    IndicatorBody<T, NV> body;
    body.u = u;
    body.ph = ph;
    body.eps = eps;
    for (int a = 0; a < 3; ++a)
      body.step[a] = params.active[a] ? (a == 0 ? 1 : (a == 1 ? u.layout.sy : u.layout.sz)) : 0;
    reduce_per_block(space, blocks, u.layout, exec::Max<T>{T(0)}, body,
                     reinterpret_cast<exec::Max<T>*>(out));
  });
}

template <class Space, class T>
void reflux_on(const Space& space, const PoolView<T>& in, const PoolView<T>& out,
               const RefluxTask* tasks, int begin, int end, const BlockInfo* info,
               const fv::Physics<T>& ph, const BlockScheme& scheme, T coef, const T inv_dx0[3],
               int block, const bool active[3]) {
  with_nv(in.nv, [&]<int NV>() {
    RefluxBody<T, NV> body;
    body.in = in;
    body.out = out;
    body.tasks = tasks;
    body.info = info;
    body.ph = ph;
    body.scheme = scheme;
    body.coef = coef;
    body.block = block;
    for (int d = 0; d < 3; ++d) {
      body.inv_dx0[d] = inv_dx0[d];
      body.active[d] = active[d];
    }
    for_each_task_cell(space, begin, end, body);
  });
}

template <class Space, class T>
double max_rate_on(const Space& space, const PoolView<T>& u, const BlockInfo* info, int blocks,
                   const fv::Physics<T>& ph, const T inv_dx0[3]) {
  double rate = 0;
  with_nv(u.nv, [&]<int NV>() {
    RateBody<T, NV> body;
    body.u = u;
    body.info = info;
    body.ph = ph;
    for (int d = 0; d < 3; ++d) body.inv_dx0[d] = inv_dx0[d];
    rate =
        exec::reduce_cells(space, all_blocks(u.layout, blocks), exec::MaxKeepNaN<double>{0.0}, body)
            .value;
  });
  return rate;
}

// Per block of slots [0, blocks): the accumulator its interior's cells give, on the host.
// make_body.template operator()<NV>() makes the body (b, i, j, k, acc) for the pool's
// variable count.
template <class Acc, class Space, class T, class MakeBody>
std::vector<Acc> per_block_on_host(const Space& space, const PoolView<T>& u, int blocks,
                                   const MakeBody& make_body) {
  std::vector<Acc> per(static_cast<std::size_t>(blocks));
  Buffer dev;
  Acc* out = per.data();
  if constexpr (!std::is_same_v<Space, exec::Host>) {
    dev = Buffer(Location::device, per.size() * sizeof(Acc));
    out = static_cast<Acc*>(dev.data());
  }
  with_nv(u.nv, [&]<int NV>() {
    reduce_per_block(space, blocks, u.layout, Acc{}, make_body.template operator()<NV>(), out);
  });
  if constexpr (!std::is_same_v<Space, exec::Host>)
    copy_bytes(per.data(), Location::host, dev.data(), Location::device, per.size() * sizeof(Acc));
  return per;
}

// Per block first, then the blocks in order on the host, each weighted by its cell volume:
// a sum in two levels stays accurate over millions of cells (one running sum over them
// would lose digits the conservation tests measure), and the order is fixed.
template <class Space, class T>
MeshTotals totals_on(const Space& space, const PoolView<T>& u, const BlockInfo* info, int blocks,
                     const fv::Physics<T>& ph, const T inv_dx0[3], double volume0, int dims) {
  MeshTotals r;
  if (blocks <= 0) return r;
  const std::vector<fv::TotalsAcc> per =
      per_block_on_host<fv::TotalsAcc>(space, u, blocks, [&]<int NV>() {
        TotalsBody<T, NV> body;
        body.u = u;
        body.info = info;
        body.ph = ph;
        for (int d = 0; d < 3; ++d) body.inv_dx0[d] = inv_dx0[d];
        return body;
      });
  std::vector<BlockInfo> levels(static_cast<std::size_t>(blocks));
  copy_bytes(levels.data(), Location::host, info, exec::location_of(space),
             levels.size() * sizeof(BlockInfo));
  for (int b = 0; b < blocks; ++b) {
    const fv::TotalsAcc& t = per[std::size_t(b)];
    const double vol = volume0 / double(std::int64_t(1) << (dims * levels[std::size_t(b)].level));
    r.mass += t.mass.value * vol;
    for (int a = 0; a < 3; ++a) r.momentum[a] += t.momentum[a].value * vol;
    r.energy += t.energy.value * vol;
    r.tracer_mass += t.tracer_mass.value * vol;
    r.mixed_mass += t.mixed_mass.value * vol;
    r.mach_volume += t.mach.value * vol;
    r.max_mach = std::max(r.max_mach, t.max_mach.value);
    r.magnetic_energy += t.magnetic_energy.value * vol;
    r.divb_volume += t.divb.value * vol;
    r.divb_max = std::max(r.divb_max, t.divb_max.value);
    r.nonfinite += t.nonfinite.value;
  }
  return r;
}

template <class Space, class T>
void resample_on(const Space& space, const PoolView<T>& u, const BlockInfo* info,
                 const T inv_dx0[3], const ResampleTask* tasks, int count, const FieldLayout& grid,
                 const fv::Physics<T>& ph, int what, T* out) {
  with_nv(u.nv, [&]<int NV>() {
    ResampleBody<T, NV> body;
    body.u = u;
    body.tasks = tasks;
    body.info = info;
    body.grid = grid;
    body.ph = ph;
    body.what = what;
    for (int a = 0; a < 3; ++a) {
      body.active[a] = u.layout.n[a] > 1;
      body.inv_dx0[a] = inv_dx0[a];
    }
    body.out = out;
    for_each_task_cell(space, 0, count, body);
  });
}

template <class Space, class T>
void pack_on(const Space& space, const PoolView<T>& u, const BlockInfo* info, const T inv_dx0[3],
             int blocks, const fv::Physics<T>& ph, int what, T* out) {
  with_nv(u.nv, [&]<int NV>() {
    PackBody<T, NV> body;
    body.u = u;
    body.info = info;
    body.ph = ph;
    for (int a = 0; a < 3; ++a) body.inv_dx0[a] = inv_dx0[a];
    body.what = what;
    body.out = out;
    exec::for_each_cell(space, all_blocks(u.layout, blocks), body);
  });
}

template <class Space, class T>
void paint_on(const Space& space, const PoolView<T>& u, const BlockInfo* info, int blocks,
              const Brush& brush, const double dx0[3], const fv::Paint& paint, fv::PaintSums* out) {
  if (blocks <= 0) return;
  const std::vector<fv::PaintAcc> per =
      per_block_on_host<fv::PaintAcc>(space, u, blocks, [&]<int NV>() {
        PaintBody<T, NV> body;
        body.u = u;
        body.info = info;
        body.brush = brush;
        for (int a = 0; a < 3; ++a) body.dx0[a] = dx0[a];
        body.paint = paint;
        return body;
      });
  for (int b = 0; b < blocks; ++b) out[b] = fv::sums_of(per[std::size_t(b)]);
}

template <class Space, class T>
void gather_blocks_on(const Space& space, const PoolView<T>& u, const int* slots, int count,
                      T* out) {
  GatherBlocksBody<T> body;
  body.u = u;
  body.slots = slots;
  body.count = count;
  body.out = out;
  exec::for_each_cell(space, exec::Box{{0, 0, 0}, {int(u.stride), count, u.nv}}, body);
}

// What a stage keeps from call to call: on the host, fv's host backend for each OpenMP
// thread (each with its own scratch fields); the WENO-Z stage's face fluxes on either space.
template <class T>
struct StageWorkers {
  std::vector<std::unique_ptr<fv::FvBackend<T>>> host;
  Buffer scratch;
};

// A second-order stage on one space (AmrCpu.cpp, cuda/AmrDeviceBackend.cuh).
template <class T>
void amr_stage_on(const exec::Host& space, const BlockStageArgs<T>& a, StageWorkers<T>& w);
template <class T>
void amr_stage_on(const exec::Device& space, const BlockStageArgs<T>& a, StageWorkers<T>& w);
// A WENO-Z stage on one space (AmrWenoZStage.hpp, instantiated in AmrCpu.cpp and
// cuda/AmrWenoZKernels.cu).
template <class T>
void wenoz_stage_on(const exec::Host& space, const BlockStageArgs<T>& a, Buffer& scratch);
template <class T>
void wenoz_stage_on(const exec::Device& space, const BlockStageArgs<T>& a, Buffer& scratch);

template <class Space, class T>
class AmrBackendOn final : public AmrBackend<T> {
 public:
  AmrBackendOn() : AmrBackend<T>(exec::location_of(Space{})) {}
  void fill_ghosts(const PoolView<T>& u, const GhostTask* tasks, int begin, int end,
                   const FillParams& params, const fv::Physics<T>& ph) override {
    fill_ghosts_on(Space{}, u, tasks, begin, end, params, ph);
  }
  void remap(const PoolView<T>& from, const PoolView<T>& to, const RemapTask* tasks, int count,
             const FillParams& params, const fv::Physics<T>& ph) override {
    remap_on(Space{}, from, to, tasks, count, params, ph);
  }
  void indicators(const PoolView<T>& u, int blocks, const FillParams& params,
                  const fv::Physics<T>& ph, T eps, T* out) override {
    indicators_on(Space{}, u, blocks, params, ph, eps, out);
  }
  void stage(const BlockStageArgs<T>& a) override {
    if (a.scheme.path == fv::StagePath::wenoz_faces)
      wenoz_stage_on(Space{}, a, workers_.scratch);
    else
      amr_stage_on(Space{}, a, workers_);
  }
  void reflux(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks, int begin,
              int end, const BlockInfo* info, const fv::Physics<T>& ph, const BlockScheme& scheme,
              T coef, const T inv_dx0[3], int block, const bool active[3]) override {
    reflux_on(Space{}, in, out, tasks, begin, end, info, ph, scheme, coef, inv_dx0, block, active);
  }
  double max_rate(const PoolView<T>& u, const BlockInfo* info, int blocks, const fv::Physics<T>& ph,
                  const T inv_dx0[3]) override {
    return max_rate_on(Space{}, u, info, blocks, ph, inv_dx0);
  }
  MeshTotals totals(const PoolView<T>& u, const BlockInfo* info, int blocks,
                    const fv::Physics<T>& ph, const T inv_dx0[3], double volume0,
                    int dims) override {
    return totals_on(Space{}, u, info, blocks, ph, inv_dx0, volume0, dims);
  }
  void resample(const PoolView<T>& u, const BlockInfo* info, const T inv_dx0[3],
                const ResampleTask* tasks, int count, const FieldLayout& grid,
                const fv::Physics<T>& ph, int what, T* out) override {
    resample_on(Space{}, u, info, inv_dx0, tasks, count, grid, ph, what, out);
  }
  void pack(const PoolView<T>& u, const BlockInfo* info, const T inv_dx0[3], int blocks,
            const fv::Physics<T>& ph, int what, T* out) override {
    pack_on(Space{}, u, info, inv_dx0, blocks, ph, what, out);
  }
  void paint(const PoolView<T>& u, const BlockInfo* info, int blocks, const Brush& brush,
             const double dx0[3], const fv::Paint& paint, fv::PaintSums* out) override {
    paint_on(Space{}, u, info, blocks, brush, dx0, paint, out);
  }
  void gather_blocks(const PoolView<T>& u, const int* slots, int count, T* out) override {
    gather_blocks_on(Space{}, u, slots, count, out);
  }
  std::string kernel() const override {
    if constexpr (std::is_same_v<Space, exec::Host>)
      return "cpu-openmp: fv's stage per block (WENO-Z: face and update loops over all blocks)";
    else
      return "one block-stage kernel per RK stage over all blocks (WENO-Z: face and update "
             "loops over groups of blocks)";
  }

 private:
  StageWorkers<T> workers_;
};

}  // namespace fluxview::amr
