// The host backend of the adaptive mesh: the loops of AmrLoops.hpp on exec::Host, and the
// stage: fv's own host backend (FvCpu.cpp) advancing each block, blocks shared out to
// OpenMP threads, each thread with its own fv backend (and so its own scratch fields); the
// WENO-Z stage is the loops of AmrWenoZStage.hpp, as on the device.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

// The host side of the execution layer before the loops written over it (fv's and ours
// call exec::for_each_cell and exec::reduce_cells by name).
#include "sim/core/ExecHost.hpp"

#include "sim/amr/AmrLoops.hpp"
#include "sim/amr/AmrWenoZStage.hpp"
#include "sim/core/Buffer.hpp"

namespace fluxview::amr {

namespace {

template <class T>
fv::Conserved<T> block_fields(const PoolView<T>& u, int slot) {
  fv::Conserved<T> c;
  for (int m = 0; m < u.nv; ++m) c.f[m] = u.f[m] + std::int64_t(slot) * u.stride;
  return c;
}

}  // namespace

template <class T>
void amr_stage_on(const exec::Host&, const BlockStageArgs<T>& a, StageWorkers<T>& w) {
  std::vector<std::unique_ptr<fv::FvBackend<T>>>& per_thread = w.host;
  const int threads = omp_get_max_threads();
  while (int(per_thread.size()) < threads)
    per_thread.push_back(fv::make_backend<T>(BackendKind::cpu));
  unsigned long long corrected = 0;
  double rate = 0;
  bool bad = false;
#pragma omp parallel reduction(+ : corrected) reduction(max : rate) reduction(|| : bad)
  {
    fv::FvBackend<T>& fvb = *per_thread[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 2)
    for (int b = 0; b < a.blocks; ++b) {
      fv::StageArgs<T> s;
      s.nv = a.in.nv;
      s.layout = a.in.layout;
      s.u0 = block_fields(a.u0, b);
      s.in = block_fields(a.in, b);
      s.out = block_fields(a.out, b);
      s.dt = a.dt;
      s.weight_u0 = a.weight_u0;
      s.weight_in = a.weight_in;
      level_inv_dx(a.inv_dx0, a.info[b].level, s.inv_dx);
      s.ph = a.ph;
      unsigned long long count = 0, bits = 0;
      s.corrected = &count;
      s.rate_bits = a.rate_bits ? &bits : nullptr;
      fvb.stage(s);
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
void wenoz_stage_on(const exec::Host& space, const BlockStageArgs<T>& a, Buffer& scratch) {
  wenoz_block_stage(space, a, scratch);
}

template <class T>
std::unique_ptr<AmrBackend<T>> make_host_amr_backend() {
  return std::make_unique<AmrBackendOn<exec::Host, T>>();
}

template <class T>
std::unique_ptr<AmrBackend<T>> make_amr_backend(BackendKind backend) {
  if (backend == BackendKind::cpu) return make_host_amr_backend<T>();
#if FLUXVIEW_HAVE_CUDA
  return make_device_amr_backend<T>();
#else
  throw_no_cuda_build();
#endif
}

template void amr_stage_on<float>(const exec::Host&, const BlockStageArgs<float>&,
                                  StageWorkers<float>&);
template void amr_stage_on<double>(const exec::Host&, const BlockStageArgs<double>&,
                                   StageWorkers<double>&);
template void wenoz_stage_on<float>(const exec::Host&, const BlockStageArgs<float>&, Buffer&);
template void wenoz_stage_on<double>(const exec::Host&, const BlockStageArgs<double>&, Buffer&);
template std::unique_ptr<AmrBackend<float>> make_amr_backend<float>(BackendKind);
template std::unique_ptr<AmrBackend<double>> make_amr_backend<double>(BackendKind);

}  // namespace fluxview::amr
