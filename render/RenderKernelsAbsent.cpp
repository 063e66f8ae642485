// The renderer's device code in a build without CUDA: there are no device fields to
// draw, so none of these is reached; each says so if it were.
#include <stdexcept>

#include "render/RenderKernels.hpp"
#include "render/VolumeInterop.hpp"

namespace fluxview::render {

namespace interop {

void write_volume_linear(const FieldView&, float*, float*, float*) {
  throw std::runtime_error("volume interop: this fluxview was built without CUDA");
}
void* register_volume(unsigned int, unsigned int, std::string* why) {
  if (why) *why = "this fluxview was built without CUDA";
  return nullptr;
}
void unregister_volume(void*) {}
void write_volume_mapped(void*, const FieldView&, float*) {
  throw std::runtime_error("volume interop: this fluxview was built without CUDA");
}

}  // namespace interop

namespace cuda_kernels {

void compute_derived_device(DerivedKind, const FieldView*, const std::array<double, 3>&, float*,
                            const FieldLayout&) {
  throw std::runtime_error("derived field on the device: this fluxview was built without CUDA");
}
void integrate_streamlines_device(const FieldView*, const std::array<double, 3>&,
                                  const LineGeometry&, float*) {
  throw std::runtime_error("streamlines on the device: this fluxview was built without CUDA");
}

}  // namespace cuda_kernels

}  // namespace fluxview::render
