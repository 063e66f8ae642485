// The heat solver's CUDA entry point: picks the kernel family. The kernels themselves
// are in HeatKernels3D.cu, HeatKernels2D.cu (Vizitiu et al. 2014) and HeatKernelFast.cu.
#include "sim/heat/cuda/HeatCuda.cuh"

namespace fluxview::heat {

template <class T>
void step_cuda(HeatKernel kernel, const HeatStepArgs<T>& a) {
  using namespace cuda_detail;
  const StencilGrid<T> g = make_grid(a);
  if (g.nx < 1 || g.ny < 1 || g.nz < 1) return;
  switch (kernel) {
    case HeatKernel::k3DBase:
    case HeatKernel::k3DShMOverL:
    case HeatKernel::k3DShMNoOverL:
      launch_3d(kernel, g);
      break;
    case HeatKernel::k2DBase:
    case HeatKernel::k2DReg:
    case HeatKernel::k2DShM:
    case HeatKernel::k2DShMReg:
      launch_2d(kernel, g);
      break;
    case HeatKernel::fast:
      launch_fast(g);
      break;
  }
}
template void step_cuda<float>(HeatKernel, const HeatStepArgs<float>&);
template void step_cuda<double>(HeatKernel, const HeatStepArgs<double>&);

}  // namespace fluxview::heat
