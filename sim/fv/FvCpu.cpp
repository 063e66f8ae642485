// The fv family's host backend: the loops of FvLoops.hpp on the host, and a stage in
// passes through the execution layer. A stage converts the input to primitives once
// (ghosts included), then for each active axis computes the flux through every face once
// into a scratch field and accumulates its difference into the divergence, then updates
// each cell. The device fuses these passes (cuda/FvKernels.cu); both call the same
// FvPhysics.hpp functions in the same order.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "sim/core/ExecHost.hpp"
#include "sim/fv/FvLoops.hpp"
#include "sim/fv/FvModalLoops.hpp"

namespace fluxview::fv {

namespace {

// The scratch of a stage: three sets of nv fields (primitives, one axis's face fluxes, the
// accumulated flux divergence), each field `size` elements.
template <class T>
Conserved<T> scratch_fields(T* base, int nv, std::int64_t size, int set) {
  Conserved<T> w;
  for (int m = 0; m < nv; ++m) w.f[m] = base + (std::int64_t(set) * nv + m) * size;
  return w;
}

std::int64_t stride_of(const FieldLayout& l, int axis) {
  return axis == 0 ? 1 : axis == 1 ? l.sy : l.sz;
}

// Face fluxes along axis D into F (face i-1/2 stored at cell i), for the faces of every
// interior cell (n_D + 1 per line), then their difference added into the divergence.
template <int D, class T, int NV>
void axis_pass(const Conserved<T>& W, const Conserved<T>& F, const Conserved<T>& div,
               const FieldLayout& l, const Physics<T>& ph, T inv_dx, bool first) {
  const std::int64_t s = stride_of(l, D);
  exec::Box faces = exec::interior(l);
  ++faces.hi[D];
  exec::for_each_cell(exec::Host{}, faces, [&](int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    store_state<NV>(F, c,
                    face_flux<D>(load_state<NV>(W, c - 2 * s), load_state<NV>(W, c - s),
                                 load_state<NV>(W, c), load_state<NV>(W, c + s), ph));
  });
  exec::for_each_cell(exec::Host{}, exec::interior(l), [&](int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    for (int m = 0; m < NV; ++m) {
      const T d = (F.f[m][c] - F.f[m][c + s]) * inv_dx;
      div.f[m][c] = first ? d : div.f[m][c] + d;
    }
  });
}

struct StageAcc {
  exec::Sum<unsigned long long> corrected;
  exec::MaxKeepNaN<double> rate{0.0};
  void join(const StageAcc& o) {
    corrected.join(o.corrected);
    rate.join(o.rate);
  }
};

template <class T, int NV>
void stage_nv(const StageArgs<T>& a, Buffer& scratch) {
  const FieldLayout& l = a.layout;
  const std::size_t bytes = std::size_t(3) * NV * l.size * sizeof(T);
  if (scratch.bytes() < bytes) scratch = Buffer(Location::host, bytes);
  T* base = static_cast<T*>(scratch.data());
  const Conserved<T> W = scratch_fields(base, NV, l.size, 0);
  const Conserved<T> F = scratch_fields(base, NV, l.size, 1);
  const Conserved<T> div = scratch_fields(base, NV, l.size, 2);
  const Physics<T> ph = a.ph;

  // Primitives of every cell the stencils read: the interior and its ghost layers (edge
  // and corner ghosts are converted but never read).
  exec::for_each_cell(exec::Host{}, exec::with_ghosts(l), [&](int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    store_state<NV>(W, c, cons_to_prim(load_state<NV>(a.in, c), ph));
  });

  bool first = true;
  if (l.n[0] > 1) axis_pass<0, T, NV>(W, F, div, l, ph, a.inv_dx[0], std::exchange(first, false));
  if (l.n[1] > 1) axis_pass<1, T, NV>(W, F, div, l, ph, a.inv_dx[1], std::exchange(first, false));
  if (l.n[2] > 1) axis_pass<2, T, NV>(W, F, div, l, ph, a.inv_dx[2], std::exchange(first, false));
  if (first)  // a single cell: nothing flows
    for (int m = 0; m < NV; ++m) std::fill(div.f[m], div.f[m] + l.size, T(0));

  const std::int64_t sx = l.n[0] > 1 ? 1 : 0, sy = l.n[1] > 1 ? l.sy : 0,
                     sz = l.n[2] > 1 ? l.sz : 0;
  const StageAcc done = exec::reduce_cells(
      exec::Host{}, exec::interior(l), StageAcc{}, [&](int i, int j, int k, StageAcc& acc) {
        const std::int64_t c = l.index(i, j, k);
        const auto first_order = [&] {
          return first_order_divergence(load_state<NV>(W, c), load_state<NV>(W, c - sx),
                                        load_state<NV>(W, c + sx), load_state<NV>(W, c - sy),
                                        load_state<NV>(W, c + sy), load_state<NV>(W, c - sz),
                                        load_state<NV>(W, c + sz), ph, a.inv_dx);
        };
        const State<T, NV> u = load_state<NV>(a.in, c), l = load_state<NV>(div, c);
        const State<T, NV> r = update_cell(load_state<NV>(a.u0, c), u, l, a.dt, a.weight_u0,
                                           a.weight_in, ph, first_order, acc.corrected.value);
        if (a.outputs == 2)
          store_state<NV>(a.out_2, c,
                          update_cell(load_state<NV>(a.u0_2, c), u, l, a.dt_2, a.weight_u0_2,
                                      a.weight_in_2, ph, first_order, acc.corrected.value));
        store_state<NV>(a.out, c, r);
        if (a.rate_bits) acc.rate.add(cell_signal_rate(r, ph, a.inv_dx));
      });
  if (a.corrected) *a.corrected += done.corrected.value;
  if (a.rate_bits) std::memcpy(a.rate_bits, &done.rate.value, sizeof(double));
}

// A stage of the higher-order paths on the host (FvModalLoops.hpp), its counts added
// where the solver reads them.
template <int M, int NV, class T>
void higher_order_on_host(const StageArgs<T>& a, Buffer& scratch) {
  const auto done = higher_order_stage<M, NV>(exec::Host{}, a, scratch);
  if (a.corrected) *a.corrected += done.corrected.value;
  if (a.rate_bits) std::memcpy(a.rate_bits, &done.rate.value, sizeof(double));
}

template <int NV, class T>
void higher_order_nv(const StageArgs<T>& a, Buffer& scratch) {
  if (a.path == StagePath::wenoz_faces) return higher_order_on_host<-1, NV>(a, scratch);
  switch (a.degree) {
    case 1:
      return higher_order_on_host<1, NV>(a, scratch);
    case 2:
      return higher_order_on_host<2, NV>(a, scratch);
    default:
      return higher_order_on_host<3, NV>(a, scratch);
  }
}

}  // namespace

void wait_for(const exec::Host&) {}
std::size_t scratch_budget(const exec::Host&) {
  return std::size_t(1) << 30;
}

template <class T>
void stage_on(const exec::Host&, const StageArgs<T>& a, Buffer& scratch) {
  if (a.path != StagePath::plm_faces) {
    with_nv(a.nv, [&](auto n) { higher_order_nv<decltype(n)::value>(a, scratch); });
    return;
  }
  with_nv(a.nv, [&](auto n) { stage_nv<T, decltype(n)::value>(a, scratch); });
}

template <class T>
std::unique_ptr<FvBackend<T>> make_host_backend() {
  return std::make_unique<FvBackendOn<exec::Host, T>>();
}

template <class T>
std::unique_ptr<FvBackend<T>> make_backend(BackendKind backend) {
  return backend_for(
      backend, [] { return make_host_backend<T>(); }, [] { return make_device_backend<T>(); });
}

template std::unique_ptr<FvBackend<float>> make_backend<float>(BackendKind);
template std::unique_ptr<FvBackend<double>> make_backend<double>(BackendKind);

}  // namespace fluxview::fv
