// The device's stage of the higher-order paths for one degree M (1..3, or -1 for the
// WENO-Z face path), NV fields and precision T. Declared here for the dispatcher
// (FvModalKernels.cu); defined in ModalStage.cuh and instantiated one (M, T) pair per
// translation unit, which sim/fv/CMakeLists.txt generates: these are the project's slowest
// compiles (minutes each per architecture), and split this way a build spreads them over
// its cores instead of waiting for one.
#pragma once

#include "sim/core/Buffer.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

template <int M, int NV, class T>
void modal_stage_on_device(const StageArgs<T>& a, Buffer& scratch);

}  // namespace fluxview::fv
