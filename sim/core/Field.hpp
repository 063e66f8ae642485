#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "sim/core/Buffer.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview {

// One scalar field of real type T with ghost zones, owning its storage on the host or
// the device (FieldLayout says where each element sits).
template <class T>
class Field {
 public:
  Field() = default;
  Field(std::array<int, 3> n, int ghost, Location where)
      : layout_(FieldLayout::make(n, ghost, sizeof(T))),
        buffer_(where, std::size_t(layout_.bytes())) {
    buffer_.fill_zero();
  }

  T* data() { return static_cast<T*>(buffer_.data()); }
  const T* data() const { return static_cast<const T*>(buffer_.data()); }
  const FieldLayout& layout() const { return layout_; }
  Location where() const { return buffer_.where(); }

  // Host access by interior index (ghosts at negative or >= n indices). Host only.
  T& operator()(int i, int j, int k) { return data()[layout_.index(i, j, k)]; }
  const T& operator()(int i, int j, int k) const { return data()[layout_.index(i, j, k)]; }

  FieldView view(std::string name, std::string unit, Centering c) const {
    return FieldView{std::move(name), std::move(unit), data(), precision_of<T>(),
                     where(),         layout_,         c};
  }

 private:
  FieldLayout layout_;
  Buffer buffer_;
};

}  // namespace fluxview
