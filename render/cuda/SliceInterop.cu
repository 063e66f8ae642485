// The zero-copy slice paths (docs/performance.md, "Slice updates and frame rate"): a kernel reads
// the slice from the solver's device buffer and stores it into the GL texture's array through a
// surface object (mapped per update), or into device memory that GL imported and copies from (the
// shared-memory path, no map).
#include <cuda.h>  // types only: driver calls go through cudaGetDriverEntryPointByVersion
#include <cudaTypedefs.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// Slice work goes on the legacy default stream, after the solver's steps (a stream of its
// own, ordered after them by an event, measured the same: docs/performance.md).
constexpr cudaStream_t kSliceStream = 0;

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

// The slice as floats into linear device memory `out` (u fastest).
void launch_to_buffer(const FieldView& v, SliceSpec s, float* out, cudaStream_t stream) {
  const SliceGeometry g = geometry(v, s);
  if (v.precision == Precision::f64)
    slice_to_buffer<<<blocks_for(g), dim3(32, 8), 0, stream>>>(static_cast<const double*>(v.data),
                                                               g, out);
  else
    slice_to_buffer<<<blocks_for(g), dim3(32, 8), 0, stream>>>(static_cast<const float*>(v.data), g,
                                                               out);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

void write_slice(void* registration, const FieldView& v, SliceSpec s) {
  write_slices(&registration, v, &s, 1);
}

void write_slices(void* const* registrations, const FieldView& v, const SliceSpec* slices,
                  int count) {
  cudaGraphicsResource_t resources[3];
  if (count < 1 || count > 3) throw std::invalid_argument("write_slices: 1 to 3 slices");
  for (int i = 0; i < count; ++i)
    resources[i] = static_cast<Registration*>(registrations[i])->resource;
  const cudaStream_t stream = kSliceStream;
  FLUXVIEW_CUDA_CHECK(cudaGraphicsMapResources(count, resources, stream));
  for (int i = 0; i < count; ++i)
    launch_to_surface(v, slices[i], surface_of(static_cast<Registration*>(registrations[i])),
                      stream);
  FLUXVIEW_CUDA_CHECK(cudaGraphicsUnmapResources(count, resources, stream));
}

void copy_slice_device_to_host(const FieldView& v, SliceSpec s, float* out) {
  const SliceGeometry g = geometry(v, s);
  const std::size_t bytes = std::size_t(g.w) * g.h * sizeof(float);
  float* staging = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaMalloc(&staging, bytes));
  launch_to_buffer(v, s, staging, 0);
  const cudaError_t e = cudaMemcpy(out, staging, bytes, cudaMemcpyDeviceToHost);
  cudaFree(staging);
  FLUXVIEW_CUDA_CHECK(e);
}

