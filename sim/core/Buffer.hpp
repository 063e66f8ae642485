#pragma once
#include <cstddef>

#include "sim/core/Types.hpp"

namespace fluxview {

// An owned block of bytes on the host (128-byte aligned) or on the CUDA device.
// Move-only; freeing happens in the destructor, so an exception never leaks memory.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Location where, std::size_t bytes);
  ~Buffer();
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() { return ptr_; }
  const void* data() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  Location where() const { return where_; }
  void fill_zero();

 private:
  void release() noexcept;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  Location where_ = Location::host;
};

// Copies bytes between any two locations (host or device); synchronous.
void copy_bytes(void* dst, Location dst_where, const void* src, Location src_where,
                std::size_t bytes);

}  // namespace fluxview
