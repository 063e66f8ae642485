#include <cstdio>
#include <cstring>
#include <string>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::cuda {

bool built_with_cuda() {
  return true;
}

namespace {

__global__ void probe_kernel() {}

struct DeviceCensus {
  int count = 0;
  std::string reason;  // why there is none
};

// Counted once per process: the answer does not change while it runs, and every GPU
// test and command asks. Asking creates no context on any device.
const DeviceCensus& census() {
  static const DeviceCensus c = [] {
    DeviceCensus r;
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    cudaGetLastError();  // clear the error so later calls start clean
    if (e == cudaSuccess && n > 0) {
      r.count = n;
      return r;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    cudaGetLastError();
    char buf[256];
    if (driver == 0) {
      r.reason = "no NVIDIA GPU found (no NVIDIA driver is installed)";
    } else if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
      r.reason = "no NVIDIA GPU found (the NVIDIA driver reports none)";
    } else if (e == cudaErrorInsufficientDriver) {
      std::snprintf(buf, sizeof buf,
                    "the NVIDIA driver supports CUDA %d.%d but this build needs %d.%d: update "
                    "the driver",
                    driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
      r.reason = buf;
    } else {
      r.reason = std::string("the CUDA runtime found no usable GPU: ") + cudaGetErrorString(e);
    }
    return r;
  }();
  return c;
}

}  // namespace

int device_count() {
  return census().count;
}

std::string no_device_reason() {
  return census().reason;
}

std::string current_device_unusable_reason() {
  if (device_count() == 0) return no_device_reason();
  // A GPU older than every architecture the build holds code for (a cubin of its major
  // version and no newer minor, or PTX no newer than the GPU) has no image for any kernel:
  // the attributes of an empty kernel say so without launching anything.
  static const std::string reason = [] {
    cudaFuncAttributes a{};
    const cudaError_t e = cudaFuncGetAttributes(&a, probe_kernel);
    cudaGetLastError();
    if (e == cudaSuccess) return std::string();
    int d = 0;
    cudaGetDevice(&d);
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, d);
    cudaGetLastError();
    char buf[1024];
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
      std::snprintf(buf, sizeof buf,
                    "the %s has compute capability %d.%d, but this build holds GPU code only "
                    "for the architectures %s; rebuild on this machine (the default preset "
                    "targets the GPU it finds) or use the CPU",
                    p.name, p.major, p.minor, FLUXVIEW_CUDA_ARCHITECTURES);
    else
      std::snprintf(buf, sizeof buf, "the %s cannot run this build's kernels: %s", p.name,
                    cudaGetErrorString(e));
    return std::string(buf);
  }();
  return reason;
}

std::string device_description(int device) {
  cudaDeviceProp p{};
  FLUXVIEW_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  char size[64];
  std::snprintf(size, sizeof size, "%.1f GiB", double(p.totalGlobalMem) / (1 << 30));
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) +
         ", " + size + ")";
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
  if (const std::string why = current_device_unusable_reason(); !why.empty())
    throw std::runtime_error("--backend cuda: " + why);
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
