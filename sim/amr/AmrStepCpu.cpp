// The CPU backend of the AMR solver's stage: fv's own CPU stage (FvCpu.cpp) run on each
// block in turn by OpenMP threads, each with its own scratch; refluxing, reductions and
// resampling as OpenMP loops over the bodies of AmrReflux.hpp and AmrStepBodies.hpp.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/amr/AmrReflux.hpp"
#include "sim/amr/AmrStep.hpp"
#include "sim/amr/AmrStepBodies.hpp"
#include "sim/amr/TaskLoops.hpp"

namespace fluxview::amr {

namespace {

template <class F>
void with_nv(int nv, F&& f) {
  if (nv == 5)
    f.template operator()<5>();
  else if (nv == 6)
    f.template operator()<6>();
  else
    throw std::invalid_argument("AMR: " + std::to_string(nv) + " variables (5 or 6)");
}

template <class T>
fv::Conserved<T> block_fields(const PoolView<T>& u, int slot) {
  fv::Conserved<T> c;
  for (int m = 0; m < u.nv; ++m) c.f[m] = u.f[m] + std::int64_t(slot) * u.stride;
  return c;
}

}  // namespace

template <class T>
void stage_blocks_cpu(const BlockStageArgs<T>& a) {
  unsigned long long corrected = 0;
  double rate = 0;
  bool bad = false;
  const std::int64_t work = 3 * std::int64_t(a.in.nv) * a.in.stride;
#pragma omp parallel reduction(+ : corrected) reduction(max : rate) reduction(|| : bad)
  {
    T* scratch = a.cpu_work + work * omp_get_thread_num();
#pragma omp for schedule(dynamic, 2)
    for (int b = 0; b < a.blocks; ++b) {
      fv::StageArgs<T> s;
      s.nv = a.in.nv;
      s.layout = a.in.layout;
      s.u0 = block_fields(a.u0, b);
      s.in = block_fields(a.in, b);
      s.out = block_fields(a.out, b);
      s.dt = a.dt;
      s.a = a.a;
      s.b = a.b;
      level_inv_dx(a.inv_dx0, a.info[b].level, s.inv_dx);
      s.ph = a.ph;
      unsigned long long count = 0, bits = 0;
      s.corrected = &count;
      s.rate_bits = a.rate_bits ? &bits : nullptr;
      s.cpu_work = scratch;
      fv::stage_cpu(s);
      corrected += count;
      if (a.rate_bits) {
        double r;
        std::memcpy(&r, &bits, sizeof r);
        if (std::isnan(r))
          bad = true;
        else
          rate = std::max(rate, r);
      }
    }
  }
  *a.corrected += corrected;
  if (a.rate_bits) {
    const double r = bad ? std::numeric_limits<double>::quiet_NaN() : rate;
    std::memcpy(a.rate_bits, &r, sizeof r);
  }
}

template <class T>
void reflux_cpu(const PoolView<T>& in, const PoolView<T>& out, const RefluxTask* tasks, int begin,
                int end, const BlockInfo* info, const fv::Physics<T>& ph, T coef,
                const T inv_dx0[3], int block, const bool active[3]) {
  with_nv(in.nv, [&]<int NV>() {
    RefluxBody<T, NV> body;
    body.in = in;
    body.out = out;
    body.tasks = tasks;
    body.info = info;
    body.ph = ph;
    body.coef = coef;
    body.block = block;
    for (int d = 0; d < 3; ++d) {
      body.inv_dx0[d] = inv_dx0[d];
      body.active[d] = active[d];
    }
    for_each_task_cell(begin, end, body);
  });
}

template <class T>
double max_rate_cpu(const PoolView<T>& u, const BlockInfo* info, int blocks,
                    const fv::Physics<T>& ph, const T inv_dx0[3]) {
  double rate = 0;
  bool bad = false;
  const FieldLayout& l = u.layout;
  with_nv(u.nv, [&]<int NV>() {
#pragma omp parallel for schedule(dynamic, 4) reduction(max : rate) reduction(|| : bad)
    for (int b = 0; b < blocks; ++b) {
      T inv[3];
      level_inv_dx(inv_dx0, info[b].level, inv);
      for (int k = 0; k < l.n[2]; ++k)
        for (int j = 0; j < l.n[1]; ++j)
          for (int i = 0; i < l.n[0]; ++i) {
            const double r = cell_rate<T, NV>(u, u.cell(b, i, j, k), ph, inv);
            if (std::isfinite(r))
              rate = std::max(rate, r);
            else
              bad = true;
          }
    }
  });
  return bad ? std::numeric_limits<double>::quiet_NaN() : rate;
}

template <class T>
void block_totals_cpu(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, double* out) {
  const FieldLayout& l = u.layout;
  with_nv(u.nv, [&]<int NV>() {
#pragma omp parallel for schedule(dynamic, 4)
    for (int b = 0; b < blocks; ++b) {
      double acc[kBlockTotals] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      for (int k = 0; k < l.n[2]; ++k)
        for (int j = 0; j < l.n[1]; ++j)
          for (int i = 0; i < l.n[0]; ++i) add_to_totals<T, NV>(u, u.cell(b, i, j, k), ph, acc);
      for (int m = 0; m < kBlockTotals; ++m) out[std::int64_t(b) * kBlockTotals + m] = acc[m];
    }
  });
}

template <class T>
void resample_cpu(const PoolView<T>& u, const ResampleTask* tasks, int count,
                  const FieldLayout& grid, const fv::Physics<T>& ph, int what, int block, T* out) {
  (void)block;
  with_nv(u.nv, [&]<int NV>() {
    ResampleBody<T, NV> body;
    body.u = u;
    body.tasks = tasks;
    body.grid = grid;
    body.ph = ph;
    body.what = what;
    for (int a = 0; a < 3; ++a) body.active[a] = u.layout.n[a] > 1;
    body.out = out;
    for_each_task_cell(0, count, body);
  });
}

template <class T>
void pack_cpu(const PoolView<T>& u, int blocks, const fv::Physics<T>& ph, int what, T* out) {
  PackBody<T> body;
  body.u = u;
  body.ph = ph;
  body.what = what;
  body.out = out;
  for_each_task_cell(0, blocks, body);
}

#define FLUXVIEW_AMR_STEP_CPU(T)                                                                   \
  template void stage_blocks_cpu<T>(const BlockStageArgs<T>&);                                     \
  template void reflux_cpu<T>(const PoolView<T>&, const PoolView<T>&, const RefluxTask*, int, int, \
                              const BlockInfo*, const fv::Physics<T>&, T, const T[3], int,         \
                              const bool[3]);                                                      \
  template double max_rate_cpu<T>(const PoolView<T>&, const BlockInfo*, int,                       \
                                  const fv::Physics<T>&, const T[3]);                              \
  template void block_totals_cpu<T>(const PoolView<T>&, int, const fv::Physics<T>&, double*);      \
  template void resample_cpu<T>(const PoolView<T>&, const ResampleTask*, int, const FieldLayout&,  \
                                const fv::Physics<T>&, int, int, T*);                              \
  template void pack_cpu<T>(const PoolView<T>&, int, const fv::Physics<T>&, int, T*);
FLUXVIEW_AMR_STEP_CPU(float)
FLUXVIEW_AMR_STEP_CPU(double)
#undef FLUXVIEW_AMR_STEP_CPU

}  // namespace fluxview::amr
