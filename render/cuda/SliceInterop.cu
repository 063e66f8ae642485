// The zero-copy slice path (DESIGN.md): a kernel reads the slice from the solver's
// device buffer and stores it into the GL texture's array through a surface object.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "render/SliceInterop.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::render::interop {

namespace {

struct SliceGeometry {
  FieldLayout layout;
  int axis, index;
  int w, h;
};

// Texel (u, v) of the slice: the cell where the slice axes take u and v.
__device__ __forceinline__ std::int64_t cell_of(const SliceGeometry& g, int u, int v) {
  if (g.axis == 0) return g.layout.index(g.index, u, v);
  if (g.axis == 1) return g.layout.index(u, g.index, v);
  return g.layout.index(u, v, g.index);
}

template <class T>
__global__ void slice_to_surface(const T* __restrict__ field, SliceGeometry g,
                                 cudaSurfaceObject_t surf) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = blockIdx.y * blockDim.y + threadIdx.y;
  if (u >= g.w || v >= g.h) return;
  surf2Dwrite(static_cast<float>(field[cell_of(g, u, v)]), surf, u * int(sizeof(float)), v);
}

template <class T>
__global__ void slice_to_buffer(const T* __restrict__ field, SliceGeometry g, float* out) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = blockIdx.y * blockDim.y + threadIdx.y;
  if (u >= g.w || v >= g.h) return;
  out[std::int64_t(v) * g.w + u] = static_cast<float>(field[cell_of(g, u, v)]);
}

SliceGeometry geometry(const FieldView& v, SliceSpec s) {
  const auto ax = slice_axes(s.axis);
  return {v.layout, s.axis, s.index, v.layout.n[ax[0]], v.layout.n[ax[1]]};
}

// 32 x 8 threads: a warp runs along u, which is the contiguous x for axes 1 and 2.
dim3 blocks_for(const SliceGeometry& g) {
  return dim3((g.w + 31) / 32, (g.h + 7) / 8);
}

// A registered texture and the surface object of its array. The array behind a
// registered immutable texture stays the same from one map to the next, so the surface
// is made once and remade only if the driver hands out another array.
struct Registration {
  cudaGraphicsResource_t resource = nullptr;
  cudaArray_t array = nullptr;
  cudaSurfaceObject_t surface = 0;
};

}  // namespace

void* register_texture(unsigned int gl_texture, std::string* why) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    if (why) *why = "no CUDA device";
    return nullptr;
  }
  cudaGraphicsResource_t r = nullptr;
  const cudaError_t e = cudaGraphicsGLRegisterImage(
      &r, gl_texture, GL_TEXTURE_2D,
      cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why)
      *why = std::string("cudaGraphicsGLRegisterImage: ") + cudaGetErrorString(e) +
             " (is the GL context on the CUDA device?)";
    return nullptr;
  }
  return new Registration{r};
}

void unregister_texture(void* registration) {
  auto* reg = static_cast<Registration*>(registration);
  if (!reg) return;
  if (reg->surface) cudaDestroySurfaceObject(reg->surface);
  cudaGraphicsUnregisterResource(reg->resource);
  delete reg;
}

namespace {

// The surface of a mapped registration, made again only if the array changed.
cudaSurfaceObject_t surface_of(Registration* reg) {
  cudaArray_t array = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, reg->resource, 0, 0));
  if (array != reg->array) {
    if (reg->surface) FLUXVIEW_CUDA_CHECK(cudaDestroySurfaceObject(reg->surface));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    FLUXVIEW_CUDA_CHECK(cudaCreateSurfaceObject(&reg->surface, &desc));
    reg->array = array;
  }
  return reg->surface;
}

bool g_own_stream = false;
cudaStream_t g_stream = nullptr;
cudaEvent_t g_solver_done = nullptr;

// The stream slice work goes on: the legacy default stream (where the solvers step),
// or a non-blocking stream that first waits for the work queued there.
cudaStream_t slice_stream() {
  if (!g_own_stream) return 0;
  if (!g_stream) {
    FLUXVIEW_CUDA_CHECK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    FLUXVIEW_CUDA_CHECK(cudaEventCreateWithFlags(&g_solver_done, cudaEventDisableTiming));
  }
  FLUXVIEW_CUDA_CHECK(cudaEventRecord(g_solver_done, 0));
  FLUXVIEW_CUDA_CHECK(cudaStreamWaitEvent(g_stream, g_solver_done, 0));
  return g_stream;
}

