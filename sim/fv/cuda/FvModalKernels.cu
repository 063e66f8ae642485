// The fv family's higher-order stages on the device: the loops of FvModalLoops.hpp
// (reconstruction, ADER predictor, face fluxes at Gauss points, update; and the WENO-Z
// face path) instantiated on exec::Device, one kernel a pass, one thread a cell. The
// pointwise physics is the same code the host runs.
#include <algorithm>
#include <cstring>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvLoops.hpp"
#include "sim/fv/FvModalLoops.hpp"

namespace fluxview::fv {

void wait_for(const exec::Device&) {
  FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
}

// Half of what is free, at most 8 GiB: a 512^3 fourth-order ADER step then works in
// slabs of about twenty planes (the polynomials of a plane are 370 MB in double).
std::size_t scratch_budget(const exec::Device&) {
  std::size_t free_bytes = 0, total = 0;
  cuda::memory_info(free_bytes, total);
  return std::max<std::size_t>(std::size_t(64) << 20,
                               std::min<std::size_t>(free_bytes / 2, std::size_t(8) << 30));
}

namespace {

// One stage on the device; the counts come back to the host in the reduction and are
// added where the solver reads them (device memory), so a stage moves a few bytes.
template <int M, int NV, class T>
void run_on_device(const StageArgs<T>& a, Buffer& scratch) {
  const auto done = higher_order_stage<M, NV>(exec::Device{}, a, scratch);
  if (a.corrected && done.corrected.value) {
    unsigned long long c = 0;
    copy_bytes(&c, Location::host, a.corrected, Location::device, sizeof c);
    c += done.corrected.value;
    copy_bytes(a.corrected, Location::device, &c, Location::host, sizeof c);
  }
  if (a.rate_bits) {
    unsigned long long bits = 0;
    std::memcpy(&bits, &done.rate.value, sizeof bits);
    copy_bytes(a.rate_bits, Location::device, &bits, Location::host, sizeof bits);
  }
}

template <int NV, class T>
void run_nv(const StageArgs<T>& a, Buffer& scratch) {
  if (a.path == StagePath::wenoz_faces) return run_on_device<-1, NV>(a, scratch);
  switch (a.degree) {
    case 1:
      return run_on_device<1, NV>(a, scratch);
    case 2:
      return run_on_device<2, NV>(a, scratch);
    default:
      return run_on_device<3, NV>(a, scratch);
  }
}

}  // namespace

template <class T>
void higher_order_stage_on_device(const StageArgs<T>& a, Buffer& scratch) {
  if (a.nv == 6)
    run_nv<6>(a, scratch);
  else
    run_nv<5>(a, scratch);
}

template void higher_order_stage_on_device<float>(const StageArgs<float>&, Buffer&);
template void higher_order_stage_on_device<double>(const StageArgs<double>&, Buffer&);

}  // namespace fluxview::fv
