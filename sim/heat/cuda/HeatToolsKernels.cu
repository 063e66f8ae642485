// The heat family's tools on the device: the loops of HeatTools.hpp as kernels.
#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/heat/HeatTools.hpp"

namespace fluxview::heat {

template <class T>
std::unique_ptr<HeatTools<T>> make_device_tools() {
  return std::make_unique<HeatToolsOn<exec::Device, T>>();
}

template std::unique_ptr<HeatTools<float>> make_device_tools<float>();
template std::unique_ptr<HeatTools<double>> make_device_tools<double>();

}  // namespace fluxview::heat
