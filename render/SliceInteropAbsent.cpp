// Interop in a build without CUDA: there are no device fields to draw.
#include <stdexcept>

#include "render/SliceInterop.hpp"

namespace fluxview::render::interop {

void* register_texture(unsigned int, std::string* why) {
  if (why) *why = "this fluxview was built without CUDA";
  return nullptr;
}
void unregister_texture(void*) {}
void write_slice(void*, const FieldView&, SliceSpec) {
  throw std::runtime_error("CUDA-GL interop: this fluxview was built without CUDA");
}
void write_slices(void* const*, const FieldView&, const SliceSpec*, int) {
  throw std::runtime_error("CUDA-GL interop: this fluxview was built without CUDA");
}
void copy_slice_device_to_host(const FieldView&, SliceSpec, float*) {
  throw std::runtime_error("device slice: this fluxview was built without CUDA");
}

SharedMemory create_shared_memory(std::size_t, std::string* why) {
  if (why) *why = "this fluxview was built without CUDA";
  return {};
}
void destroy_shared_memory(void*) {}
void* shared_memory_pointer(void*) {
  return nullptr;
}
bool cuda_device_uuid(unsigned char*, std::string* why) {
  if (why) *why = "this fluxview was built without CUDA";
  return false;
}
void fill_shared_memory(void*, unsigned char) {
  throw std::runtime_error("shared slice memory: this fluxview was built without CUDA");
}
void read_shared_memory(void*, std::size_t, std::size_t, void*) {
  throw std::runtime_error("shared slice memory: this fluxview was built without CUDA");
}
void write_slices_shared(void* const*, const FieldView&, const SliceSpec*, int) {
  throw std::runtime_error("shared slice memory: this fluxview was built without CUDA");
}

}  // namespace fluxview::render::interop
