// The fd family's tools on the device: the loops of FdTools.hpp as kernels.
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fd/FdTools.hpp"

namespace fluxview::fd {

template <class T>
std::unique_ptr<FdTools<T>> make_device_tools() {
  return std::make_unique<FdToolsOn<exec::Device, T>>();
}

template std::unique_ptr<FdTools<float>> make_device_tools<float>();
template std::unique_ptr<FdTools<double>> make_device_tools<double>();

}  // namespace fluxview::fd
