// The CUDA services in a build without CUDA: no device, and a clear message for any
// attempt to use one.
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/GhostPack.hpp"

namespace fluxview::cuda {

namespace {
[[noreturn]] void absent() {
  throw std::runtime_error(
      "this fluxview was built without CUDA (nvcc was not found at configure time); "
      "use --backend cpu or rebuild with CUDA");
}
}  // namespace

bool built_with_cuda() {
  return false;
}
int device_count() {
  return 0;
}
std::string no_device_reason() {
  return "this fluxview was built without CUDA (nvcc was not found at configure time)";
}
std::string current_device_unusable_reason() {
  return no_device_reason();
}
std::string device_description(int) {
  absent();
}
int multiprocessor_count() {
  return 0;
}
void memory_info(std::size_t&, std::size_t&) {
  absent();
}
void require_device_memory(std::size_t) {
  absent();
}
void* malloc_device(std::size_t) {
  absent();
}
void free_device(void*) noexcept {}
void memcpy_any(void*, const void*, std::size_t) {
  absent();
}
void memcpy_2d(void*, std::size_t, const void*, std::size_t, std::size_t, std::size_t) {
  absent();
}
void memset_device(void*, int, std::size_t) {
  absent();
}
void set_device(int) {}
void synchronize() {}
void check_last_error(const char*) {}
double copy_bandwidth(std::size_t) {
  absent();
}
Stream stream_create() {
  absent();
}
void stream_destroy(Stream) noexcept {}
Event event_create() {
  absent();
}
void event_destroy(Event) noexcept {}
void event_record(Event, Stream) {
  absent();
}
void stream_wait(Stream, Event) {
  absent();
}
void stream_synchronize(Stream) {
  absent();
}
void memcpy_async(void*, const void*, std::size_t, Stream) {
  absent();
}
IpcHandle ipc_handle(void*) {
  absent();
}
void* ipc_open(const IpcHandle&) {
  absent();
}
void ipc_close(void*) noexcept {}
void* malloc_pinned(std::size_t) {
  absent();
}
void free_pinned(void*) noexcept {}
void pack_box(void*, void* const*, int, const FieldLayout&, std::array<int, 3>, std::array<int, 3>,
              PackDirection, Stream) {
  absent();
}

}  // namespace fluxview::cuda
