// The fv family's higher-order stages on the device: which instance of
// modal_stage_on_device (ModalStage.hpp) a stage takes, and what the modal loops ask of the
// device space. The loops of FvModalLoops.hpp (reconstruction, ADER predictor, face fluxes
// at Gauss points, update; and the WENO-Z face path) run one kernel a pass, one thread a
// cell; the pointwise physics is the same code the host runs.
#include <algorithm>
#include <cstddef>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvLoops.hpp"
#include "sim/fv/FvModalLoops.hpp"
#include "sim/fv/cuda/ModalStage.hpp"

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

template <int NV, class T>
void run_nv(const StageArgs<T>& a, Buffer& scratch) {
  if (a.path == StagePath::wenoz_faces) return modal_stage_on_device<-1, NV>(a, scratch);
  switch (a.degree) {
    case 1:
      return modal_stage_on_device<1, NV>(a, scratch);
    case 2:
      return modal_stage_on_device<2, NV>(a, scratch);
    default:
      return modal_stage_on_device<3, NV>(a, scratch);
  }
}

}  // namespace

template <class T>
void higher_order_stage_on_device(const StageArgs<T>& a, Buffer& scratch) {
  with_nv(a.nv, [&](auto n) { run_nv<decltype(n)::value>(a, scratch); });
}

template void higher_order_stage_on_device<float>(const StageArgs<float>&, Buffer&);
template void higher_order_stage_on_device<double>(const StageArgs<double>&, Buffer&);

}  // namespace fluxview::fv
