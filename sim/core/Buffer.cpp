#include "sim/core/Buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview {

Buffer::Buffer(Location where, std::size_t bytes) : bytes_(bytes), where_(where) {
  if (bytes == 0) return;
  if (where == Location::host) {
    const std::size_t rounded = (bytes + kRowAlignBytes - 1) / kRowAlignBytes * kRowAlignBytes;
    ptr_ = std::aligned_alloc(kRowAlignBytes, rounded);
    if (!ptr_)
      throw std::runtime_error("out of host memory: could not allocate " +
                               std::to_string(bytes >> 20) + " MiB");
  } else {
    ptr_ = cuda::malloc_device(bytes);
  }
}

Buffer::~Buffer() {
  release();
}

Buffer::Buffer(Buffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), where_(o.where_) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    where_ = o.where_;
  }
  return *this;
}

void Buffer::release() noexcept {
  if (!ptr_) return;
  if (where_ == Location::host)
    std::free(ptr_);
  else
    cuda::free_device(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

void Buffer::fill_zero() {
  if (!ptr_) return;
  if (where_ == Location::host)
    std::memset(ptr_, 0, bytes_);
  else
    cuda::memset_device(ptr_, 0, bytes_);
}

void copy_bytes(void* dst, Location dst_where, const void* src, Location src_where,
                std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_where == Location::host && src_where == Location::host)
    std::memcpy(dst, src, bytes);
  else
    cuda::memcpy_any(dst, src, bytes);
}

}  // namespace fluxview