namespace {

// The driver API calls of the shared-memory path, looked up once at run time. fluxview
// does not link libcuda: the executable must load where nvcc exists but no driver does
// (CI). Version 12000 pins the ABI of each symbol to the one the typedefs below name.
struct DriverApi {
  PFN_cuGetErrorString_v6000 get_error_string = nullptr;
  PFN_cuDeviceGet_v2000 device_get = nullptr;
  PFN_cuDeviceGetAttribute_v2000 device_get_attribute = nullptr;
  PFN_cuMemGetAllocationGranularity_v10020 get_granularity = nullptr;
  PFN_cuMemCreate_v10020 mem_create = nullptr;
  PFN_cuMemRelease_v10020 mem_release = nullptr;
  PFN_cuMemAddressReserve_v10020 address_reserve = nullptr;
  PFN_cuMemAddressFree_v10020 address_free = nullptr;
  PFN_cuMemMap_v10020 mem_map = nullptr;
  PFN_cuMemUnmap_v10020 mem_unmap = nullptr;
  PFN_cuMemSetAccess_v10020 set_access = nullptr;
  PFN_cuMemExportToShareableHandle_v10020 export_handle = nullptr;
  std::string missing;  // why the path cannot be used; empty when every call was found
};

constexpr unsigned int kDriverAbiVersion = 12000;

const DriverApi& driver_api() {
  static const DriverApi api = [] {
    DriverApi a;
    auto find = [&a](const char* name, auto& fn) {
      if (!a.missing.empty()) return;
      void* p = nullptr;
      cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
      const cudaError_t e =
          cudaGetDriverEntryPointByVersion(name, &p, kDriverAbiVersion, cudaEnableDefault, &q);
#else
      const cudaError_t e = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &q);
#endif
      if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
        cudaGetLastError();
        a.missing =
            std::string("driver entry point ") + name + ": " +
            (e != cudaSuccess                               ? cudaGetErrorString(e)
             : q == cudaDriverEntryPointVersionNotSufficent ? "the driver is older than CUDA 12.0"
                                                            : "not found");
        return;
      }
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    find("cuGetErrorString", a.get_error_string);
    find("cuDeviceGet", a.device_get);
    find("cuDeviceGetAttribute", a.device_get_attribute);
    find("cuMemGetAllocationGranularity", a.get_granularity);
    find("cuMemCreate", a.mem_create);
    find("cuMemRelease", a.mem_release);
    find("cuMemAddressReserve", a.address_reserve);
    find("cuMemAddressFree", a.address_free);
    find("cuMemMap", a.mem_map);
    find("cuMemUnmap", a.mem_unmap);
    find("cuMemSetAccess", a.set_access);
    find("cuMemExportToShareableHandle", a.export_handle);
    return a;
  }();
  return api;
}

std::string driver_error(const char* call, CUresult r) {
  const char* text = nullptr;
  const DriverApi& api = driver_api();
  if (api.get_error_string) api.get_error_string(r, &text);
  return std::string(call) + ": " + (text ? text : "CUresult " + std::to_string(int(r)));
}

// One shared allocation: the physical memory, the virtual range it is mapped at, and
// how far it got (so that a failure half way frees exactly what was made).
struct SharedAllocation {
  CUmemGenericAllocationHandle memory = 0;
  bool created = false, reserved = false, mapped = false;
  CUdeviceptr ptr = 0;
  size_t size = 0;
};

// Reverse order of making: unmap, free the address range, release the memory (the
// memory itself goes when GL, holding the imported descriptor, lets go of it too).
void free_allocation(SharedAllocation* a) {
  const DriverApi& api = driver_api();
  if (a->mapped) api.mem_unmap(a->ptr, a->size);
  if (a->reserved) api.address_free(a->ptr, a->size);
  if (a->created) api.mem_release(a->memory);
  delete a;
}

cudaEvent_t g_slices_written = nullptr;

}  // namespace

