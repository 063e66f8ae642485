// The volume view's zero-copy paths (VolumeInterop.hpp): one kernel reads the solver's
// field and writes every cell as a float plus each brick's own value range (a block is a
// row of four bricks along x), a second, small one widens the brick ranges by their
// neighbours (VolumeBricks.hpp).
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "render/VolumeBricks.hpp"
#include "render/VolumeInterop.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::render::interop {

namespace {

// Where the volume's floats go: linear memory (x fastest) or a 3D surface.
struct LinearVolume {
  float* out;
  int nx, ny;
  __device__ void store(int x, int y, int z, float v) const {
    out[x + std::int64_t(nx) * (y + std::int64_t(ny) * z)] = v;
  }
};
struct SurfaceVolume {
  cudaSurfaceObject_t surf;
  __device__ void store(int x, int y, int z, float v) const {
    surf3Dwrite(v, surf, x * int(sizeof(float)), y, z);
  }
};
struct LinearBricks {
  float* out;
  int nbx, nby;
  __device__ void store(int x, int y, int z, float lo, float hi) const {
    const std::int64_t b = x + std::int64_t(nbx) * (y + std::int64_t(nby) * z);
    out[2 * b] = lo;
    out[2 * b + 1] = hi;
  }
};
struct SurfaceBricks {
  cudaSurfaceObject_t surf;
  __device__ void store(int x, int y, int z, float lo, float hi) const {
    surf3Dwrite(make_float2(lo, hi), surf, x * int(sizeof(float2)), y, z);
  }
};

// A block covers a row of kRowBricks bricks along x and one brick along y and z: 32 x 8
// threads, a warp one row of 32 cells, each thread walking its brick's 8 cells along z.
// So a warp reads and writes whole 32-value rows, with 8 loads in flight per thread; one
// brick a block with a thread a cell read 8-value pieces and reached 0.10 (256^3) to 0.29
// (512^3) of copy bandwidth (docs/performance.md). The bricks' min and max go to raw_bricks.
constexpr int kRowBricks = 4;
constexpr int kRowCells = kRowBricks * kBrickCells;  // a warp's row
static_assert(kRowCells == 32, "a warp reads one row");

template <class T, class Store>
__global__ void __launch_bounds__(kRowCells* kBrickCells)
    field_to_volume(const T* __restrict__ field, FieldLayout l, Store store, float* raw_bricks,
                    int nbx) {
  const int x = blockIdx.x * kRowCells + threadIdx.x;
  const int y = blockIdx.y * kBrickCells + threadIdx.y;
  const int z0 = blockIdx.z * kBrickCells;
  const int depth = min(kBrickCells, l.n[2] - z0);
  float lo = INFINITY, hi = -INFINITY;
  if (x < l.n[0] && y < l.n[1]) {
    // Loads first, stores after: the surface stores would otherwise hold each load back.
    float v[kBrickCells];
#pragma unroll
    for (int k = 0; k < kBrickCells; ++k)
      if (k < depth) v[k] = static_cast<float>(field[l.index(x, y, z0 + k)]);
#pragma unroll
    for (int k = 0; k < kBrickCells; ++k)
      if (k < depth) {
        store.store(x, y, z0 + k, v[k]);
        include_value(lo, hi, v[k]);
      }
  }
  // The 8 lanes of a brick within the warp, then the brick's 8 warps (its y rows).
  for (int off = kBrickCells / 2; off > 0; off /= 2) {
    lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, off));
    hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, off));
  }
  __shared__ float row_lo[kBrickCells][kRowBricks], row_hi[kBrickCells][kRowBricks];
  if (threadIdx.x % kBrickCells == 0) {
    row_lo[threadIdx.y][threadIdx.x / kBrickCells] = lo;
    row_hi[threadIdx.y][threadIdx.x / kBrickCells] = hi;
  }
  __syncthreads();
  const int brick = threadIdx.x, bx = blockIdx.x * kRowBricks + brick;
  if (threadIdx.y == 0 && brick < kRowBricks && bx < nbx) {
    lo = row_lo[0][brick];
    hi = row_hi[0][brick];
    for (int r = 1; r < kBrickCells; ++r) {
      lo = fminf(lo, row_lo[r][brick]);
      hi = fmaxf(hi, row_hi[r][brick]);
    }
    const std::int64_t b =
        bx + std::int64_t(nbx) * (blockIdx.y + std::int64_t(gridDim.y) * blockIdx.z);
    raw_bricks[2 * b] = lo;
    raw_bricks[2 * b + 1] = hi;
  }
}