void launch_to_surface(const FieldView& v, SliceSpec s, cudaSurfaceObject_t surf,
                       cudaStream_t stream) {
  const SliceGeometry g = geometry(v, s);
  if (v.precision == Precision::f64)
    slice_to_surface<<<blocks_for(g), dim3(32, 8), 0, stream>>>(static_cast<const double*>(v.data),
                                                                g, surf);
  else
    slice_to_surface<<<blocks_for(g), dim3(32, 8), 0, stream>>>(static_cast<const float*>(v.data),
                                                                g, surf);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void use_own_stream(bool on) {
  g_own_stream = on;
}

void write_slice(void* registration, const FieldView& v, SliceSpec s) {
  write_slices(&registration, v, &s, 1);
}

void write_slices(void* const* registrations, const FieldView& v, const SliceSpec* slices,
                  int count) {
  cudaGraphicsResource_t resources[3];
  if (count < 1 || count > 3) throw std::invalid_argument("write_slices: 1 to 3 slices");
  for (int i = 0; i < count; ++i)
    resources[i] = static_cast<Registration*>(registrations[i])->resource;
  const cudaStream_t stream = slice_stream();
  FLUXVIEW_CUDA_CHECK(cudaGraphicsMapResources(count, resources, stream));
  for (int i = 0; i < count; ++i)
    launch_to_surface(v, slices[i], surface_of(static_cast<Registration*>(registrations[i])),
                      stream);
  FLUXVIEW_CUDA_CHECK(cudaGraphicsUnmapResources(count, resources, stream));
}

WriteTiming profile_write_slice(void* registration, const FieldView& v, SliceSpec s, int reps) {
  auto* reg = static_cast<Registration*>(registration);
  WriteTiming t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    FLUXVIEW_CUDA_CHECK(cudaGraphicsMapResources(1, &reg->resource, 0));
    FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
    t.map_ms += ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    launch_to_surface(v, s, surface_of(reg), 0);
    FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
    t.kernel_ms += ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    FLUXVIEW_CUDA_CHECK(cudaGraphicsUnmapResources(1, &reg->resource, 0));
    FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
    t.unmap_ms += ms_since(t0);
  }
  t.map_ms /= reps;
  t.kernel_ms /= reps;
  t.unmap_ms /= reps;
  return t;
}

void* register_buffer(unsigned int gl_buffer, std::string* why) {
  cudaGraphicsResource_t r = nullptr;
  const cudaError_t e =
      cudaGraphicsGLRegisterBuffer(&r, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorString(e);
    return nullptr;
  }
  return new Registration{r};
}

void write_slice_to_buffer(void* registration, const FieldView& v, SliceSpec s) {
  auto* reg = static_cast<Registration*>(registration);
  FLUXVIEW_CUDA_CHECK(cudaGraphicsMapResources(1, &reg->resource, 0));
  void* ptr = nullptr;
  size_t bytes = 0;
  FLUXVIEW_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, reg->resource));
  const SliceGeometry g = geometry(v, s);
  if (v.precision == Precision::f64)
    slice_to_buffer<<<blocks_for(g), dim3(32, 8)>>>(static_cast<const double*>(v.data), g,
                                                    static_cast<float*>(ptr));
  else
    slice_to_buffer<<<blocks_for(g), dim3(32, 8)>>>(static_cast<const float*>(v.data), g,
                                                    static_cast<float*>(ptr));
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  FLUXVIEW_CUDA_CHECK(cudaGraphicsUnmapResources(1, &reg->resource, 0));
}

void copy_slice_device_to_host(const FieldView& v, SliceSpec s, float* out) {
  const SliceGeometry g = geometry(v, s);
  const std::size_t bytes = std::size_t(g.w) * g.h * sizeof(float);
  float* staging = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaMalloc(&staging, bytes));
  if (v.precision == Precision::f64)
    slice_to_buffer<<<blocks_for(g), dim3(32, 8)>>>(static_cast<const double*>(v.data), g, staging);
  else
    slice_to_buffer<<<blocks_for(g), dim3(32, 8)>>>(static_cast<const float*>(v.data), g, staging);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  const cudaError_t e = cudaMemcpy(out, staging, bytes, cudaMemcpyDeviceToHost);
  cudaFree(staging);
  FLUXVIEW_CUDA_CHECK(e);
}

}  // namespace fluxview::render::interop