SharedMemory create_shared_memory(std::size_t bytes, std::string* why) {
  auto fail = [why](std::string text) {
    if (why) *why = std::move(text);
    return SharedMemory{};
  };
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) {
    cudaGetLastError();
    return fail(std::string("cudaGetDevice: ") + cudaGetErrorString(e));
  }
  // Makes the device's primary context current on this thread: the driver calls below
  // work on the current context.
  if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) {
    cudaGetLastError();
    return fail(std::string("cudaSetDevice: ") + cudaGetErrorString(e));
  }
  const DriverApi& api = driver_api();
  if (!api.missing.empty()) return fail(api.missing);
  CUdevice dev = 0;
  if (CUresult r = api.device_get(&dev, device); r != CUDA_SUCCESS)
    return fail(driver_error("cuDeviceGet", r));
  int vmm = 0, posix_fd = 0;
  api.device_get_attribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
  api.device_get_attribute(&posix_fd,
                           CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev);
  if (!vmm)
    return fail("CUDA device " + std::to_string(device) + " has no virtual memory management");
  if (!posix_fd)
    return fail("CUDA device " + std::to_string(device) +
                " cannot export memory as a POSIX file descriptor");

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;  // a device ordinal, as the runtime counts them
  size_t granularity = 0;
  if (CUresult r = api.get_granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
      r != CUDA_SUCCESS)
    return fail(driver_error("cuMemGetAllocationGranularity", r));
  if (granularity == 0) granularity = 2u << 20;

  auto* a = new SharedAllocation;
  a->size = (std::max<size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
  auto undo = [&](const char* call, CUresult r) {
    free_allocation(a);
    return fail(driver_error(call, r));
  };
  if (CUresult r = api.mem_create(&a->memory, a->size, &prop, 0); r != CUDA_SUCCESS)
    return undo("cuMemCreate", r);
  a->created = true;
  if (CUresult r = api.address_reserve(&a->ptr, a->size, granularity, 0, 0); r != CUDA_SUCCESS)
    return undo("cuMemAddressReserve", r);
  a->reserved = true;
  if (CUresult r = api.mem_map(a->ptr, a->size, 0, a->memory, 0); r != CUDA_SUCCESS)
    return undo("cuMemMap", r);
  a->mapped = true;
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (CUresult r = api.set_access(a->ptr, a->size, &access, 1); r != CUDA_SUCCESS)
    return undo("cuMemSetAccess", r);
  int fd = -1;
  if (CUresult r = api.export_handle(&fd, a->memory, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      r != CUDA_SUCCESS || fd < 0) {
    if (fd >= 0) close(fd);
    return undo("cuMemExportToShareableHandle", r);
  }
  if (!g_slices_written) {
    if (cudaError_t e = cudaEventCreateWithFlags(&g_slices_written, cudaEventDisableTiming);
        e != cudaSuccess) {
      cudaGetLastError();
      g_slices_written = nullptr;
      close(fd);
      free_allocation(a);
      return fail(std::string("cudaEventCreateWithFlags: ") + cudaGetErrorString(e));
    }
  }
  return SharedMemory{a, fd, a->size};
}

void destroy_shared_memory(void* handle) {
  if (handle) free_allocation(static_cast<SharedAllocation*>(handle));
}

void* shared_memory_pointer(void* handle) {
  return reinterpret_cast<void*>(static_cast<SharedAllocation*>(handle)->ptr);
}

bool cuda_device_uuid(unsigned char uuid[16], std::string* why) {
  int device = 0;
  cudaDeviceProp prop{};
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, device);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string("CUDA device properties: ") + cudaGetErrorString(e);
    return false;
  }
  static_assert(sizeof prop.uuid.bytes == 16);
  std::memcpy(uuid, prop.uuid.bytes, 16);
  return true;
}

void fill_shared_memory(void* handle, unsigned char byte) {
  auto* a = static_cast<SharedAllocation*>(handle);
  FLUXVIEW_CUDA_CHECK(cudaMemset(reinterpret_cast<void*>(a->ptr), byte, a->size));
  FLUXVIEW_CUDA_CHECK(cudaDeviceSynchronize());
}

void read_shared_memory(void* handle, std::size_t offset, std::size_t bytes, void* out) {
  auto* a = static_cast<SharedAllocation*>(handle);
  if (offset + bytes > a->size) throw std::out_of_range("read_shared_memory: past the end");
  FLUXVIEW_CUDA_CHECK(
      cudaMemcpy(out, reinterpret_cast<const char*>(a->ptr) + offset, bytes, cudaMemcpyDefault));
}

void write_slices_shared(void* const* handles, const FieldView& v, const SliceSpec* slices,
                         int count) {
  if (count < 1 || count > 3) throw std::invalid_argument("write_slices_shared: 1 to 3 slices");
  const cudaStream_t stream = kSliceStream;
  for (int i = 0; i < count; ++i) {
    auto* a = static_cast<const SharedAllocation*>(handles[i]);
    const SliceGeometry g = geometry(v, slices[i]);
    if (std::size_t(g.w) * g.h * sizeof(float) > a->size)
      throw std::logic_error("write_slices_shared: the slice does not fit the shared memory");
    launch_to_buffer(v, slices[i], reinterpret_cast<float*>(a->ptr), stream);
  }
  // One wait for all slices (with the kernel 0.165 ms at 1024^2 on an H100, far more than
  // the kernel alone: docs/performance.md).
  FLUXVIEW_CUDA_CHECK(cudaEventRecord(g_slices_written, stream));
  FLUXVIEW_CUDA_CHECK(cudaEventSynchronize(g_slices_written));
}

}  // namespace fluxview::render::interop
