// The WENO-Z stage of the adaptive mesh on the device: the loops of AmrWenoZStage.hpp on
// exec::Device. A file of its own so that its kernels (four variable counts, two precisions,
// three axes) compile beside the second-order stage's rather than after them.
#include <cuda_runtime.h>

// The device side of the execution layer before the loops written over it.
#include "sim/core/cuda/ExecDevice.cuh"

#include "sim/amr/AmrLoops.hpp"
#include "sim/amr/AmrWenoZStage.hpp"
#include "sim/amr/cuda/TaskLoops.cuh"

namespace fluxview::amr {

template <class T>
void wenoz_stage_on(const exec::Device& space, const BlockStageArgs<T>& a, Buffer& scratch) {
  wenoz_block_stage(space, a, scratch);
}

template void wenoz_stage_on<float>(const exec::Device&, const BlockStageArgs<float>&, Buffer&);
template void wenoz_stage_on<double>(const exec::Device&, const BlockStageArgs<double>&, Buffer&);

}  // namespace fluxview::amr
