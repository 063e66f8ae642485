#pragma once
// The blocks of the adaptive mesh: every leaf of the forest carries a block of B cells
// along each active axis (1 along a reduced one) with `ghost` layers around it, and all
// blocks of a rank live in one buffer on the host or the device, structure of arrays per
// variable: variable v of the block in slot b, cell (i, j, k), is
//   data[v * capacity * S + b * S + layout.index(i, j, k)]
// with S the cells of one block, ghosts included, rounded up to 32 (128 bytes of floats).
// Slots [0, local) hold this rank's leaves in curve order, [local, local + ghosts) copies
// of other ranks' blocks that border ours (MPI). A block's layout is a FieldLayout without
// row padding (a 16-cell row of doubles padded to 128 bytes would waste a third).
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/Buffer.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/HostDevice.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

// The most variables a block holds: MHD with a tracer (fv::kMaxVars).
inline constexpr int kMaxPoolVars = 10;

// The layout of one block: n cells per axis (B or 1), `ghost` layers along active axes.
inline FieldLayout block_layout(std::array<int, 3> n, int ghost, int elem_bytes) {
  FieldLayout l;
  l.n = n;
  l.ghost = ghost;
  l.elem_bytes = elem_bytes;
  const int g[3] = {l.ghost_along(0), l.ghost_along(1), l.ghost_along(2)};
  l.sy = n[0] + 2 * g[0];
  l.sz = l.sy * (n[1] + 2 * g[1]);
  l.origin = g[0] + g[1] * l.sy + g[2] * l.sz;
  l.size = (l.sz * (n[2] + 2 * g[2]) + 31) / 32 * 32;
  return l;
}

// What kernels and loops see of a pool: a pointer per variable, the block stride and the
// block layout. Cheap to copy (passed by value to kernels).
template <class T>
struct PoolView {
  T* f[kMaxPoolVars] = {};
  int nv = 0;
  std::int64_t stride = 0;  // elements from one block to the next (layout.size)
  FieldLayout layout;

  FLUXVIEW_HD std::int64_t cell(int slot, int i, int j, int k) const {
    return std::int64_t(slot) * stride + layout.index(i, j, k);
  }
};

template <class T>
class BlockPool {
 public:
  BlockPool() = default;
  BlockPool(Location where, int nv, const FieldLayout& layout, int capacity)
      : where_(where), nv_(nv), layout_(layout) {
    if (nv < 1 || nv > kMaxPoolVars)
      throw std::invalid_argument("BlockPool: " + std::to_string(nv) + " variables (1 to " +
                                  std::to_string(kMaxPoolVars) + ")");
    reserve(capacity);
  }

  // Room for `capacity` blocks; the contents are lost when the buffer grows.
  void reserve(int capacity) {
    if (capacity <= capacity_ && buffer_.data()) return;
    capacity_ = capacity < 1 ? 1 : capacity;
    buffer_ = Buffer();  // the old buffer goes before the new one comes (peak memory)
    buffer_ = Buffer(where_, bytes_for(capacity_));
  }
  static std::size_t bytes_per_block(int nv, const FieldLayout& l) {
    return std::size_t(nv) * std::size_t(l.size) * sizeof(T);
  }
  std::size_t bytes_for(int capacity) const {
    return bytes_per_block(nv_, layout_) * std::size_t(capacity);
  }

  PoolView<T> view() {
    PoolView<T> v;
    v.nv = nv_;
    v.stride = layout_.size;
    v.layout = layout_;
    T* base = static_cast<T*>(buffer_.data());
    for (int m = 0; m < nv_; ++m) v.f[m] = base + std::int64_t(m) * capacity_ * layout_.size;
    return v;
  }

  // The block in `slot` of variable m (its first element, ghosts included).
  T* block(int m, int slot) {
    return static_cast<T*>(buffer_.data()) + (std::int64_t(m) * capacity_ + slot) * layout_.size;
  }
  const T* block(int m, int slot) const {
    return static_cast<const T*>(buffer_.data()) +
           (std::int64_t(m) * capacity_ + slot) * layout_.size;
  }

  // The whole buffer (every variable of every slot up to the capacity).
  void* data() { return buffer_.data(); }
  const void* data() const { return buffer_.data(); }
  std::size_t bytes() const { return bytes_for(capacity_); }

  Location where() const { return where_; }
  int nv() const { return nv_; }
  int capacity() const { return capacity_; }
  const FieldLayout& layout() const { return layout_; }
  void swap(BlockPool& o) noexcept {
    std::swap(where_, o.where_);
    std::swap(nv_, o.nv_);
    std::swap(layout_, o.layout_);
    std::swap(capacity_, o.capacity_);
    std::swap(buffer_, o.buffer_);
  }

 private:
  Location where_ = Location::host;
  int nv_ = 0;
  FieldLayout layout_;
  int capacity_ = 0;
  Buffer buffer_;
};

}  // namespace fluxview::amr
