#pragma once
// The few CUDA runtime services the core needs, behind plain C++ so that the host
// code compiles without CUDA headers. In a build without CUDA each call reports that
// clearly (cuda_device_count() returns 0).
#include <cstddef>
#include <string>

namespace fluxview::cuda {

bool built_with_cuda();
// Number of usable devices (0 where the driver or device is missing).
int device_count();
// Why there is no device, for messages: "no NVIDIA GPU found (...)", or the driver is too old.
std::string no_device_reason();
// Why the device this process uses cannot run this build's kernels (a GPU older than every
// architecture compiled in), or "" where it can. Creates a context on that device.
std::string current_device_unusable_reason();
// "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB)".
std::string device_description(int device = 0);
// Streaming multiprocessors of the current device, asked once per process (after MPI has
// bound the rank to its GPU): what kernels size their grids by. 0 without a device.
int multiprocessor_count();
// Free and total device memory in bytes.
void memory_info(std::size_t& free_bytes, std::size_t& total_bytes);

// Before a solver allocates its fields: throws, saying how much the grid needs and how
// much is free, when the device cannot hold `bytes` (or there is no device).
void require_device_memory(std::size_t bytes);
void* malloc_device(std::size_t bytes);  // throws with the sizes named on failure
void free_device(void* p) noexcept;
void memcpy_any(void* dst, const void* src, std::size_t bytes);  // cudaMemcpyDefault
// Strided copy of `height` rows of `width` bytes (cudaMemcpy2D, any direction).
void memcpy_2d(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
               std::size_t width, std::size_t height);
void memset_device(void* p, int value, std::size_t bytes);
// Binds this process to a device (MPI ranks: one GPU each).
void set_device(int device);
void synchronize();
// Throws if an earlier kernel failed (asynchronous error), naming `where`.
void check_last_error(const char* where);

// Device-to-device copy bandwidth (bytes read + written per second) over a buffer of
// `bytes`, timed with events: the roofline each CUDA benchmark is divided by.
double copy_bandwidth(std::size_t bytes);

// Streams and events for work that runs beside the solvers' kernels (which go to the
// legacy default stream, named by a null Stream here): the MPI ghost exchange packs,
// copies and unpacks on a stream of its own so that interior kernels overlap it.
using Stream = void*;
using Event = void*;
Stream stream_create();  // non-blocking: no implicit ordering with the default stream
void stream_destroy(Stream s) noexcept;
Event event_create();  // timing disabled: ordering only
void event_destroy(Event e) noexcept;
void event_record(Event e, Stream s);
void stream_wait(Stream s, Event e);  // later work on s waits for e
void stream_synchronize(Stream s);
void memcpy_async(void* dst, const void* src, std::size_t bytes, Stream s);
// Handles through which another process on the node maps a device buffer (CUDA IPC):
// the ghost exchange between ranks of one node copies device to device with them.
struct IpcHandle {
  unsigned char bytes[64];
};
IpcHandle ipc_handle(void* device_buffer);  // of a malloc_device() buffer
void* ipc_open(const IpcHandle& h);         // another process's buffer, peer access enabled
void ipc_close(void* p) noexcept;
// Page-locked host memory: what asynchronous copies to and from the device need.
void* malloc_pinned(std::size_t bytes);
void free_pinned(void* p) noexcept;

}  // namespace fluxview::cuda
