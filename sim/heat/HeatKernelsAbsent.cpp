// The heat solver's CUDA entry points in a build without CUDA.
#include <stdexcept>

#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

template <class T>
void step_cuda(HeatKernel, const HeatStepArgs<T>&) {
  throw std::runtime_error("this fluxview was built without CUDA; use --backend cpu");
}
template void step_cuda<float>(HeatKernel, const HeatStepArgs<float>&);
template void step_cuda<double>(HeatKernel, const HeatStepArgs<double>&);

}  // namespace fluxview::heat
