#pragma once
// CUDA-GL interop for slice textures (cuda/SliceInterop.cu), with a no-CUDA twin
// (SliceInteropAbsent.cpp) so the renderer builds without CUDA. Plain C++ interface:
// no CUDA or GL headers here.
#include <cstddef>
#include <string>

#include "render/SliceSpec.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render::interop {

// Registers a GL texture for surface stores; returns nullptr and says why in `why`
// when it cannot (no CUDA, the GL context is on another GPU, ...).
void* register_texture(unsigned int gl_texture, std::string* why);
void unregister_texture(void* resource);
// Maps the texture, writes the slice with one kernel, unmaps. Work is queued on the
// default stream, after the solver's steps.
void write_slice(void* resource, const FieldView& v, SliceSpec slice);
// The same for several textures of one field with a single map and a single unmap:
// mapping costs the same for one resource or three (the 3D view's slices).
void write_slices(void* const* resources, const FieldView& v, const SliceSpec* slices, int count);

// A device slice copied to host floats through a small device staging buffer.
void copy_slice_device_to_host(const FieldView& v, SliceSpec slice, float* out);

// The shared-memory path (UploadPath::shared): device memory that CUDA allocates with
// its virtual memory management API (cuMemCreate with a POSIX file descriptor handle)
// and GL imports as a buffer object (GL_EXT_memory_object_fd). Nothing is mapped per
// update: a kernel writes the slice there, the host waits for the kernel, and GL copies
// the buffer into the texture. The driver API is reached at run time through
// cudaGetDriverEntryPointByVersion, so nothing links libcuda.
struct SharedMemory {
  void* handle = nullptr;       // for the calls below; nullptr where the memory could not be made
  int fd = -1;                  // the exported descriptor: GL owns it after a successful import,
                                // the caller closes it otherwise
  unsigned long long size = 0;  // bytes of the allocation (a multiple of the granularity)
};
// At least `bytes` of shared memory on the current CUDA device; on failure handle is
// nullptr, nothing is left allocated, and `why` says what failed.
SharedMemory create_shared_memory(std::size_t bytes, std::string* why);
// Unmaps and frees. Call after GL has deleted its buffer and memory object.
void destroy_shared_memory(void* handle);
// The device address of the shared memory, for kernels that write it.
void* shared_memory_pointer(void* handle);
// The UUID of the current CUDA device (16 bytes), to find it among GL_DEVICE_UUID_EXT.
bool cuda_device_uuid(unsigned char uuid[16], std::string* why);
// Sets every byte of the shared memory to `byte` and waits: the check at import that
// GL reads what CUDA writes.
void fill_shared_memory(void* handle, unsigned char byte);
// Copies `bytes` from `offset` of the shared memory to the host through CUDA. GL's own
// read-back of the imported buffer (glGetNamedBufferSubData) was seen to return stale
// contents on an H100 while the GPU's reads (a shader, a copy) saw CUDA's writes, so
// values on the host come from CUDA.
void read_shared_memory(void* handle, std::size_t offset, std::size_t bytes, void* out);
// Writes slice i of the field as floats (u fastest) at the start of shared memory i,
// i < count, on the stream slices go on, and returns once the kernels are done. That
// host wait orders CUDA's writes before GL's reads: GL cannot wait for a CUDA event
// (it imports only Vulkan-style semaphores, and CUDA exports none).
void write_slices_shared(void* const* handles, const FieldView& v, const SliceSpec* slices,
                         int count);

}  // namespace fluxview::render::interop
