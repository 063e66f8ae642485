// The fv family's tools on the device: the loops of FvTools.hpp as kernels.
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvTools.hpp"

namespace fluxview::fv {

template <class T>
std::unique_ptr<FvTools<T>> make_device_tools() {
  return std::make_unique<FvToolsOn<exec::Device, T>>();
}

template std::unique_ptr<FvTools<float>> make_device_tools<float>();
template std::unique_ptr<FvTools<double>> make_device_tools<double>();

}  // namespace fluxview::fv
