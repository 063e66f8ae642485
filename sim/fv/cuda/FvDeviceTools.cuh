#pragma once
// The fv family's tools on the device: the loops of FvTools.hpp as kernels. Instantiated
// once per precision, each in a source of its own that sim/fv/CMakeLists.txt generates
// (FvDeviceTools_float.cu, _double.cu): the stage with obstacles inlines a Riemann solver
// at each of its faces, and with both precisions this was the longest compile of the CI
// build (177 s at -O1 for sm_75) and one of the last three to finish in a build for the
// GPU machine (-O3, sm_90; 2026-11-28), beside the adaptive mesh's and the third-degree
// MHD stages.
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvTools.hpp"

namespace fluxview::fv {

template <class T>
std::unique_ptr<FvTools<T>> make_device_tools() {
  return std::make_unique<FvToolsOn<exec::Device, T>>();
}

}  // namespace fluxview::fv
