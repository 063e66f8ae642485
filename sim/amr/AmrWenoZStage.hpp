#pragma once
// The WENO-Z stage on every block of the adaptive mesh, written once over the execution
// space (AmrCpu.cpp instantiates it on the host, cuda/AmrWenoZKernels.cu on the device).
// It is the uniform grid's WENO-Z path (FvModalLoops.hpp) with the blocks as its slabs:
//   1. faces: per active axis, the flux through every face of every block of a group, from
//      the six cells across it (fv::wenoz_face_flux; a block's three ghost layers stand in
//      for its neighbours), into a scratch of its own;
//   2. update: each cell's flux divergence, summed in the order x, y, z as the uniform grid
//      sums it, and its output with the first-order fallback (fv::stage_output); the
//      corrected cells and the next CFL rate reduced on the way.
// Blocks go in groups whose fluxes fit the space's scratch budget (fv::scratch_budget).
// On a fully refined mesh it computes the bits of the uniform grid's stage on the host
// (AmrRungeKutta.FullyRefinedMesh...).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/AmrLoops.hpp"
#include "sim/amr/AmrStepBodies.hpp"
#include "sim/amr/TaskLoops.hpp"
#include "sim/core/Buffer.hpp"
#include "sim/core/Exec.hpp"
#include "sim/fv/FvModalLoops.hpp"
#include "sim/fv/WenoZFaceFlux.hpp"

namespace fluxview::amr {

// Where the fluxes of the faces along D of a group of blocks live: per variable `total`
// values, block after block, `per_block` each, x fastest over the face box `ext`.
template <class T>
struct FaceFluxes {
  T* flux = nullptr;
  int ext[3] = {1, 1, 1};  // faces per block along each axis
  std::int64_t per_block = 0, total = 0;
  int first = 0;  // slot of the group's first block

  FLUXVIEW_HD std::int64_t at(int v, int slot, int i, int j, int k) const {
    return v * total + (slot - first) * per_block + (std::int64_t(k) * ext[1] + j) * ext[0] + i;
  }
};

// Pass 1, one axis: the faces of each block of a group (a task is a block's slot).
template <class T, int NV, int D>
struct WenoZFacesBody {
  PoolView<T> in;
  fv::EulerFaceSolver<T, NV> rs;
  fv::ReconstructionVariables vars = fv::ReconstructionVariables::characteristic;
  FaceFluxes<T> out;

  FLUXVIEW_HD void box(int, int lo[3], int hi[3]) const {
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = 0;
      hi[a] = out.ext[a];
    }
  }

  // Face i - 1/2 along D of cell (i, j, k): cells i-3 .. i+2, the face between 2 and 3.
  FLUXVIEW_HD void operator()(int slot, int i, int j, int k) const {
    const std::int64_t step = D == 0 ? 1 : (D == 1 ? in.layout.sy : in.layout.sz);
    const std::int64_t c = in.cell(slot, i, j, k);
    State<T, NV> u[6];
#pragma unroll
    for (int s = 0; s < 6; ++s) u[s] = load_cell<NV>(in, c + (s - 3) * step);
    const State<T, NV> f = fv::wenoz_face_flux<D, NV>(u, rs, vars);
#pragma unroll
    for (int v = 0; v < NV; ++v) out.flux[out.at(v, slot, i, j, k)] = f.v[v];
  }
};

// Pass 2: the cells of a group's blocks (the all-blocks box from the group's first slot).
template <class T, int NV>
struct WenoZUpdateBody {
  BlockStageArgs<T> a;
  FaceFluxes<T> faces[3];
  bool active[3] = {true, true, true};

