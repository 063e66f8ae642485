#include <cstdio>
#include <cstring>
#include <string>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::cuda {

bool built_with_cuda() {
  return true;
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return 0;
  }
  return n;
}

std::string no_device_reason() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  cudaGetLastError();
  if (e != cudaSuccess) return cudaGetErrorString(e);
  if (n == 0) return "the driver reports no CUDA device";
  return "";
}

std::string device_description(int device) {
  cudaDeviceProp p{};
  FLUXVIEW_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor,
                double(p.totalGlobalMem) / (1 << 30));
  return buf;
}

int multiprocessor_count() {
  static const int count = [] {
    int dev = 0, n = 0;
    FLUXVIEW_CUDA_CHECK(cudaGetDevice(&dev));
    FLUXVIEW_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
    return n > 0 ? n : 1;
  }();
  return count;
}

void memory_info(std::size_t& free_bytes, std::size_t& total_bytes) {
  FLUXVIEW_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
}

void require_device_memory(std::size_t bytes) {
  if (device_count() == 0)
    throw std::runtime_error("--backend cuda: no CUDA device (" + no_device_reason() + ")");
  std::size_t free_b = 0, total_b = 0;
  memory_info(free_b, total_b);
  if (bytes > free_b)
    throw std::runtime_error("the grid needs " + std::to_string(bytes >> 20) +
                             " MiB of device memory but only " + std::to_string(free_b >> 20) +
                             " MiB of " + std::to_string(total_b >> 20) +
                             " MiB are free; use a smaller grid or --backend cpu");
}

void* malloc_device(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw std::runtime_error("cannot allocate " + std::to_string(bytes >> 20) +
                             " MiB on the CUDA device (" + std::to_string(free_b >> 20) +
                             " MiB free of " + std::to_string(total_b >> 20) +
                             " MiB): " + cudaGetErrorString(e));
  }
  return p;
}

void free_device(void* p) noexcept {
  cudaFree(p);
}

void memcpy_any(void* dst, const void* src, std::size_t bytes) {
  FLUXVIEW_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
}

void memcpy_2d(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
               std::size_t width, std::size_t height) {
  FLUXVIEW_CUDA_CHECK(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault));
}

void memset_device(void* p, int value, std::size_t bytes) {
  FLUXVIEW_CUDA_CHECK(cudaMemset(p, value, bytes));
}

void set_device(int device) {
  FLUXVIEW_CUDA_CHECK(cudaSetDevice(device));
}

void synchronize() {
  FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
}

void check_last_error(const char* where) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) throw_cuda_error(e, where, __FILE__, __LINE__);
}

double copy_bandwidth(std::size_t bytes) {
  void* a = malloc_device(bytes);
  void* b = nullptr;
  try {
    b = malloc_device(bytes);
  } catch (...) {
    free_device(a);
    throw;
  }
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaMemset(a, 1, bytes);
  for (int i = 0; i < 3; ++i) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  const int reps = 20;
  cudaEventRecord(t0);
  for (int i = 0; i < reps; ++i) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  free_device(a);
  free_device(b);
  check_last_error("copy_bandwidth");
  return 2.0 * double(bytes) * reps / (ms * 1e-3);  // read + write
}

namespace {
cudaStream_t as_stream(Stream s) {
  return static_cast<cudaStream_t>(s);
}
}  // namespace

Stream stream_create() {
  cudaStream_t s = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}
void stream_destroy(Stream s) noexcept {
  if (s) cudaStreamDestroy(as_stream(s));
}
Event event_create() {
  cudaEvent_t e = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return e;
}
void event_destroy(Event e) noexcept {
  if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}
void event_record(Event e, Stream s) {
  FLUXVIEW_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(e), as_stream(s)));
}
void stream_wait(Stream s, Event e) {
  FLUXVIEW_CUDA_CHECK(cudaStreamWaitEvent(as_stream(s), static_cast<cudaEvent_t>(e), 0));
}
void stream_synchronize(Stream s) {
  FLUXVIEW_CUDA_CHECK(cudaStreamSynchronize(as_stream(s)));
}
void memcpy_async(void* dst, const void* src, std::size_t bytes, Stream s) {
  FLUXVIEW_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(s)));
}
static_assert(sizeof(IpcHandle) == sizeof(cudaIpcMemHandle_t));
IpcHandle ipc_handle(void* device_buffer) {
  cudaIpcMemHandle_t h;
  FLUXVIEW_CUDA_CHECK(cudaIpcGetMemHandle(&h, device_buffer));
  IpcHandle out;
  std::memcpy(out.bytes, &h, sizeof h);
  return out;
}
void* ipc_open(const IpcHandle& handle) {
  cudaIpcMemHandle_t h;
  std::memcpy(&h, handle.bytes, sizeof h);
  void* p = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  return p;
}
void ipc_close(void* p) noexcept {
  if (p) cudaIpcCloseMemHandle(p);
}
void* malloc_pinned(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t e = cudaMallocHost(&p, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("cannot allocate " + std::to_string(bytes >> 10) +
                             " KiB of page-locked host memory: " + cudaGetErrorString(e));
  }
  return p;
}
void free_pinned(void* p) noexcept {
  if (p) cudaFreeHost(p);
}

}  // namespace fluxview::cuda
