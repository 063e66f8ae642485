// The heat family's device backend: picks the kernel family. The kernels themselves are
// in HeatKernels3D.cu, HeatKernels2D.cu (Vizitiu et al. 2014) and HeatKernelFast.cu.
#include "sim/heat/cuda/HeatCuda.cuh"

namespace fluxview::heat {

namespace {

template <class T>
class DeviceHeat final : public HeatBackend<T> {
 public:
  explicit DeviceHeat(HeatKernel kernel) : HeatBackend<T>(Location::device), kernel_(kernel) {}

  void step(const HeatStepArgs<T>& a) override {
    using namespace cuda_detail;
    const StencilGrid<T> g = make_grid(a);
    if (g.nx < 1 || g.ny < 1 || g.nz < 1) return;
    switch (kernel_) {
      case HeatKernel::k3DBase:
      case HeatKernel::k3DShMOverL:
      case HeatKernel::k3DShMNoOverL:
        launch_3d(kernel_, g);
        break;
      case HeatKernel::k2DBase:
      case HeatKernel::k2DReg:
      case HeatKernel::k2DShM:
      case HeatKernel::k2DShMReg:
        launch_2d(kernel_, g);
        break;
      case HeatKernel::fast:
        launch_fast(g);
        break;
    }
  }

  std::string kernel() const override { return std::string(kernel_name(kernel_)); }

 private:
  HeatKernel kernel_;
};

}  // namespace

template <class T>
std::unique_ptr<HeatBackend<T>> make_device_backend(HeatKernel kernel) {
  return std::make_unique<DeviceHeat<T>>(kernel);
}

template std::unique_ptr<HeatBackend<float>> make_device_backend<float>(HeatKernel);
template std::unique_ptr<HeatBackend<double>> make_device_backend<double>(HeatKernel);

}  // namespace fluxview::heat