  FLUXVIEW_HD void operator()(int i, int j, int kk, fv::modal_detail::UpdateAcc& acc) const {
    const FieldLayout& l = a.in.layout;
    const int slot = faces[0].first + kk / l.n[2], k = kk % l.n[2];
    T inv_dx[3];
    level_inv_dx(a.inv_dx0, a.info[slot].level, inv_dx);
    // Zero where no axis is active (a single cell: nothing flows); the first active axis
    // assigns rather than adds, as the uniform grid's sum does.
    State<T, NV> lv;
    for (int v = 0; v < NV; ++v) lv.v[v] = T(0);
    bool first = true;
#pragma unroll
    for (int d = 0; d < 3; ++d) {
      if (!active[d]) continue;
      const FaceFluxes<T>& f = faces[d];
      for (int v = 0; v < NV; ++v) {
        const T diff = (f.flux[f.at(v, slot, i, j, k)] -
                        f.flux[f.at(v, slot, i + (d == 0), j + (d == 1), k + (d == 2))]) *
                       inv_dx[d];
        lv.v[v] = first ? diff : lv.v[v] + diff;
      }
      first = false;
    }
    const std::int64_t c = a.in.cell(slot, i, j, k);
    const std::int64_t step[3] = {active[0] ? 1 : 0, active[1] ? l.sy : 0, active[2] ? l.sz : 0};
    unsigned long long corrected = 0;
    const State<T, NV> r = fv::stage_output(pool_fields(a.u0), pool_fields(a.in), c, step, lv, a.dt,
                                            a.weight_u0, a.weight_in, a.ph, inv_dx, corrected);
    store_cell<NV>(a.out, c, r);
    acc.corrected.add(corrected);
    if (a.rate_bits) acc.rate.add(fv::cell_signal_rate(r, a.ph, inv_dx));
  }
};

template <class Space, class T>
void wenoz_block_stage(const Space& space, const BlockStageArgs<T>& a, Buffer& scratch) {
  if (a.blocks <= 0) return;
  const FieldLayout& l = a.in.layout;
  const bool active[3] = {l.n[0] > 1, l.n[1] > 1, l.n[2] > 1};
  fv::modal_detail::UpdateAcc total;
  with_nv(a.in.nv, [&]<int NV>() {
    FaceFluxes<T> faces[3];
    std::int64_t per_block = 0;  // flux values of one variable, all axes
    for (int d = 0; d < 3; ++d) {
      if (!active[d]) continue;
      faces[d].per_block = 1;
      for (int e = 0; e < 3; ++e) {
        faces[d].ext[e] = l.n[e] + (e == d ? 1 : 0);
        faces[d].per_block *= faces[d].ext[e];
      }
      per_block += faces[d].per_block;
    }
    const std::size_t block_bytes =
        sizeof(T) * NV * std::size_t(std::max<std::int64_t>(1, per_block));
    const int group = int(
        std::clamp<std::size_t>(fv::scratch_budget(space) / block_bytes, 1, std::size_t(a.blocks)));
    if (scratch.bytes() < block_bytes * std::size_t(group))
      scratch = Buffer(exec::location_of(space), block_bytes * std::size_t(group));
    const fv::EulerFaceSolver<T, NV> rs{a.ph};
    for (int b0 = 0; b0 < a.blocks; b0 += group) {
      const int b1 = std::min(a.blocks, b0 + group);
      T* next = static_cast<T*>(scratch.data());
      for (int d = 0; d < 3; ++d) {
        faces[d].first = b0;
        faces[d].total = faces[d].per_block * (b1 - b0);
        faces[d].flux = next;
        next += std::size_t(NV) * std::size_t(faces[d].total);
      }
      if (active[0])
        for_each_task_cell(space, b0, b1,
                           WenoZFacesBody<T, NV, 0>{a.in, rs, a.scheme.vars, faces[0]});
      if (active[1])
        for_each_task_cell(space, b0, b1,
                           WenoZFacesBody<T, NV, 1>{a.in, rs, a.scheme.vars, faces[1]});
      if (active[2])
        for_each_task_cell(space, b0, b1,
                           WenoZFacesBody<T, NV, 2>{a.in, rs, a.scheme.vars, faces[2]});
      WenoZUpdateBody<T, NV> body;
      body.a = a;
      for (int d = 0; d < 3; ++d) {
        body.faces[d] = faces[d];
        body.active[d] = active[d];
      }
      total.join(
          exec::reduce_cells(space, all_blocks(l, b1 - b0), fv::modal_detail::UpdateAcc{}, body));
    }
  });
  // Into the solver's counters where the backend computes: one cell's loop on either space.
  const unsigned long long corrected = total.corrected.value;
  double rate = total.rate.value;
  unsigned long long bits = 0;
  std::memcpy(&bits, &rate, sizeof bits);
  unsigned long long* const count = a.corrected;
  unsigned long long* const rate_bits = a.rate_bits;
  exec::for_each_cell(space, exec::range(1), [=] FLUXVIEW_LAMBDA(int, int, int) {
    if (count) *count += corrected;
    if (rate_bits) *rate_bits = bits;
  });
}

}  // namespace fluxview::amr