template <class Store>
__global__ void widen_bricks(const float* __restrict__ raw, int nbx, int nby, int nbz,
                             Store store) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nbx || y >= nby || z >= nbz) return;
  const int nb[3] = {nbx, nby, nbz};
  float lo, hi;
  dilated_range(raw, nb, x, y, z, lo, hi);
  store.store(x, y, z, lo, hi);
}

template <class VolumeStore, class BrickStore>
void launch(const FieldView& v, VolumeStore vs, BrickStore bs, float* raw) {
  const auto& n = v.layout.n;
  const dim3 bricks(bricks_along(n[0]), bricks_along(n[1]), bricks_along(n[2]));
  const dim3 rows((n[0] + kRowCells - 1) / kRowCells, bricks.y, bricks.z);
  const dim3 row_block(kRowCells, kBrickCells);
  const int nbx = int(bricks.x);
  if (v.precision == Precision::f64)
    field_to_volume<<<rows, row_block>>>(static_cast<const double*>(v.data), v.layout, vs, raw,
                                         nbx);
  else
    field_to_volume<<<rows, row_block>>>(static_cast<const float*>(v.data), v.layout, vs, raw, nbx);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
  const dim3 block(8, 8, 4);
  const dim3 grid((bricks.x + 7) / 8, (bricks.y + 7) / 8, (bricks.z + 3) / 4);
  widen_bricks<<<grid, block>>>(raw, int(bricks.x), int(bricks.y), int(bricks.z), bs);
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

struct Registration {
  cudaGraphicsResource_t resources[2] = {nullptr, nullptr};  // volume, bricks
  cudaArray_t arrays[2] = {nullptr, nullptr};
  cudaSurfaceObject_t surfaces[2] = {0, 0};
};

// The surface of mapped resource i, made again only if the driver hands out another array.
cudaSurfaceObject_t surface_of(Registration* reg, int i) {
  cudaArray_t array = nullptr;
  FLUXVIEW_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, reg->resources[i], 0, 0));
  if (array != reg->arrays[i]) {
    if (reg->surfaces[i]) FLUXVIEW_CUDA_CHECK(cudaDestroySurfaceObject(reg->surfaces[i]));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    FLUXVIEW_CUDA_CHECK(cudaCreateSurfaceObject(&reg->surfaces[i], &desc));
    reg->arrays[i] = array;
  }
  return reg->surfaces[i];
}

}  // namespace

void write_volume_linear(const FieldView& v, float* volume, float* bricks, float* raw_bricks) {
  if (v.where != Location::device) throw std::logic_error("write_volume_linear: a host field");
  const auto& n = v.layout.n;
  launch(v, LinearVolume{volume, n[0], n[1]},
         LinearBricks{bricks, bricks_along(n[0]), bricks_along(n[1])}, raw_bricks);
  // The host wait that orders CUDA's writes before GL's reads (SharedGlBuffer).
  FLUXVIEW_CUDA_CHECK(cudaStreamSynchronize(0));
}

void* register_volume(unsigned int volume_texture, unsigned int brick_texture, std::string* why) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    if (why) *why = "no CUDA device";
    return nullptr;
  }
  auto* reg = new Registration;
  const unsigned int textures[2] = {volume_texture, brick_texture};
  for (int i = 0; i < 2; ++i) {
    const cudaError_t e = cudaGraphicsGLRegisterImage(
        &reg->resources[i], textures[i], GL_TEXTURE_3D,
        cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
      cudaGetLastError();
      if (why)
        *why = std::string("cudaGraphicsGLRegisterImage (3D): ") + cudaGetErrorString(e) +
               " (is the GL context on the CUDA device?)";
      unregister_volume(reg);
      return nullptr;
    }
  }
  return reg;
}

void unregister_volume(void* registration) {
  auto* reg = static_cast<Registration*>(registration);
  if (!reg) return;
  for (int i = 0; i < 2; ++i) {
    if (reg->surfaces[i]) cudaDestroySurfaceObject(reg->surfaces[i]);
    if (reg->resources[i]) cudaGraphicsUnregisterResource(reg->resources[i]);
  }
  delete reg;
}

void write_volume_mapped(void* registration, const FieldView& v, float* raw_bricks) {
  if (v.where != Location::device) throw std::logic_error("write_volume_mapped: a host field");
  auto* reg = static_cast<Registration*>(registration);
  FLUXVIEW_CUDA_CHECK(cudaGraphicsMapResources(2, reg->resources, 0));
  try {
    launch(v, SurfaceVolume{surface_of(reg, 0)}, SurfaceBricks{surface_of(reg, 1)}, raw_bricks);
  } catch (...) {
    cudaGraphicsUnmapResources(2, reg->resources, 0);
    throw;
  }
  FLUXVIEW_CUDA_CHECK(cudaGraphicsUnmapResources(2, reg->resources, 0));
}

}  // namespace fluxview::render::interop
